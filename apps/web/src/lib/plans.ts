/**
 * Plans and their limits (spec §6 table, §9), as the pages use them: a view of the one table in
 * `@mocap/contracts` (which the server enforces), and the prices from the same contract.
 */
import {
  PLAN_LIMITS as CONTRACT_LIMITS,
  remakeCost as contractRemakeCost,
  squareDownloadCost as contractSquareDownloadCost,
  uploadCost as contractUploadCost,
  type PersonalPlan,
  TITLE_MAX,
} from '@mocap/contracts';

export type Plan = PersonalPlan;

export interface PlanLimits {
  queue: number;
  durationSec: number;
  /** The server's file size limit, MB. */
  fileSizeMb: number;
  /** The size the upload page checks before sending, MB (spec §9: 50M for free uploads). */
  uploadCheckMb: number;
}

const view = (p: Plan): PlanLimits => ({
  queue: CONTRACT_LIMITS[p].queue,
  durationSec: CONTRACT_LIMITS[p].durationS,
  fileSizeMb: CONTRACT_LIMITS[p].sizeMB,
  uploadCheckMb: CONTRACT_LIMITS[p].uploadCheckMB,
});

export const PLAN_LIMITS: Record<Plan, PlanLimits> = {
  free: view('free'),
  monthly: view('monthly'),
  yearly: view('yearly'),
};

/** The UI's duration hint (spec §9). */
export const DURATION_HINT_SEC = 60;
export { TITLE_MAX };

/** The contract's prices; a duration not known yet (NaN) shows as no number rather than failing the page. */
const safe =
  (cost: (durationSec: number) => number) =>
  (durationSec: number): number =>
    Number.isFinite(durationSec) && durationSec >= 0 ? cost(durationSec) : Number.NaN;
/** Upload cost: 1 V coin per second (whole seconds, rounded up). */
export const uploadCost = safe(contractUploadCost);
/** Remake: 1 V coin per 2 s, rounded up to a multiple of 2 s. */
export const remakeCost = safe(contractRemakeCost);
/** Square download: 1 V coin per second. */
export const squareDownloadCost = safe(contractSquareDownloadCost);

/** Reads the plan from the user record (level as a name or 0/1/2), expired VIP counts as free. */
export function planOf(
  user: { level?: unknown; vexpiredAt?: unknown } | null | undefined,
  now = Date.now(),
): Plan {
  if (!user) return 'free';
  const raw = user.level;
  let plan: Plan = 'free';
  if (raw === 'monthly' || raw === 1 || raw === '1' || raw === 'month') plan = 'monthly';
  else if (raw === 'yearly' || raw === 2 || raw === '2' || raw === 'year') plan = 'yearly';
  if (plan !== 'free' && user.vexpiredAt) {
    const exp = new Date(user.vexpiredAt as string | number).getTime();
    if (Number.isFinite(exp) && exp < now) return 'free';
  }
  return plan;
}
