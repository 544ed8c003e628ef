/**
 * How the motion is solved from the video: the options of `mocap convert` offered by the upload form and the
 * remake dialog (names as the API and the solver: smoothing, footLock, rootAtOrigin, height in metres). The form
 * edits the height in centimetres as text; `toApi` converts and `checkSolveOptions` gives the i18n problem.
 */
import {
  DEFAULT_SOLVE_OPTIONS,
  FOOT_LOCK_MODES,
  type FootLockMode,
  HEIGHT_RANGE,
  type SolveOptions,
} from '@mocap/contracts';
import type { Problem } from './uploadValidation.ts';

/** The options as the server stores and returns them: the contract's. */
export { DEFAULT_SOLVE_OPTIONS, FOOT_LOCK_MODES, type FootLockMode, type SolveOptions };

/** The form's state: the height as typed, in centimetres ('' = as measured). */
export interface SolveOptionsForm {
  smoothing: number;
  footLock: FootLockMode;
  rootAtOrigin: boolean;
  heightCm: string;
}

/** The server's accepted height range (metres), shown in centimetres. */
export const HEIGHT_CM = { min: HEIGHT_RANGE.min * 100, max: HEIGHT_RANGE.max * 100 } as const;

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
