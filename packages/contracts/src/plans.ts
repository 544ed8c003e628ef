/**
 * Plan limits (spec §5, §6, §9), one table for the server (which enforces it) and the web app (which shows it and
 * checks uploads before sending them).
 *
 * | plan    | queued videos | duration | file size | priority | formats              | hands/face | free remakes |
 * |---------|---------------|----------|-----------|----------|----------------------|------------|--------------|
 * | free    | 2             | 30 s     | 100M      | low      | FBX                  | no / no    | 1            |
 * | monthly | 5             | 60 s     | 200M      | normal   | FBX, VMD, Anim       | yes / no   | 3            |
 * | yearly  | 10            | 120 s    | 400M      | high     | all                  | yes / yes  | 5            |
 * | company | 10            | 120 s    | 400M      | high     | all                  | yes / yes  | 5            |
 *
 * Choices where the spec is silent or contradictory:
 * - Size: the plan table (100M/200M/400M) is enforced by the server; the web app checks `uploadCheckMB` before
 *   sending (spec §9: 50M for a free account).
 * - Company accounts get the yearly limits; the spec gives none.
 * - Yearly formats are "not shown": every bone type. BIP, bvh and CS are not in the monthly list (FBX, VMD, Anim),
 *   so they are yearly/company only.
 * - Free remakes per video as in the table; a remake beyond them costs 1 V per 2 s (spec §1).
 */
import { BONE_TYPE_FORMAT, type BoneType, type FormatFamily } from './bone-types.ts';

export type Plan = 'free' | 'monthly' | 'yearly' | 'company';
/** The plans a person buys (company accounts have the company plan). */
export type PersonalPlan = Exclude<Plan, 'company'>;

export interface PlanLimits {
  queue: number;
  durationS: number;
  /** The server's file size limit, MB. */
  sizeMB: number;
  /** The size the web app checks before sending, MB (spec §9: 50M for free uploads). */
  uploadCheckMB: number;
  priority: 'low' | 'normal' | 'high';
  formats: readonly FormatFamily[] | 'all';
  hands: boolean;
  face: boolean;
  freeRemakes: number;
}

const YEARLY: PlanLimits = {
  queue: 10,
  durationS: 120,
  sizeMB: 400,
  uploadCheckMB: 400,
  priority: 'high',
  formats: 'all',
  hands: true,
  face: true,
  freeRemakes: 5,
};

export const PLAN_LIMITS: Record<Plan, PlanLimits> = {
  free: {
    queue: 2,
    durationS: 30,
    sizeMB: 100,
    uploadCheckMB: 50,
    priority: 'low',
    formats: ['fbx'],
    hands: false,
    face: false,
    freeRemakes: 1,
  },
  monthly: {
    queue: 5,
    durationS: 60,
    sizeMB: 200,
    uploadCheckMB: 200,
    priority: 'normal',
    formats: ['fbx', 'vmd', 'anim'],
    hands: true,
    face: false,
    freeRemakes: 3,
  },
  yearly: YEARLY,
  /** Company accounts get the yearly limits (the spec gives none). */
  company: YEARLY,
};

/** Whether the plan may download this bone type's zip (its format is in the plan's list). */
export function formatAllowed(plan: Plan, boneType: string): boolean {
  const f = BONE_TYPE_FORMAT[boneType as BoneType];
  if (!f) return false;
  const allowed = PLAN_LIMITS[plan].formats;
  return allowed === 'all' || allowed.includes(f);
}

/** Longest title of a video (spec §5). */
export const TITLE_MAX = 15;
