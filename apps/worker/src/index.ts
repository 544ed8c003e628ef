/**
 * @mocap/worker — capture jobs: the capture path as a pure function of files (`capture.ts`) and the job runner
 * (`runner.ts`, `startWorker`) used in-process by the server and by `src/main.ts` (`npm run worker`).
 */
export {
  boneTypeSlug,
  type CaptureOptions,
  type CaptureResult,
  type CaptureStage,
  capture,
  exportFromClip,
  makeThumbnail,
  packageBoneType,
  prestartSolveThread,
  solveAndExport,
  solveThreadCounts,
  type UserSolveOptions,
  userSolveOptions,
} from './capture.ts';
export { type ExportWorkerInfra, runExportWorker } from './export.ts';
export { type MusicWorkerInfra, runMusicWorker, startWorker } from './music.ts';
export { type RetrackWorkerInfra, runRetrackWorker } from './retrack.ts';
export { type RunningWorker, runWorker, type WorkerInfra, type WorkerOptions } from './runner.ts';
export { runTomokageWorker, type TomokageWorkerInfra } from './tomokage.ts';
