/**
 * Gravity, floor, foot contacts and foot locking.
 *
 * Up and floor: the feet's lowest points during contacts lie on the floor, so the floor normal is the
 * direction in which those points do not spread. With few contacts (standing still: two spots; walking in a
 * line: one line) the plane is not determined, so the estimate is regularised towards a prior: the
 * direction from the ankles to the hips in frames where both legs stand straight (legs are vertical when
 * standing), else the pitch of that direction in frames where both feet stand still in the picture and both
 * legs are extended (≥ 80 % of their length: a bent-knee stance, not sitting or squatting; people stand with
 * their hips over their feet), or else the camera's up (a level camera). Concretely, with C the covariance of the contact
 * points and u₀ the prior, up ∝ (C + αI)⁻¹ α u₀ (α = (12 cm)²): directions along which the contacts
 * spread much more than 12 cm are removed from the prior. The hips' travel counts as spread too: a
 * subject who walks or runs more than half a metre in some direction moves horizontally (hip height bobs
 * by centimetres), so that direction cannot be up (a tilted camera would otherwise tilt the whole path).
 *
 * Contacts: a foot is planted when its lowest point (heel or toe) is within 6 cm of the floor and moves
 * slower than 0.45 m/s horizontally (both scaled with the body's height; twice that in `always` mode). The
 * height is judged on the hips' trajectory plus the foot's fitted position relative to the hips; the speed on
 * the heel and toe image landmarks lifted to the foot's depth (a planted foot stands still in the image of a
 * static camera, and 2D landmarks are far steadier than the fitted foot's depth), on the fit where those
 * landmarks are not seen; gaps shorter than 0.06 s are filled and contacts shorter than 0.08 s dropped.
 *
 * Locking modes (DeepMotion's names):
 * - `auto`: detected contacts are pinned: the planted point (heel, or toe when the heel is up) stays where it
 *   was put down and touches the floor; legs follow by IK; corrections fade in and out over ~0.1 s;
 * - `always`: like auto with looser thresholds, and whenever both feet are near the floor the lower one is
 *   planted (for motions that never leave the ground; jumps get flattened);
 * - `never`: no pinning (swimming, acrobatics); only the floor constraint below;
 * - `grounding`: both feet are kept on the floor height at every frame but free to slide (shuffle dances).
 * In every mode no foot point goes below the floor: the leg is lifted by IK, or the hips if the leg is
 * straight.
 */

import type { WorldPose } from '../clip.ts';
import { pointInJoint } from '../clip.ts';
import {
  add,
  dot,
  median,
  normalize,
  type Quat,
  qConj,
  qDot,
  qFromUnitVectors,
  qMul,
  qNormalize,
  qRotate,
  qSlerp,
  readQuat,
  scale,
  sub,
  symmetricEigen,
  type Vec3,
} from '../math.ts';
import { SIDES, type Side } from '../skeleton.ts';
import type { BodyModel, FootTemplate } from './model.ts';

export type FootLockMode = 'auto' | 'always' | 'never' | 'grounding';

/** Contact points of a foot in a world pose: heel and toe (foot index), both on the sole. */
export function footPoints(model: BodyModel, pose: WorldPose, side: Side): { heel: Vec3; toe: Vec3 } {
  const foot = model.joint[`${side}Foot`];
  return {
    heel: pointInJoint(pose, foot, model.foot[side][0]),
    toe: pointInJoint(pose, foot, model.foot[side][1]),
  };
}

/**
 * Estimates the up direction from contact points and a prior (see the file header). Returns a unit vector.
 */
