/**
 * Dance synthesis on generated music: beat alignment (AIST++ BAS) overall and per tempo section, feet,
 * determinism per seed, no back-to-back repeats, export through @mocap/motion; and the retargeting of the CMU
 * takes the shipped library is built from.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { bvh, exportBoneType, math, poseToWorld, validateClip } from '@mocap/motion';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  analyzeMusic,
  BODY_SKELETON,
  beatAlignment,
  clipKinematicBeats,
  clipKinematics,
  decodeLibrary,
  encodeLibrary,
  footFigures,
  generateDance,
  type PreparedLibrary,
  prepareLibrary,
  retargetBvh,
  testTracks,
} from '../src/index.ts';

const here = dirname(fileURLToPath(import.meta.url));
const ASSET = join(here, '../assets/cmu-dance.mdl.gz');
const SHARED_05 = join(
  here,
  '../../../../shared/testdata/bvh/cmu_more/chrystianosaraujo_motion-viewer/data/05',
);

let prep: PreparedLibrary;
beforeAll(() => {
  prep = prepareLibrary(decodeLibrary(gunzipSync(readFileSync(ASSET))));
});

describe('shipped library', () => {
  it('holds the CMU dance takes, cut into units, with the CMU credit', () => {
    expect(prep.library.clips.length).toBe(19);
    expect(prep.units.length).toBeGreaterThan(150);
    expect(prep.credits).toMatch(/mocap\.cs\.cmu\.edu/);
    // Units span one kinematic beat: 0.2–1.5 s.
    for (const u of prep.units) expect(u.duration).toBeGreaterThanOrEqual(0.2);
    // The encoding round-trips (int16 quaternions: within 1e-4).
    const again = decodeLibrary(encodeLibrary(prep.library));
    const a = prep.library.clips[3].rotations;
    const b = again.clips[3].rotations;
    let worst = 0;
    for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
    expect(worst).toBeLessThan(1e-4);
    expect(() => decodeLibrary(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]))).toThrow(/not a dance library/);
  });

  it('retargets a CMU take so the canonical joints follow the source (bone directions, feet on the floor)', () => {
    const doc = bvh.read(readFileSync(join(SHARED_05, '05_02.bvh'), 'utf8'));
    const clip = retargetBvh(doc, 'cmu_05_02');
    expect(clip.frameCount).toBe(Math.floor(((doc.frameCount - 1) * 30) / 120) + 1);
    const n = BODY_SKELETON.names.length;
    const pose = { positions: new Float64Array(3 * n), rotations: new Float64Array(4 * n) };
    const pairs: [string, string, string, string][] = [
      ['leftThigh', 'leftShin', 'LeftUpLeg', 'LeftLeg'],
      ['rightShin', 'rightFoot', 'RightLeg', 'RightFoot'],
      ['leftUpperArm', 'leftForearm', 'LeftArm', 'LeftForeArm'],
      ['rightForearm', 'rightHand', 'RightForeArm', 'RightHand'],
    ];
    let worst = 0;
    for (let f = 0; f < clip.frameCount; f += 7) {
      poseToWorld(BODY_SKELETON, clip.rotations, f * n * 4, math.readVec3(clip.rootPositions, f), pose);
      const w = bvh.bvhWorld(doc, f * 4);
      for (const [c0, c1, s0, s1] of pairs) {
        const P = (name: string) => math.readVec3(pose.positions, BODY_SKELETON.names.indexOf(name));
        const S = (name: string) =>
          math.readVec3(
            w.positions,
            doc.joints.findIndex((j) => j.name === name),
          );
        const dc = math.normalize(math.sub(P(c1), P(c0)));
        const ds = math.normalize(math.sub(S(s1), S(s0)));
        worst = Math.max(worst, math.angleBetween(dc, ds));
      }
    }
    expect(worst).toBeLessThan(0.02); // radians: limb directions match the source
    // Feet on the floor: the lowest foot point is near 0 most of the time, never far below it.
    let minY = Number.POSITIVE_INFINITY;
    for (let f = 0; f < clip.frameCount; f++) {
      poseToWorld(BODY_SKELETON, clip.rotations, f * n * 4, math.readVec3(clip.rootPositions, f), pose);
      minY = Math.min(minY, pose.positions[BODY_SKELETON.names.indexOf('leftToes') * 3 + 1]);
    }
    expect(minY).toBeGreaterThan(-0.03);
  });
});

describe('generateDance', () => {
  const cases = ['steady-128-four', 'jump-90-140', 'ramp-100-160'];
  for (const name of cases) {
    it(`${name}: BAS ≥ 0.24 overall and per tempo section, feet locked, no floating, no repeats`, () => {
      const spec = testTracks.STANDARD_TRACKS.find((t) => t.name === name);
      if (!spec) throw new Error(name);
      const track = testTracks.renderTrack(spec);
      const analysis = analyzeMusic({ samples: track.samples, sampleRate: track.sampleRate });
      const t0 = performance.now();
      const { clip, steps } = generateDance(analysis, prep, { seed: 3 });
      const ms = performance.now() - t0;
      validateClip(clip);
      expect(clip.frameCount).toBe(Math.round(analysis.duration * 30) + 1);
      const k = clipKinematics(clip);
      const kb = clipKinematicBeats(k);
      expect(beatAlignment(kb, track.beats)).toBeGreaterThanOrEqual(0.24);
      for (const s of track.sections) {
        expect(beatAlignment(kb, track.beats, { from: s.start, to: s.end })).toBeGreaterThanOrEqual(0.24);
      }
      const feet = footFigures(k, clip);
      expect(feet.contacts).toBeGreaterThan(10);
      expect(feet.slideMeanCm).toBeLessThanOrEqual(2);
      expect(feet.floatingFrames).toBe(0);
      for (let i = 1; i < steps.length; i++) expect(steps[i].unit).not.toBe(steps[i - 1].unit);
      // The whole track is danced, step after step.
      expect(steps[0].t0).toBe(0);
      expect(steps.at(-1)?.t1 ?? 0).toBeGreaterThanOrEqual(analysis.duration - 0.01);
      expect(ms).toBeLessThan(5000);
    });
  }

  it('is deterministic per seed; another seed gives another dance; random motion scores lower BAS', () => {
    const track = testTracks.renderTrack(testTracks.STANDARD_TRACKS[1]);
    const analysis = analyzeMusic({ samples: track.samples, sampleRate: track.sampleRate });
    const a = generateDance(analysis, prep, { seed: 11 });
    const b = generateDance(analysis, prep, { seed: 11 });
    const c = generateDance(analysis, prep, { seed: 12 });
    expect(Buffer.from(a.clip.rotations.buffer).equals(Buffer.from(b.clip.rotations.buffer))).toBe(true);
    expect(a.steps.map((s) => s.unit)).not.toEqual(c.steps.map((s) => s.unit));
    // Control: the same dance against beats shifted by half a beat scores far lower.
    const kb = clipKinematicBeats(clipKinematics(a.clip));
    const period = 60 / 96;
    const shifted = track.beats.map((t) => t + period / 2);
    expect(beatAlignment(kb, shifted)).toBeLessThan(beatAlignment(kb, track.beats) - 0.15);
  });

  it('calm passages move less than loud ones', () => {
    const spec = testTracks.STANDARD_TRACKS.find((t) => t.name === 'calm-loud-110');
    if (!spec) throw new Error('calm-loud-110');
    const track = testTracks.renderTrack(spec);
    const analysis = analyzeMusic({ samples: track.samples, sampleRate: track.sampleRate });
    const { clip } = generateDance(analysis, prep, { seed: 5 });
    const k = clipKinematics(clip);
    const mean = (t0: number, t1: number) => {
      let s = 0;
      let n = 0;
      for (let f = Math.ceil(t0 * k.fps); f < t1 * k.fps; f++) {
        s += k.envelope[f];
        n++;
      }
      return s / n;
    };
    const [calm1, loud, calm2] = track.sections;
    expect(mean(loud.start, loud.end)).toBeGreaterThan(
      1.2 * ((mean(calm1.start, calm1.end) + mean(calm2.start, calm2.end)) / 2),
    );
  });

  it('exports through every path of @mocap/motion (BVH and a Mixamo zip)', () => {
    const track = testTracks.renderTrack({
      name: 'short',
      sections: [{ bars: 4, bpm: 120, pattern: 'four' }],
    });
    const analysis = analyzeMusic({ samples: track.samples, sampleRate: track.sampleRate });
    const { clip } = generateDance(analysis, prep, { seed: 1 });
    const text = bvh.write(clip);
    const back = bvh.read(text);
    expect(back.frameCount).toBe(clip.frameCount);
    const zip = exportBoneType(clip, 'Mixamo');
    expect(zip.fileName).toMatch(/\.zip$/);
    expect(zip.bytes[0]).toBe(0x50); // PK
    expect(zip.bytes.length).toBeGreaterThan(10_000);
  });
});
