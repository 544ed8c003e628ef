import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { forwardKinematics, jointCount } from '../src/clip.ts';
import { write } from '../src/formats/anim.ts';
import { crc32 } from '../src/formats/png.ts';
import { type Quat, qMul, qRotate, type Vec3 } from '../src/math.ts';
import { retarget } from '../src/retarget/index.ts';
import { buildRig } from '../src/rigs/index.ts';
import { randomClip, SHARED } from './helpers.ts';
import { clipWithFace } from './validators-b-helpers.ts';

interface Key {
  time: number;
  value: Record<string, number>;
  inSlope: Record<string, number>;
  outSlope: Record<string, number>;
}
interface Clip {
  m_RotationCurves: { curve: { m_Curve: Key[] }; path: string }[];
  m_PositionCurves: { curve: { m_Curve: Key[] }; path: string }[];
  m_FloatCurves: {
    curve: { m_Curve: { time: number; value: number }[] };
    attribute: string;
    path: string;
    classID: number;
  }[];
  m_SampleRate: number;
  m_ClipBindingConstant: { genericBindings: { path: number; attribute: number; typeID: number }[] };
  m_AnimationClipSettings: { m_StopTime: number };
  [k: string]: unknown;
}

function parse(text: string): Clip {
  const docs = YAML.parseAllDocuments(text);
  expect(docs).toHaveLength(1);
  expect(docs[0].errors).toEqual([]);
  return (docs[0].toJS() as { AnimationClip: Clip }).AnimationClip;
}

/** Samples a linear-tangent curve at frame time t. */
function sample(keys: Key[], t: number): number[] {
  let i = 0;
  while (i + 1 < keys.length && keys[i + 1].time <= t + 1e-9) i++;
  const a = keys[i];
  const b = keys[Math.min(i + 1, keys.length - 1)];
  const u = b.time > a.time ? (t - a.time) / (b.time - a.time) : 0;
  return Object.keys(a.value).map((k) => a.value[k] + (b.value[k] - a.value[k]) * u);
}

describe('Unity .anim writer', () => {
  const clip = randomClip(9, 30, 12);
  const rig = buildRig('unity', clip.skeleton);
  const rc = retarget(clip, rig);
  const text = write(rc, { name: 'Take' });
  const ours = parse(text);

  it('parses as YAML with the top-level structure of the Unity sample (same keys, same order)', () => {
    const sample = parse(
      readFileSync(join(SHARED, 'testdata/formats/unity_anim/Wave_generic_mixamorig.anim'), 'utf8'),
    );
    expect(Object.keys(ours)).toEqual(Object.keys(sample));
    expect(Object.keys(ours.m_AnimationClipSettings)).toEqual(Object.keys(sample.m_AnimationClipSettings));
    const curveKeys = (c: Clip) => Object.keys(c.m_RotationCurves[0]);
    expect(curveKeys(ours)).toEqual(curveKeys(sample));
    expect(Object.keys(ours.m_RotationCurves[0].curve.m_Curve[0])).toEqual(
      Object.keys(sample.m_RotationCurves[0].curve.m_Curve[0]),
    );
    expect(Object.keys(ours.m_ClipBindingConstant.genericBindings[0])).toEqual(
      Object.keys(sample.m_ClipBindingConstant.genericBindings[0]),
    );
    expect(ours.m_SampleRate).toBe(30);
    expect(ours.m_AnimationClipSettings.m_StopTime).toBeCloseTo(8 / 30, 6);
  });

  it('one rotation curve per keyed bone, hips position, monotonic times, bindings = CRC32 of the paths', () => {
    const keyed = rig.bones.filter((_, b) => rc.keyed[b] === 1);
    expect(ours.m_RotationCurves).toHaveLength(keyed.length);
    expect(ours.m_PositionCurves.map((c) => c.path)).toEqual(['Hips']);
    expect(ours.m_RotationCurves.map((c) => c.path)).toContain(
      'Hips/Spine/Chest/UpperChest/LeftShoulder/LeftUpperArm',
    );
    for (const c of ours.m_RotationCurves) {
      const t = c.curve.m_Curve.map((k) => k.time);
      for (let i = 1; i < t.length; i++) expect(t[i]).toBeGreaterThan(t[i - 1]);
      expect(t[0]).toBe(0);
      expect(t[t.length - 1]).toBeCloseTo(8 / 30, 6);
    }
    const bindingPaths = new Set(ours.m_ClipBindingConstant.genericBindings.map((b) => b.path));
    for (const c of [...ours.m_RotationCurves, ...ours.m_PositionCurves])
      expect(bindingPaths.has(crc32(new TextEncoder().encode(c.path)))).toBe(true);
    // The sample's bindings use the same hash: its Hips path.
    expect(crc32(new TextEncoder().encode('mixamorig:Hips'))).toBe(2257317975);
  });

  it('Unity-space FK of the curves reproduces the canonical joints within 1 mm (x mirrored: left-handed)', () => {
    const fk = forwardKinematics(clip);
    const n = jointCount(clip.skeleton);
    const rot = new Map(
      ours.m_RotationCurves.map((c) => [c.path.split('/').pop() as string, c.curve.m_Curve]),
    );
    const pos = new Map(
      ours.m_PositionCurves.map((c) => [c.path.split('/').pop() as string, c.curve.m_Curve]),
    );
    for (const f of [0, 4, 8]) {
      const W = new Map<string, { p: Vec3; q: Quat }>();
      for (const b of rig.bones) {
        const r = rot.get(b.name);
        const q = (r ? sample(r, f / 30) : [...b.restRotation]) as Quat;
        const pk = pos.get(b.name);
        const t = (pk ? sample(pk, f / 30) : [...b.restTranslation]) as Vec3;
        const parent = b.parent === null ? null : W.get(b.parent);
        if (!parent) W.set(b.name, { p: t, q });
        else
          W.set(b.name, {
            p: qRotate(parent.q, t).map((v, k) => v + parent.p[k]) as Vec3,
            q: qMul(parent.q, q),
          });
      }
      for (const b of rig.bones) {
        if (!b.source) continue;
        const j = clip.skeleton.names.indexOf(b.source);
        if (j < 0) continue;
        const p = (W.get(b.name) as { p: Vec3 }).p;
        const i = (f * n + j) * 3;
        const e = Math.hypot(-p[0] - fk.positions[i], p[1] - fk.positions[i + 1], p[2] - fk.positions[i + 2]);
        expect(e, `${b.name} @${f}`).toBeLessThan(1e-3);
      }
    }
  });

  it('reduces keys on smooth curves and writes blendshape curves when a mesh path is given', () => {
    const still = randomClip(30, 30, 1);
    // Hold frame 0 for the whole clip: every curve collapses to two keys.
    for (let f = 1; f < 30; f++) {
      still.rotations.copyWithin((f * still.rotations.length) / 30, 0, still.rotations.length / 30);
      still.rootPositions.copyWithin(3 * f, 0, 3);
    }
    const s = parse(write(retarget(still, buildRig('unity', still.skeleton))));
    for (const c of s.m_RotationCurves) expect(c.curve.m_Curve).toHaveLength(2);
    const face = clipWithFace(6);
    const withFace = parse(
      write(retarget(face, buildRig('unity', face.skeleton)), { blendShapePath: 'Body' }),
    );
    const jaw = withFace.m_FloatCurves.find((c) => c.attribute === 'blendShape.jawOpen');
    expect(jaw?.classID).toBe(137);
    expect(jaw?.path).toBe('Body');
    expect(jaw?.curve.m_Curve.at(-1)?.value).toBeCloseTo(100, 3);
  });
});
