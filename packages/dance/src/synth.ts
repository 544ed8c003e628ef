/**
 * Beat-synchronous dance synthesis: music analysis + motion library → MotionClip on the canonical skeleton.
 *
 * 1. Units (`prepareLibrary`): each library clip is cut at its kinematic beats (AIST++ definition, see
 *    features.ts); a unit is the motion between two consecutive kinematic beats (0.2–1.5 s), with its
 *    intensity (mean summed joint speed, as a rank 0..1 over the library), duration, displacement and
 *    whether it contains a jump.
 * 2. Transition graph: a unit may be followed by its natural successor (the next unit of the same take, cost
 *    0) or by any unit whose first frame matches the end of this one: motion-matching features — eight joints
 *    (hands, elbows, knees, feet) and the head relative to the hips in the hips' heading frame, their
 *    velocities, hips height and vertical speed, foot contact states — compared by squared distance; the 24
 *    nearest starts per unit end are kept.
 * 3. Path: music beats (with the stretch before the first beat and after the last filled by extrapolating
 *    the beat period) are walked left to right; at each beat, candidates (successor + graph edges) spanning
 *    one or two beats are scored: transition cost, time-warp `log²(unit duration / beat span)`, intensity
 *    against the music (energy at the beat, plus accent: calm passages pick calm units), distance of the
 *    dancer from the stage centre, and recent use (the same unit never back to back, recently used units
 *    penalised). One of the three best is drawn with a seeded generator: deterministic per seed, another seed
 *    gives another dance.
 * 4. Time-warp: each unit is mapped linearly onto its beat span, so its kinematic beats (the unit's ends) land
 *    on the music's beats.
 * 5. Assembly: the next unit is rotated about the vertical and moved so its hips continue where the previous
 *    unit ended; at a graph transition the pose difference (every joint's local rotation, hips height) is
 *    added to the new unit and faded out over 0.35 s (offset blending).
 * 6. Clean-up: (a) the hips are lowered or raised so the lowest foot touches the floor, except in jumps (runs
 *    of the takes' airborne frames no longer than 0.8 s in which the hips rise ≥ 3 cm or leave upward faster
 *    than 0.3 m/s), where the correction is interpolated across the flight; (b) anything that still has both
 *    feet above 5 cm outside a jump (`flightRuns`, the metric's own definition) is lowered onto the floor;
 *    (c) feet are locked during contacts (hysteresis 2 cm down / 3.5 cm up): the ball of the foot when it is
 *    down, else the ankle, held at its position in the middle of the contact, by two-bone IK of thigh and
 *    shin with the foot's world orientation kept, easing over 3 frames in and out.
 * Output: 30 fps MotionClip on the canonical skeleton with fingers (fingers at rest, slightly curled), foot
 * contacts, metadata listing the units used.
 */

import {
  createSkeleton,
  DEFAULT_PROPORTIONS,
  type MotionClip,
  math,
  mulberry32,
  poseToWorld,
  type Quat,
  type Skeleton,
  type Vec3,
} from '@mocap/motion';
import type { MusicAnalysis } from './analysis.ts';
import {
  ankleRestHeight,
  FOOT_SOLE,
  flightRuns,
  footLow,
  gaussianSmooth,
  type Kinematics,
  kinematicBeats,
  kinematics,
  runsWhere,
} from './features.ts';
import { BODY_SKELETON, type Library } from './library.ts';

const {
  qMul,
  qConj,
  qSlerp,
  qNormalize,
  qFromUnitVectors,
  qRotate,
  qFromAxisAngle,
  readQuat,
  writeQuat,
  normalize,
  sub,
  add,
  scale,
  cross,
  dot,
} = math;

export interface Unit {
  clip: number;
  start: number;
  end: number;
  /** Seconds. */
  duration: number;
  /** 0..1 rank of the mean kinematic envelope over the library. */
  intensity: number;
  /** Mean kinematic envelope (summed joint speed), m/s. */
  speed: number;
  /** Contains airborne frames. */
  jump: boolean;
  /** Hips displacement over the unit in the start heading frame (x lateral, z forward), metres. */
  disp: [number, number];
  /** Heading change, radians. */
  turn: number;
}

