import { describe, expect, it } from 'vitest';
import { ARKIT_BLENDSHAPES } from '../src/clip.ts';
import {
  expressionCurves,
  readCsv,
  writeCsv,
  writeCsvBytes,
  writeJson,
  writeJsonBytes,
} from '../src/formats/face.ts';
import { randomClip } from './helpers.ts';
import { clipWithFace } from './validators-b-helpers.ts';

describe('face outputs (ARKit CSV / JSON)', () => {
  const clip = clipWithFace(10);

  it('CSV: header, one line per frame, weights round-trip to 1e-4', () => {
    const text = writeCsv(clip);
    const lines = text.trim().split('\n');
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe(`frame,time,${ARKIT_BLENDSHAPES.join(',')}`);
    const r = readCsv(text);
    expect(r.names).toEqual([...ARKIT_BLENDSHAPES]);
    expect(r.times[3]).toBeCloseTo(0.1, 6);
    const K = ARKIT_BLENDSHAPES.length;
    for (let i = 0; i < r.weights.length; i++)
      expect(Math.abs(r.weights[i] - (clip.blendshapes?.weights[i] ?? 0))).toBeLessThanOrEqual(5e-5);
    expect(r.weights[9 * K + ARKIT_BLENDSHAPES.indexOf('jawOpen')]).toBe(1);
  });

  it('CSV and JSON bytes (zips) are the CSV and JSON text, out-of-range, round and NaN weights included', () => {
    const c = clipWithFace(40);
    const w = c.blendshapes?.weights as Float32Array;
    for (let i = 0; i < w.length; i += 5) w[i] = ((i % 17) - 4) / 9; // below 0, above 1, exact tenths
    for (let i = 2; i < w.length; i += 13) w[i] = 0.00004 * (i % 3);
    w[7] = Number.NaN;
    expect(new TextDecoder().decode(writeCsvBytes(c))).toBe(writeCsv(c));
    expect(new TextDecoder().decode(writeJsonBytes(c))).toBe(writeJson(c));
    expect(
      new TextDecoder().decode(
        writeJsonBytes({
          ...c,
          frameCount: 0,
          blendshapes: {
            ...(c.blendshapes as NonNullable<typeof c.blendshapes>),
            weights: new Float32Array(0),
          },
        }),
      ),
    ).toBe(
      writeJson({
        ...c,
        frameCount: 0,
        blendshapes: {
          ...(c.blendshapes as NonNullable<typeof c.blendshapes>),
          weights: new Float32Array(0),
        },
      }),
    );
  });

  it('JSON: fps, names, supported, 52 weights per frame', () => {
    const j = JSON.parse(writeJson(clip));
    expect(j.format).toBe('mocap-arkit-blendshapes');
    expect(j.fps).toBe(30);
    expect(j.frameCount).toBe(10);
    expect(j.names).toEqual([...ARKIT_BLENDSHAPES]);
    expect(j.supported).toContain('jawOpen');
    expect(j.frames).toHaveLength(10);
    expect(j.frames[1][ARKIT_BLENDSHAPES.indexOf('eyeBlinkLeft')]).toBe(1);
    expect(j.frames[2][ARKIT_BLENDSHAPES.indexOf('eyeBlinkLeft')]).toBe(0);
  });

  it('a clip without face curves is a clear error', () => {
    expect(() => writeCsv(randomClip(3))).toThrow(/no face blendshape curves/);
    expect(() => writeJson(randomClip(3))).toThrow(/no face blendshape curves/);
  });

  it('expression mapping: blink splits into both-eyes and one-eye parts; vowels from mouth shapes', () => {
    const e = expressionCurves(clip);
    expect(Array.from(e.blinkLeft.slice(0, 3))).toEqual([0, 1, 0]);
    expect(Array.from(e.blink.slice(0, 3))).toEqual([0, 0, 0]);
    expect(e.aa[9]).toBeCloseTo(1, 5);
    expect(e.aa[0]).toBe(0);
    expect(e.happy[4]).toBeCloseTo(0.5, 5);
    // Both eyes closed → `blink`, not the one-eye shapes.
    const K = ARKIT_BLENDSHAPES.length;
    const w = new Float32Array(K);
    w[ARKIT_BLENDSHAPES.indexOf('eyeBlinkLeft')] = 1;
    w[ARKIT_BLENDSHAPES.indexOf('eyeBlinkRight')] = 0.8;
    const both = expressionCurves({
      fps: 30,
      frameCount: 1,
      blendshapes: { names: ARKIT_BLENDSHAPES, weights: w, supported: [] },
    });
    expect(both.blink[0]).toBeCloseTo(0.8, 5);
    expect(both.blinkLeft[0]).toBeCloseTo(0.2, 5);
    expect(both.blinkRight[0]).toBe(0);
  });
});
