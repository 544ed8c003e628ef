import { describe, expect, it } from 'vitest';
import { analyzeMusic, beatFMeasure } from '../src/analysis.ts';
import { renderTrack, STANDARD_TRACKS } from '../src/tracks.ts';

describe('beat F-measure', () => {
  it('counts hits within ±70 ms, each reference once', () => {
    expect(beatFMeasure([1, 2, 3, 4], [1.05, 2.0, 3.1, 4.0])).toBeCloseTo(0.75, 5);
    expect(beatFMeasure([1, 2], [1.0, 1.01, 2.0])).toBeCloseTo(0.8, 5);
    expect(beatFMeasure([1, 2], [])).toBe(0);
  });
});

describe('analyzeMusic on generated drum tracks (70–180 BPM, steady and changing)', () => {
  for (const spec of STANDARD_TRACKS) {
    it(`${spec.name}: beat F-measure ≥ 0.9`, () => {
      const track = renderTrack(spec);
      const a = analyzeMusic({ samples: track.samples, sampleRate: track.sampleRate });
      const f = beatFMeasure(track.beats, a.beats);
      expect(f).toBeGreaterThanOrEqual(0.9);
      expect(a.beatEnergy.length).toBe(a.beats.length);
      expect(a.beatAccent.every((x) => x >= 0 && x <= 1)).toBe(true);
      const sec = track.sections;
      if (sec.length === 1 && sec[0].bpm === sec[0].bpmEnd) {
        // Steady: the tempo within 2 % and bar starts found.
        expect(Math.abs(a.tempo - sec[0].bpm) / sec[0].bpm).toBeLessThan(0.02);
        const down = (i: number[], b: number[]) => i.map((k) => b[k]);
        expect(
          beatFMeasure(down(track.downbeats, track.beats), down(a.downbeats, a.beats)),
        ).toBeGreaterThanOrEqual(0.9);
      }
      if (spec.name.startsWith('calm')) {
        // Calm passages have less energy than the loud middle.
        const mean = (t0: number, t1: number) => {
          const xs = a.beats.map((b, i) => [b, a.beatEnergy[i]]).filter(([b]) => b >= t0 && b < t1);
          return xs.reduce((s, [, e]) => s + e, 0) / xs.length;
        };
        const [c1, loud] = sec;
        expect(mean(c1.start + 2, c1.end - 1)).toBeLessThan(mean(loud.start + 2, loud.end - 1) - 0.3);
      }
      if (spec.name.startsWith('jump')) {
        // The tempo curve follows the change: 90 before, 140 after.
        const at = (t: number) => a.tempoCurve.reduce((p, c) => (c.start <= t ? c : p)).bpm;
        expect(Math.abs(at(sec[0].start + 10) - 90)).toBeLessThan(3);
        expect(Math.abs(at(sec[1].start + 10) - 140)).toBeLessThan(4);
      }
    });
  }

  it('rejects audio below 8 kHz', () => {
    expect(() => analyzeMusic({ samples: new Float32Array(100), sampleRate: 4000 })).toThrow(/8 kHz/);
  });

  it('finds no beats in silence', () => {
    const a = analyzeMusic({ samples: new Float32Array(22050 * 5), sampleRate: 22050 });
    expect(a.beats.length).toBeLessThan(3);
  });
});
