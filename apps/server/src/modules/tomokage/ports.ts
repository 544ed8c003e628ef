import type { Page } from '../../ports.ts';

export interface CharacterInspection {
  format: string;
  scheme: string;
  restPose: { kind: 'T' | 'A' | 'I'; armDownDeg: number };
  height: number;
  stats: { vertices: number; triangles: number; materials: number; bones: number };
  bones: { name: string; parent: string | null }[];
  mapping: Record<string, string>;
  method: Record<string, string>;
  missing: string[];
  /** Canonical joints the rig has no bone for by design (no toes, mitten hands): not for the user to map. */
  absent?: string[];
  warnings: string[];
  vrm: boolean;
}

export interface TomokageRecord {
  id: number;
  userId: number;
  name: string;
  fileName: string;
  format: string;
  fileKey: string;
  storagePrefix: string;
  md5: string;
  sizeBytes: number;
  mapping: Record<string, string>;
  mappingEdited: boolean;
  info: Omit<CharacterInspection, 'mapping'> | Record<string, never>;
  pictures: { front?: string; threeQuarter?: string; preview?: string };
  collected: boolean;
  hidden: boolean;
  createdAt: number;
  updatedAt: number;
}

export type NewTomokage = Omit<TomokageRecord, 'id' | 'updatedAt' | 'collected' | 'hidden' | 'mappingEdited'>;

export type TomokagePatch = Partial<
  Pick<TomokageRecord, 'name' | 'mapping' | 'mappingEdited' | 'info' | 'collected' | 'hidden' | 'pictures'>
>;

export interface ApplyOutputs {
  fbx?: { key: string; size: number };
  glb?: { key: string; size: number };
  vrma?: { key: string; size: number };
  zip?: { key: string; size: number };
}

export interface ApplyRecord {
  id: number;
  tomokageId: number;
  userId: number;
  sourceKind: MotionKind;
  sourceId: number;
  name: string;
  durationMs: number;
  outputs: ApplyOutputs;
  currency: 'V';
  charged: number;
  chargeRef: string | null;
  createdAt: number;
}

/** A page of digital humans: one user's (or everybody's), by name, the collected ones, hidden ones too. */
export interface TomokageQuery {
  userId?: number;
  page: number;
  size: number;
  name?: string;
  collected?: boolean;
  includeHidden: boolean;
}

export interface TomokageRepo {
  create(t: NewTomokage): Promise<TomokageRecord>;
  findById(id: number): Promise<TomokageRecord | null>;
  findByMd5(userId: number, md5: string): Promise<TomokageRecord | null>;
  countByUser(userId: number): Promise<number>;
  list(q: TomokageQuery): Promise<Page<TomokageRecord & { ownerEmail?: string }>>;
  update(id: number, p: TomokagePatch, now: number): Promise<void>;
  delete(id: number): Promise<void>;
  addApply(a: Omit<ApplyRecord, 'id'>): Promise<ApplyRecord>;
  findApply(id: number): Promise<ApplyRecord | null>;
  updateApply(id: number, outputs: ApplyOutputs, charged: number, durationMs?: number): Promise<void>;
  deleteApply(id: number): Promise<void>;
  applies(tomokageId: number): Promise<ApplyRecord[]>;
}

export interface TomokageStore {
  readonly repos: {
    tomokage: TomokageRepo;
    ledger: { findByRef(ref: string): Promise<unknown | undefined> };
  };
  transaction<T>(fn: (r: { tomokage: TomokageRepo }) => Promise<T>): Promise<T>;
}

/** Where a motion comes from: a video capture, a music dance, or an animation of the library. */
export type MotionKind = 'video' | 'music' | 'animation';

/** Queue of digital-human applies (a motion onto a character: FBX/GLB/VRMA/zip), worked by `@mocap/worker`. */
export const TOMOKAGE_QUEUE = 'tomokage';

/** One apply row to make: `price` V is charged when its files are stored (0 for an own motion). */
export interface TomokageApplyJobData {
  kind: 'tomokageApply';
  applyId: number;
  price: number;
}

export const tomokageApplyJobId = (applyId: number): string => `tomokage-apply-${applyId}`;