export interface PreparedLibrary {
  library: Library;
  kin: Kinematics[];
  airborne: Uint8Array[];
  units: Unit[];
  /** Index of the natural successor unit, or −1. */
  successor: Int32Array;
  /** Graph edges per unit: candidate next units and their costs (ascending). */
  edges: { to: number; cost: number }[][];
  credits: string;
}

const N = BODY_SKELETON.names.length;
const J = (name: string) => BODY_SKELETON.names.indexOf(name);
const FEATURE_JOINTS = [
  'leftHand',
  'rightHand',
  'leftForearm',
  'rightForearm',
  'leftShin',
  'rightShin',
  'leftFoot',
  'rightFoot',
  'head',
].map(J);
const HIPS = 0;

/** Heading (yaw about +Y) of a hips rotation: angle of its forward (+Z) axis projected on the floor. */
function heading(q: Quat): number {
  const f = qRotate(q, [0, 0, 1]);
  return Math.atan2(f[0], f[2]);
}

function featureAt(lib: Library, kin: Kinematics, clip: number, f: number): Float64Array {
  const c = lib.clips[clip];
  const fps = lib.fps;
  const out = new Float64Array(FEATURE_JOINTS.length * 6 + 4);
  const hq = readQuat(c.rotations, f * N + HIPS);
  const yaw = heading(hq);
  const inv = qFromAxisAngle([0, 1, 0], -yaw);
  const hip = (g: number): Vec3 => [
    kin.positions[g * N * 3],
    kin.positions[g * N * 3 + 1],
    kin.positions[g * N * 3 + 2],
  ];
  const f0 = Math.max(0, f - 1);
  const f1 = Math.min(c.frameCount - 1, f + 1);
  const dt = (f1 - f0) / fps || 1;
  let o = 0;
  for (const j of FEATURE_JOINTS) {
    const p = (g: number): Vec3 => {
      const a = (g * N + j) * 3;
      return qRotate(inv, sub([kin.positions[a], kin.positions[a + 1], kin.positions[a + 2]], hip(g)));
    };
    const pf = p(f);
    const v = scale(sub(p(f1), p(f0)), 0.3 / dt);
    out[o++] = pf[0];
    out[o++] = pf[1];
    out[o++] = pf[2];
    out[o++] = v[0];
    out[o++] = v[1];
    out[o++] = v[2];
  }
  const hv = qRotate(inv, scale(sub(hip(f1), hip(f0)), 0.3 / dt));
  out[o++] = hip(f)[1];
  out[o++] = hv[0];
  out[o++] = hv[1];
  out[o++] = hv[2];
  return out;
}

