import { synthesize } from '@mocap/testkit';
import { describe, expect, it } from 'vitest';
import { forwardKinematics, restClip } from '../src/clip.ts';
import { read as readBvh, write as writeBvh } from '../src/formats/bvh.ts';
import { dot, normalize, qFromAxisAngle, qMul, qRotate, sub, type Vec3, writeQuat } from '../src/math.ts';
import { createSkeleton } from '../src/skeleton.ts';
import { solveDetailed } from '../src/solver/index.ts';

/**
 * The up direction when no frame has straight legs (ground.ts header; the upright-stance cue in the solver's
 * floor stage): a person holding a bent-knee stance (knees bent 70°, hips over the ankles, arms and hips
 * moving) filmed by a static camera 2.4 m up looking down at them. With no straight legs and no travel the
 * only other guess is a level camera, off by the camera's pitch (about 15° here); the stance on two still
 * feet says where up is.
 */
describe('up direction from an upright stance on two still feet', () => {
  const deg = Math.PI / 180;
  const stanceClip = () => {
    const sk = createSkeleton();
    const N = 120;
    const clip = restClip(sk, N, 30);
    const n = sk.names.length;
    const j = (name: string) => sk.names.indexOf(name);
    for (let f = 0; f < N; f++) {
      const t = f / 30;
      const sway = Math.sin(t * 2.1) * 4 * deg;
      for (const side of ['left', 'right']) {
        const s = side === 'left' ? 1 : -1;
        // Thigh forward 35° and out 12°, shin back 70°: knees bent 70°, the ankles back under the hips.
        writeQuat(
          clip.rotations,
          f * n + j(`${side}Thigh`),
          qMul(qFromAxisAngle([0, 0, 1], s * 12 * deg), qFromAxisAngle([1, 0, 0], -35 * deg)),
        );
        writeQuat(clip.rotations, f * n + j(`${side}Shin`), qFromAxisAngle([1, 0, 0], 70 * deg));
        writeQuat(clip.rotations, f * n + j(`${side}Foot`), qFromAxisAngle([1, 0, 0], -35 * deg));
        // Arms moving slowly in front of the body.
        writeQuat(
          clip.rotations,
          f * n + j(`${side}UpperArm`),
          qMul(
            qFromAxisAngle([0, 0, 1], -s * (60 + 20 * Math.sin(t * 1.3 + s)) * deg),
            qFromAxisAngle([0, 1, 0], s * 30 * deg),
          ),
        );
        writeQuat(
          clip.rotations,
          f * n + j(`${side}Forearm`),
          qFromAxisAngle([0, 1, 0], -s * (30 + 15 * Math.sin(t * 1.7)) * deg),
        );
      }
      writeQuat(clip.rotations, f * n + j('hips'), qFromAxisAngle([0, 1, 0], sway));
    }
    // Hips lowered by the stance, sole on the floor: place the root so the lowest foot point is at y 0.
    const { positions } = forwardKinematics(clip);
    let low = Number.POSITIVE_INFINITY;
    for (let f = 0; f < N; f++)
      for (const name of ['leftToes', 'rightToes', 'leftFoot', 'rightFoot'])
        low = Math.min(low, positions[(f * n + j(name)) * 3 + 1]);
    for (let f = 0; f < N; f++) clip.rootPositions[f * 3 + 1] -= low - 0.03;
    return { clip, j, n };
  };

  it('the stance is what the test says: knees bent, hips over the ankles', () => {
    const { clip, j, n } = stanceClip();
    const { positions } = forwardKinematics(clip);
    const P = (name: string): Vec3 => {
      const o = j(name) * 3;
      return [positions[o], positions[o + 1], positions[o + 2]];
    };
    void n;
    const hip = P('leftThigh');
    const knee = P('leftShin');
    const ankle = P('leftFoot');
    const flex = Math.acos(dot(normalize(sub(knee, hip)), normalize(sub(ankle, knee)))) / deg;
    expect(flex).toBeGreaterThan(60);
    // The knee in front of the hip, the ankle back under it (within 8 cm horizontally).
    expect(knee[2] - hip[2]).toBeGreaterThan(0.15);
    expect(Math.abs(ankle[2] - hip[2])).toBeLessThan(0.08);
  });

  it('a camera 2.4 m up: the solved up is within 4° of the truth (a level-camera guess is off by > 10°)', () => {
    const { clip } = stanceClip();
    const doc = readBvh(writeBvh(clip));
    const synth = synthesize(doc, { seed: 7, azimuth: 0.3, cameraHeight: 2.4, dropouts: false, lost: false });
    const d = solveDetailed(synth.tracks);
    expect(d.cameraFromWorld).toBeDefined();
    const up = qRotate(d.cameraFromWorld!.rotation, [0, 1, 0]);
    // The truth in the solver's camera axes (x right, y up, z towards the viewer); the synthetic camera's
    // basis is x right, y down, z away.
    const q = synth.camera.rotation;
    const xc = qRotate(q, [1, 0, 0]);
    const yc = qRotate(q, [0, 1, 0]);
    const zc = qRotate(q, [0, 0, 1]);
    const trueUp: Vec3 = [xc[1], -yc[1], -zc[1]];
    const levelGuess = Math.acos(Math.min(1, trueUp[1])) / deg;
    expect(levelGuess).toBeGreaterThan(10);
    const err = Math.acos(Math.min(1, dot(normalize(up), normalize(trueUp)))) / deg;
    expect(err).toBeLessThan(4);
  });
});
