import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forwardKinematics, jointCount } from '../src/clip.ts';
import { bvhWorld, read, toClip, write } from '../src/formats/bvh.ts';
import * as json from '../src/formats/json.ts';
import { qAngleBetween, qExp, readQuat, readVec3, writeQuat } from '../src/math.ts';
import {
  BVH_DIR,
  blenderImportBvh,
  blenderPath,
  randomClip,
  readSharedBvh,
  threeParseBvh,
  threeWorldPositions,
} from './helpers.ts';

describe('BVH writer and reader', () => {
  it('round-trips rotations and root positions in every rotation order', () => {
    const clip = randomClip(12);
    const n = jointCount(clip.skeleton);
    for (const order of ['ZXY', 'XYZ', 'YZX', 'ZYX'] as const) {
      const text = write(clip, { rotationOrder: order, unit: 'cm' });
      expect(text.startsWith('HIERARCHY\nROOT hips\n{\n  OFFSET 0.0000 0.0000 0.0000\n')).toBe(true);
      const back = toClip(read(text), 0.01);
      expect(back.skeleton.names).toEqual(clip.skeleton.names);
      expect(back.skeleton.parents).toEqual(clip.skeleton.parents);
      expect(back.frameCount).toBe(clip.frameCount);
      let worst = 0;
      for (let k = 0; k < clip.frameCount * n; k++) {
        worst = Math.max(worst, qAngleBetween(readQuat(clip.rotations, k), readQuat(back.rotations, k)));
      }
      expect(worst).toBeLessThan(1e-4);
      for (let f = 0; f < clip.frameCount; f++) {
        const a = readVec3(clip.rootPositions, f);
        const b = readVec3(back.rootPositions, f);
        for (let c = 0; c < 3; c++) expect(b[c]).toBeCloseTo(a[c], 5);
      }
    }
  });

  it('states channels, end sites, and a frame time precise enough for Blender', () => {
    const clip = { ...randomClip(3, 30), fps: 30000 / 1001 };
    const text = write(clip);
    expect(text).toContain('CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation');
    expect(text).toContain('CHANNELS 3 Zrotation Xrotation Yrotation');
    const ends = (text.match(/End Site/g) ?? []).length;
    const leaves = clip.skeleton.names.filter((_, j) => !clip.skeleton.parents.includes(j)).length;
    expect(ends).toBe(leaves);
    const ft = Number(/Frame Time: ([0-9.]+)/.exec(text)![1]);
    expect(Math.abs(1 / ft - 30000 / 1001)).toBeLessThan(1e-6);
  });

  it('keeps Euler angles continuous across frames (no ±360° jumps)', () => {
    const clip = randomClip(40);
    const n = jointCount(clip.skeleton);
    // A full turn of the root about Y over the clip.
    for (let f = 0; f < clip.frameCount; f++)
      writeQuat(clip.rotations, f * n, qExp([0, (f / 39) * 2 * Math.PI, 0]));
    const doc = read(write(clip));
    for (let f = 1; f < doc.frameCount; f++) {
      for (let c = 3; c < doc.channelCount; c++) {
        const d = Math.abs(doc.motion[f * doc.channelCount + c] - doc.motion[(f - 1) * doc.channelCount + c]);
        expect(d).toBeLessThan(120);
      }
    }
  });

  it('three.js BVHLoader reads our file with the same joints, frames and world positions', async () => {
    const clip = randomClip(8, 30);
    const text = write(clip);
    const { result, three } = await threeParseBvh(text);
    const names = result.skeleton.bones.map((b) => b.name).filter((b) => b !== 'ENDSITE');
    expect(names).toEqual(clip.skeleton.names);
    const quatTrack = result.clip.tracks.find((t) => t.name === 'hips.quaternion')!;
    expect(quatTrack.times.length).toBe(clip.frameCount);
    const n = jointCount(clip.skeleton);
    const fk = forwardKinematics(clip);
    for (const f of [0, 3, 7]) {
      const world = threeWorldPositions(three, result, f / clip.fps, clip.skeleton.names as string[]);
      for (let j = 0; j < n; j++) {
        const ours = readVec3(fk.positions, f * n + j).map((v) => v * 100);
        const theirs = world[clip.skeleton.names[j]];
        for (let c = 0; c < 3; c++) expect(theirs[c]).toBeCloseTo(ours[c], 1);
      }
    }
  });

  it('reads all three shared skeleton conventions (frames and joints as in their headers)', () => {
    const dirs = readdirSync(BVH_DIR, { withFileTypes: true }).filter((d) => d.isDirectory());
    // (cmu_more, added later, uses the cmu convention.)
    expect(dirs.map((d) => d.name)).toEqual(
      expect.arrayContaining(['bandai_namco', 'cmu', 'xia_cmu_skeleton']),
    );
    const cases: [string, number, number][] = [
      ['cmu/cmu_002_03.bvh', 86, 60],
      ['xia_cmu_skeleton/xia_angry_13_000.bvh', 140, 120],
      ['bandai_namco/dataset-1_run_normal_001.bvh', 24, 30],
    ];
    for (const [file, frames, fps] of cases) {
      const doc = readSharedBvh(file);
      expect(doc.frameCount).toBe(frames);
      expect(Math.round(1 / doc.frameTime)).toBe(fps);
      const w = bvhWorld(doc, 0);
      for (const v of w.positions) expect(Number.isFinite(v)).toBe(true);
    }
    expect(readSharedBvh('xia_cmu_skeleton/xia_angry_13_000.bvh').joints.length).toBe(31);
    expect(readSharedBvh('bandai_namco/dataset-1_run_normal_001.bvh').joints.length).toBe(22);
  });

  it('rejects malformed input with a line number', () => {
    expect(() => read('HIERARCHY\nROOT a\n{\n OFFSET 0 0\n}\nMOTION\nFrames: 0\nFrame Time: 0.1\n')).toThrow(
      /line/,
    );
    expect(() => read('HIERARCHY\nROOT a\n{\n OFFSET 0 0 0\n CHANNELS 1 Xrotation\n}\n')).toThrow(/MOTION/);
    expect(() =>
      read(
        'HIERARCHY\nROOT a\n{\n OFFSET 0 0 0\n CHANNELS 1 Xrotation\n}\nMOTION\nFrames: 2\nFrame Time: 0.1\n1\n',
      ),
    ).toThrow(/1 frame rows/);
  });

  it('Blender 3.4 imports our BVH with the expected bones, hierarchy, frame range and fps', async () => {
    const blender = blenderPath();
    if (!blender) return; // not installed locally (CI=true requires it)
    const clip = { ...randomClip(24, 30), fps: 30 };
    const dir = mkdtempSync(join(tmpdir(), 'mocap-bvh-'));
    const file = join(dir, 'clip.bvh');
    writeFileSync(file, write(clip));
    const r = await blenderImportBvh(blender, file);
    expect(r.bones).toEqual(clip.skeleton.names);
    expect(r.parents).toEqual(clip.skeleton.parents.map((p) => (p < 0 ? null : clip.skeleton.names[p])));
    expect(r.frameRange).toEqual([1, 24]);
    expect(Math.abs(r.fps - 30)).toBeLessThan(1e-6);
  });
});

describe('JSON export', () => {
  it('round-trips the clip and carries world positions that match FK', () => {
    const clip = randomClip(6);
    const text = json.write(clip);
    const doc = JSON.parse(text) as json.MotionJson;
    expect(doc.format).toBe('mocap-motion');
    expect(doc.frames.length).toBe(6);
    const n = jointCount(clip.skeleton);
    const fk = forwardKinematics(clip);
    for (let f = 0; f < 6; f++) {
      for (let k = 0; k < n * 3; k++)
        expect(doc.frames[f].positions[k]).toBeCloseTo(fk.positions[f * n * 3 + k], 3);
    }
    const back = json.read(text);
    expect(back.skeleton.names).toEqual(clip.skeleton.names);
    for (let k = 0; k < clip.rotations.length; k++)
      expect(back.rotations[k]).toBeCloseTo(clip.rotations[k], 5);
    expect(() => json.read('{"format":"other"}')).toThrow(/mocap-motion/);
  });
});