export function estimateUp(
  points: Vec3[],
  weights: number[],
  prior: Vec3,
  alpha = 0.12 ** 2,
  extraSpread?: ArrayLike<number>,
): Vec3 {
  let ws = 0;
  let c: Vec3 = [0, 0, 0];
  points.forEach((p, i) => {
    ws += weights[i];
    c = add(c, [p[0] * weights[i], p[1] * weights[i], p[2] * weights[i]]);
  });
  const cov = new Float64Array(9);
  if (ws > 0 && points.length >= 3) {
    c = [c[0] / ws, c[1] / ws, c[2] / ws];
    points.forEach((p, i) => {
      const d = sub(p, c);
      for (let a = 0; a < 3; a++)
        for (let b = 0; b < 3; b++) cov[a * 3 + b] += (weights[i] * d[a] * d[b]) / ws;
    });
  }
  if (extraSpread) for (let i = 0; i < 9; i++) cov[i] += extraSpread[i];
  const { values, vectors } = symmetricEigen(cov, 3);
  let up: Vec3 = [0, 0, 0];
  for (let k = 0; k < 3; k++) {
    const e = vectors[k] as Vec3;
    const g = (alpha / (alpha + Math.max(0, values[k]))) * dot(e, prior);
    up = add(up, [e[0] * g, e[1] * g, e[2] * g]);
  }
  const u = normalize(up, prior);
  return dot(u, prior) < 0 ? [-u[0], -u[1], -u[2]] : u;
}

/** Removes runs of 1 shorter than `minOn` and fills runs of 0 shorter than `minOff` between ones. */
export function cleanFlags(flags: Uint8Array, minOn: number, minOff: number): Uint8Array {
  const out = Uint8Array.from(flags);
  const N = out.length;
  // Fill short gaps.
  let i = 0;
  while (i < N) {
    if (out[i] === 0) {
      let j = i;
      while (j < N && out[j] === 0) j++;
      if (i > 0 && j < N && j - i < minOff) for (let k = i; k < j; k++) out[k] = 1;
      i = j;
    } else i++;
  }
  // Remove short blips.
  i = 0;
  while (i < N) {
    if (out[i] === 1) {
      let j = i;
      while (j < N && out[j] === 1) j++;
      if (j - i < minOn) for (let k = i; k < j; k++) out[k] = 0;
      i = j;
    } else i++;
  }
  return out;
}

/**
 * Image speed of a foot's heel and toe landmarks per frame, in body image heights per second (smoothed
 * tracks, central difference over ±2 frames); NaN where the landmark is not clearly seen.
 */
export interface ImageFootSpeed {
  heel: Float64Array;
  toe: Float64Array;
}

/** Below this image speed (body heights per second) a foot point near the floor is planted. */
export const IMAGE_CONTACT_SPEED = 0.3;

export interface ContactParams {
  /** Max height of the lowest foot point above the floor, metres. */
  height: number;
  /** Max horizontal speed of the lowest foot point, m/s. */
  speed: number;
}

/**
 * Foot contacts from world foot points (`heel`/`toe` per frame, Y up, floor at 0).
 */
export function detectContacts(
  heel: Vec3[],
  toe: Vec3[],
  fps: number,
  params: ContactParams,
  motion?: { heel: (Vec3 | null)[]; toe: (Vec3 | null)[] },
  image?: ImageFootSpeed,
): { flags: Uint8Array; heelDown: Uint8Array } {
  const N = heel.length;
  const flags = new Uint8Array(N);
  const heelDown = new Uint8Array(N);
  const hspeed = (arr: (Vec3 | null)[], f: number, r = 1) => {
    const a = arr[Math.max(0, f - r)];
    const b = arr[Math.min(N - 1, f + r)];
    const dt = (Math.min(N - 1, f + r) - Math.max(0, f - r)) / fps;
    if (!a || !b) return Number.NaN;
    return dt > 0 ? Math.hypot(b[0] - a[0], b[2] - a[2]) / dt : 0;
  };
  for (let f = 0; f < N; f++) {
    const h = heel[f][1];
    const t = toe[f][1];
    const useHeel = h <= t + 0.01;
    heelDown[f] = useHeel ? 1 : 0;
    const low = Math.min(h, t);
    // Speed from the motion track where it has the point on both sides of the frame, else from the fit.
    // Image landmarks of the lower point, over ±2 frames (pixel noise).
    // With image evidence (static camera): the lower point stands still in the picture, and the foot is
    // near the floor (a looser height: the fitted depth of the leg is less sure than the picture).
    // Motion towards or away from the camera barely moves in the picture: the fitted speed must not be
    // fast either (a looser bound).
    const vi = image ? (useHeel ? image.heel[f] : image.toe[f]) : Number.NaN;
    let v = motion ? hspeed(useHeel ? motion.heel : motion.toe, f, 2) : Number.NaN;
    if (!Number.isFinite(v)) v = useHeel ? hspeed(heel, f) : hspeed(toe, f);
    let vSlow = motion ? hspeed(useHeel ? motion.heel : motion.toe, f, 4) : Number.NaN;
    if (!Number.isFinite(vSlow)) vSlow = v;
    const seenStill = vi < IMAGE_CONTACT_SPEED && low < 2 * params.height && !(vSlow > 3 * params.speed);
    flags[f] = (low < params.height && v < params.speed) || seenStill ? 1 : 0;
  }
  const minOn = Math.max(2, Math.round(0.08 * fps));
  const minOff = Math.max(2, Math.round(0.06 * fps));
  return { flags: cleanFlags(flags, minOn, minOff), heelDown: cleanFlags(heelDown, 2, 2) };
}

