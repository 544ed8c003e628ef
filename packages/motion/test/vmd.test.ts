import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { forwardKinematics, jointCount } from '../src/clip.ts';
import {
  BONE_RECORD,
  MMD_MORPHS,
  MORPH_RECORD,
  STANDARD_HIP_HEIGHT,
  write,
  writeMorphs,
} from '../src/formats/vmd.ts';
import { type Quat, qMul, qRotate, type Vec3 } from '../src/math.ts';
import { retarget } from '../src/retarget/index.ts';
import { buildRig } from '../src/rigs/index.ts';
import type { Rig } from '../src/rigs/types.ts';
import { randomClip, SHARED } from './helpers.ts';
import { clipWithFace } from './validators-b-helpers.ts';

interface Vmd {
  metadata: { magic: string; name: string; motionCount: number; morphCount: number; cameraCount: number };
  motions: {
    boneName: string;
    frameNum: number;
    position: number[];
    rotation: number[];
    interpolation: number[];
  }[];
  morphs: { morphName: string; frameNum: number; weight: number }[];
}
interface Pmx {
  bones: { name: string; parentIndex: number; position: number[] }[];
  morphs: { name: string }[];
}

async function parser() {
  const modPath: string = 'mmd-parser';
  const { Parser } = (await import(modPath)) as {
    Parser: new () => {
      parseVmd(b: ArrayBuffer, lr: boolean): Vmd;
      parsePmx(b: ArrayBuffer, lr: boolean): Pmx;
    };
  };
  return new Parser();
}
const ab = (b: Uint8Array) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

/** MMD FK of parsed VMD keys at a frame: world position per bone (model = the rig scaled by `s`). */
function mmdFk(rig: Rig, vmd: Vmd, frame: number, s: number): Map<string, Vec3> {
  const key = new Map<string, { p: number[]; q: number[] }>();
  for (const m of vmd.motions)
    if (m.frameNum === frame) key.set(m.boneName, { p: m.position, q: m.rotation });
  const W = new Map<string, { p: Vec3; q: Quat }>();
  for (const b of rig.bones) {
    const k = key.get(b.name);
    const t: Vec3 = [b.restTranslation[0] * s, b.restTranslation[1] * s, b.restTranslation[2] * s];
    if (k) for (let c = 0; c < 3; c++) t[c] += k.p[c];
    const q = (k ? k.q : [0, 0, 0, 1]) as Quat;
    const parent = b.parent === null ? null : W.get(b.parent);
    if (!parent) W.set(b.name, { p: t, q });
    else {
      const o = qRotate(parent.q, t);
      W.set(b.name, {
        p: [parent.p[0] + o[0], parent.p[1] + o[1], parent.p[2] + o[2]],
        q: qMul(parent.q, q),
      });
    }
  }
  return new Map([...W].map(([n, v]) => [n, v.p]));
}

