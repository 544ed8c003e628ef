/**
 * The motion library: licensed mocap retargeted to the canonical skeleton, cut at kinematic beats.
 *
 * Source: CMU Graphics Lab Motion Capture Database (mocap.cs.cmu.edu; "free for all uses", may ship inside
 * products, not resold as data) — the cgspeed BVH conversion of subject 05's modern-dance/ballet takes in
 * `../shared/testdata/bvh/cmu_more` (`scripts/build-dance-library.ts` builds the shipped library file
 * `assets/cmu-dance.mdl` from them). Evaluation-only sets (Bandai Namco, Xia, Mixamo, H36M) are never used.
 *
 * Retargeting (`retargetBvh`): the source's zero pose is a T-pose facing +Z with the subject's left on +X, as
 * the canonical skeleton's rest; each canonical joint takes the world rotation of its source joint times a
 * fixed correction that turns the canonical rest bone onto the source's rest bone (so bone directions match
 * exactly, twist follows the source); local rotations follow from the parents' world rotations. The hips go
 * to the midpoint of the source hip joints, scaled by the ratio of leg lengths, and the clip is lowered so its
 * feet stand on y = 0. Output: 30 fps, the 22 body joints.
 *
 * Features (`prepareLibrary`): world positions by FK; the kinematic envelope (summed joint speed, as AIST++);
 * kinematic beats = its local minima within ±0.167 s (AIST++'s `argrelextrema(order=10)` at 60 fps); foot
 * contacts (ball of the foot or ankle within 3 cm of its standing height and slower than 0.4 m/s); airborne
 * frames (both feet more than 4 cm up); units = the motion between consecutive kinematic beats, each with its
 * duration, intensity (mean envelope) and displacement.
 */

import {
  bvh,
  createSkeleton,
  DEFAULT_PROPORTIONS,
  type MotionClip,
  math,
  poseToWorld,
  type Quat,
  type Skeleton,
  type Vec3,
} from '@mocap/motion';

const { qMul, qConj, qFromUnitVectors, readQuat, readVec3, normalize } = math;

export const LIBRARY_FPS = 30;

/** Canonical body joint → source joint (cgspeed CMU names), in canonical order. */
const CGSPEED: Record<string, string> = {
  hips: 'Hips',
  spine: 'LowerBack',
  spine1: 'Spine',
  spine2: 'Spine1',
  neck: 'Neck1',
  head: 'Head',
  leftClavicle: 'LeftShoulder',
  leftUpperArm: 'LeftArm',
  leftForearm: 'LeftForeArm',
  leftHand: 'LeftHand',
  rightClavicle: 'RightShoulder',
  rightUpperArm: 'RightArm',
  rightForearm: 'RightForeArm',
  rightHand: 'RightHand',
  leftThigh: 'LeftUpLeg',
  leftShin: 'LeftLeg',
  leftFoot: 'LeftFoot',
  leftToes: 'LeftToeBase',
  rightThigh: 'RightUpLeg',
  rightShin: 'RightLeg',
  rightFoot: 'RightFoot',
  rightToes: 'RightToeBase',
};

/** The body skeleton of library clips (22 joints, default adult proportions). */
export const BODY_SKELETON: Skeleton = createSkeleton(DEFAULT_PROPORTIONS, { fingers: false });

export interface LibraryClip {
  name: string;
  frameCount: number;
  /** Local rotations `[frames × 22 × 4]` on `BODY_SKELETON`. */
  rotations: Float32Array;
  /** Hips world position `[frames × 3]`, metres, feet on y = 0. */
  rootPositions: Float32Array;
}

export interface Library {
  fps: number;
  clips: LibraryClip[];
  /** Credits to show with anything made from it. */
  credits: string;
}

export const CMU_CREDIT =
  'The data used in this project was obtained from mocap.cs.cmu.edu. The database was created with funding from NSF EIA-0196217.';

/** Rest direction of a joint's bone in a skeleton-like structure: its first child's offset (skipping zeros), or its tip. */
function restBoneDir(
  offsets: (j: number) => Vec3,
  children: number[][],
  tip: (j: number) => Vec3 | undefined,
  j: number,
): Vec3 | null {
  const stack = [...children[j]];
  while (stack.length) {
    const c = stack.shift() as number;
    const o = offsets(c);
    if (Math.hypot(o[0], o[1], o[2]) > 1e-6) return normalize(o);
    stack.push(...children[c]);
  }
  const t = tip(j);
  if (t && Math.hypot(t[0], t[1], t[2]) > 1e-6) return normalize(t);
  return null;
}

