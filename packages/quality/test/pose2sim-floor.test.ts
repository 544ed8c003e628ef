import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bvh, solveDetailed } from '@mocap/motion';
import { synthetic } from '@mocap/testkit';
import { describe, expect, it } from 'vitest';
import {
  armFromTrunkDeg,
  bodyImageHeight,
  feetOnFloor,
  jointAt,
  jointIndexOf,
  LANDMARKS_OF,
  parseCalibration,
  parseTrc,
  poseErrors,
  RECORDED_JOINTS,
  rodrigues,
  triangulateTrial,
} from '../src/index.ts';

const here = dirname(fileURLToPath(import.meta.url));
const DATA = join(here, '..', '..', '..', '..', 'shared', 'testdata');
const P2S = join(DATA, 'gt', 'pose2sim_static_trial_4view');

describe('Pose2Sim static trial files', () => {
  it('reads the four calibrated cameras (OpenCV K) and the triangulated joints', () => {
    const cams = parseCalibration(readFileSync(join(P2S, 'calibration', 'Calib_qualisys.toml'), 'utf8'));
    expect(cams.map((c) => c.name)).toEqual(['cam_01', 'cam_02', 'cam_03', 'cam_04']);
    expect(cams[0].k.fx).toBeCloseTo(1681.2449, 3);
    expect(cams[0].k.cy).toBeCloseTo(948.1374, 3);
    expect(cams[0].width).toBe(1088);
    const frames = parseTrc(readFileSync(join(P2S, 'pose-3d', 'S00_P00_T00_StaticTrial_0-12.trc'), 'utf8'));
    expect(frames.length).toBe(12);
    const f0 = frames[0]!;
    // RHip of the first row (file values), and the pelvis is the midpoint of the hips.
    expect(jointAt(f0, jointIndexOf('rightThigh'))[1]).toBeCloseTo(0.8696950332650176, 12);
    const pel = jointAt(f0, jointIndexOf('hips'));
    const l = jointAt(f0, jointIndexOf('leftThigh'));
    const r = jointAt(f0, jointIndexOf('rightThigh'));
    for (let a = 0; a < 3; a++) expect(pel[a]).toBeCloseTo((l[a] + r[a]) / 2, 12);
    // A standing person: head above hips above knees above ankles (Y up).
    const y = (j: Parameters<typeof jointIndexOf>[0]) => jointAt(f0, jointIndexOf(j))[1];
    expect(y('head')).toBeGreaterThan(y('hips'));
    expect(y('hips')).toBeGreaterThan(y('leftShin'));
    expect(y('leftShin')).toBeGreaterThan(y('leftFoot'));
    // PA-MPJPE of the reference against itself turned, moved and scaled is 0.
    const moved = frames.map((fr) => {
      const out = new Float64Array(fr!.length);
      for (let j = 0; j < fr!.length / 3; j++) {
        const [px, py, pz] = [fr![j * 3], fr![j * 3 + 1], fr![j * 3 + 2]];
        out.set([1.3 * pz + 2, 1.3 * py - 1, -1.3 * px], j * 3);
      }
      return out;
    });
    expect(poseErrors(moved, frames).paMpjpe).toBeLessThan(1e-6);
  });

  it('measures arm elevation: the reference holds the arms low although the videos show a T-pose', () => {
    // Synthetic bodies: arms hanging (0°) and horizontal (90°).
    const body = (armDown: boolean) => {
      const fr = new Float64Array(RECORDED_JOINTS.length * 3);
      const put = (j: Parameters<typeof jointIndexOf>[0], p: number[]) => fr.set(p, jointIndexOf(j) * 3);
      put('hips', [0, 1, 0]);
      put('leftUpperArm', [0.2, 1.5, 0]);
      put('rightUpperArm', [-0.2, 1.5, 0]);
      put('leftForearm', armDown ? [0.2, 1.2, 0] : [0.5, 1.5, 0]);
      put('rightForearm', armDown ? [-0.2, 1.2, 0] : [-0.5, 1.5, 0]);
      return fr;
    };
    expect(armFromTrunkDeg([body(true)])).toBeCloseTo(0, 6);
    expect(armFromTrunkDeg([body(false), null])).toBeCloseTo(90, 6);
    const frames = parseTrc(readFileSync(join(P2S, 'pose-3d', 'S00_P00_T00_StaticTrial_0-12.trc'), 'utf8'));
    // The triangulated reference: arms about 30° from the trunk, far from the T-pose of the four videos.
    expect(armFromTrunkDeg(frames)).toBeLessThan(45);
  });
});