/** Derives units, the transition graph and per-frame features from a library. */
export function prepareLibrary(library: Library): PreparedLibrary {
  const fps = library.fps;
  const kin = library.clips.map((c) =>
    kinematics(BODY_SKELETON, c.rotations, c.rootPositions, c.frameCount, fps),
  );
  const airborne = kin.map((k) => {
    const a = new Uint8Array(k.frameCount);
    for (let f = 0; f < k.frameCount; f++) a[f] = footLow(k, 0, f) > 0.04 && footLow(k, 1, f) > 0.04 ? 1 : 0;
    return a;
  });
  const units: Unit[] = [];
  const successor: number[] = [];
  library.clips.forEach((c, ci) => {
    const env = gaussianSmooth(kin[ci].envelope, 1);
    const beats = kinematicBeats(env, fps);
    let prevUnit = -1;
    for (let i = 0; i + 1 < beats.length; i++) {
      const a = beats[i];
      const b = beats[i + 1];
      const d = (b - a) / fps;
      if (d < 0.2 || d > 1.5) {
        prevUnit = -1;
        continue;
      }
      let s = 0;
      let jump = false;
      for (let f = a; f <= b; f++) {
        s += env[f];
        if (airborne[ci][f]) jump = true;
      }
      const qa = readQuat(c.rotations, a * N);
      const qb = readQuat(c.rotations, b * N);
      const ya = heading(qa);
      const dp = qRotate(qFromAxisAngle([0, 1, 0], -ya), [
        c.rootPositions[b * 3] - c.rootPositions[a * 3],
        0,
        c.rootPositions[b * 3 + 2] - c.rootPositions[a * 3 + 2],
      ]);
      let turn = heading(qb) - ya;
      turn = Math.atan2(Math.sin(turn), Math.cos(turn));
      const u = units.length;
      units.push({
        clip: ci,
        start: a,
        end: b,
        duration: d,
        intensity: s / (b - a + 1),
        speed: s / (b - a + 1),
        jump,
        disp: [dp[0], dp[2]],
        turn,
      });
      successor.push(-1);
      if (prevUnit >= 0) successor[prevUnit] = u;
      prevUnit = u;
    }
  });
  if (units.length < 4) throw new Error('dance library has too few units');
  // Intensity as a rank.
  const order = units.map((u, i) => [u.intensity, i]).sort((x, y) => x[0] - y[0]);
  order.forEach(([, i], r) => {
    units[i].intensity = r / (order.length - 1);
  });
  // Graph.
  const endF = units.map((u) => featureAt(library, kin[u.clip], u.clip, u.end));
  const startF = units.map((u) => featureAt(library, kin[u.clip], u.clip, u.start));
  const contactOf = (u: Unit, f: number): [boolean, boolean] => {
    const k = kin[u.clip];
    return [footLow(k, 0, f) < 0.03, footLow(k, 1, f) < 0.03];
  };
  const endC = units.map((u) => contactOf(u, u.end));
  const startC = units.map((u) => contactOf(u, u.start));
  const edges = units.map((_, i) => {
    const list: { to: number; cost: number }[] = [];
    for (let j = 0; j < units.length; j++) {
      if (j === i) continue;
      let d = 0;
      const a = endF[i];
      const b = startF[j];
      for (let k = 0; k < a.length; k++) d += (a[k] - b[k]) ** 2;
      if (endC[i][0] !== startC[j][0]) d += 0.05;
      if (endC[i][1] !== startC[j][1]) d += 0.05;
      list.push({ to: j, cost: d });
    }
    list.sort((x, y) => x.cost - y.cost);
    return list.slice(0, 24);
  });
  return {
    library,
    kin,
    airborne,
    units,
    successor: Int32Array.from(successor),
    edges,
    credits: library.credits,
  };
}

export interface DanceOptions {
  /** Random seed: the same seed and music give the same dance; another seed another dance. Default 1. */
  seed?: number;
  /** Output frame rate, default 30. */
  fps?: number;
  /** Progress 0..1. */
  onProgress?: (fraction: number) => void;
  /** Clean-up passes (default both): `floor` puts a foot on the floor outside jumps, `locks` locks feet on contacts. */
  cleanUp?: { floor?: boolean; locks?: boolean };
}

export interface DanceResult {
  clip: MotionClip;
  /** The path: per step, unit, start/end time (s) and whether it was a graph transition. */
  steps: { unit: number; clip: string; t0: number; t1: number; transition: boolean }[];
}

/** Beat knots covering the whole track: detected beats plus extrapolated ones at both ends. */
function knots(analysis: MusicAnalysis): number[] {
  const b = analysis.beats.filter((t) => t >= 0 && t <= analysis.duration);
  const T = analysis.duration;
  if (b.length < 2) {
    const p = 60 / 110;
    const out: number[] = [];
    for (let t = 0; t < T + p; t += p) out.push(Math.min(t, T));
    return out.length >= 2 ? out : [0, Math.max(T, 0.5)];
  }
  const p0 = b[1] - b[0];
  const p1 = b[b.length - 1] - b[b.length - 2];
  const head: number[] = [];
  for (let t = b[0] - p0; t > -0.5 * p0; t -= p0) head.unshift(Math.max(0, t));
  if (head.length === 0 || head[0] > 0) head.unshift(0);
  const tail: number[] = [];
  let t = b[b.length - 1] + p1;
  for (; t < T + 0.5 * p1; t += p1) tail.push(t);
  if ((tail.at(-1) ?? b[b.length - 1]) < T) tail.push(t);
  const all = [...head, ...b, ...tail];
  // Drop knots closer than 0.15 s (the head's clamp at 0).
  return all.filter((t, i) => i === 0 || t - all[i - 1] > 0.15);
}

interface Step {
  unit: number;
  k0: number;
  k1: number;
  transition: boolean;
}

