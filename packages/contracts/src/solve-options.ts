/**
 * How the motion is solved from the tracks (the options of `mocap convert`): what the upload form and the remake
 * dialog offer, what the API takes and returns, what the worker passes to `solve`.
 */

/** Foot-locking modes of the solver (`@mocap/motion` `FootLockMode`). */
export const FOOT_LOCK_MODES = ['auto', 'always', 'never', 'grounding'] as const;
export type FootLockMode = (typeof FOOT_LOCK_MODES)[number];

/**
 * How the motion is solved from the tracks: what the upload form and the remake dialog offer, stored with the
 * video and passed by the worker to `solve` (same names as `@mocap/motion`'s `SolveOptions` and `mocap convert`).
 */
export interface SolveOptions {
  /** Temporal smoothing strength 0..1 (0 = none). */
  smoothing: number;
  /** Foot locking: auto, always, never, grounding. */
  footLock: FootLockMode;
  /** Keep the hips over the origin (vertical motion kept). */
  rootAtOrigin: boolean;
  /** The performer's standing height in metres (scales the skeleton); null = as measured from the video. */
  height: number | null;
}

/** The solver's defaults (what a video made without options was solved with). */
export const DEFAULT_SOLVE_OPTIONS: Readonly<SolveOptions> = {
  smoothing: 0.5,
  footLock: 'auto',
  rootAtOrigin: false,
  height: null,
};

/** Accepted range of the performer's height (metres), as `mocap convert --height`. */
export const HEIGHT_RANGE = { min: 0.5, max: 3 } as const;