describe('4-view triangulation of the trial videos', () => {
  it('recovers known 3D landmarks from their projections in calibrated cameras, with zero reprojection', () => {
    const cams = parseCalibration(readFileSync(join(P2S, 'calibration', 'Calib_qualisys.toml'), 'utf8'));
    // Rotations from the file are orthonormal.
    for (const c of cams) {
      const R = c.R;
      for (let a = 0; a < 3; a++)
        for (let b = 0; b < 3; b++) {
          const d = R[a * 3] * R[b * 3] + R[a * 3 + 1] * R[b * 3 + 1] + R[a * 3 + 2] * R[b * 3 + 2];
          expect(d).toBeCloseTo(a === b ? 1 : 0, 9);
        }
    }
    expect(rodrigues([0, 0, Math.PI / 2]).map((v) => Math.round(v * 1e9) / 1e9)).toEqual([
      0, -1, 0, 1, 0, 0, 0, 0, 1,
    ]);
    // 33 landmarks of a body standing at the world origin (Z up, as the calibration), two frames.
    const truth = (f: number) =>
      Array.from({ length: 33 }, (_, i) => [
        -1 + 0.3 * Math.sin(i * 1.7 + f),
        0.2 * Math.cos(i * 2.3),
        0.1 + (1.6 * i) / 33,
      ]);
    const project = (c: (typeof cams)[number], X: number[]) => {
      const p = [0, 1, 2].map(
        (r) => c.R[r * 3] * X[0] + c.R[r * 3 + 1] * X[1] + c.R[r * 3 + 2] * X[2] + c.t[r],
      );
      return [c.k.fx * (p[0] / p[2]) + c.k.cx, c.k.fy * (p[1] / p[2]) + c.k.cy];
    };
    const tracks = cams.map((c) => ({
      frames: [0, 1].map((f) => ({
        state: 'tracked',
        image: truth(f).map((X) => [...project(c, X), 0, 1, 1]),
      })),
    })) as unknown as Parameters<typeof triangulateTrial>[1];
    const tri = triangulateTrial(cams, tracks);
    for (const e of tri.reprojPx) expect(e).toBeLessThan(1e-3);
    for (let f = 0; f < 2; f++) {
      const fr = tri.frames[f]!;
      RECORDED_JOINTS.forEach((j, ji) => {
        const ls = LANDMARKS_OF[j];
        for (let a = 0; a < 3; a++) {
          const want = ls.reduce((acc, l) => acc + truth(f)[l][a], 0) / ls.length;
          expect(fr[ji * 3 + a]).toBeCloseTo(want, 5);
        }
      });
    }
    // A landmark seen by one camera only leaves its frame out.
    (tracks[1].frames[0] as { state: string }).state = 'lost';
    (tracks[2].frames[0] as { state: string }).state = 'lost';
    (tracks[3].frames[0] as { state: string }).state = 'lost';
    expect(triangulateTrial(cams, tracks).frames[0]).toBeNull();
  });
});

describe('real-clip figures: body image height, feet on the floor', () => {
  const doc = bvh.read(readFileSync(join(DATA, 'bvh', 'cmu', 'cmu_002_01.bvh'), 'utf8'));
  const syn = synthetic.synthesize(doc, { seed: 4, maxFrames: 150, dropouts: false, lost: false });
  const details = solveDetailed(syn.tracks, { focalLengthPx: syn.camera.f, focalFromMetadata: true });

  it('the image height of a walking subject matches its projected landmarks', () => {
    const h = bodyImageHeight(syn.tracks);
    const frame = syn.tracks.frames.find((f) => f.image)!;
    const vs = frame.image!.map((p) => p[1]);
    expect(h).toBeGreaterThan(0.8 * (Math.max(...vs) - Math.min(...vs)));
    expect(h).toBeLessThan(1.25 * (Math.max(...vs) - Math.min(...vs)));
  });

  it('counts frames with a foot within 5 cm of the floor, leaves out image jumps', () => {
    const px = bodyImageHeight(syn.tracks);
    const grounded = feetOnFloor(syn.tracks, details.clip, details.model, px);
    expect(grounded.pct).toBeGreaterThan(97);
    expect(grounded.jumps).toBe(0);
    // The same clip lifted 20 cm: no frame on the floor.
    const lifted = { ...details.clip, rootPositions: Float32Array.from(details.clip.rootPositions) };
    for (let f = 0; f < lifted.frameCount; f++) lifted.rootPositions[f * 3 + 1] += 0.2;
    expect(feetOnFloor(syn.tracks, lifted, details.model, px).pct).toBe(0);
    // Frames 60-69 jump in the image (every landmark 25 % of the body height up): left out.
    const jumping = structuredClone(syn.tracks);
    for (let f = 60; f < 70; f++) {
      for (const p of jumping.frames[f].image!) p[1] -= 0.25 * px;
    }
    const r = feetOnFloor(jumping, lifted, details.model, px);
    expect(r.jumps).toBe(10);
    expect(r.frames).toBe(grounded.frames - 10);
  });
});
