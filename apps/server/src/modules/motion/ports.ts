/** The motion slice's ports: the export jobs the worker runs for it (issue 17.3: no export inside a request). */

import type { AnimationZipJobData } from '../animation/ports.ts';

/** Queue of on-demand exports (lower-body zips, library animation zips), worked by `@mocap/worker`. */
export const EXPORT_QUEUE = 'export';

/** A lower-body zip of one video and bone type, made from the stored clip. */
export interface LowerBodyJobData {
  kind: 'lowerBody';
  videoId: number;
  boneType: string;
}

/** Every job of the export queue. */
export type ExportJobData = LowerBodyJobData | AnimationZipJobData;

const slug = (s: string) => s.replace(/[^A-Za-z0-9.-]+/g, '_');

/** One job per video and bone type (a second request while it runs waits for the same job). */
export const lowerBodyJobId = (videoId: number, boneType: string): string =>
  `lower-${videoId}-${slug(boneType)}`;

/** Where the worker stores the zip of a lower-body job. */
export const lowerBodyKey = (storagePrefix: string, boneType: string): string =>
  `${storagePrefix}/zips/lower_${slug(boneType)}.zip`;