function planPath(prep: PreparedLibrary, analysis: MusicAnalysis, K: number[], rand: () => number): Step[] {
  const { units, successor, edges } = prep;
  const energyAt = (t: number): number => {
    const i = Math.min(analysis.energy.length - 1, Math.max(0, Math.round(t * analysis.envelopeRate)));
    return analysis.energy[i] ?? 0.5;
  };
  const accentAt = (t: number): number => {
    let best = 0;
    analysis.beats.forEach((b, i) => {
      if (Math.abs(b - t) < 0.05) best = analysis.beatAccent[i];
    });
    return best;
  };
  const speeds = units.map((u) => u.speed).sort((a, b) => a - b);
  const speedQuantile = (q: number) => speeds[Math.round(q * (speeds.length - 1))];
  const steps: Step[] = [];
  const lastUse = new Map<number, number>();
  // Start: a calm-ish, grounded unit chosen by the seed among those matching the opening energy.
  let pos: [number, number] = [0, 0];
  let yaw = 0;
  let k = 0;
  let cur = -1;
  while (k < K.length - 1) {
    // Target speed: the music's energy (and the accent of the beat ahead) as a quantile of the units' speeds;
    // a unit's speed after the time-warp is its own speed × duration / beat span.
    const target = speedQuantile(
      Math.min(0.97, 0.05 + 0.8 * energyAt(K[k]) + 0.1 * accentAt(K[k + 1] ?? K[k])),
    );
    const cands: { unit: number; m: number; cost: number; transition: boolean }[] = [];
    const pool: { to: number; cost: number; transition: boolean }[] = [];
    if (cur < 0) {
      units.forEach((u, i) => {
        if (!u.jump) pool.push({ to: i, cost: 0, transition: true });
      });
    } else {
      if (successor[cur] >= 0) pool.push({ to: successor[cur], cost: 0, transition: false });
      for (const e of edges[cur]) pool.push({ to: e.to, cost: e.cost, transition: true });
    }
    for (const p of pool) {
      if (p.to === cur) continue;
      const u = units[p.to];
      for (const m of [1, 2]) {
        if (k + m >= K.length) continue;
        const span = K[k + m] - K[k];
        const r = u.duration / span;
        if (r < 0.6 || r > 1.7) continue;
        let cost = 4 * p.cost + 1.5 * Math.log(r) ** 2 + 1.5 * Math.log((u.speed * r) / target) ** 2;
        if (p.transition) cost += 0.15;
        const used = lastUse.get(p.to);
        if (used !== undefined) cost += used >= steps.length - 8 ? 1.5 : 0.3;
        // Stay near the centre of the stage.
        const c = Math.cos(yaw);
        const s = Math.sin(yaw);
        const nx = pos[0] + c * u.disp[0] + s * u.disp[1];
        const nz = pos[1] - s * u.disp[0] + c * u.disp[1];
        const r2 = Math.hypot(nx, nz);
        if (r2 > 1.2) cost += 2 * (r2 - 1.2) ** 2;
        cands.push({ unit: p.to, m, cost, transition: p.transition });
      }
    }
    if (cands.length === 0) {
      // Nothing fits the beat span: take the unit with the closest duration to one beat (warp clamped later).
      const span = K[k + 1] - K[k];
      let best = 0;
      units.forEach((u, i) => {
        if (
          i !== cur &&
          Math.abs(Math.log(u.duration / span)) < Math.abs(Math.log(units[best].duration / span))
        )
          best = i;
      });
      cands.push({ unit: best === cur ? (best + 1) % units.length : best, m: 1, cost: 0, transition: true });
    }
    cands.sort((a, b) => a.cost - b.cost);
    const top = cands.slice(0, 3);
    const w = top.map((c) => Math.exp(-(c.cost - top[0].cost) / 0.15));
    let r = rand() * w.reduce((a, b) => a + b, 0);
    let pick = top[0];
    for (let i = 0; i < top.length; i++) {
      r -= w[i];
      if (r <= 0) {
        pick = top[i];
        break;
      }
    }
    const u = units[pick.unit];
    const c = Math.cos(yaw);
    const s = Math.sin(yaw);
    pos = [pos[0] + c * u.disp[0] + s * u.disp[1], pos[1] - s * u.disp[0] + c * u.disp[1]];
    yaw += u.turn;
    steps.push({ unit: pick.unit, k0: k, k1: k + pick.m, transition: pick.transition });
    lastUse.set(pick.unit, steps.length - 1);
    cur = pick.unit;
    k += pick.m;
  }
  return steps;
}

