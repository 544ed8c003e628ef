/** Spec §1/§9 prices, in coins: what the server charges and the web app shows before the user confirms. */

export const Prices = {
  /** V coins per second of uploaded video (rounded up to whole seconds). */
  uploadPerSecond: 1,
  /** V coins per second to download someone else's square video. */
  squareDownloadPerSecond: 1,
  /** CV coins per second of a company upload. */
  companyUploadPerSecond: 1,
  freeMonthlyCoins: 50,
  referralInvitee: 20,
} as const;

const wholeSeconds = (durationSeconds: number): number => {
  if (!Number.isFinite(durationSeconds) || durationSeconds < 0) throw new RangeError('duration must be ≥ 0');
  // 10.0000001 s is 10 s: guard against float noise from probing before rounding up.
  return Math.max(1, Math.ceil(durationSeconds - 1e-6));
};

/** Upload: 1 V per second, partial seconds round up, at least 1. */
export const uploadCost = (durationSeconds: number): number =>
  wholeSeconds(durationSeconds) * Prices.uploadPerSecond;
/** Square download: 1 V per second. */
export const squareDownloadCost = (durationSeconds: number): number =>
  wholeSeconds(durationSeconds) * Prices.squareDownloadPerSecond;
/** Remake: 1 V per 2 s, the duration rounded up to a multiple of 2 s (5 s → 6 s → 3 V). */
export const remakeCost = (durationSeconds: number): number => Math.ceil(wholeSeconds(durationSeconds) / 2);
/** Company upload: 1 CV per second. */
export const companyUploadCost = (durationSeconds: number): number =>
  wholeSeconds(durationSeconds) * Prices.companyUploadPerSecond;

/** Referral reward for the inviter of the `rank`-th invitee (1-based): 1–5 → 10, 6–10 → 15, 11+ → 20. */
export function referralReward(rank: number): number {
  if (!Number.isInteger(rank) || rank < 1) throw new RangeError('rank must be a positive integer');
  return rank <= 5 ? 10 : rank <= 10 ? 15 : 20;
}
