/** Plans and their limits (spec §6 table, §9). */

export type Plan = 'free' | 'monthly' | 'yearly';

export interface PlanLimits {
  queue: number;
  durationSec: number;
  /** The server's file size limit, MB. */
  fileSizeMb: number;
  /** The size the upload page checks before sending, MB (spec §9: 50M for free uploads). */
  uploadCheckMb: number;
}

export const PLAN_LIMITS: Record<Plan, PlanLimits> = {
  free: { queue: 2, durationSec: 30, fileSizeMb: 100, uploadCheckMb: 50 },
  monthly: { queue: 5, durationSec: 60, fileSizeMb: 200, uploadCheckMb: 200 },
  yearly: { queue: 10, durationSec: 120, fileSizeMb: 400, uploadCheckMb: 400 },
};

/** The UI's duration hint (spec §9). */
export const DURATION_HINT_SEC = 60;
export const TITLE_MAX = 15;

/** Upload cost: 1 V coin per second (whole seconds, rounded up). */
export const uploadCost = (durationSec: number): number => Math.max(1, Math.ceil(durationSec - 1e-6));
/** Remake: 1 V coin per 2 s, rounded up to a multiple of 2 s. */
export const remakeCost = (durationSec: number): number => Math.max(1, Math.ceil(durationSec / 2 - 1e-6));
/** Square download: 1 V coin per second. */
export const squareDownloadCost = uploadCost;

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
