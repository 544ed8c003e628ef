/** The animation slice's ports: the library records, repository and store, and the shipped-takes port. */

import type { Page, Repos } from '../../ports.ts';

export interface AnimationRecord {
  id: number;
  name: string;
  category: string;
  tags: string[];
  source: string;
  sourceRef: string;
  credit: string;
  clipKey: string;
  frameCount: number;
  fps: number;
  durationMs: number;
  price: number;
  status: number;
  downloads: number;
  zips: Record<string, { key: string; fileName: string; size: number }>;
  createdAt: number;
  updatedAt: number;
}

export type NewAnimation = Omit<AnimationRecord, 'id' | 'downloads' | 'zips' | 'updatedAt'>;

export interface AnimationQuery {
  page: number;
  size: number;
  keyword?: string;
  category?: string;
  tag?: string;
  /** Statuses to list (users: published; administrators: published and hidden, or one of them). */
  statuses: number[];
  /** Only those this user collected. */
  collectedBy?: number;
}

export interface AnimationRepo {
  create(a: NewAnimation): Promise<AnimationRecord>;
  findById(id: number): Promise<AnimationRecord | null>;
  findBySource(source: string, ref: string): Promise<AnimationRecord | null>;
  list(q: AnimationQuery): Promise<Page<AnimationRecord>>;
  categories(statuses: number[]): Promise<{ category: string; count: number }[]>;
  setStatus(id: number, status: number, now: number): Promise<boolean>;
  /** Made again from its source (`redone`): new frames, rate, duration, price and status; its zips dropped. */
  remade(
    id: number,
    p: { frameCount: number; fps: number; durationMs: number; price: number; status: number },
    now: number,
  ): Promise<void>;
  setZip(
    id: number,
    boneType: string,
    zip: { key: string; fileName: string; size: number },
    now: number,
  ): Promise<void>;
  addDownload(id: number): Promise<void>;
  collect(userId: number, id: number, on: boolean, now: number): Promise<void>;
  collectedOf(userId: number, ids: number[]): Promise<Set<number>>;
  purchasedOf(userId: number, ids: number[]): Promise<Set<number>>;
  /** The published animations a user bought, most recent purchase first. */
  boughtBy(userId: number, limit: number): Promise<AnimationRecord[]>;
  addPurchase(p: {
    userId: number;
    animationId: number;
    charged: number;
    chargeRef: string;
    createdAt: number;
  }): Promise<boolean>;
}

/** A library clip the product ships (the seed). */
export interface ShippedAnimation {
  ref: string;
  name: string;
  category: string;
  tags: string[];
  credit: string;
  frameCount: number;
  fps: number;
  clipJson: string;
}

/** The shipped clips and the pictures of clips (an adapter: `files.ts`). */
export interface AnimationAssetsPort {
  shipped(): ShippedAnimation[];
  /** The library card's thumbnail of a clip (mocap-motion JSON): an SVG. */
  picture(clipJson: string): string;
  /** Frames and rate of a clip (mocap-motion JSON); null when it is not one. */
  clipInfo(clipJson: string): { frameCount: number; fps: number } | null;
}

/** A capture as the library sees it when its owner shares it (an adapter over the video store: `videos.ts`). */
export interface AnimationVideoSource {
  id: number;
  userId: number;
  name: string;
  made: boolean;
  inSquare: boolean;
  clipKey: string | null;
}

export interface AnimationVideosPort {
  find(videoId: number): Promise<AnimationVideoSource | null>;
}

/** Where an animation's picture is stored: beside its clip. */
export const pictureKeyOf = (clipKey: string): string => clipKey.replace(/\.json$/, '') + '.svg';

/**
 * A bone-type zip of one library animation, made by the worker on the export queue (`EXPORT_QUEUE` of the motion
 * slice, beside the lower-body zips): no zip is written inside an HTTP request.
 */
export interface AnimationZipJobData {
  kind: 'animationZip';
  animationId: number;
  boneType: string;
}

const slug = (s: string) => s.replace(/[^A-Za-z0-9.-]+/g, '_');

/** One job per animation and bone type (a second request while it runs waits for the same job). */
export const animationZipJobId = (animationId: number, boneType: string): string =>
  `animation-${animationId}-${slug(boneType)}`;

/** Where the worker stores the zip of an animation and bone type. */
export const animationZipKey = (animationId: number, boneType: string): string =>
  `animation/${animationId}/zips/${slug(boneType)}.zip`;

/** Runs the zip job of (animation, bone type) in the worker; resolves once the worker recorded the zip. */
export interface AnimationExportPort {
  zip(animationId: number, boneType: string): Promise<void>;
}

/** What the worker's export job reads of an animation: its stored clip and the name of the files. */
export interface AnimationExportSource {
  clipKey: string;
  name: string;
}

export type AnimationRepos = Repos & { animation: AnimationRepo };

export interface AnimationStore {
  readonly repos: AnimationRepos;
  transaction<T>(fn: (repos: AnimationRepos) => Promise<T>): Promise<T>;
}