/** Relaxed finger pose: each finger joint bent a little toward the palm. */
function fingerRest(skeleton: Skeleton): Map<number, Quat> {
  const out = new Map<number, Quat>();
  skeleton.names.forEach((name, j) => {
    const m = /^(left|right)(Thumb|Index|Middle|Ring|Pinky)([123])$/.exec(name);
    if (!m) return;
    const side = m[1] === 'left' ? 1 : -1;
    if (m[2] === 'Thumb') {
      out.set(j, qFromAxisAngle([0, 1, 0], side * -0.15));
      return;
    }
    // Fingers point along ±X; bending toward the palm (down, −Y) is a rotation about ∓Z.
    const angle = m[3] === '1' ? 0.25 : 0.3;
    out.set(j, qFromAxisAngle([0, 0, 1], -side * angle));
  });
  return out;
}

/** Generates a dance for analysed music from a prepared library. */
export function generateDance(
  analysis: MusicAnalysis,
  prep: PreparedLibrary,
  options: DanceOptions = {},
): DanceResult {
  const seed = options.seed ?? 1;
  const fps = options.fps ?? 30;
  const rand = mulberry32(0x9e3779b9 ^ (seed * 2654435761));
  const K = knots(analysis);
  const steps = planPath(prep, analysis, K, rand);
  options.onProgress?.(0.2);
  const lib = prep.library;
  const frames = Math.max(2, Math.round(analysis.duration * fps) + 1);
  const rot = new Float32Array(frames * N * 4);
  const root = new Float32Array(frames * 3);
  const air = new Uint8Array(frames);
  // Per step alignment: yaw and translation mapping source hips onto the dancer's path.
  let alignYaw = 0;
  let alignT: Vec3 = [0, 0, 0];
  let prevEnd: { rot: Quat[]; root: Vec3 } | null = null;
  let f = 0;
  const sample = (clip: number, sf: number, outRot: Quat[], outRoot: Vec3) => {
    const c = lib.clips[clip];
    const a = Math.max(0, Math.min(c.frameCount - 1, Math.floor(sf)));
    const b = Math.min(c.frameCount - 1, a + 1);
    const t = Math.max(0, Math.min(1, sf - a));
    for (let j = 0; j < N; j++)
      outRot[j] = qSlerp(readQuat(c.rotations, a * N + j), readQuat(c.rotations, b * N + j), t);
    for (let k = 0; k < 3; k++)
      outRoot[k] = c.rootPositions[a * 3 + k] * (1 - t) + c.rootPositions[b * 3 + k] * t;
  };
  const tmpRot: Quat[] = new Array(N);
  const tmpRoot: Vec3 = [0, 0, 0];
  const blendTime = 0.35;
  for (let si = 0; si < steps.length; si++) {
    const st = steps[si];
    const u = prep.units[st.unit];
    const t0 = K[st.k0];
    const t1 = K[st.k1];
    // Alignment: continue from the previous step's end pose.
    sample(u.clip, u.start, tmpRot, tmpRoot);
    const startRot = tmpRot.slice();
    const startRoot: Vec3 = [...tmpRoot];
    let delta: Quat[] | null = null;
    let dy = 0;
    if (prevEnd) {
      if (st.transition) {
        alignYaw = heading(prevEnd.rot[HIPS]) - heading(startRot[HIPS]);
        const q = qFromAxisAngle([0, 1, 0], alignYaw);
        const p = qRotate(q, startRoot);
        alignT = [prevEnd.root[0] - p[0], 0, prevEnd.root[2] - p[2]];
        const aligned = startRot.slice();
        aligned[HIPS] = qMul(q, startRot[HIPS]);
        delta = aligned.map((r, j) => qNormalize(qMul(prevEnd!.rot[j], qConj(r))));
        dy = prevEnd.root[1] - startRoot[1];
      }
    } else {
      alignYaw = -heading(startRot[HIPS]);
      const q = qFromAxisAngle([0, 1, 0], alignYaw);
      const p = qRotate(q, startRoot);
      alignT = [-p[0], 0, -p[2]];
    }
    const qa = qFromAxisAngle([0, 1, 0], alignYaw);
    const lastStep = si === steps.length - 1;
    for (; f < frames && (f / fps < t1 || lastStep); f++) {
      const t = f / fps;
      const x = Math.max(0, (t - t0) / Math.max(1e-6, t1 - t0));
      const sf = u.start + x * (u.end - u.start);
      sample(u.clip, sf, tmpRot, tmpRoot);
      tmpRot[HIPS] = qMul(qa, tmpRot[HIPS]);
      const p = add(qRotate(qa, tmpRoot), alignT);
      if (delta) {
        const w = Math.max(0, 1 - (t - t0) / blendTime);
        const s = w * w * (3 - 2 * w);
        if (s > 0) {
          for (let j = 0; j < N; j++) tmpRot[j] = qMul(qSlerp([0, 0, 0, 1], delta[j], s), tmpRot[j]);
          p[1] += dy * s;
        }
      }
      for (let j = 0; j < N; j++) writeQuat(rot, f * N + j, tmpRot[j]);
      root.set(p, f * 3);
      const c = Math.round(sf);
      air[f] = prep.airborne[u.clip][Math.min(prep.airborne[u.clip].length - 1, c)];
    }
    // End pose of this step, aligned (for the next step).
    sample(u.clip, u.end, tmpRot, tmpRoot);
    const endRot = tmpRot.slice();
    endRot[HIPS] = qMul(qa, endRot[HIPS]);
    const endRoot = add(qRotate(qa, tmpRoot), alignT);
    if (!st.transition || !prevEnd) {
      // keep alignment
    }
    prevEnd = { rot: endRot, root: endRoot };
    // The next step continues with the same alignment when it is the natural successor.
    if (si + 1 < steps.length && !steps[si + 1].transition) {
      // Natural successor starts where this unit ends in the same take: same alignment, no blend.
    }
  }
  options.onProgress?.(0.5);
  cleanUp(rot, root, air, frames, fps, options.cleanUp ?? {});
  options.onProgress?.(0.9);
  // Canonical skeleton with fingers: copy body joints, fingers relaxed.
  const skeleton = createSkeleton(DEFAULT_PROPORTIONS);
  const M = skeleton.names.length;
  const out = new Float32Array(frames * M * 4);
  const map = BODY_SKELETON.names.map((name) => skeleton.names.indexOf(name));
  const fingers = fingerRest(skeleton);
  for (let fr = 0; fr < frames; fr++) {
    for (let j = 0; j < M; j++) out[(fr * M + j) * 4 + 3] = 1;
    for (const [j, q] of fingers) out.set(q, (fr * M + j) * 4);
    for (let j = 0; j < N; j++)
      out.set(rot.subarray((fr * N + j) * 4, (fr * N + j) * 4 + 4), (fr * M + map[j]) * 4);
  }
  const kin = kinematics(BODY_SKELETON, rot, root, frames, fps);
  const left = new Uint8Array(frames);
  const right = new Uint8Array(frames);
  for (let fr = 0; fr < frames; fr++) {
    left[fr] = footLow(kin, 0, fr) < 0.02 ? 1 : 0;
    right[fr] = footLow(kin, 1, fr) < 0.02 ? 1 : 0;
  }
  const clip: MotionClip = {
    skeleton,
    fps,
    frameCount: frames,
    rotations: out,
    rootPositions: root,
    contacts: { left, right },
    metadata: {
      generator: '@mocap/dance',
      source: `music ${analysis.duration.toFixed(1)} s, ${analysis.tempo.toFixed(0)} BPM`,
      options: { seed, fps, steps: steps.length, credits: prep.credits },
    },
  };
  options.onProgress?.(1);
  return {
    clip,
    steps: steps.map((s) => ({
      unit: s.unit,
      clip: lib.clips[prep.units[s.unit].clip].name,
      t0: K[s.k0],
      t1: K[s.k1],
      transition: s.transition,
    })),
  };
}

