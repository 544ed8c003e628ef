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
export * as testTracks from './tracks.ts';
