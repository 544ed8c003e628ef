import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { forwardKinematics, jointCount, type MotionClip, restClip } from '../src/clip.ts';
import { write } from '../src/formats/anim.ts';
import { crc32 } from '../src/formats/bytes.ts';
import { type Quat, qExp, qMul, qNormalize, qRotate, type Vec3, writeQuat } from '../src/math.ts';
import { retarget } from '../src/retarget/index.ts';
import { buildRig } from '../src/rigs/index.ts';
import { createSkeleton } from '../src/skeleton.ts';
import { type AnimClip, randomClip, SHARED, sampleAnimCurve } from './helpers.ts';
import { clipWithFace } from './validators-b-helpers.ts';

interface Clip extends AnimClip {
  m_FloatCurves: {
    curve: { m_Curve: { time: number; value: number }[] };
    attribute: string;
    path: string;
    classID: number;
  }[];
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

/** Largest distance (m) over every frame and mapped joint between Unity-space FK of the parsed curves (played
 *  as Unity plays them) and the canonical clip's joints, x mirrored (left-handed). */
function fkError(clip: MotionClip, anim: Clip): number {
  const rig = buildRig('unity', clip.skeleton);
  const fk = forwardKinematics(clip);
  const n = jointCount(clip.skeleton);
  const rot = new Map(anim.m_RotationCurves.map((c) => [c.path.split('/').pop() as string, c.curve.m_Curve]));
  const pos = new Map(anim.m_PositionCurves.map((c) => [c.path.split('/').pop() as string, c.curve.m_Curve]));
  let worst = 0;
  for (let f = 0; f < clip.frameCount; f++) {
    const W = new Map<string, { p: Vec3; q: Quat }>();
    for (const b of rig.bones) {
      const r = rot.get(b.name);
      const q = (r ? qNormalize(sampleAnimCurve(r, f / clip.fps) as Quat) : [...b.restRotation]) as Quat;
      const pk = pos.get(b.name);
      const t = (pk ? sampleAnimCurve(pk, f / clip.fps) : [...b.restTranslation]) as Vec3;
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
      worst = Math.max(
        worst,
        Math.hypot(-p[0] - fk.positions[i], p[1] - fk.positions[i + 1], p[2] - fk.positions[i + 2]),
      );
    }
  }
  return worst;
}

/** Smooth whole-body motion (sinusoids of 0.4–1 Hz on every joint, travelling root), like a real capture. */
function smoothClip(frames: number): MotionClip {
  const skeleton = createSkeleton();
  const c = restClip(skeleton, frames, 30);
  const n = skeleton.names.length;
  for (let f = 0; f < frames; f++) {
    const t = f / 30;
    for (let j = 0; j < n; j++) {
      const a = 0.35 * Math.sin(2 * Math.PI * (0.6 + 0.05 * (j % 7)) * t + j);
      const b = 0.25 * Math.cos(2 * Math.PI * (0.4 + 0.03 * (j % 5)) * t + 2 * j);
      writeQuat(c.rotations, f * n + j, qExp([a, j === 0 ? 0.3 * t : b, 0.5 * a * b]));
    }
    c.rootPositions.set([0.5 * Math.sin(0.3 * t), 0.95 + 0.03 * Math.sin(4 * t), 0.8 * t], 3 * f);
  }
  return c;
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
    expect(fkError(clip, ours)).toBeLessThan(1e-3);
  });

  it('on smooth motion keeps a fraction of the keys and still plays every frame within 1 mm', () => {
    const smooth = smoothClip(120);
    const parsed = parse(write(retarget(smooth, buildRig('unity', smooth.skeleton))));
    const keys = parsed.m_RotationCurves.reduce((s, c) => s + c.curve.m_Curve.length, 0);
    expect(keys).toBeLessThan(0.5 * 120 * parsed.m_RotationCurves.length);
    for (const c of parsed.m_RotationCurves)
      for (const k of c.curve.m_Curve) expect(k.inSlope).toEqual(k.outSlope);
    expect(fkError(smooth, parsed)).toBeLessThan(1e-3);
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
