import { math, type Vec3 } from '@mocap/motion';
import { describe, expect, it } from 'vitest';
import {
  accelerationError,
  alignRigid,
  applyTransform,
  boneLengthStd,
  contactAgreement,
  contactScores,
  coverage,
  depthOrder,
  EVAL_JOINTS,
  type Frames,
  footContacts,
  footSliding,
  groundPenetration,
  jitter,
  jointAngleError,
  jointIndexOf,
  poseErrors,
  procrustes,
  project,
  RECORDED_JOINTS,
  reprojectionError,
  rootTrajectoryError,
  viewToExtrinsics,
  withTruth,
} from '../src/index.ts';

const J = RECORDED_JOINTS.length;
const NE = EVAL_JOINTS.length;

/** A standing skeleton (metres, Y up) in RECORDED_JOINTS order, with a little per-frame variation. */
function pose(f: number, rand: () => number): Float64Array {
  // The right side is the left mirrored across x = 0.
  const both = (part: string, [x, y, z]: Vec3): Record<string, Vec3> => ({
    [`left${part}`]: [x, y, z],
    [`right${part}`]: [-x, y, z],
  });
  const base: Record<string, Vec3> = {
    hips: [0, 0.95, 0],
    ...both('Thigh', [0.09, 0.95, 0]),
    ...both('Shin', [0.1, 0.52, 0.02]),
    ...both('Foot', [0.1, 0.08, 0]),
    ...both('UpperArm', [0.18, 1.45, 0]),
    ...both('Forearm', [0.22, 1.18, 0.05]),
    ...both('Hand', [0.25, 0.93, 0.12]),
    head: [0, 1.62, 0],
    ...both('Toes', [0.1, 0.02, 0.15]),
  };
  const out = new Float64Array(J * 3);
  RECORDED_JOINTS.forEach((name, j) => {
    const p = base[name];
    const wobble = name === 'hips' || name.endsWith('Thigh') ? 0 : 0.05;
    math.writeVec3(out, j, [
      p[0] + wobble * (rand() - 0.5) + 0.01 * f,
      p[1] + wobble * (rand() - 0.5),
      p[2] + wobble * (rand() - 0.5),
    ]);
  });
  // Keep the pelvis the midpoint of the hip joints.
  math.writeVec3(
    out,
    0,
    math.mid(math.readVec3(out, jointIndexOf('leftThigh')), math.readVec3(out, jointIndexOf('rightThigh'))),
  );
  return out;
}

function sequence(n: number, seed = 1): Float64Array[] {
  let s = seed;
  const rand = () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
  return Array.from({ length: n }, (_, f) => pose(f, rand));
}

const mapFrames = (fr: Frames, fn: (p: Vec3, j: number, f: number) => Vec3): Float64Array[] =>
  fr.map((x, f) => {
    const out = new Float64Array(J * 3);
    for (let j = 0; j < J; j++) math.writeVec3(out, j, fn(math.readVec3(x!, j), j, f));
    return out;
  });

describe('pose errors', () => {
  const gt = sequence(20);
  it('a per-frame similarity transform gives PA-MPJPE 0, and MPJPE > 0', () => {
    const est = mapFrames(gt, (p, _j, f) => {
      const q = math.qFromAxisAngle([0.3, 1, 0.1], 0.2 + 0.05 * f);
      return math.add(math.scale(math.qRotate(q, p), 1.1), [f * 0.3, 2, -1]);
    });
    const e = poseErrors(est, gt);
    expect(e.paMpjpe).toBeLessThan(1e-6);
    expect(e.mpjpe).toBeGreaterThan(10);
    expect(e.frames).toBe(20);
  });
  it('a pure translation gives MPJPE 0', () => {
    const est = mapFrames(gt, (p, _j, f) => math.add(p, [0.5, -0.2, f * 0.01]));
    expect(poseErrors(est, gt).mpjpe).toBeLessThan(1e-9);
  });
  it('10 mm on one joint: 10 mm for that joint, 10/14 mm overall', () => {
    const w = jointIndexOf('leftHand');
    const est = mapFrames(gt, (p, j) => (j === w ? math.add(p, [0, 0, 0.01]) : p));
    const e = poseErrors(est, gt);
    expect(e.perJoint.leftHand).toBeCloseTo(10, 6);
    expect(e.perJoint.rightHand).toBeCloseTo(0, 9);
    expect(e.mpjpe).toBeCloseTo(10 / NE, 6);
    expect(e.paMpjpe).toBeGreaterThan(0);
    // Procrustes minimises the squared error: mean ≤ RMS ≤ the unaligned RMS √(10²/14).
    expect(e.paMpjpe).toBeLessThan(Math.sqrt(100 / NE));
  });
  it('frames missing in the estimate are skipped', () => {
    const est: Frames = gt.map((x, f) => (f % 2 ? null : x));
    expect(poseErrors(est, gt).frames).toBe(10);
    expect(coverage(est)).toBe(0.5);
  });
});