// ---------------------------------------------------------------- clean-up: floor and foot locks

function twoBoneIk(hip: Vec3, knee: Vec3, ankle: Vec3, target: Vec3): { d1: Quat; d2: Quat } {
  const l1 = Math.hypot(...sub(knee, hip));
  const l2 = Math.hypot(...sub(ankle, knee));
  const toT = sub(target, hip);
  const d = Math.max(Math.abs(l1 - l2) + 1e-4, Math.min(l1 + l2 - 1e-4, Math.hypot(...toT)));
  const u = normalize(toT);
  const pole = sub(sub(knee, hip), scale(u, dot(sub(knee, hip), u)));
  let p = normalize(pole, [0, 0, 1]);
  if (Math.hypot(...pole) < 1e-6) p = normalize(cross(u, [1, 0, 0]), [0, 0, 1]);
  const cosA = Math.max(-1, Math.min(1, (l1 * l1 + d * d - l2 * l2) / (2 * l1 * d)));
  const sinA = Math.sqrt(1 - cosA * cosA);
  const k2 = add(hip, add(scale(u, l1 * cosA), scale(p, l1 * sinA)));
  const a2 = add(hip, scale(u, d));
  const d1 = qFromUnitVectors(normalize(sub(knee, hip)), normalize(sub(k2, hip)));
  const shinAfter = qRotate(d1, sub(ankle, knee));
  const d2 = qFromUnitVectors(normalize(shinAfter), normalize(sub(a2, k2)));
  return { d1, d2 };
}