/** Contact segments [start, end] (inclusive) of a flag array. */
export function segments(flags: Uint8Array): [number, number][] {
  const out: [number, number][] = [];
  let i = 0;
  while (i < flags.length) {
    if (flags[i]) {
      let j = i;
      while (j + 1 < flags.length && flags[j + 1]) j++;
      out.push([i, j]);
      i = j + 1;
    } else i++;
  }
  return out;
}

/** What locking asks of a foot at one frame: where its ankle goes, and its world rotation (null = as fitted). */
export interface FootLock {
  ankle: Vec3 | null;
  rotation: Quat | null;
}

/** Average of rotations (sign-aligned normalised sum; fine for rotations within a few tens of degrees). */
function averageRotation(qs: Quat[]): Quat {
  const acc: Quat = [0, 0, 0, 0];
  for (const q of qs) {
    const sgn = qDot(q, qs[0]) < 0 ? -1 : 1;
    for (let c = 0; c < 4; c++) acc[c] += sgn * q[c];
  }
  return qNormalize(acc);
}

/**
 * Plans foot locks for one foot over its contact segments. Inside a segment, frames are split into phases:
 * flat (heel and toe both down: the whole foot is pinned, sole level, yaw averaged), heel only (heel strike:
 * the heel point is pinned) and toe only (heel off: the toe point is pinned). The first phase of a segment is
 * pinned at its median position; later phases keep the point that was already down where it is, so nothing
 * jumps at a phase change. Corrections fade out over `fade` frames on both sides of a segment.
 * `horizontal` false pins heights only (used with `rootAtOrigin`).
 */
