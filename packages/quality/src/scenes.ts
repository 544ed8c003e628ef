/**
 * The rendered clips: characters × motions × camera setups. Everything a clip looks like follows from its
 * entry here and its seed (floor pattern, sky, sun direction), so a clip id names one exact video.
 */
import { BVH_ROLES, RECORDED_JOINTS, RIGS, type RigDefinition, type RigName } from './correspondence.ts';
import type { PageSpec } from './render.ts';

export const WIDTH = 1280;
export const HEIGHT = 720;
export const FPS = 30;

export interface Character {
  /** Path under the test-data root. */
  file: string;
  rig: RigName;
  /** Standing height it is scaled to, metres. */
  height: number;
  material?: PageSpec['character']['material'];
  /** Give a featureless head a face (the X Bot: otherwise BlazePose confuses its front and back). */
  face?: boolean;
  /** Ground-truth points of this character that differ from its rig's (`RigDefinition.gt`). */
  gt?: Partial<RigDefinition['gt']>;
}

/**
 * Hip joints as markers on the bone the legs hang from (`Body`: in these rigs the `Hips` bone is the pelvis's
 * sibling, not the legs' parent), `up` metres above the thigh bones' origins: the Quaternius animated
 * characters' `UpperLeg` bones start at the crotch (Male_Casual: 0.440 of the body's height, crotch 0.455;
 * Female_Casual: 0.462, crotch 0.456), where a hip joint centre sits about 0.054 of the height above the crotch
 * (the same artist's modular man: 0.518 against 0.464; the X Bot's `UpLeg` 0.539 H). Measured on the meshes'
 * rest poses (skinned vertices on the mid-line, bone origins), not on any tracker's output.
 */
const hipsAbove = (up: number): Partial<RigDefinition['gt']> => ({
  leftThigh: { bone: ['Body'], from: ['UpperLeg.L'], offset: [0, up, 0] },
  rightThigh: { bone: ['Body'], from: ['UpperLeg.R'], offset: [0, up, 0] },
});

export const CHARACTERS = {
  maleCasual: {
    file: 'characters/quaternius_animated_fbx/Male_Casual.fbx',
    rig: 'quaterniusAnimated',
    height: 1.78,
    // (0.455 + 0.054 − 0.440) × 1.78 m
    gt: hipsAbove(0.123),
  },
  femaleCasual: {
    file: 'characters/quaternius_animated_fbx/Female_Casual.fbx',
    rig: 'quaterniusAnimated',
    height: 1.68,
    // (0.456 + 0.054 − 0.462) × 1.68 m
    gt: hipsAbove(0.081),
  },
  xbot: { file: 'characters/mixamo_glb/Xbot.glb', rig: 'mixamo', height: 1.8, face: true },
  modularMan: {
    file: 'characters/quaternius_modular_glb/modular_men_Casual.glb',
    rig: 'quaterniusModular',
    height: 1.78,
  },
  modularWoman: {
    file: 'characters/quaternius_modular_glb/modular_women_Casual.glb',
    rig: 'quaterniusModular',
    height: 1.66,
  },
} satisfies Record<string, Character>;
export type CharacterName = keyof typeof CHARACTERS;

export type MotionKind = 'walk' | 'run' | 'jump' | 'turn' | 'dance' | 'sit' | 'crouch' | 'other';

export type Motion =
  | { kind: MotionKind; own: string; start?: number }
  | { kind: MotionKind; bvh: string; convention: keyof typeof BVH_ROLES; start?: number };

/** A named camera of the renderer (`PageSpec['camera']`: field of view, height, distance, yaw, look height, pan). */
export type CameraSetup = PageSpec['camera'] & { name: string };

/** Camera setups: heights 0.9–2.4 m, distances 4.5–6.5 m, yaws from frontal to three-quarter back. */
export const CAMERAS = {
  front: {
    name: 'front 1.6 m, 4.5 m, yaw 20°',
    fovDeg: 42,
    height: 1.6,
    distance: 4.5,
    yawDeg: 20,
    lookHeight: 0.95,
  },
  sideLow: {
    name: 'side low 0.9 m, 5.5 m, yaw 75°',
    fovDeg: 45,
    height: 0.9,
    distance: 5.5,
    yawDeg: 75,
    lookHeight: 0.9,
  },
  highBack: {
    name: 'high 2.4 m, 6 m, yaw 135°',
    fovDeg: 38,
    height: 2.4,
    distance: 6,
    yawDeg: 135,
    lookHeight: 0.85,
  },
  pan: {
    name: 'panning 1.3 m, 5 m, yaw -40°',
    fovDeg: 40,
    height: 1.3,
    distance: 5,
    yawDeg: -40,
    lookHeight: 0.95,
    pan: true,
  },
} satisfies Record<string, CameraSetup>;
export type CameraName = keyof typeof CAMERAS;

export interface ClipDef {
  id: string;
  character: CharacterName;
  motion: Motion;
  camera: CameraName;
  seconds: number;
  seed: number;
}

const bandai = (f: string) => `bvh/bandai_namco/${f}.bvh`;
const cmu = (f: string) => `bvh/cmu/${f}.bvh`;
const xia = (f: string) => `bvh/xia_cmu_skeleton/${f}.bvh`;

