/**
 * How the motion is solved from the video: the options of `mocap convert` offered by the upload form and the
 * remake dialog (names as the API and the solver: smoothing, footLock, rootAtOrigin, height in metres). The form
 * edits the height in centimetres as text; `toApi` converts and `checkSolveOptions` gives the i18n problem.
 */
import type { Problem } from './uploadValidation.ts';

export const FOOT_LOCK_MODES = ['auto', 'always', 'never', 'grounding'] as const;
export type FootLockMode = (typeof FOOT_LOCK_MODES)[number];

/** The options as the server stores and returns them. */
export interface SolveOptions {
  smoothing: number;
  footLock: FootLockMode;
  rootAtOrigin: boolean;
  /** Metres; null = as measured from the video. */
  height: number | null;
}

/** The form's state: the height as typed, in centimetres ('' = as measured). */
export interface SolveOptionsForm {
  smoothing: number;
  footLock: FootLockMode;
  rootAtOrigin: boolean;
  heightCm: string;
}

export const DEFAULT_SOLVE_OPTIONS: SolveOptions = {
  smoothing: 0.5,
  footLock: 'auto',
  rootAtOrigin: false,
  height: null,
};

/** The server's accepted height range (metres), shown in centimetres. */
export const HEIGHT_CM = { min: 50, max: 300 } as const;

export function formOf(o: SolveOptions | null | undefined): SolveOptionsForm {
  const v = o ?? DEFAULT_SOLVE_OPTIONS;
  return {
    smoothing: v.smoothing,
    footLock: v.footLock,
    rootAtOrigin: v.rootAtOrigin,
    heightCm: v.height === null ? '' : String(Math.round(v.height * 100)),
  };
}

export function isDefault(f: SolveOptionsForm): boolean {
  const d = formOf(DEFAULT_SOLVE_OPTIONS);
  return (
    f.smoothing === d.smoothing &&
    f.footLock === d.footLock &&
    f.rootAtOrigin === d.rootAtOrigin &&
    f.heightCm.trim() === ''
  );
}

/** Height check (the only free-typed field). */
export function checkSolveOptions(f: SolveOptionsForm): Problem | null {
  const s = f.heightCm.trim();
  if (s === '') return null;
  const cm = Number(s.replace(',', '.'));
  if (!Number.isFinite(cm) || cm < HEIGHT_CM.min || cm > HEIGHT_CM.max) {
    return { key: 'solve.heightRange', vars: { min: HEIGHT_CM.min, max: HEIGHT_CM.max } };
  }
  return null;
}

/** The API's fields (call `checkSolveOptions` first). */
export function toApi(f: SolveOptionsForm): SolveOptions {
  const s = f.heightCm.trim();
  return {
    smoothing: Math.round(Math.max(0, Math.min(1, f.smoothing)) * 100) / 100,
    footLock: f.footLock,
    rootAtOrigin: f.rootAtOrigin,
    height: s === '' ? null : Math.round(Number(s.replace(',', '.'))) / 100,
  };
}

/** The options in a server answer (null when absent or not the owner's). */
export function normaliseSolveOptions(raw: unknown): SolveOptions | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  const smoothing = Number(r.smoothing);
  const footLock = FOOT_LOCK_MODES.includes(r.footLock as FootLockMode)
    ? (r.footLock as FootLockMode)
    : 'auto';
  const h = r.height === null || r.height === undefined ? null : Number(r.height);
  return {
    smoothing: Number.isFinite(smoothing) ? smoothing : DEFAULT_SOLVE_OPTIONS.smoothing,
    footLock,
    rootAtOrigin: r.rootAtOrigin === true,
    height: h !== null && Number.isFinite(h) ? h : null,
  };
}
