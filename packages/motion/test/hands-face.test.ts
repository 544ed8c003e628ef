import type { FaceTrack, HandTrack, Tracks } from '@mocap/vision';
import { describe, expect, it } from 'vitest';
import { ARKIT_BLENDSHAPES, jointCount, poseToWorld, restClip, type WorldPose } from '../src/clip.ts';
import {
  add,
  cross,
  qAngleBetween,
  qExp,
  qFromAxisAngle,
  qRotate,
  readQuat,
  readVec3,
  scale,
  sub,
  type Vec3,
  writeQuat,
} from '../src/math.ts';
import { createSkeleton, FINGER_GEOMETRY, FINGERS, type Side } from '../src/skeleton.ts';
import { SUPPORTED_BLENDSHAPES } from '../src/solver/face.ts';
import { solve } from '../src/solver/index.ts';
import { syntheticFrom } from './helpers.ts';

const DEG = Math.PI / 180;

/** Known finger pose at frame f: curls about each finger's hinge axis (thumb: a smaller curl). */
function fingerRotation(side: Side, finger: string, k: number, f: number) {
  const s = side === 'left' ? 1 : -1;
  const g = FINGER_GEOMETRY[finger as keyof typeof FINGER_GEOMETRY];
  const dir: Vec3 = [s * g.dir[0], g.dir[1], g.dir[2]];
  const axis = cross(dir, [0, -1, 0]);
  const phase = (f / 30) * 2 * Math.PI * 0.5 + (side === 'left' ? 0 : 1);
  const amount = finger === 'Thumb' ? 15 + 10 * Math.sin(phase) : (k === 1 ? 35 : 45) + 30 * Math.sin(phase);
  return qFromAxisAngle(axis, amount * DEG);
}

/** Hand tracks (21 MediaPipe points, metres, camera axes) from the canonical skeleton with known fingers. */
function handTracks(frames: number): { left: HandTrack; right: HandTrack }[] {
  const sk = createSkeleton();
  const n = jointCount(sk);
  const clip = restClip(sk, frames, 30);
  const idx = (name: string) => sk.names.indexOf(name);
  const out: { left: HandTrack; right: HandTrack }[] = [];
  const pose: WorldPose = { positions: new Float64Array(n * 3), rotations: new Float64Array(n * 4) };
  for (let f = 0; f < frames; f++) {
    // Hands turned in some arbitrary, changing way: the palm frame comes from the track itself.
    writeQuat(clip.rotations, f * n + idx('leftHand'), qExp([0.3, 0.5 + f * 0.01, -0.2]));
    writeQuat(clip.rotations, f * n + idx('rightHand'), qExp([-0.4, 0.2, 0.6 - f * 0.01]));
    for (const side of ['left', 'right'] as const) {
      for (const finger of FINGERS) {
        for (let k = 1; k <= 3; k++) {
          writeQuat(clip.rotations, f * n + idx(`${side}${finger}${k}`), fingerRotation(side, finger, k, f));
        }
      }
    }
    poseToWorld(sk, clip.rotations, f * n * 4, readVec3(clip.rootPositions, f), pose);
    const track = (side: Side): HandTrack => {
      const P = (name: string): Vec3 => readVec3(pose.positions, idx(name));
      const tip = (name: string): Vec3 =>
        add(P(name), qRotate(readQuat(pose.rotations, idx(name)), readVec3(sk.tips, idx(name))));
      const pts: Vec3[] = [P(`${side}Hand`)];
      for (const finger of FINGERS) {
        pts.push(
          P(`${side}${finger}1`),
          P(`${side}${finger}2`),
          P(`${side}${finger}3`),
          tip(`${side}${finger}3`),
        );
      }
      const c = pts[9];
      // Body space (Y up, Z to the viewer) → camera axes (y down, z away), centred on the hand.
      const world = pts.map((p) => {
        const d = sub(p, c);
        return [d[0], -d[1], -d[2]] as [number, number, number];
      });
      return {
        score: 0.95,
        handedness: side === 'right' ? 0.9 : 0.1,
        image: world.map(() => [0, 0, 0]),
        world,
      };
    };
    out.push({ left: track('left'), right: track('right') });
  }
  return out;
}

describe('fingers from hand tracks', () => {
  it('recovers known finger rotations (curls and thumb) within a few degrees', () => {
    const syn = syntheticFrom('cmu/cmu_002_01.bvh', { maxFrames: 60, lost: false, dropouts: false });
    const hands = handTracks(60);
    const tracks: Tracks = {
      ...syn.tracks,
      frames: syn.tracks.frames.map((fr, f) => ({ ...fr, hands: hands[f] })),
    };
    const clip = solve(tracks, { focalLengthPx: syn.camera.f, smoothing: 0.2 });
    const sk = clip.skeleton;
    expect(sk.names).toContain('leftIndex3');
    expect(clip.metadata.options?.hands).toBe(true);
    const n = jointCount(sk);
    let worst = 0;
    for (const f of [5, 20, 35, 50]) {
      for (const side of ['left', 'right'] as const) {
        for (const finger of FINGERS) {
          for (let k = 1; k <= 3; k++) {
            const q = readQuat(clip.rotations, f * n + sk.names.indexOf(`${side}${finger}${k}`));
            worst = Math.max(worst, qAngleBetween(q, fingerRotation(side, finger, k, f)));
          }
        }
      }
    }
    expect(worst / DEG).toBeLessThan(4);
  });

  it('without hand tracks the skeleton has no finger joints', () => {
    const syn = syntheticFrom('cmu/cmu_002_01.bvh', { maxFrames: 30 });
    const clip = solve(syn.tracks, { focalLengthPx: syn.camera.f });
    expect(clip.skeleton.names.length).toBe(22);
    expect(clip.blendshapes).toBeUndefined();
  });
});

