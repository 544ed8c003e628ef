/**
 * Fingers from hand tracks (21 MediaPipe hand landmarks per hand, world metres in camera axes).
 *
 * Per frame and hand with a confident track (presence ≥ 0.5):
 * - the palm frame (wrist, index/middle/pinky knuckles) in the same convention as the hand joint's rest frame
 *   (±X along the hand, +Z towards the index side) replaces the hand orientation estimated from the body
 *   landmarks, and the arm is re-solved so forearm twist and wrist angles follow it;
 * - each finger's joints get the rotation that turns the rest direction of the bone into the tracked one,
 *   expressed in the parent's frame: knuckles (joint 1) swing freely within 100°, the middle and end joints
 *   (2, 3) are hinges bending towards the palm (-10°..110°); the thumb's joints swing within 80°.
 * Finger rotations are then smoothed over time; frames without a hand track keep a slerp between the nearest
 * tracked frames, or the straight rest pose when the hand is never tracked.
 * Segment lengths are measured from the tracks (medians, both hands pooled) and scaled to the body's palm.
 */

import type { Tracks } from '@mocap/contracts';
import { poseToWorld, type WorldPose } from '../clip.ts';
import {
  cross,
  distance,
  median,
  normalize,
  type Quat,
  qConj,
  qFromAxisAngle,
  qFromBasis,
  qFromUnitVectors,
  qMul,
  qRotate,
  qSlerp,
  readQuat,
  readVec3,
  rejectFrom,
  scale,
  sub,
  type Vec3,
  writeQuat,
} from '../math.ts';
import { FINGER_GEOMETRY, FINGERS, type Finger, SIDES, type Side } from '../skeleton.ts';
import type { CameraModel } from './camera.ts';
import { clampAngle, DEG, solveLimb } from './fit.ts';
import type { LandmarkSeries } from './input.ts';
import type { BodyModel } from './model.ts';
import { smoothQuaternions } from './smooth.ts';

/** Hand landmark indices per finger, proximal to tip (thumb starts at the CMC joint). */
const CHAINS: Record<Finger, [number, number, number, number]> = {
  Thumb: [1, 2, 3, 4],
  Index: [5, 6, 7, 8],
  Middle: [9, 10, 11, 12],
  Ring: [13, 14, 15, 16],
  Pinky: [17, 18, 19, 20],
};

const toBody = (p: [number, number, number]): Vec3 => [p[0], -p[1], -p[2]];

/** Median finger segment lengths (metres, scaled so the hand's palm matches `palm`), by joint name. */
export function fingerLengthsFromTracks(tracks: Tracks, palm: number): Record<string, number> | undefined {
  const seg: Record<string, number[]> = {};
  const palms: number[] = [];
  for (const fr of tracks.frames) {
    for (const side of SIDES) {
      const h = fr.hands?.[side];
      if (!h || h.score < 0.5 || h.world.length < 21) continue;
      palms.push(distance(h.world[0], h.world[9]));
      for (const f of FINGERS) {
        const c = CHAINS[f];
        for (let k = 0; k < 3; k++) {
          const key = `${f}${k + 1}`;
          if (!seg[key]) seg[key] = [];
          seg[key].push(distance(h.world[c[k]], h.world[c[k + 1]]));
        }
      }
    }
  }
  if (palms.length === 0) return undefined;
  const s = palm / median(palms);
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(seg)) {
    const l = median(v) * s;
    if (l > 0) {
      out[`left${k}`] = l;
      out[`right${k}`] = l;
    }
  }
  return out;
}

/** Palm frame of a hand track in body space (see the file header). */
function palmFrame(side: Side, pts: Vec3[]): Quat {
  const along = normalize(sub(pts[9], pts[0]), [side === 'left' ? 1 : -1, 0, 0]);
  const x = side === 'left' ? along : scale(along, -1);
  const z = normalize(rejectFrom(sub(pts[5], pts[17]), x), [0, 0, 1]);
  return qFromBasis(x, cross(z, x), z);
}

/**
 * The palm frame of the canonical hand's rest pose (knuckles from `FINGER_GEOMETRY`): the tracked palm frame
 * times its inverse is the hand joint's orientation (they differ by a couple of degrees).
 */
function restPalmFrame(side: Side): Quat {
  const s = side === 'left' ? 1 : -1;
  const pts: Vec3[] = new Array(21).fill([0, 0, 0]);
  const base = (f: Finger): Vec3 => [
    s * FINGER_GEOMETRY[f].base[0],
    FINGER_GEOMETRY[f].base[1],
    FINGER_GEOMETRY[f].base[2],
  ];
  pts[5] = base('Index');
  pts[9] = base('Middle');
  pts[17] = base('Pinky');
  return palmFrame(side, pts);
}

/**
 * Writes finger rotations (and refined hand/forearm rotations) into `rotations` (`[N × n × 4]`, local).
 * `worldRotations` are the world rotations of the solved pose, `tilt` the camera → world rotation.
 */