/** Retargets a cgspeed-convention CMU BVH (31 joints, Y up, CMU units) to the canonical body skeleton at 30 fps. */
export function retargetBvh(doc: bvh.BvhDocument, name: string): LibraryClip {
  const sk = BODY_SKELETON;
  const n = sk.names.length;
  const srcIndex = sk.names.map((c) => {
    const s = CGSPEED[c];
    const i = doc.joints.findIndex((j) => j.name === s);
    if (i < 0) throw new Error(`retargetBvh ${name}: no joint ${s}`);
    return i;
  });
  const unit = 0.056444;
  // Corrections from the rest bone directions.
  const srcChildren: number[][] = doc.joints.map(() => []);
  doc.joints.forEach((j, i) => {
    if (j.parent >= 0) srcChildren[j.parent].push(i);
  });
  const canChildren: number[][] = sk.names.map(() => []);
  sk.parents.forEach((p, i) => {
    if (p >= 0) canChildren[p].push(i);
  });
  // Feet, toes, neck and head: the same rest pose on both sides (standing flat, looking ahead) whatever the
  // bone geometry (the source's ankle→toe bone is flatter than the canonical one): no correction.
  const same = new Set(['hips', 'leftFoot', 'rightFoot', 'leftToes', 'rightToes', 'neck', 'head']);
  const corr: Quat[] = sk.names.map((cname, c) => {
    if (same.has(cname)) return [0, 0, 0, 1];
    const s = srcIndex[c];
    // Source bone: toward the source joint that corresponds to the canonical child when there is one.
    let ds: Vec3 | null = null;
    const cc = canChildren[c];
    if (cc.length === 1) {
      const target = srcIndex[cc[0]];
      // Sum of offsets along the source chain from s to target.
      let k = target;
      const acc: Vec3 = [0, 0, 0];
      while (k >= 0 && k !== s) {
        const o = doc.joints[k].offset;
        acc[0] += o[0];
        acc[1] += o[1];
        acc[2] += o[2];
        k = doc.joints[k].parent;
      }
      if (k === s) ds = normalize(acc);
    }
    if (!ds) {
      ds = restBoneDir(
        (j) => doc.joints[j].offset as Vec3,
        srcChildren,
        (j) => doc.joints[j].endSite as Vec3 | undefined,
        s,
      );
    }
    const dc = restBoneDir(
      (j) => readVec3(sk.offsets, j),
      canChildren,
      (j) => readVec3(sk.tips, j),
      c,
    );
    if (!ds || !dc) return [0, 0, 0, 1];
    return qFromUnitVectors(dc, ds);
  });
  const srcFps = 1 / doc.frameTime;
  const frames = Math.floor(((doc.frameCount - 1) * LIBRARY_FPS) / srcFps) + 1;
  const leg = (side: 'Left' | 'Right'): number => {
    const a = doc.joints.find((j) => j.name === `${side}Leg`)?.offset ?? [0, 0, 0];
    const b = doc.joints.find((j) => j.name === `${side}Foot`)?.offset ?? [0, 0, 0];
    return (Math.hypot(...a) + Math.hypot(...b)) * unit;
  };
  const k = (DEFAULT_PROPORTIONS.thigh + DEFAULT_PROPORTIONS.shin) / ((leg('Left') + leg('Right')) / 2);
  const iL = doc.joints.findIndex((j) => j.name === 'LeftUpLeg');
  const iR = doc.joints.findIndex((j) => j.name === 'RightUpLeg');
  const rotations = new Float32Array(frames * n * 4);
  const rootPositions = new Float32Array(frames * 3);
  const world: Quat[] = new Array(n);
  for (let f = 0; f < frames; f++) {
    const sf = Math.min(doc.frameCount - 1, Math.round((f * srcFps) / LIBRARY_FPS));
    const w = bvh.bvhWorld(doc, sf);
    for (let c = 0; c < n; c++) {
      world[c] = qMul(readQuat(w.rotations, srcIndex[c]), corr[c]);
      const p = sk.parents[c];
      let q = p < 0 ? world[c] : qMul(qConj(world[p]), world[c]);
      if (q[3] < 0) q = [-q[0], -q[1], -q[2], -q[3]];
      rotations.set(q, (f * n + c) * 4);
    }
    const pl = readVec3(w.positions, iL);
    const pr = readVec3(w.positions, iR);
    rootPositions.set(
      [((pl[0] + pr[0]) / 2) * unit * k, ((pl[1] + pr[1]) / 2) * unit * k, ((pl[2] + pr[2]) / 2) * unit * k],
      f * 3,
    );
  }
  const clip: LibraryClip = { name, frameCount: frames, rotations, rootPositions };
  // Feet on the floor: lower the clip by the 3rd percentile of the lowest foot point per frame.
  const low = lowestFootPoint(clip);
  const sorted = Array.from(low).sort((a, b) => a - b);
  const floor = sorted[Math.floor(0.03 * (sorted.length - 1))];
  for (let f = 0; f < frames; f++) rootPositions[f * 3 + 1] -= floor;
  return clip;
}

