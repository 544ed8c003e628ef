/**
 * @mocap/dance: music → dance. Music analysis (tempo, beats, downbeats, onsets, energy) and beat-synchronous
 * dance synthesis from a motion library built from licensed mocap (CMU). Pure: no fs, no network.
 * The package's single front door.
 */
export {
  type AnalysisProgress,
  type AudioBuffer,
  analyzeMusic,
  beatFMeasure,
  type MusicAnalysis,
  type TempoSegment,
} from './analysis.ts';
export {
  BODY_SKELETON,
  CMU_CREDIT,
  decodeLibrary,
  encodeLibrary,
  LIBRARY_FPS,
  type Library,
  type LibraryClip,
  libraryClipToMotion,
  lowestFootPoint,
  retargetBvh,
} from './library.ts';
export {
  beatAlignment,
  clipKinematicBeats,
  clipKinematics,
  type FootFigures,
  footFigures,
} from './metrics.ts';
export {
  type DanceOptions,
  type DanceResult,
  generateDance,
  type PreparedLibrary,
  prepareLibrary,
  type Unit,
} from './synth.ts';
export * as testTracks from './tracks.ts';
