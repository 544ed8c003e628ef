/**
 * @mocap/quality: rendered videos with known motion, the metrics that compare a capture with the truth
 * (and the no-ground-truth ones for real clips), and the report of `npm run bench -- quality`.
 */
export * from './correspondence.ts';
export * from './estimates.ts';
export * from './gt.ts';
export * from './metrics.ts';
export * from './pose2sim.ts';
export {
  CHROMIUM_PATH,
  type CharacterInspection,
  type PageSpec,
  type RenderedFrames,
  Renderer,
  type SetupInfo,
} from './render.ts';
export * from './report.ts';
export * from './scenes.ts';
export { type RenderServer, startRenderServer } from './server.ts';
