/** Retargeting: canonical clip → every rig, exact joint positions, rest-pose/axis/unit conversions, root motion. */
import { describe, expect, it } from 'vitest';
import {
  ARKIT_BLENDSHAPES,
  buildRig,
  canonicalToRig,
  forwardKinematics,
  type MotionClip,
  RIG_IDS,
  type Rig,
  type RigClip,
  restClip,
  retarget,
  rigToCanonical,
  rigWorldPositions,
} from '../src/index.ts';
import { qAngleBetween, qMul, readQuat } from '../src/math.ts';
import { createSkeleton } from '../src/skeleton.ts';
import { randomClip } from './helpers.ts';

const idx = (r: Rig, name: string) => {
  const i = r.bones.findIndex((b) => b.name === name);
  if (i < 0) throw new Error(`no bone ${name}`);
  return i;
};

/** Rig-space world rotation of bone b at frame f (FK of local rotations). */
function worldRot(rc: RigClip, f: number, b: number) {
  const bones = rc.rig.bones;
  const chain: number[] = [];
  for (let i = b; i >= 0; i = bones[i].parent === null ? -1 : idx(rc.rig, bones[i].parent as string))
    chain.unshift(i);
  let q = readQuat(rc.rotations, f * bones.length + chain[0]);
  for (const i of chain.slice(1)) q = qMul(q, readQuat(rc.rotations, f * bones.length + i));
  return q;
}