describe('alignment', () => {
  it('procrustes recovers a known similarity transform', () => {
    const a: Vec3[] = [
      [0, 0, 0],
      [1, 0, 0],
      [0, 2, 0],
      [0, 0, 3],
      [1, 1, 1],
    ];
    const q = math.qFromAxisAngle([0, 1, 0], 0.7);
    const b = a.map((p) => math.add(math.scale(math.qRotate(q, p), 2), [1, 2, 3]));
    const tr = procrustes(a, b, true);
    expect(tr.s).toBeCloseTo(2, 9);
    for (let k = 0; k < a.length; k++)
      expect(math.distance(applyTransform(tr, a[k]), b[k])).toBeLessThan(1e-9);
  });
  it('alignRigid undoes one rigid motion per clip', () => {
    const gt = sequence(10, 3);
    const q = math.qFromAxisAngle([0, 1, 0], 2);
    const est = mapFrames(gt, (p) => math.add(math.qRotate(q, p), [3, 0.1, -4]));
    const { aligned } = alignRigid(est, gt);
    for (let f = 0; f < 10; f++)
      for (let i = 0; i < J * 3; i++) expect(aligned[f]![i]).toBeCloseTo(gt[f][i], 9);
  });
});

describe('temporal metrics', () => {
  it('alternating ±a on every joint: jitter 8a·fps³; constant velocity: 0', () => {
    const a = 0.001;
    const gt = sequence(1, 5)[0];
    const shaky = Array.from({ length: 30 }, (_, f) =>
      gt.map((v, i) => (i % 3 === 0 ? v + a * (-1) ** f : v)),
    );
    expect(jitter(shaky, 30)).toBeCloseTo(8 * a * 30 ** 3, 6);
    const moving = Array.from({ length: 30 }, (_, f) => gt.map((v, i) => (i % 3 === 2 ? v + 0.05 * f : v)));
    expect(jitter(moving, 30)).toBeLessThan(1e-6);
  });
  it('alternating ±a on one joint: acceleration error 4a/14 (mm/frame²)', () => {
    const gt = sequence(30, 7);
    const k = jointIndexOf('rightForearm');
    const a = 0.002;
    const est = mapFrames(gt, (p, j, f) => (j === k ? math.add(p, [a * (-1) ** f, 0, 0]) : p));
    expect(accelerationError(est, gt)).toBeCloseTo((4 * a * 1000) / NE, 6);
    expect(accelerationError(gt, gt)).toBe(0);
  });
});

