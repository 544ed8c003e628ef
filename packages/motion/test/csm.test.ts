/** CSM (Character Studio Marker) writer for the CS bone type: layout, markers, axes/units, lower-body variant. */
import { describe, expect, it } from 'vitest';
import { csm, forwardKinematics, type MotionClip, restClip } from '../src/index.ts';
import { qRotate, readQuat } from '../src/math.ts';
import { createSkeleton } from '../src/skeleton.ts';
import { randomClip } from './helpers.ts';

describe('CSM writer', () => {
  const clip = randomClip(20, 30, 17);
  const text = csm.write(clip, { fileName: 'walk.csm' });
  const doc = csm.read(text);

  it('writes the CSM header keywords, the marker order and one row per frame', () => {
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^\$Comments /);
    expect(lines).toContain('$Filename walk.csm');
    expect(lines).toContain('$FirstFrame 1');
    expect(lines).toContain('$LastFrame 20');
    expect(lines).toContain('$Rate 30');
    expect(lines).toContain('$Actor 1');
    expect(lines.some((l) => /^\$Date \d+\/\d+\/\d{4}$/.test(l))).toBe(true);
    expect(lines.some((l) => /^\$Time \d+:\d\d:\d\d [AP]M$/.test(l))).toBe(true);
    expect(lines.indexOf('$Order')).toBeLessThan(lines.indexOf('$Points'));
    expect(doc.markers).toEqual([...csm.CSM_MARKERS]);
    expect(doc.markers.length).toBe(32);
    for (const m of [
      'LFHD',
      'C7',
      'STRN',
      'LSHO',
      'LWRA',
      'RFIN',
      'LFWT',
      'RBWT',
      'LKNE',
      'RANK',
      'LHEE',
      'RTOE',
    ])
      expect(doc.markers).toContain(m);
    expect(doc.rate).toBe(30);
    expect(doc.frames).toBe(20);
    // Frame numbers start at 1.
    expect(lines[lines.indexOf('$Points') + 1].split('\t')[0]).toBe('1');
  });

  it('markers sit on their joints: 3ds Max axes (Z up, facing -Y) in millimetres', () => {
    const fk = forwardKinematics(clip);
    const n = clip.skeleton.names.length;
    const M = doc.markers.length;
    const j = clip.skeleton.names.indexOf('leftFoot');
    const m = doc.markers.indexOf('LANK');
    for (const f of [0, 7, 19]) {
      const q = readQuat(fk.rotations, f * n + j);
      const o = qRotate(q, [0.035, 0, 0]);
      const p = [0, 1, 2].map((k) => fk.positions[(f * n + j) * 3 + k] + o[k]);
      const got = [0, 1, 2].map((k) => doc.positions[(f * M + m) * 3 + k]);
      // canonical (x, y, z) m → Max (x, -z, y) mm
      expect(got[0]).toBeCloseTo(p[0] * 1000, 1);
      expect(got[1]).toBeCloseTo(-p[2] * 1000, 1);
      expect(got[2]).toBeCloseTo(p[1] * 1000, 1);
    }
  });

  it('in the rest pose the head markers are highest and the toes point to -Y (3ds Max front)', () => {
    const rest = csm.read(csm.write(restClip(createSkeleton(), 1, 30)));
    const at = (name: string) => {
      const i = rest.markers.indexOf(name);
      return [rest.positions[3 * i], rest.positions[3 * i + 1], rest.positions[3 * i + 2]];
    };
    expect(at('LFHD')[2]).toBeGreaterThan(1600);
    expect(at('LTOE')[2]).toBeLessThan(100);
    expect(at('LTOE')[1]).toBeLessThan(at('LHEE')[1]);
    expect(at('LSHO')[0]).toBeGreaterThan(0); // the actor's left is +X
    expect(at('RSHO')[0]).toBeLessThan(0);
  });

  it('markers on one joint keep their distance in every frame (rigid attachment)', () => {
    const M = doc.markers.length;
    const a = doc.markers.indexOf('LWRA');
    const b = doc.markers.indexOf('LWRB');
    const d = (f: number) =>
      Math.hypot(
        ...[0, 1, 2].map((k) => doc.positions[(f * M + a) * 3 + k] - doc.positions[(f * M + b) * 3 + k]),
      );
    for (let f = 0; f < 20; f++) expect(d(f)).toBeCloseTo(d(0), 0);
    expect(d(0)).toBeGreaterThan(40);
  });

  it('lowerBodyOnly: upper-body markers move rigidly with the hips, leg markers are unchanged', () => {
    const lower = csm.read(csm.write(clip, { lowerBodyOnly: true }));
    const M = lower.markers.length;
    const dist = (d: typeof doc, f: number, x: string, y: string) => {
      const a = d.markers.indexOf(x);
      const b = d.markers.indexOf(y);
      return Math.hypot(
        ...[0, 1, 2].map((k) => d.positions[(f * M + a) * 3 + k] - d.positions[(f * M + b) * 3 + k]),
      );
    };
    for (const f of [3, 12]) {
      expect(dist(lower, f, 'LFWT', 'LFHD')).toBeCloseTo(dist(lower, 0, 'LFWT', 'LFHD'), 1);
      const k = lower.markers.indexOf('RANK');
      for (let c = 0; c < 3; c++)
        expect(lower.positions[(f * M + k) * 3 + c]).toBeCloseTo(doc.positions[(f * M + k) * 3 + c], 1);
    }
    expect(Math.abs(dist(doc, 12, 'LFWT', 'LFHD') - dist(doc, 0, 'LFWT', 'LFHD'))).toBeGreaterThan(1);
  });

  it('rejects an empty clip and malformed files', () => {
    const empty: MotionClip = {
      ...clip,
      frameCount: 0,
      rotations: new Float32Array(0),
      rootPositions: new Float32Array(0),
    };
    expect(() => csm.write(empty)).toThrow(/no frames/);
    expect(() => csm.read('$Rate 30\n$Points\n1 2 3\n')).toThrow(/\$Order/);
    expect(() => csm.read(text.replace(/\n1\t[^\n]*/, '\n1\t0\t0'))).toThrow(/frame row 1/);
  });
});