export function planFootLocks(
  ankle: Vec3[],
  rot: Quat[],
  template: FootTemplate,
  flags: Uint8Array,
  heelDown: Uint8Array,
  fade: number,
  horizontal: boolean,
  flatTolerance: number,
): FootLock[] {
  const N = ankle.length;
  const out: FootLock[] = Array.from({ length: N }, () => ({ ankle: null, rotation: null }));
  const point = (a: Vec3, q: Quat, which: 0 | 1): Vec3 => add(a, qRotate(q, template[which]));
  for (const [s, e] of segments(flags)) {
    // Phase per frame: 'F' flat, 'H' heel, 'T' toe.
    const phase: string[] = [];
    for (let f = s; f <= e; f++) {
      const h = point(ankle[f], rot[f], 0);
      const t = point(ankle[f], rot[f], 1);
      phase.push(Math.abs(h[1] - t[1]) < flatTolerance ? 'F' : heelDown[f] ? 'H' : 'T');
    }
    let f = s;
    // Where the previous phase left the points (for continuity), and the previous phase's rotation.
    let last: { heel: Vec3; toe: Vec3 } | null = null;
    while (f <= e) {
      const ph = phase[f - s];
      let g = f;
      while (g + 1 <= e && phase[g + 1 - s] === ph) g++;
      if (ph === 'F') {
        const qs = rot.slice(f, g + 1);
        let q = averageRotation(qs);
        q = qMul(qFromUnitVectors(qRotate(q, [0, 1, 0]), [0, 1, 0]), q);
        let a: Vec3;
        if (last) {
          // Keep the heel (or the toe, whichever was lower) where the previous phase put it.
          const heelFirst = last.heel[1] <= last.toe[1];
          const p = heelFirst ? last.heel : last.toe;
          a = sub(p, qRotate(q, template[heelFirst ? 0 : 1]));
        } else {
          const xs = ankle.slice(f, g + 1).map((v) => v[0]);
          const zs = ankle.slice(f, g + 1).map((v) => v[2]);
          a = [median(xs), 0, median(zs)];
        }
        // Sole on the floor.
        a = [a[0], -qRotate(q, template[0])[1], a[2]];
        for (let k = f; k <= g; k++) {
          out[k] = {
            ankle: horizontal ? a : [ankle[k][0], a[1], ankle[k][2]],
            rotation: q,
          };
        }
        last = { heel: point(a, q, 0), toe: point(a, q, 1) };
      } else {
        const which: 0 | 1 = ph === 'H' ? 0 : 1;
        let target: Vec3;
        if (last) target = which === 0 ? last.heel : last.toe;
        else {
          const pts = ankle.slice(f, g + 1).map((a, i) => point(a, rot[f + i], which));
          target = [median(pts.map((p) => p[0])), 0, median(pts.map((p) => p[2]))];
        }
        target = [target[0], 0, target[2]];
        for (let k = f; k <= g; k++) {
          const p = point(ankle[k], rot[k], which);
          const d: Vec3 = horizontal ? [target[0] - p[0], -p[1], target[2] - p[2]] : [0, -p[1], 0];
          out[k] = { ankle: add(ankle[k], d), rotation: null };
        }
        const a = out[g].ankle!;
        last = { heel: point(a, rot[g], 0), toe: point(a, rot[g], 1) };
      }
      f = g + 1;
    }
    // Fades outside the segment: ease the correction of the boundary frame out.
    for (let k = 1; k <= fade; k++) {
      const w = 1 - k / (fade + 1);
      for (const [b, at] of [
        [s, s - k],
        [e, e + k],
      ] as const) {
        if (at < 0 || at >= N || flags[at] || out[at].ankle) continue;
        const lock = out[b];
        const d = sub(lock.ankle!, ankle[b]);
        out[at] = {
          ankle: add(ankle[at], scale(d, w)),
          rotation: lock.rotation
            ? qSlerp(rot[at], qMul(lock.rotation, qMul(qConj(rot[b]), rot[at])), w)
            : null,
        };
      }
    }
  }
  return out;
}

/** Lowest point of both feet (heel/toe) in a pose. */
export function lowestFootHeight(model: BodyModel, pose: WorldPose): number {
  let m = Number.POSITIVE_INFINITY;
  for (const side of SIDES) {
    const { heel, toe } = footPoints(model, pose, side);
    m = Math.min(m, heel[1], toe[1]);
  }
  return m;
}

/**
 * Knee pole of a pose, for re-solving a leg with IK: the thigh's local +Z axis in the world, which the fit
 * aligned with the knee's bend direction (defined even when the leg is straight, unlike the knee's offset).
 */
export function currentLegPole(model: BodyModel, pose: WorldPose, side: Side): Vec3 {
  return qRotate(readQuat(pose.rotations, model.joint[`${side}Thigh`]), [0, 0, 1]);
}

/** Support levels of a clip (`supportLevels`): per frame, the height of the surface carrying the body. */
export interface SupportLevels {
  /** Per frame, metres above the floor (the lowest level); between two levels, the lower one. */
  height: Float64Array;
  /** Frames between the last contact on one level and the first on the next (a step or jump up or down). */
  between: Uint8Array;
  /** The distinct levels, lowest (0) first. */
  levels: number[];
}