const FOOT_SOLE = 0.025; // the toe joint sits this high above the sole (see skeleton.ts)

/** Lowest point of either foot per frame (toe joint minus its sole height, ankle minus the ankle height). */
export function lowestFootPoint(clip: LibraryClip): Float32Array {
  const sk = BODY_SKELETON;
  const n = sk.names.length;
  const ids = ['leftFoot', 'rightFoot', 'leftToes', 'rightToes'].map((x) => sk.names.indexOf(x));
  const out = new Float32Array(clip.frameCount);
  const pose = { positions: new Float64Array(3 * n), rotations: new Float64Array(4 * n) };
  for (let f = 0; f < clip.frameCount; f++) {
    poseToWorld(sk, clip.rotations, f * n * 4, readVec3(clip.rootPositions, f), pose);
    const a =
      Math.min(pose.positions[ids[0] * 3 + 1], pose.positions[ids[1] * 3 + 1]) -
      DEFAULT_PROPORTIONS.ankleHeight;
    const t = Math.min(pose.positions[ids[2] * 3 + 1], pose.positions[ids[3] * 3 + 1]) - FOOT_SOLE;
    out[f] = Math.min(a, t);
  }
  return out;
}

// ---------------------------------------------------------------- serialisation

const MAGIC = 0x314c444d; // "MDL1"

/** Library → bytes (quaternions as int16, positions as float32). Compress outside (the package has no zlib). */
export function encodeLibrary(lib: Library): Uint8Array {
  const header = new TextEncoder().encode(
    JSON.stringify({
      fps: lib.fps,
      credits: lib.credits,
      clips: lib.clips.map((c) => ({ name: c.name, frameCount: c.frameCount })),
    }),
  );
  let size = 8 + header.length;
  size += (4 - (size % 4)) % 4;
  for (const c of lib.clips)
    size += c.rotations.length * 2 + ((c.rotations.length * 2) % 4) + c.rootPositions.length * 4;
  const buf = new ArrayBuffer(size);
  const dv = new DataView(buf);
  dv.setUint32(0, MAGIC, true);
  dv.setUint32(4, header.length, true);
  new Uint8Array(buf, 8, header.length).set(header);
  let o = 8 + header.length;
  o += (4 - (o % 4)) % 4;
  for (const c of lib.clips) {
    for (let i = 0; i < c.rotations.length; i++) {
      dv.setInt16(o, Math.round(Math.max(-1, Math.min(1, c.rotations[i])) * 32767), true);
      o += 2;
    }
    o += (c.rotations.length * 2) % 4;
    for (let i = 0; i < c.rootPositions.length; i++) {
      dv.setFloat32(o, c.rootPositions[i], true);
      o += 4;
    }
  }
  return new Uint8Array(buf);
}

/** Bytes → library (renormalises the quaternions). Throws on anything that is not a library file. */
export function decodeLibrary(bytes: Uint8Array): Library {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 8 || dv.getUint32(0, true) !== MAGIC) throw new Error('not a dance library file');
  const hl = dv.getUint32(4, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + hl))) as {
    fps: number;
    credits: string;
    clips: { name: string; frameCount: number }[];
  };
  const n = BODY_SKELETON.names.length;
  let o = 8 + hl;
  o += (4 - (o % 4)) % 4;
  const clips: LibraryClip[] = header.clips.map(({ name, frameCount }) => {
    const rotations = new Float32Array(frameCount * n * 4);
    for (let i = 0; i < rotations.length; i++) {
      rotations[i] = dv.getInt16(o, true) / 32767;
      o += 2;
    }
    o += (rotations.length * 2) % 4;
    for (let i = 0; i < rotations.length; i += 4) {
      const l = Math.hypot(rotations[i], rotations[i + 1], rotations[i + 2], rotations[i + 3]) || 1;
      for (let k = 0; k < 4; k++) rotations[i + k] /= l;
    }
    const rootPositions = new Float32Array(frameCount * 3);
    for (let i = 0; i < rootPositions.length; i++) {
      rootPositions[i] = dv.getFloat32(o, true);
      o += 4;
    }
    return { name, frameCount, rotations, rootPositions };
  });
  if (o > bytes.byteLength) throw new Error('dance library file is truncated');
  return { fps: header.fps, credits: header.credits, clips };
}

/** A library clip as a MotionClip on the body skeleton (for previews and the animation library). */
export function libraryClipToMotion(clip: LibraryClip, fps = LIBRARY_FPS): MotionClip {
  return {
    skeleton: BODY_SKELETON,
    fps,
    frameCount: clip.frameCount,
    rotations: clip.rotations,
    rootPositions: clip.rootPositions,
    metadata: { generator: '@mocap/dance library', source: clip.name },
  };
}