function cleanUp(
  rot: Float32Array,
  root: Float32Array,
  air: Uint8Array,
  frames: number,
  fps: number,
  passes: { floor?: boolean; locks?: boolean },
): void {
  const sk = BODY_SKELETON;
  // 1. Floor: lowest foot on y = 0 outside jumps.
  let kin = kinematics(sk, rot, root, frames, fps);
  const corr = new Float32Array(frames);
  for (let f = 0; f < frames; f++) corr[f] = -Math.min(footLow(kin, 0, f), footLow(kin, 1, f));
  // Jumps: runs of take-airborne frames no longer than 0.8 s in which the hips rise at least 3 cm (or leave
  // the ground faster than 0.3 m/s): their flight is kept, the correction interpolated across them. Any other
  // airborne frames (a lifted take, a blend) are grounded.
  const jump = new Uint8Array(frames);
  for (const [f, g] of runsWhere(frames, (i) => air[i] !== 0)) {
    const t0 = Math.max(0, f - 1);
    const hy = (i: number) => root[i * 3 + 1] + corr[t0];
    let rise = 0;
    for (let i = f; i < g; i++) rise = Math.max(rise, root[i * 3 + 1] - root[t0 * 3 + 1]);
    const v = f + 1 < frames ? (hy(f + 1) - hy(t0)) * (fps / (f + 1 - t0)) : 0;
    if ((g - f) / fps <= 0.8 && (rise >= 0.03 || v > 0.3)) {
      const a = f > 0 ? corr[f - 1] : (corr[g] ?? 0);
      const b = g < frames ? corr[g] : a;
      for (let i = f; i < g; i++) {
        corr[i] = a + ((b - a) * (i - f + 1)) / (g - f + 1);
        jump[i] = 1;
      }
    }
  }
  // Smooth the correction a little outside jumps without letting a foot go under the floor.
  const sm = gaussianSmooth(corr, 1);
  for (let i = 0; i < frames; i++) if (!jump[i]) corr[i] = Math.max(corr[i], Math.min(sm[i], corr[i] + 0.01));
  if (passes.floor !== false) for (let i = 0; i < frames; i++) root[i * 3 + 1] += corr[i];
  if (passes.locks === false) return;
  if (passes.floor !== false) {
    // 2. Whatever still floats (both feet above 5 cm outside a jump, e.g. a blend between a raised and a grounded
    // take) is lowered onto the floor, easing over 3 frames on each side without pushing a foot under it.
    kin = kinematics(sk, rot, root, frames, fps);
    for (const r of flightRuns(kin)) {
      if (r.jump) continue;
      const low = (h: number) => Math.min(footLow(kin, 0, h), footLow(kin, 1, h));
      const edge = Math.min(low(r.start), low(r.end - 1));
      for (let h = Math.max(0, r.start - 3); h < Math.min(frames, r.end + 3); h++) {
        const inside = h >= r.start && h < r.end;
        const d = inside
          ? low(h)
          : Math.min(Math.max(0, low(h)), edge * (1 - (h < r.start ? r.start - h : h - r.end + 1) / 4));
        root[h * 3 + 1] -= Math.max(0, d);
      }
    }
  }
  // 3. Foot locks. Contact runs per foot with hysteresis (down below 2 cm, up again above 3.5 cm): the ball of
  // the foot when it is down (held there), else the heel/ankle (held there); each run holds the point where it
  // is in the middle of the run; 3 frames of ease in and out where no other run is.
  kin = kinematics(sk, rot, root, frames, fps);
  const n = sk.names.length;
  const ankleRest = ankleRestHeight(sk);
  const legs = [
    ['leftThigh', 'leftShin', 'leftFoot', 'leftToes'],
    ['rightThigh', 'rightShin', 'rightFoot', 'rightToes'],
  ].map((names) => names.map((x) => sk.names.indexOf(x)));
  const goalX = [new Float64Array(frames * 3), new Float64Array(frames * 3)];
  const goalW = [new Float32Array(frames), new Float32Array(frames)];
  const goalToe = [new Uint8Array(frames), new Uint8Array(frames)];
  for (const side of [0, 1] as const) {
    const [, , iF, iX] = legs[side];
    const state = new Uint8Array(frames);
    let on = 0;
    for (let fr = 0; fr < frames; fr++) {
      const toe = kin.toeLow[side][fr];
      const ank = kin.ankleLow[side][fr];
      if (on === 1) on = toe < 0.035 ? 1 : ank < 0.02 ? 2 : 0;
      else if (on === 2) on = toe < 0.02 ? 1 : ank < 0.035 ? 2 : 0;
      else on = toe < 0.02 ? 1 : ank < 0.02 ? 2 : 0;
      state[fr] = on;
    }
    let fr = 0;
    while (fr < frames) {
      const st = state[fr];
      if (!st) {
        fr++;
        continue;
      }
      let g = fr;
      while (g < frames && state[g] === st) g++;
      const lockJ = st === 1 ? iX : iF;
      const mid = (fr + g - 1) >> 1;
      const o = (mid * n + lockJ) * 3;
      const lock: Vec3 = [kin.positions[o], st === 1 ? FOOT_SOLE : ankleRest, kin.positions[o + 2]];
      const ease = 3;
      for (let h = Math.max(0, fr - ease); h < Math.min(frames, g + ease); h++) {
        const w = h < fr ? (h - (fr - ease)) / (ease + 1) : h >= g ? (g + ease - h) / (ease + 1) : 1;
        if (w <= goalW[side][h] || (h < fr && state[h]) || (h >= g && state[h])) continue;
        goalW[side][h] = w;
        goalToe[side][h] = st === 1 ? 1 : 0;
        goalX[side].set(lock, h * 3);
      }
      fr = g;
    }
  }
  const pose = { positions: new Float64Array(3 * n), rotations: new Float64Array(4 * n) };
  for (let h = 0; h < frames; h++) {
    if (goalW[0][h] <= 0 && goalW[1][h] <= 0) continue;
    poseToWorld(sk, rot, h * n * 4, [root[h * 3], root[h * 3 + 1], root[h * 3 + 2]], pose);
    const P = (j: number): Vec3 => [
      pose.positions[j * 3],
      pose.positions[j * 3 + 1],
      pose.positions[j * 3 + 2],
    ];
    const W = (j: number): Quat => [
      pose.rotations[j * 4],
      pose.rotations[j * 4 + 1],
      pose.rotations[j * 4 + 2],
      pose.rotations[j * 4 + 3],
    ];
    for (const side of [0, 1] as const) {
      const w = goalW[side][h];
      if (w <= 0) continue;
      const [iT, iS, iF, iX] = legs[side];
      const hip = P(iT);
      const knee = P(iS);
      const ankle = P(iF);
      const cur = goalToe[side][h] ? P(iX) : ankle;
      const offset = sub(ankle, cur);
      const lock: Vec3 = [goalX[side][h * 3], goalX[side][h * 3 + 1], goalX[side][h * 3 + 2]];
      const want: Vec3 = [lock[0], w >= 1 ? Math.max(cur[1], lock[1]) : cur[1], lock[2]];
      const target = add(add(cur, scale(sub(want, cur), w)), offset);
      const { d1, d2 } = twoBoneIk(hip, knee, ankle, target);
      const wH = W(sk.parents[iT]);
      const nT = qMul(d1, W(iT));
      const nS = qMul(d2, qMul(d1, W(iS)));
      writeQuat(rot, h * n + iT, qNormalize(qMul(qConj(wH), nT)));
      writeQuat(rot, h * n + iS, qNormalize(qMul(qConj(nT), nS)));
      writeQuat(rot, h * n + iF, qNormalize(qMul(qConj(nS), W(iF))));
    }
  }
}
