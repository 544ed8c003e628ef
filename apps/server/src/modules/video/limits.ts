/**
 * The upload rules of spec §5, §6 and §9 over the plan table of `@mocap/contracts` (one table for the server, which
 * enforces it, and the web app, which shows it): the plan of a user, what a capture may include, spec messages.
 * - The capture judges its result (issue 15.3, `apps/worker/src/judge.ts`). A flagged result (any weak time range:
 *   tracking lost, a long gap, another person, an impossible pose, a flip) grants the video one more free remake,
 *   at most `JUDGE_FREE_REMAKES` per video, on top of the plan's; when all are used the spec's
 *   您的视频免费制作次数已用完 answers. An unusable result (more than 40 % of the clip weak, or confidence under
 *   0.4) also gives back the coins of the run that made it (the upload or a paid remake), once, with a ledger row.
 * - Largest accepted picture: 4096 × 4096 (a 4K UHD phone clip fits, portrait or landscape).
 */
import {
  BONE_TYPE_FORMAT as CONTRACT_BONE_TYPE_FORMAT,
  type FormatFamily,
  formatAllowed,
  PLAN_LIMITS,
  type Plan,
  type PlanLimits,
} from '@mocap/contracts';
import { AppError, Codes, Messages } from '../../errors.ts';
import type { UserRecord } from '../../ports.ts';
import type { CaptureType } from './ports.ts';

export { type FormatFamily, formatAllowed, PLAN_LIMITS, type Plan, type PlanLimits };

/** Free remakes a video gets at most for flagged results (one per flagged result). */
export const JUDGE_FREE_REMAKES = 2;

export const MAX_DIMENSION = 4096;
export const MB = 1024 * 1024;

/** Main format of each bone type's zip (the exporters' table; free accounts may choose the fbx ones). */
export const BONE_TYPE_FORMAT: Record<string, FormatFamily> = CONTRACT_BONE_TYPE_FORMAT;

export const SPEC_BONE_TYPES = Object.keys(BONE_TYPE_FORMAT);

/** The plan in force for a user now (an expired VIP is free again). */
export function planOf(user: Pick<UserRecord, 'type' | 'level' | 'vexpiredAt'>, now = Date.now()): Plan {
  if (user.type === 2) return 'company';
  if (user.level === 'free') return 'free';
  if (user.vexpiredAt !== null && user.vexpiredAt < now) return 'free';
  return user.level;
}

/** Refuses a bone type the plan may not have (free: the FBX ones only, spec §5's message; else a paid feature). */
export function assertFormatAllowed(plan: Plan, boneType: string): void {
  if (!formatAllowed(plan, boneType))
    throw new AppError(Codes.REFUSED, plan === 'free' ? UploadMessages.FREE_FBX_ONLY : Messages.PAID_FEATURE);
}

/** A known bone type the user's plan may download now (animations, music: as for videos). */
export function assertBoneTypeFor(
  u: Pick<UserRecord, 'type' | 'level' | 'vexpiredAt'>,
  boneType: string,
  now: number,
): void {
  if (!BONE_TYPE_FORMAT[boneType])
    throw new AppError(Codes.PARAMETER_ERROR, `unknown bone type "${boneType}"`);
  assertFormatAllowed(planOf(u, now), boneType);
}

export function captureAllowed(plan: Plan, type: CaptureType): boolean {
  const l = PLAN_LIMITS[plan];
  if (type === 'body') return true;
  if (type === 'hands') return l.hands;
  if (type === 'face') return l.face;
  return l.hands && l.face;
}

/** Spec messages (§5), with the plan's numbers where the spec's text carries one. */
export const UploadMessages = {
  WRONG_FORMAT: '文件格式错误,请重新选择!',
  tooLarge: (mb: number) => `视频上传大小不能大于${mb}M`,
  tooLong: (s: number) => `video duration cannot exceed ${s} seconds`,
  ONE_VIDEO: '当前限制选择 最多1 个视频',
  DUPLICATE: '当前文件已存在',
  TITLE_LENGTH: 'Video title at most 15 characters',
  CATEGORY_OR_TAG: '分类和标签至少选择一项',
  TAG_COMMA: '标签内容不能包含有（，）逗号',
  FREE_FBX_ONLY: '免费版用户只能选择 FBX 格式',
  tooBig: (max: number) => `video resolution cannot exceed ${max}x${max}`,
  /** Ours (the spec is silent): billing is per second, so frames per second are bounded (issue 13.3). */
  tooManyFrames: (fps: number, max: number) =>
    `video frame rate ${Math.round(fps)} fps is too high: at most ${max} fps are accepted (motion is tracked at up to ${TRACK_MAX_FPS} fps)`,
  queueFull: (n: number) => `at most ${n} videos can wait in the queue on your plan; wait until one is made`,
} as const;

/** Highest frame rate an upload may have; more is refused up front (a 1-second 1000 fps clip is 1000 frames). */
export const MAX_SOURCE_FPS = 240;
/** Frame rate motion is tracked at: faster videos are resampled to this before tracking (the result says so). */
export const TRACK_MAX_FPS = 60;