/**
 * Support levels: a person who stands on raised ground for part of a clip (a box, a wall, a stage) and on
 * the floor for another has two surfaces under the feet; one floor plane across both would tilt the body or
 * leave it floating. Input per frame: `contact[f]`, the height above the floor of the lowest foot point
 * standing still (NaN where none), and `hips[f]`, the hips' height above the floor; optionally `lowest[f]`, the
 * lowest foot point's height in every frame: frames where it lies at the height of many still contacts count
 * as on that surface, and a long stretch of it far under every still contact as lower ground of its own.
 *
 * Levels are the peaks of the contact heights' histogram (5 cm bins) holding at least `minHold` frames and
 * lying at least `minStep` apart; each frame with a contact is labelled with a level by a Viterbi pass (cost:
 * distance to the level, capped at `minStep`; a change of level costs `minStep · minHold / 2`), so a level
 * needs a sustained stretch of contacts. A change of level is accepted only if the hips rise or fall with it
 * (the median hip height over the last and first second of the two stretches differs by 0.5–1.5× the step):
 * a foot the fit lifted with a bent knee does not lift the hips, and stays a floating foot to be corrected.
 * Returns null when the clip has one level.
 */
export function supportLevels(
  contactIn: ArrayLike<number>,
  hips: ArrayLike<number>,
  minStep: number,
  minHold: number,
  lowest?: ArrayLike<number>,
): SupportLevels | null {
  const N = contactIn.length;
  const contact = Float64Array.from(contactIn);
  if (lowest) {
    // Frames without a still foot whose lowest foot point is at the height of still contacts (at least
    // minHold / 2 of them within 6 cm): the feet are on that surface (hopping, shifting weight).
    const still = Array.from(contactIn)
      .filter((h) => Number.isFinite(h))
      .sort((a, b) => a - b);
    const countNear = (h: number) => {
      let a = 0;
      let b = still.length;
      while (a < b) {
        const m = (a + b) >> 1;
        if (still[m] < h - 0.06) a = m + 1;
        else b = m;
      }
      let c = 0;
      for (let i = a; i < still.length && still[i] <= h + 0.06; i++) c++;
      return c;
    };
    for (let f = 0; f < N; f++)
      if (!Number.isFinite(contact[f]) && Number.isFinite(lowest[f]) && countNear(lowest[f]) >= minHold / 2)
        contact[f] = lowest[f];
    // Lower ground without (many) still feet (a landing, a crouch, feet the picture lost): a stretch of at
    // least `minHold` frames (short gaps bridged) whose lowest foot point lies more than `minStep` under every
    // surface the still contacts show (heights with minHold / 2 of them within 6 cm) is on ground of its own,
    // at its feet's height.
    let lo = Number.POSITIVE_INFINITY;
    for (const h of still) if (countNear(h) >= minHold / 2) lo = Math.min(lo, h);
    const under = (f: number) => lowest[f] < lo - minStep;
    const bridge = Math.max(1, Math.round(minHold / 3));
    let f = 0;
    while (Number.isFinite(lo) && f < N) {
      if (!under(f)) {
        f++;
        continue;
      }
      let g = f;
      let gap = 0;
      for (let k = f + 1; k < N && gap <= bridge; k++) {
        if (under(k)) {
          g = k;
          gap = 0;
        } else gap++;
      }
      const run: number[] = [];
      for (let k = f; k <= g; k++) if (under(k)) run.push(k);
      if (run.length >= minHold) for (const k of run) contact[k] = lowest[k];
      f = g + 1;
    }
  }
  const obs: number[] = [];
  for (let f = 0; f < N; f++) if (Number.isFinite(contact[f])) obs.push(f);
  if (obs.length < 2 * minHold) return null;
  // Histogram peaks (5 cm bins, smoothed over ±1 bin).
  const bin = 0.05;
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const f of obs) {
    lo = Math.min(lo, contact[f]);
    hi = Math.max(hi, contact[f]);
  }
  if (hi - lo < minStep) return null;
  const B = Math.floor((hi - lo) / bin) + 1;
  const hist = new Float64Array(B);
  for (const f of obs) hist[Math.floor((contact[f] - lo) / bin)]++;
  const sm = hist.map((_, b) => (hist[b - 1] ?? 0) + hist[b] + (hist[b + 1] ?? 0));
  const order = [...sm.keys()].sort((a, b) => sm[b] - sm[a]);
  const peaks: number[] = [];
  for (const b of order) {
    if (sm[b] < minHold) break;
    const at = lo + (b + 0.5) * bin;
    if (peaks.every((p) => Math.abs(p - at) >= minStep)) peaks.push(at);
  }
  if (peaks.length < 2) return null;
  // Refine each peak to the median of the contact heights within ±minStep/2.
  const levels = peaks
    .map((p) => median(obs.map((f) => contact[f]).filter((h) => Math.abs(h - p) < minStep / 2)))
    .sort((a, b) => a - b);
  // Viterbi over the frames with a contact.
  const L = levels.length;
  const change = (minStep * minHold) / 2;
  const cost = (f: number, l: number) => Math.min(minStep, Math.abs(contact[f] - levels[l]));
  let acc = levels.map((_, l) => cost(obs[0], l));
  const back: Int32Array[] = [];
  for (let i = 1; i < obs.length; i++) {
    const bi = new Int32Array(L);
    const next = levels.map((_, l) => {
      let best = Number.POSITIVE_INFINITY;
      for (let m = 0; m < L; m++) {
        const c = acc[m] + (m === l ? 0 : change);
        if (c < best) {
          best = c;
          bi[l] = m;
        }
      }
      return best + cost(obs[i], l);
    });
    back.push(bi);
    acc = next;
  }
  const label = new Int32Array(obs.length);
  label[obs.length - 1] = acc.indexOf(Math.min(...acc));
  for (let i = obs.length - 1; i > 0; i--) label[i - 1] = back[i - 1][label[i]];
  // Stretches of one level.
  const runs: { level: number; first: number; last: number }[] = [];
  for (let i = 0; i < obs.length; i++) {
    const r = runs[runs.length - 1];
    if (r && r.level === label[i]) r.last = obs[i];
    else runs.push({ level: label[i], first: obs[i], last: obs[i] });
  }
  if (runs.length < 2) return null;
  // The hips go up and down with the level.
  const win = Math.max(1, minHold);
  const hipAt = (from: number, to: number) => {
    const hs: number[] = [];
    for (let f = Math.max(0, from); f <= Math.min(N - 1, to); f++)
      if (Number.isFinite(hips[f])) hs.push(hips[f]);
    return hs.length ? median(hs) : Number.NaN;
  };
  for (let r = 1; r < runs.length; r++) {
    const a = runs[r - 1];
    const b = runs[r];
    const step = levels[b.level] - levels[a.level];
    const rise = hipAt(b.first, b.first + win) - hipAt(a.last - win, a.last);
    if (!(rise / step >= 0.5 && rise / step <= 1.5)) return null;
  }
  const base = levels[0];
  const height = new Float64Array(N);
  const between = new Uint8Array(N);
  for (let r = 0; r < runs.length; r++) {
    const { level, first, last } = runs[r];
    const from = r === 0 ? 0 : first;
    const to = r === runs.length - 1 ? N - 1 : last;
    for (let f = from; f <= to; f++) height[f] = levels[level] - base;
    if (r > 0) {
      const prev = runs[r - 1];
      const low = Math.min(levels[prev.level], levels[level]) - base;
      for (let f = prev.last + 1; f < first; f++) {
        height[f] = low;
        between[f] = 1;
      }
    }
  }
  return { height, between, levels: levels.map((l) => l - base) };
}