/** Face-mesh template (x: subject's left, y: up), outer eye corners 1 apart. */
const FACE: Record<number, [number, number]> = {
  263: [0.5, 0],
  362: [0.15, 0],
  386: [0.33, 0.08],
  385: [0.25, 0.07],
  387: [0.41, 0.065],
  374: [0.33, -0.06],
  380: [0.25, -0.055],
  373: [0.41, -0.05],
  336: [0.15, 0.3],
  300: [0.5, 0.28],
  291: [0.3, -0.8],
  267: [0.12, -0.74],
  314: [0.12, -0.86],
  1: [0, -0.45],
  10: [0, 0.75],
  152: [0, -1.25],
  13: [0, -0.78],
  14: [0, -0.8],
};
const MIRROR: Record<number, number> = {
  263: 33,
  362: 133,
  386: 159,
  385: 158,
  387: 160,
  374: 145,
  380: 153,
  373: 144,
  336: 107,
  300: 70,
  291: 61,
  267: 37,
  314: 84,
};

describe('ARKit blendshapes from the face mesh', () => {
  it('blinks, jaw opening and a one-sided smile show up on the right shapes', () => {
    const N = 120;
    const syn = syntheticFrom('bandai_namco/dataset-1_byebye_normal_001.bvh', {
      maxFrames: N,
      lost: false,
      dropouts: false,
    });
    const frames = syn.tracks.frames.map((fr, f) => {
      const face: Record<number, [number, number]> = {};
      for (const [k, v] of Object.entries(FACE)) {
        face[Number(k)] = [...v];
        if (MIRROR[Number(k)] !== undefined) face[MIRROR[Number(k)]] = [-v[0], v[1]];
      }
      if (f >= 40 && f < 50)
        for (const [u, l] of [
          [386, 374],
          [385, 380],
          [387, 373],
        ])
          face[u] = [...face[l]];
      if (f >= 60 && f < 75) {
        face[152][1] -= 0.35;
        face[14][1] -= 0.25;
        face[314][1] -= 0.25;
        face[84][1] -= 0.25;
      }
      if (f >= 90 && f < 100) face[291] = [face[291][0] + 0.03, face[291][1] + 0.14];
      // Place the face on the pose's eyes (subject's left eye appears on its own side of the image).
      const im = fr.image!;
      const le: Vec3 = [im[2][0], im[2][1], 0];
      const re: Vec3 = [im[5][0], im[5][1], 0];
      const ex = sub(le, re);
      const unit = Math.hypot(ex[0], ex[1]) / 0.62;
      const xAxis = scale(ex, 1 / Math.hypot(ex[0], ex[1]));
      const yAxis: Vec3 = [xAxis[1], -xAxis[0], 0]; // image "up" on the face, for either facing direction
      const centre = scale(add(le, re), 0.5);
      const image: [number, number, number][] = Array.from({ length: 468 }, () => [centre[0], centre[1], 0]);
      for (const [k, [x, y]] of Object.entries(face)) {
        const p = add(centre, add(scale(xAxis, x * unit), scale(yAxis, -y * unit)));
        image[Number(k)] = [p[0], p[1], 0];
      }
      const track: FaceTrack = { score: 0.99, image };
      return { ...fr, face: track };
    });
    const clip = solve({ ...syn.tracks, frames }, { focalLengthPx: syn.camera.f });
    const bs = clip.blendshapes!;
    expect(bs.names).toEqual(ARKIT_BLENDSHAPES);
    expect(bs.supported.length).toBeGreaterThan(20);
    expect(bs.supported.every((s) => SUPPORTED_BLENDSHAPES.includes(s))).toBe(true);
    const w = (name: string, f: number) => bs.weights[f * 52 + ARKIT_BLENDSHAPES.indexOf(name as never)];
    const at = (name: string, frames: number[]) => frames.map((f) => w(name, f));
    expect(Math.min(...at('eyeBlinkLeft', [43, 45, 47]))).toBeGreaterThan(0.7);
    expect(Math.max(...at('eyeBlinkLeft', [10, 25, 70, 110]))).toBeLessThan(0.2);
    expect(Math.max(...at('eyeBlinkRight', [43, 45, 47, 10]))).toBeLessThan(0.2);
    expect(Math.min(...at('jawOpen', [64, 67, 70]))).toBeGreaterThan(0.5);
    expect(Math.max(...at('jawOpen', [10, 45, 95, 110]))).toBeLessThan(0.15);
    expect(Math.min(...at('mouthSmileLeft', [93, 95, 97]))).toBeGreaterThan(0.6);
    expect(Math.max(...at('mouthSmileRight', [93, 95, 97]))).toBeLessThan(0.2);
    // Unsupported shapes stay zero.
    for (let f = 0; f < clip.frameCount; f++) expect(w('cheekPuff', f)).toBe(0);
  });
});