describe('feet and root', () => {
  it('foot sliding: a planted ankle moving 2 mm per frame slides 2 mm', () => {
    const gt = sequence(10, 9);
    const an = jointIndexOf('leftFoot');
    const est = mapFrames(gt, (p, j, f) => (j === an ? [0.1, 0.08, 0.002 * f] : p));
    const left = new Array(10).fill(1);
    const right = new Array(10).fill(0);
    const s = footSliding(est, { left, right });
    expect(s.pairs).toBe(9);
    expect(s.mm).toBeCloseTo(2, 9);
    // Toe contact: the toe of this sequence wobbles, the ankle slides: flag 3 takes the slower point.
    const still = mapFrames(gt, (p, j, f) =>
      j === an ? [0.1, 0.08, 0.002 * f] : j === jointIndexOf('leftToes') ? [0.1, 0.02, 0.15] : p,
    );
    expect(footSliding(still, { left: new Array(10).fill(3), right }).mm).toBeCloseTo(0, 9);
  });
  it('ground penetration: feet 5 mm below the truth', () => {
    const gt = sequence(10, 11);
    const est = mapFrames(gt, (p, j) =>
      ['leftFoot', 'rightFoot', 'leftToes', 'rightToes'].includes(RECORDED_JOINTS[j])
        ? math.add(p, [0, -0.005, 0])
        : p,
    );
    // The truth's lowest level per point; every estimated point is 5 mm below its true height, which is at
    // least that level: the depth is at most 5 mm and exactly 5 mm at the lowest frame.
    const g = groundPenetration(est, gt);
    expect(g.maxMm).toBeCloseTo(5, 6);
    expect(g.meanMm).toBeGreaterThan(0);
    expect(g.meanMm).toBeLessThanOrEqual(5 + 1e-9);
    expect(groundPenetration(gt, gt).maxMm).toBe(0);
  });
  it('RTE: 30 mm off a straight 4.7 m path (smoothed ±8 frames at 30 fps) is 0.64 %', () => {
    // Every joint moves 0.01 m/frame in x (sequence) and 0.09 m/frame in z: a straight line. Smoothing a
    // line with truncated windows shortens it by w = 8 frames: travel = (61 − 1 − 8) · |step|.
    const gt = mapFrames(sequence(61, 13), (p, _j, f) => math.add(p, [0, 0, 0.09 * f]));
    const est = mapFrames(gt, (p) => math.add(p, [0.03, 0, 0]));
    const r = rootTrajectoryError(est, gt, 30);
    expect(r.meanMm).toBeCloseTo(30, 6);
    expect(r.travelM).toBeCloseTo(52 * Math.hypot(0.01, 0.09), 9);
    expect(r.rtePct).toBeCloseTo((0.03 / (52 * Math.hypot(0.01, 0.09))) * 100, 9);
    expect(r.rtePct).toBeCloseTo(0.637, 3);
    // Bobbing up and down in place is not travel.
    const bob = mapFrames(sequence(61, 13), (p, _j, f) => math.add(p, [-0.01 * f, 0.2 * Math.sin(f), 0]));
    expect(rootTrajectoryError(bob, bob, 30).travelM).toBeLessThan(1e-9);
    expect(rootTrajectoryError(bob, bob, 30).rtePct).toBeNaN();
  });
  it('bone length std: a shin alternating ±a has std a on one of 9 bones', () => {
    const gt = sequence(1, 15)[0];
    const an = jointIndexOf('leftFoot');
    const sh = jointIndexOf('leftShin');
    const frames = Array.from({ length: 20 }, (_, f) => {
      const out = Float64Array.from(gt);
      const dir = math.normalize(math.sub(math.readVec3(gt, an), math.readVec3(gt, sh)));
      math.writeVec3(out, an, math.addScaled(math.readVec3(gt, an), dir, 0.004 * (-1) ** f));
      return out;
    });
    // The ankle also ends the foot... not a measured bone: only the shin changes.
    expect(boneLengthStd(frames)).toBeCloseTo(4 / 9, 6);
  });
  it('joint angles: a knee bent 30° more', () => {
    const gt = sequence(5, 17);
    const sh = jointIndexOf('leftShin');
    const an = jointIndexOf('leftFoot');
    const est = mapFrames(gt, (p, j, f) => {
      if (j !== an) return p;
      const knee = math.readVec3(gt[f], sh);
      const thigh = math.readVec3(gt[f], jointIndexOf('leftThigh'));
      const axis = math.normalize(math.cross(math.sub(thigh, knee), math.sub(p, knee)));
      return math.add(
        knee,
        math.qRotate(math.qFromAxisAngle(axis, (-30 * Math.PI) / 180), math.sub(p, knee)),
      );
    });
    const e = jointAngleError(est, gt);
    expect(e.perAngle['L knee']).toBeCloseTo(30, 6);
    expect(e.perAngle['R knee']).toBeCloseTo(0, 9);
  });
});

describe('reprojection and ground truth helpers', () => {
  it('projected truth reprojects exactly; 3 px off gives 3 px', () => {
    const k = { fx: 900, fy: 900, cx: 640, cy: 360 };
    const cam = mapFrames(sequence(4, 19), (p) => math.add(p, [0, -1, -5]));
    const image = cam.map((c) => {
      const out: number[] = [];
      for (let j = 0; j < J; j++) out.push(...project(k, math.readVec3(c, j)));
      return out;
    });
    expect(reprojectionError(cam, image, k)).toBeLessThan(1e-9);
    const off = image.map((im) => im.map((v, i) => (i % 2 === 0 ? v + 3 : v)));
    expect(reprojectionError(cam, off, k)).toBeCloseTo(3, 9);
  });
  it('view matrix → extrinsics', () => {
    // Column-major view matrix of a camera at (0, 1, 5) looking down −z: p_cam = p_world − (0, 1, 5).
    const m = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, -5, 1];
    const { R, t } = viewToExtrinsics(m);
    expect(R).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
    expect(t).toEqual([0, -1, -5]);
  });
  it('foot contacts: standing then lifting the left foot', () => {
    const base = sequence(1, 21)[0];
    const world = Array.from({ length: 20 }, (_, f) => {
      const out = Array.from(base);
      if (f >= 10) {
        for (const name of ['leftFoot', 'leftToes'] as const)
          out[jointIndexOf(name) * 3 + 1] += 0.02 * (f - 9);
      }
      return out;
    });
    const c = footContacts(world, 30);
    expect(c.right.every((x) => x > 0)).toBe(true);
    expect(c.left.slice(0, 9).every((x) => x === 1)).toBe(true); // flat foot: both qualify, the ankle is taken
    expect(c.left.slice(12).every((x) => x === 0)).toBe(true);
  });
});