describe('retarget', () => {
  const clip = randomClip(15, 30, 3);
  const fk = forwardKinematics(clip).positions;
  const n = clip.skeleton.names.length;

  it('every rig reproduces the canonical joint positions of its driven bones exactly (after units and axes)', () => {
    for (const id of RIG_IDS) {
      const rig = buildRig(id, clip.skeleton);
      const rc = retarget(clip, rig);
      expect(rc.frameCount).toBe(15);
      expect(rc.fps).toBe(30);
      expect(rc.rotations.length).toBe(15 * rig.bones.length * 4);
      let checked = 0;
      for (const f of [0, 4, 14]) {
        const P = rigWorldPositions(rc, f);
        const P0 = rigWorldPositions(rc, 0);
        rig.bones.forEach((b, i) => {
          if (!b.source) return;
          const j = clip.skeleton.names.indexOf(b.source);
          const at0 = rigToCanonical(rig, P0, 3 * i);
          // Bones placed away from their source joint (R15 UpperTorso at the waist, MMD 上半身) are skipped.
          if (Math.hypot(at0[0] - fk[j * 3], at0[1] - fk[j * 3 + 1], at0[2] - fk[j * 3 + 2]) > 1e-5) return;
          const c = rigToCanonical(rig, P, 3 * i);
          const e = [fk[(f * n + j) * 3], fk[(f * n + j) * 3 + 1], fk[(f * n + j) * 3 + 2]];
          if (rig.rootMotion === 'inPlace') {
            e[0] -= fk[f * n * 3] - fk[0];
            e[2] -= fk[f * n * 3 + 2] - fk[2];
          }
          expect(Math.hypot(c[0] - e[0], c[1] - e[1], c[2] - e[2]), `${id} ${b.name} f${f}`).toBeLessThan(
            1e-5,
          );
          checked++;
        });
      }
      expect(checked, id).toBeGreaterThan(id === 'r15' ? 30 : 60);
    }
  });

  it('A-pose rigs: the canonical T-pose comes out with horizontal arms, the bind pose keeps them lowered', () => {
    const sk = createSkeleton();
    const rest = restClip(sk, 1, 30);
    for (const id of ['ue4', 'ue5', 'cc', 'mmd', 'r15'] as const) {
      const rig = buildRig(id, sk);
      const rc = retarget(rest, rig);
      const P = rigWorldPositions(rc, 0);
      const arm =
        id === 'mmd'
          ? ['左腕', '左手首']
          : id === 'r15'
            ? ['LeftUpperArm', 'LeftHand']
            : id === 'cc'
              ? ['CC_Base_L_Upperarm', 'CC_Base_L_Hand']
              : ['upperarm_l', 'hand_l'];
      const a = rigToCanonical(rig, P, 3 * idx(rig, arm[0]));
      const h = rigToCanonical(rig, P, 3 * idx(rig, arm[1]));
      expect(Math.abs(h[1] - a[1]), id).toBeLessThan(1e-6); // horizontal when animated with the T-pose
      expect(h[0] - a[0], id).toBeGreaterThan(0.4); // the character's left arm points to +X
      // …while the bind pose (rest translations/rotations) has the arm lowered by the rig's angle.
      const bind = restWorldCanonical(rig);
      const dy = bind[idx(rig, arm[0])][1] - bind[idx(rig, arm[1])][1];
      expect(dy, id).toBeGreaterThan(0.3);
    }
  });

  it('IK bones follow their targets; helpers and end markers are never keyed; Mixamo keys translation on Hips only', () => {
    const ue = retarget(clip, buildRig('ue4', clip.skeleton));
    for (const [ik, target] of [
      ['ik_foot_l', 'foot_l'],
      ['ik_hand_r', 'hand_r'],
      ['ik_hand_gun', 'hand_r'],
    ]) {
      for (const f of [3, 9]) {
        const P = rigWorldPositions(ue, f);
        const a = idx(ue.rig, ik);
        const b = idx(ue.rig, target);
        expect(
          Math.hypot(P[3 * a] - P[3 * b], P[3 * a + 1] - P[3 * b + 1], P[3 * a + 2] - P[3 * b + 2]),
        ).toBeLessThan(1e-3);
        expect(qAngleBetween(worldRot(ue, f, a), worldRot(ue, f, b))).toBeLessThan(1e-4);
      }
    }
    ue.rig.bones.forEach((b, i) => {
      if (b.role === 'helper' || b.role === 'end') expect(ue.keyed[i], b.name).toBe(0);
    });
    const mx = retarget(clip, buildRig('mixamo', clip.skeleton));
    expect(mx.rig.bones.filter((_, i) => mx.translated[i]).map((b) => b.name)).toEqual(['mixamorig:Hips']);
  });

  it('root motion: Unreal root stays at the origin by default, follows the hips over the floor with rootMotion', () => {
    const rig = buildRig('ue4', clip.skeleton);
    const still = retarget(clip, rig);
    const moving = retarget(clip, rig, { rootMotion: true });
    const root = idx(rig, 'root');
    const pelvis = idx(rig, 'pelvis');
    for (const f of [2, 11]) {
      const a = rigWorldPositions(still, f);
      const b = rigWorldPositions(moving, f);
      expect(Math.hypot(a[3 * root], a[3 * root + 1], a[3 * root + 2])).toBe(0);
      const hips = [fk[f * n * 3], fk[f * n * 3 + 1], fk[f * n * 3 + 2]];
      const r = rigToCanonical(rig, b, 3 * root);
      expect(Math.hypot(r[0] - hips[0], r[1], r[2] - hips[2])).toBeLessThan(1e-4);
      // The pelvis is where it was either way.
      for (let k = 0; k < 3; k++) expect(b[3 * pelvis + k]).toBeCloseTo(a[3 * pelvis + k], 3);
    }
  });

  it('Roblox R15 animates in place: the hips keep their first-frame X/Z, vertical motion stays', () => {
    const rig = buildRig('r15', clip.skeleton);
    const rc = retarget(clip, rig);
    const lt = idx(rig, 'LowerTorso');
    const p0 = rigToCanonical(rig, rigWorldPositions(rc, 0), 3 * lt);
    for (const f of [5, 14]) {
      const p = rigToCanonical(rig, rigWorldPositions(rc, f), 3 * lt);
      expect(p[0]).toBeCloseTo(p0[0], 5);
      expect(p[2]).toBeCloseTo(p0[2], 5);
      expect(p[1]).toBeCloseTo(fk[f * n * 3 + 1], 5);
    }
    expect(Math.abs(fk[14 * n * 3] - fk[0]) + Math.abs(fk[14 * n * 3 + 2] - fk[2])).toBeGreaterThan(0.05);
  });

  it('lowerBodyOnly keys the hips and legs only; the upper body keeps its bind pose relative to the hips', () => {
    const rig = buildRig('mixamo', clip.skeleton);
    const full = retarget(clip, rig);
    const lower = retarget(clip, rig, { lowerBodyOnly: true });
    const nb = rig.bones.length;
    for (const name of [
      'mixamorig:Spine',
      'mixamorig:Head',
      'mixamorig:LeftHand',
      'mixamorig:RightHandIndex2',
    ]) {
      const i = idx(rig, name);
      expect(lower.keyed[i], name).toBe(0);
      for (const f of [1, 8]) {
        const q = readQuat(lower.rotations, f * nb + i);
        expect(qAngleBetween(q, rig.bones[i].restRotation), name).toBeLessThan(1e-5);
      }
    }
    for (const name of ['mixamorig:Hips', 'mixamorig:LeftUpLeg', 'mixamorig:RightFoot']) {
      const i = idx(rig, name);
      expect(lower.keyed[i], name).toBe(1);
      for (const f of [1, 8]) {
        const a = rigWorldPositions(lower, f);
        const b = rigWorldPositions(full, f);
        expect(
          Math.hypot(a[3 * i] - b[3 * i], a[3 * i + 1] - b[3 * i + 1], a[3 * i + 2] - b[3 * i + 2]),
          name,
        ).toBeLessThan(1e-3);
      }
    }
  });

  it('carries face curves and keeps MMD (left-handed, 8 cm units) consistent with canonicalToRig', () => {
    const weights = new Float32Array(clip.frameCount * 52).fill(0.25);
    const withFace: MotionClip = {
      ...clip,
      blendshapes: { names: ARKIT_BLENDSHAPES, weights, supported: ARKIT_BLENDSHAPES },
    };
    const rig = buildRig('mmd', clip.skeleton);
    const rc = retarget(withFace, rig);
    expect(rc.blendshapes?.weights).toBe(weights);
    const p = [0.3, 1.2, -0.4] as [number, number, number];
    const r = canonicalToRig(rig, p);
    // MMD: Y up, the model faces -Z: canonical front (+Z) goes to -Z, metres to 12.5 units.
    expect(r[0]).toBeCloseTo(3.75, 9);
    expect(r[1]).toBeCloseTo(15, 9);
    expect(r[2]).toBeCloseTo(5, 9);
    const back = rigToCanonical(rig, r);
    for (let k = 0; k < 3; k++) expect(back[k]).toBeCloseTo(p[k], 12);
  });

  it('rejects a rig built for a skeleton with other joints', () => {
    const noFingers = createSkeleton(undefined, { fingers: false });
    expect(() => retarget(clip, buildRig('mixamo', noFingers))).toThrow(/built for another skeleton/);
  });

  it('rejects a rig that was not built by buildRig/instantiate', () => {
    const rig = buildRig('mixamo', clip.skeleton);
    const copy: Rig = { ...rig };
    expect(() => retarget(clip, copy)).toThrow(/not built by instantiate/);
  });
});

/** Bind-pose world positions in canonical metres (from rest translations and rotations). */
function restWorldCanonical(rig: Rig): [number, number, number][] {
  const rc: RigClip = {
    rig,
    fps: 30,
    frameCount: 1,
    rotations: Float32Array.from(rig.bones.flatMap((b) => b.restRotation)),
    translations: Float32Array.from(rig.bones.flatMap((b) => b.restTranslation)),
    keyed: new Uint8Array(rig.bones.length),
    translated: new Uint8Array(rig.bones.length),
    name: 'rest',
  };
  const P = rigWorldPositions(rc, 0);
  return rig.bones.map((_, i) => rigToCanonical(rig, P, 3 * i));
}
