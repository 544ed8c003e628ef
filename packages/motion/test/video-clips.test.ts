/**
 * Issue 3's acceptance on the real clips in ../shared/testdata/videos: tracked with `trackVideo` (lite model,
 * to keep the suite short), solved, written as BVH and read back by three.js and Blender.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clipBoneStd } from '@mocap/testkit';
import { type Tracks, trackVideo } from '@mocap/vision';
import { beforeAll, describe, expect, it } from 'vitest';
import { jointCount, poseToWorld, validateClip, type WorldPose } from '../src/clip.ts';
import { write as writeBvh } from '../src/formats/bvh.ts';
import { readVec3 } from '../src/math.ts';
import { footPoints } from '../src/solver/ground.ts';
import { solve, solveDetailed } from '../src/solver/index.ts';
import { blenderImportBvh, blenderPath, jitter, threeParseBvh, VIDEO_DIR } from './helpers.ts';

const clips = readdirSync(VIDEO_DIR)
  .filter((f) => f.endsWith('.mp4'))
  .sort();
const tracks = new Map<string, Tracks>();

beforeAll(async () => {
  for (const clip of clips) tracks.set(clip, await trackVideo(join(VIDEO_DIR, clip), { model: 'lite' }));
});

describe('real video clips: video → tracks → clip → BVH', () => {
  it('finds the test clips', () => {
    expect(clips.length).toBeGreaterThanOrEqual(8);
  });

  for (const name of clips) {
    it(`${name}: no NaN, constant bones, feet not below the floor, BVH read back by three.js and Blender`, async () => {
      const t = tracks.get(name)!;
      const { clip, model } = solveDetailed(t);
      validateClip(clip);
      expect(clip.frameCount).toBe(t.frames.length);
      expect(clipBoneStd(clip)).toBeLessThan(0.01); // mm
      const n = jointCount(clip.skeleton);
      const pose: WorldPose = { positions: new Float64Array(n * 3), rotations: new Float64Array(n * 4) };
      let lowest = Number.POSITIVE_INFINITY;
      for (let f = 0; f < clip.frameCount; f++) {
        poseToWorld(clip.skeleton, clip.rotations, f * n * 4, readVec3(clip.rootPositions, f), pose);
        for (const side of ['left', 'right'] as const) {
          const { heel, toe } = footPoints(model, pose, side);
          lowest = Math.min(lowest, heel[1], toe[1]);
        }
      }
      expect(lowest).toBeGreaterThan(-0.01);

      const text = writeBvh(clip);
      const { result } = await threeParseBvh(text);
      expect(result.skeleton.bones.map((b) => b.name).filter((b) => b !== 'ENDSITE')).toEqual(
        clip.skeleton.names,
      );
      for (const track of result.clip.tracks) expect(track.times.length).toBe(clip.frameCount);

      const blender = blenderPath();
      if (blender) {
        const file = join(mkdtempSync(join(tmpdir(), 'mocap-video-')), `${name}.bvh`);
        writeFileSync(file, text);
        const r = await blenderImportBvh(blender, file);
        expect(r.bones).toEqual(clip.skeleton.names);
        expect(r.frameRange).toEqual([1, clip.frameCount]);
        expect(Math.abs(r.fps - clip.fps)).toBeLessThan(1e-3);
      }
    });
  }

  it('sports2d side walk: the character travels the way the person walks; with root at origin it stays', () => {
    const t = tracks.get('sports2d_demo4_indoor_side_walk.mp4')!;
    const clip = solve(t);
    // The person walks towards image-left, turns, and walks back to the right (pure side view).
    const hipX = t.frames.map((fr) => (fr.image ? (fr.image[23][0] + fr.image[24][0]) / 2 : Number.NaN));
    const seen = hipX.map((x, f) => (Number.isFinite(x) ? f : -1)).filter((f) => f >= 0);
    const first = seen[0];
    const last = seen[seen.length - 1];
    const turn = seen.reduce((a, f) => (hipX[f] < hipX[a] ? f : a), first);
    expect(hipX[first] - hipX[turn]).toBeGreaterThan(0.5 * t.video.width);
    const root = (f: number) => readVec3(clip.rootPositions, f);
    const out = [root(turn)[0] - root(first)[0], root(turn)[2] - root(first)[2]];
    const back = [root(last)[0] - root(turn)[0], root(last)[2] - root(turn)[2]];
    // World +X is the camera's right: walking to image-left is -X, mostly sideways rather than in depth.
    expect(out[0]).toBeLessThan(-2);
    expect(Math.abs(out[1])).toBeLessThan(0.5 * Math.abs(out[0]));
    expect(back[0]).toBeGreaterThan(2);
    expect(Math.abs(back[1])).toBeLessThan(0.5 * Math.abs(back[0]));

    const fixed = solve(t, { rootAtOrigin: true });
    for (let f = 0; f < fixed.frameCount; f++) {
      expect(fixed.rootPositions[f * 3]).toBe(0);
      expect(fixed.rootPositions[f * 3 + 2]).toBe(0);
    }
  });

  it('raising smoothing from 0 to 1 lowers the jitter monotonically on a real clip', () => {
    const t = tracks.get('romp_sample_video2_studio_dance.mp4')!;
    const values = [0, 0.25, 0.5, 0.75, 1].map((smoothing) => jitter(solve(t, { smoothing })));
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeLessThan(values[i - 1]);
  });
});