describe('where the error is (withTruth)', () => {
  it("the truth's depths take out a depth error and leave an image-plane one, and the other way round", () => {
    const truth = sequence(30, 4);
    // Knees 12 cm off in depth (camera Z) and wrists 8 cm off across the picture (X).
    const est = mapFrames(truth, (p, j) => {
      if (j === jointIndexOf('leftShin') || j === jointIndexOf('rightShin')) return [p[0], p[1], p[2] + 0.12];
      if (j === jointIndexOf('leftHand') || j === jointIndexOf('rightHand')) return [p[0] + 0.08, p[1], p[2]];
      return p;
    });
    const pa = (e: Frames) => poseErrors(e, truth).paMpjpe;
    const all = pa(est);
    const depthFixed = pa(withTruth(est, truth, 'depth'));
    const planeFixed = pa(withTruth(est, truth, 'imagePlane'));
    expect(all).toBeGreaterThan(10);
    // Either side alone leaves the other's error; both sides from the truth leave none.
    expect(depthFixed).toBeLessThan(all);
    expect(planeFixed).toBeLessThan(all);
    expect(depthFixed).toBeGreaterThan(3);
    expect(planeFixed).toBeGreaterThan(3);
    expect(pa(withTruth(withTruth(est, truth, 'depth'), truth, 'imagePlane'))).toBeLessThan(1e-6);
    // The pelvis stays the estimate's: a frame without a pose stays without.
    const gap: Frames = [...est];
    gap[3] = null;
    expect(withTruth(gap, truth, 'depth')[3]).toBeNull();
  });
});

describe('limb depth order (depthOrder)', () => {
  it("counts frames where a limb's far end is clearly off the image plane, and those the estimate puts on the wrong side", () => {
    // Camera axes, Z along the view. The left knee swings from 30 cm in front of the hip to 30 cm behind it
    // over 21 frames (thigh 43 cm: |dz| ≥ 35 % of it in the frames with |dz| ≥ 0.15 m); the estimate mirrors
    // the knee's depth in frames 0–4 and is right otherwise. Everything else sits in the image plane.
    const hip = jointIndexOf('leftThigh');
    const knee = jointIndexOf('leftShin');
    const truth: Frames = [];
    const est: Frames = [];
    let expected = 0;
    let wrongExpected = 0;
    for (let f = 0; f <= 20; f++) {
      const dz = 0.3 - 0.03 * f;
      const t = new Float64Array(J * 3);
      for (let j = 0; j < J; j++) math.writeVec3(t, j, [0.1 * j, -0.2 * j, 3]);
      const h = math.readVec3(t, hip);
      const drop = Math.sqrt(0.43 ** 2 - dz ** 2);
      math.writeVec3(t, knee, [h[0], h[1] + drop, h[2] + dz]);
      const e = Float64Array.from(t);
      if (f < 5) e[knee * 3 + 2] = h[2] - dz;
      truth.push(t);
      est.push(e);
      if (Math.abs(dz) >= 0.35 * 0.43) {
        expected++;
        if (f < 5) wrongExpected++;
      }
    }
    const d = depthOrder(est, truth);
    expect(d.thigh.counted).toBe(expected);
    expect(d.thigh.wrong).toBe(wrongExpected);
    expect(wrongExpected).toBe(5);
    // Limbs in the image plane have no order to get wrong.
    expect(d['upper arm']).toEqual({ wrong: 0, counted: 0 });
    expect(depthOrder(truth, truth).thigh.wrong).toBe(0);
  });
});

describe('contact agreement (detected vs true foot contacts)', () => {
  it('counts frames of both feet: agreed, detected only, missed; precision and recall from them', () => {
    const truth = { left: [0, 1, 1, 1, 0, 0], right: [2, 2, 0, 0, 0, 1] };
    const detected = { left: [1, 1, 1, 0, 0, 0], right: [0, 1, 0, 1, 0, 1] };
    const a = contactAgreement(detected, truth);
    expect(a).toEqual({ both: 4, detectedOnly: 2, missed: 2 });
    const s = contactScores(a);
    expect(s.precision).toBeCloseTo(4 / 6, 12);
    expect(s.recall).toBeCloseTo(4 / 6, 12);
    expect(contactScores(contactAgreement({ left: [0, 0], right: [0, 0] }, truth)).precision).toBeNaN();
    expect(contactScores(contactAgreement(truth, truth))).toEqual({ precision: 1, recall: 1 });
  });
});
