/**
 * JSON export of a MotionClip: world joint positions and local rotations per frame (`mocap-motion` v1).
 *
 * Layout (all numbers plain JSON; lengths in metres, rotations unit quaternions [x, y, z, w]):
 *
 *     {
 *       "format": "mocap-motion", "version": 1,
 *       "axes": "right-handed, Y up, character facing +Z, left = +X", "units": "m",
 *       "fps": 30, "frameCount": 120, "metadata": {...},
 *       "joints": [{ "name": "hips", "parent": null, "offset": [x,y,z], "restRotation": [x,y,z,w], "tip": [x,y,z] }, ...],
 *       "frames": [{ "time": 0,
 *                    "rootPosition": [x,y,z],
 *                    "rotations": [x,y,z,w, x,y,z,w, ...],   // local, joint order, 4 per joint
 *                    "positions": [x,y,z, x,y,z, ...],       // world, joint order, 3 per joint
 *                    "contacts": { "left": true, "right": false },
 *                    "support": 0.82 }, ...],                  // only when the clip has raised ground
 *       "blendshapes": { "names": [...52 ARKit names], "supported": [...], "frames": [[...52 weights], ...] }
 *     }
 *
 * Limits: values are rounded (positions to 0.1 mm, rotations to 1e-6, weights to 1e-4); world positions are
 * derived data (recomputed by forward kinematics on read, not trusted); the file is large for long clips
 * (about 1 KB per joint per 2 frames) and meant for tools and tests, not for streaming.
 */

import type { ArkitBlendshape, MotionClip, Skeleton } from '../clip.ts';
import { ARKIT_BLENDSHAPES, forwardKinematics } from '../clip.ts';

export const MOTION_JSON_FORMAT = 'mocap-motion' as const;
export const MOTION_JSON_VERSION = 1 as const;

export interface MotionJson {
  format: typeof MOTION_JSON_FORMAT;
  version: typeof MOTION_JSON_VERSION;
  axes: string;
  units: 'm';
  fps: number;
  frameCount: number;
  metadata: MotionClip['metadata'];
  joints: { name: string; parent: string | null; offset: number[]; restRotation: number[]; tip: number[] }[];
  frames: {
    time: number;
    rootPosition: number[];
    rotations: number[];
    positions: number[];
    contacts?: { left: boolean; right: boolean };
    /** Height of the surface carrying the body (m), when the clip has raised ground (`MotionClip.support`). */
    support?: number;
  }[];
  blendshapes?: { names: string[]; supported: string[]; frames: number[][] };
}

const round = (x: number, step: number): number => {
  const r = Math.round(x / step) * step;
  // Keep the text short: toFixed-like precision without floating noise.
  const digits = Math.max(0, -Math.floor(Math.log10(step)));
  return Number(r.toFixed(digits));
};

/** The clip as a JSON-ready object. */
export function toJson(clip: MotionClip): MotionJson {
  const sk = clip.skeleton;
  const n = sk.names.length;
  const fk = forwardKinematics(clip);
  const slice = (a: ArrayLike<number>, from: number, count: number, step: number) =>
    Array.from({ length: count }, (_, i) => round(a[from + i], step));
  return {
    format: MOTION_JSON_FORMAT,
    version: MOTION_JSON_VERSION,
    axes: 'right-handed, Y up, character facing +Z, left = +X',
    units: 'm',
    fps: clip.fps,
    frameCount: clip.frameCount,
    metadata: clip.metadata,
    joints: sk.names.map((name, j) => ({
      name,
      parent: sk.parents[j] >= 0 ? sk.names[sk.parents[j]] : null,
      offset: slice(sk.offsets, 3 * j, 3, 1e-5),
      restRotation: slice(sk.restRotations, 4 * j, 4, 1e-7),
      tip: slice(sk.tips, 3 * j, 3, 1e-5),
    })),
    frames: Array.from({ length: clip.frameCount }, (_, f) => ({
      time: round(f / clip.fps, 1e-6),
      rootPosition: slice(clip.rootPositions, 3 * f, 3, 1e-4),
      rotations: slice(clip.rotations, 4 * n * f, 4 * n, 1e-6),
      positions: slice(fk.positions, 3 * n * f, 3 * n, 1e-4),
      ...(clip.contacts
        ? { contacts: { left: !!clip.contacts.left[f], right: !!clip.contacts.right[f] } }
        : {}),
      ...(clip.support ? { support: round(clip.support[f], 1e-4) } : {}),
    })),
    ...(clip.blendshapes
      ? {
          blendshapes: {
            names: [...clip.blendshapes.names],
            supported: [...clip.blendshapes.supported],
            frames: Array.from({ length: clip.frameCount }, (_, f) =>
              slice(
                clip.blendshapes!.weights,
                f * clip.blendshapes!.names.length,
                clip.blendshapes!.names.length,
                1e-4,
              ),
            ),
          },
        }
      : {}),
  };
}

/** Serialises a clip (see the file header). */
export function write(clip: MotionClip): string {
  return JSON.stringify(toJson(clip));
}

/** Parses `mocap-motion` JSON back into a MotionClip (positions are recomputed by FK, not read). */
export function read(text: string): MotionClip {
  const doc = JSON.parse(text) as MotionJson;
  if (doc.format !== MOTION_JSON_FORMAT) throw new Error(`not a ${MOTION_JSON_FORMAT} document`);
  if (doc.version !== MOTION_JSON_VERSION)
    throw new Error(`unsupported ${MOTION_JSON_FORMAT} version ${doc.version}`);
  const names = doc.joints.map((j) => j.name);
  const n = names.length;
  const skeleton: Skeleton = {
    names,
    parents: doc.joints.map((j) => (j.parent === null ? -1 : names.indexOf(j.parent))),
    offsets: Float32Array.from(doc.joints.flatMap((j) => j.offset)),
    restRotations: Float32Array.from(doc.joints.flatMap((j) => j.restRotation)),
    tips: Float32Array.from(doc.joints.flatMap((j) => j.tip)),
  };
  const rotations = new Float32Array(doc.frameCount * n * 4);
  const rootPositions = new Float32Array(doc.frameCount * 3);
  doc.frames.forEach((fr, f) => {
    rotations.set(fr.rotations, f * n * 4);
    rootPositions.set(fr.rootPosition, f * 3);
  });
  const hasContacts = doc.frames.length > 0 && doc.frames.every((fr) => fr.contacts);
  const hasSupport = doc.frames.length > 0 && doc.frames.every((fr) => fr.support !== undefined);
  return {
    skeleton,
    fps: doc.fps,
    frameCount: doc.frameCount,
    rotations,
    rootPositions,
    ...(hasContacts
      ? {
          contacts: {
            left: Uint8Array.from(doc.frames, (fr) => (fr.contacts!.left ? 1 : 0)),
            right: Uint8Array.from(doc.frames, (fr) => (fr.contacts!.right ? 1 : 0)),
          },
        }
      : {}),
    ...(hasSupport ? { support: Float32Array.from(doc.frames, (fr) => fr.support!) } : {}),
    ...(doc.blendshapes
      ? {
          blendshapes: {
            names: ARKIT_BLENDSHAPES,
            supported: doc.blendshapes.supported as ArkitBlendshape[],
            weights: Float32Array.from(doc.blendshapes.frames.flat()),
          },
        }
      : {}),
    metadata: doc.metadata,
  };
}
