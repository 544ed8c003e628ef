/** @mocap/motion: `tracks → solved MotionClip → retargeted clip → file bytes`. The package's single front door. */
export * from './clip.ts';
export type { EulerOrder, Quat, Vec3 } from './math.ts';
export * as math from './math.ts';
export * from './skeleton.ts';