export function solveFingers(
  tracks: Tracks,
  series: LandmarkSeries,
  model: BodyModel,
  rotations: Float32Array,
  rootPositions: Float64Array,
  tilt: Quat,
  cam: CameraModel,
  fps: number,
  cutoffHz: number,
): void {
  void cam;
  const sk = model.skeleton;
  const n = sk.names.length;
  const N = series.N;
  const pose: WorldPose = { positions: new Float64Array(n * 3), rotations: new Float64Array(n * 4) };
  for (const side of SIDES) {
    const s = side === 'left' ? 1 : -1;
    const tracked = new Float64Array(N);
    const restPalm = restPalmFrame(side);
    const names = FINGERS.flatMap((f) => [1, 2, 3].map((k) => `${side}${f}${k}`));
    const idx = names.map((nm) => model.joint[nm]);
    const local = new Float64Array(N * names.length * 4);
    for (let f = 0; f < N; f++) {
      const h = tracks.frames[series.nearest[f]]?.hands?.[side];
      if (!h || h.score < 0.5 || h.world.length < 21) {
        for (let k = 0; k < names.length; k++) writeQuat(local, f * names.length + k, [0, 0, 0, 1]);
        continue;
      }
      tracked[f] = 1;
      const pts = h.world.map(toBody);
      const palmC = qMul(palmFrame(side, pts), qConj(restPalm));
      // Re-solve the arm so the hand follows the tracked palm orientation.
      poseToWorld(sk, rotations, f * n * 4, readVec3(rootPositions, f), pose);
      const handJ = model.joint[`${side}Hand`];
      const wrist = readVec3(pose.positions, handJ);
      // The elbow's bend direction is the upper arm's local -Z (see solveLimb), defined even when straight.
      const pole = qRotate(readQuat(pose.rotations, model.joint[`${side}UpperArm`]), [0, 0, -1]);
      const handWorld = qMul(tilt, palmC);
      solveLimb(model, side, 'arm', wrist, pole, handWorld, rotations, f * n, pose);
      // Finger joints in the palm frame.
      const inv = qConj(palmC);
      const lp = pts.map((p) => qRotate(inv, sub(p, pts[0])));
      FINGERS.forEach((finger, fi) => {
        const c = CHAINS[finger];
        const g = FINGER_GEOMETRY[finger];
        const rest = normalize([s * g.dir[0], g.dir[1], g.dir[2]]);
        let parentW: Quat = [0, 0, 0, 1];
        for (let k = 0; k < 3; k++) {
          const d = normalize(sub(lp[c[k + 1]], lp[c[k]]), rest);
          const dl = qRotate(qConj(parentW), d);
          let q: Quat;
          if (finger === 'Thumb') q = clampAngle(qFromUnitVectors(rest, dl), 80 * DEG);
          else if (k === 0) q = clampAngle(qFromUnitVectors(rest, dl), 100 * DEG);
          else {
            // Hinge about the palm-side axis: rest × (-Y) gives the curl axis.
            const hingeAxis = normalize(cross(rest, [0, -1, 0]));
            const inPlane = normalize(rejectFrom(dl, hingeAxis), rest);
            let ang = Math.atan2(
              cross(rest, inPlane).reduce((acc, v, i) => acc + v * hingeAxis[i], 0),
              rest.reduce((acc, v, i) => acc + v * inPlane[i], 0),
            );
            ang = Math.max(-10 * DEG, Math.min(110 * DEG, ang));
            q = qFromAxisAngle(hingeAxis, ang);
          }
          writeQuat(local, f * names.length + fi * 3 + k, q);
          parentW = qMul(parentW, q);
        }
      });
    }
    if (!tracked.some((x) => x > 0)) continue;
    // Fill untracked frames by slerp between the nearest tracked frames, then smooth.
    const valid: number[] = [];
    for (let f = 0; f < N; f++) if (tracked[f]) valid.push(f);
    for (let k = 0; k < names.length; k++) {
      const q = new Float64Array(N * 4);
      for (let f = 0; f < N; f++)
        for (let c = 0; c < 4; c++) q[f * 4 + c] = local[(f * names.length + k) * 4 + c];
      let vi = 0;
      for (let f = 0; f < N; f++) {
        if (tracked[f]) continue;
        while (vi < valid.length && valid[vi] < f) vi++;
        const hi = valid[Math.min(vi, valid.length - 1)];
        const lo = valid[Math.max(0, vi - 1)];
        const t = hi > lo ? (f - lo) / (hi - lo) : 0;
        const a = readQuat(q, lo);
        const b = readQuat(q, hi);
        writeQuat(q, f, qSlerp(a, b, Math.max(0, Math.min(1, t))));
      }
      const z = Number.isFinite(cutoffHz)
        ? smoothQuaternions(q, N, tracked, { cutoffHz, fps, order: 2, robustIterations: 1 })
        : q;
      for (let f = 0; f < N; f++) writeQuat(rotations, f * n + idx[k], readQuat(z, f));
    }
  }
}
