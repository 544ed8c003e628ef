/** Ports of the page-view analytics slice (issue 25). */

/** page: a screen was shown; action: something was done on it; digital_human: an action of the avatar product. */
export type BehaviorKind = 'page' | 'action' | 'digital_human';

export interface Behavior {
  kind: BehaviorKind;
  page: string;
  action: string;
  userId: number | null;
  createdAt: number;
}

export interface BehaviorRow {
  /** Days since 1970-01-01 in the report's offset. */
  day: number;
  kind: BehaviorKind;
  page: string;
  action: string;
  count: number;
  users: number;
  anonymous: number;
}

export interface BehaviorRepo {
  add(b: Behavior): Promise<void>;
  /** Counts per day, kind, page and action over [from, to), days shifted by `offsetMs`. */
  summary(from: number, to: number, offsetMs: number): Promise<BehaviorRow[]>;
}