/** The full set (`--quick` renders the first three, shortened). */
export const CLIPS: ClipDef[] = [
  {
    id: 'xbot-walk-front',
    character: 'xbot',
    motion: { kind: 'walk', bvh: bandai('dataset-1_walk_normal_001'), convention: 'bandai', start: 0.5 },
    camera: 'front',
    seconds: 4,
    seed: 11,
  },
  {
    id: 'male-walk-side',
    character: 'maleCasual',
    motion: { kind: 'walk', own: 'Man_Walk' },
    camera: 'sideLow',
    seconds: 4,
    seed: 12,
  },
  {
    id: 'xbot-dance-high',
    character: 'xbot',
    motion: { kind: 'dance', bvh: cmu('cmu_005_03'), convention: 'cmu' },
    camera: 'highBack',
    seconds: 3.5,
    seed: 13,
  },
  {
    id: 'female-run-pan',
    character: 'femaleCasual',
    motion: { kind: 'run', own: 'Female_Run' },
    camera: 'pan',
    seconds: 4,
    seed: 14,
  },
  {
    id: 'male-jump-front',
    character: 'maleCasual',
    motion: { kind: 'jump', own: 'Man_Jump' },
    camera: 'front',
    seconds: 4,
    seed: 15,
  },
  {
    id: 'female-sit-front',
    character: 'femaleCasual',
    motion: { kind: 'sit', own: 'Female_Sitting' },
    camera: 'front',
    seconds: 6,
    seed: 16,
  },
  {
    id: 'xbot-turn-side',
    character: 'xbot',
    motion: { kind: 'turn', bvh: bandai('dataset-2_walk-turn-left_active_001'), convention: 'bandai' },
    camera: 'sideLow',
    seconds: 4.3,
    seed: 17,
  },
  {
    id: 'xbot-crouch-side',
    character: 'xbot',
    motion: { kind: 'crouch', bvh: cmu('cmu_002_06'), convention: 'cmu', start: 1 },
    camera: 'sideLow',
    seconds: 6,
    seed: 18,
  },
  {
    id: 'man-jump-front',
    character: 'modularMan',
    motion: { kind: 'jump', bvh: cmu('cmu_002_04'), convention: 'cmu' },
    camera: 'front',
    seconds: 4,
    seed: 19,
  },
  {
    id: 'man-run-pan',
    character: 'modularMan',
    motion: { kind: 'run', bvh: bandai('dataset-2_run_normal_001'), convention: 'bandai' },
    camera: 'pan',
    seconds: 2.2,
    seed: 20,
  },
  {
    id: 'woman-dance-side',
    character: 'modularWoman',
    motion: {
      kind: 'dance',
      bvh: bandai('dataset-1_dance-short_normal_001'),
      convention: 'bandai',
      start: 12,
    },
    camera: 'sideLow',
    seconds: 6,
    seed: 21,
  },
  {
    id: 'woman-walk-high',
    character: 'modularWoman',
    motion: { kind: 'walk', bvh: xia('xia_neutral_01_000'), convention: 'xia' },
    camera: 'highBack',
    seconds: 2.7,
    seed: 22,
  },
  {
    id: 'man-turn-high',
    character: 'modularMan',
    motion: { kind: 'turn', bvh: cmu('cmu_001_01'), convention: 'cmu', start: 9 },
    camera: 'highBack',
    seconds: 6,
    seed: 23,
  },
  {
    id: 'male-punch-pan',
    character: 'maleCasual',
    motion: { kind: 'other', own: 'Man_Punch' },
    camera: 'pan',
    seconds: 3,
    seed: 24,
  },
];

/** The page spec of a clip (`seconds` overrides the clip's length, e.g. for `--quick`). */
export function pageSpec(clip: ClipDef, seconds = clip.seconds): PageSpec {
  const ch: Character = CHARACTERS[clip.character];
  const rig = RIGS[ch.rig];
  const cam: CameraSetup = CAMERAS[clip.camera];
  const m = clip.motion;
  return {
    width: WIDTH,
    height: HEIGHT,
    fps: FPS,
    frames: Math.round(seconds * FPS),
    seed: clip.seed,
    character: {
      url: `/data/${ch.file}`,
      height: ch.height,
      roles: rig.roles as Record<string, string[]>,
      ...(ch.material ? { material: ch.material } : {}),
      ...(ch.face ? { face: true } : {}),
    },
    motion:
      'own' in m
        ? { kind: 'own', clip: m.own, start: m.start ?? 0, rootMotion: 'auto' }
        : {
            kind: 'bvh',
            url: `/data/${m.bvh}`,
            start: m.start ?? 0,
            roles: BVH_ROLES[m.convention] as Record<string, string[]>,
          },
    camera: {
      fovDeg: cam.fovDeg,
      height: cam.height,
      distance: cam.distance,
      yawDeg: cam.yawDeg,
      lookHeight: cam.lookHeight,
      ...(cam.pan ? { pan: true } : {}),
    },
    gtPoints: RECORDED_JOINTS.filter((j) => j !== 'hips').map((name) => ({
      name,
      ...((ch as Character).gt?.[name as Exclude<typeof name, 'hips'>] ??
        rig.gt[name as Exclude<typeof name, 'hips'>]),
    })),
  };
}