describe('VMD writer', () => {
  const clip = clipWithFace(8);
  const rig = buildRig('mmd', clip.skeleton);
  const rc = retarget(clip, rig);
  const bytes = write(rc);
  const keyedNames = rig.bones
    .filter((b, i) => rc.keyed[i] === 1 && !['全ての親', '腰', '左つま先', '右つま先'].includes(b.name))
    .map((b) => b.name);

  it('mmd-parser reads it: signature, exact record counts and Shift_JIS names', async () => {
    const vmd = (await parser()).parseVmd(ab(bytes), false);
    expect(vmd.metadata.magic).toBe('Vocaloid Motion Data 0002');
    const names = new Set(vmd.motions.map((m) => m.boneName));
    expect([...names].sort()).toEqual([...new Set([...keyedNames, 'グルーブ', '両目'])].sort());
    expect(vmd.metadata.motionCount).toBe(names.size * 8);
    for (const n of [
      'センター',
      'グルーブ',
      '上半身',
      '下半身',
      '左腕',
      '右ひじ',
      '左足ＩＫ',
      '右つま先ＩＫ',
      '左人指１',
    ])
      expect(names.has(n), n).toBe(true);
    // Record sizes: header 50 + 4 + bones·111 + 4 + morphs·23 + 3 zero counts + IK frame (4 + 9 + 21·4).
    expect(bytes.length).toBe(
      50 +
        4 +
        vmd.metadata.motionCount * BONE_RECORD +
        4 +
        vmd.metadata.morphCount * MORPH_RECORD +
        12 +
        4 +
        9 +
        84,
    );
    const morphNames = new Set(vmd.morphs.map((m) => m.morphName));
    for (const [m] of MMD_MORPHS) expect(morphNames.has(m), m).toBe(true);
    expect(morphNames.has('jawOpen')).toBe(true);
    // あ follows jawOpen (0 → 1 over the clip).
    const a = vmd.morphs.filter((m) => m.morphName === 'あ').sort((x, y) => x.frameNum - y.frameNum);
    expect(a[0].weight).toBeCloseTo(0, 5);
    expect(a[a.length - 1].frameNum).toBe(7);
    expect(a[a.length - 1].weight).toBeCloseTo(1, 5);
    // Names are Shift_JIS on disk: the first bone record's name bytes decode to a keyed name.
    const first = iconv.decode(Buffer.from(bytes.subarray(54, 54 + 15)), 'Shift_JIS').replace(/\0.*$/s, '');
    expect(keyedNames.includes(first) || first === 'グルーブ' || first === '両目').toBe(true);
  });

  it('every bone and MMD morph it keys exists in the Gene PMX model', async () => {
    const p = await parser();
    const pmx = p.parsePmx(
      ab(new Uint8Array(readFileSync(join(SHARED, 'testdata/formats/mmd/Gene_light/Gene_light.pmx')))),
      false,
    );
    const geneBones = new Set(pmx.bones.map((b) => b.name));
    const geneMorphs = new Set(pmx.morphs.map((m) => m.name));
    const vmd = p.parseVmd(ab(bytes), false);
    for (const n of new Set(vmd.motions.map((m) => m.boneName))) expect(geneBones.has(n), n).toBe(true);
    for (const n of new Set(vmd.morphs.map((m) => m.morphName))) expect(geneMorphs.has(n), n).toBe(true);
  });

  it('MMD FK of the keys puts every mapped joint, and the IK targets, where the canonical clip has them', async () => {
    const vmd = (await parser()).parseVmd(ab(bytes), false);
    const thighY = (() => {
      let y = 0;
      for (let b = rig.bones.findIndex((x) => x.name === '左足'); b >= 0; ) {
        y += rig.bones[b].restTranslation[1];
        const p = rig.bones[b].parent;
        b = p === null ? -1 : rig.bones.findIndex((x) => x.name === p);
      }
      return y;
    })();
    const s = STANDARD_HIP_HEIGHT / thighY;
    const unitsPerMetre = rig.unitsPerMetre * s;
    const fk = forwardKinematics(clip);
    const n = jointCount(clip.skeleton);
    const canon = (f: number, joint: string): Vec3 => {
      const j = clip.skeleton.names.indexOf(joint);
      const i = (f * n + j) * 3;
      // canonical (right-handed, +Z front) → MMD (left-handed, -Z front): z → -z, then units.
      return [
        fk.positions[i] * unitsPerMetre,
        fk.positions[i + 1] * unitsPerMetre,
        -fk.positions[i + 2] * unitsPerMetre,
      ];
    };
    const tol = 1e-3 * unitsPerMetre; // 1 mm
    const pairs: [string, string][] = [
      ['下半身', 'hips'],
      ['左足', 'leftThigh'],
      ['右ひざ', 'rightShin'],
      ['左足首', 'leftFoot'],
      ['右つま先', 'rightToes'],
      ['頭', 'head'],
      ['左ひじ', 'leftForearm'],
      ['右手首', 'rightHand'],
      ['左中指２', 'leftMiddle2'],
      ['左足ＩＫ', 'leftFoot'],
      ['右足ＩＫ', 'rightFoot'],
      ['左つま先ＩＫ', 'leftToes'],
    ];
    for (const f of [0, 3, 7]) {
      const w = mmdFk(rig, vmd, f, s);
      for (const [bone, joint] of pairs) {
        const a = w.get(bone) as Vec3;
        const b = canon(f, joint);
        expect(Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]), `${bone} @${f}`).toBeLessThan(tol);
      }
    }
  });

  it('resamples other frame rates to 30 fps', async () => {
    const c60 = { ...randomClip(13, 60, 2) };
    const v = (await parser()).parseVmd(ab(write(retarget(c60, buildRig('mmd', c60.skeleton)))), false);
    const frames = new Set(v.motions.map((m) => m.frameNum));
    expect(Math.max(...frames)).toBe(6); // 12 frames at 60 fps = 0.2 s = 6 frames at 30 fps
    expect(frames.size).toBe(7);
  });

  it('face-only VMD: morph keys, no bones; no face curves is a clear error', async () => {
    const v = (await parser()).parseVmd(ab(writeMorphs(clip)), false);
    expect(v.metadata.motionCount).toBe(0);
    expect(v.metadata.morphCount).toBeGreaterThan(0);
    expect(() => writeMorphs(randomClip(3))).toThrow(/no face/);
  });

  it('gaze: 両目 turns toward the look direction (read back right-handed by mmd-parser)', async () => {
    const c = clipWithFace(3);
    const bs = c.blendshapes;
    if (!bs) throw new Error('clipWithFace has face curves');
    const w = bs.weights.slice();
    const K = bs.names.length;
    w[K + bs.names.indexOf('eyeLookOutLeft')] = 1;
    w[K + bs.names.indexOf('eyeLookInRight')] = 1;
    const rc2 = retarget({ ...c, blendshapes: { ...bs, weights: w } }, buildRig('mmd', c.skeleton));
    const v = (await parser()).parseVmd(ab(write(rc2)), true);
    const eyes = v.motions.filter((m) => m.boneName === '両目').sort((a, b) => a.frameNum - b.frameNum);
    expect(eyes).toHaveLength(3);
    const y = (25 * Math.PI) / 180;
    // Right-handed (canonical) rotation about +Y by 25°: the eyes turn toward the character's left (+X).
    const expected = [0, Math.sin(y / 2), 0, Math.cos(y / 2)];
    for (let k = 0; k < 4; k++) expect(eyes[1].rotation[k]).toBeCloseTo(expected[k], 5);
    expect(eyes[0].rotation[3]).toBeCloseTo(1, 6);
  });
});
