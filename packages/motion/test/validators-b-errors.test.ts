/** Bad input to part B's writers gets a clear error (not a broken file). */
import { describe, expect, it } from 'vitest';
import { makeCharacter, makeFaceMesh } from '../src/characters/index.ts';
import { write as writeAnim } from '../src/formats/anim.ts';
import { writeCsv } from '../src/formats/face.ts';
import { write as writeGlb } from '../src/formats/gltf.ts';
import { decodePng, encodePng } from '../src/formats/png.ts';
import { sjis, write as writeVmd } from '../src/formats/vmd.ts';
import { write as writeVrma } from '../src/formats/vrma.ts';
import { retarget } from '../src/retarget/index.ts';
import { buildRig } from '../src/rigs/index.ts';
import { randomClip } from './helpers.ts';

describe('part B writers reject bad input clearly', () => {
  const clip = randomClip(3);

  it('VMD: a rig that is not in MMD space, names too long or not Shift_JIS', () => {
    expect(() => writeVmd(retarget(clip, buildRig('mixamo', clip.skeleton)))).toThrow(/not in MMD space/);
    expect(() => sjis('とても長いボーンの名前です', 15)).toThrow(/Shift_JIS bytes/);
    expect(() => sjis('😀', 15)).toThrow(/cannot be encoded/);
    expect(Array.from(sjis('センター', 15))).toEqual([0x83, 0x5a, 0x83, 0x93, 0x83, 0x5e, 0x81, 0x5b]);
  });

  it('.anim: a rig not in Unity axes', () => {
    expect(() => writeAnim(retarget(clip, buildRig('ue4', clip.skeleton)))).toThrow(/not in Unity axes/);
  });

  it('GLB: inconsistent skeletons and meshes', () => {
    const anim = {
      names: ['a', 'b'],
      parents: [-1, 0],
      restTranslations: new Float32Array(6),
      restRotations: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1]),
      fps: 30,
      frameCount: 2,
      rotations: new Float32Array(16),
      translations: new Float32Array(6),
    };
    expect(() => writeGlb({ ...anim, parents: [1, -1] })).toThrow(/parent must come before/);
    expect(() => writeGlb({ ...anim, names: ['a', 'a'] })).toThrow(/unique/);
    expect(() => writeGlb({ ...anim, rotations: new Float32Array(3) })).toThrow(/rotations length/);
    expect(() => writeGlb({ ...anim, fps: 0 })).toThrow(/fps/);
    const mesh = makeFaceMesh();
    // The face mesh is bound to head/neck: a skeleton without them is refused.
    expect(() => writeGlb(anim, { mesh })).toThrow(/is not in the skeleton/);
    const bad = { ...mesh, indices: new Uint32Array([0, 1, 10 ** 7]) };
    expect(() => writeGlb(clip, { mesh: bad })).toThrow(/index out of range/);
  });

  it('VRMA and face: skeletons without VRM bones, clips without face curves', () => {
    const sk = { ...clip.skeleton, names: clip.skeleton.names.map((n) => (n === 'head' ? 'skull' : n)) };
    expect(() => writeVrma({ ...clip, skeleton: sk })).toThrow(/no VRM humanoid bone/);
    expect(() => writeCsv(clip)).toThrow(/no face blendshape curves/);
  });

  it('characters and PNG: unknown kinds, bad images', () => {
    expect(() => makeCharacter('robot' as never)).toThrow(/unknown character kind/);
    expect(() => encodePng(2, 2, new Uint8Array(3))).toThrow(/size mismatch/);
    expect(() => decodePng(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]))).toThrow(/signature/);
    const png = encodePng(
      3,
      2,
      new Uint8Array(24).map((_, i) => i * 10),
    );
    const d = decodePng(png);
    expect(Array.from(d.pixels)).toEqual(Array.from({ length: 24 }, (_, i) => i * 10));
    png[40] ^= 0xff; // corrupt the IDAT payload: the CRC check catches it
    expect(() => decodePng(png)).toThrow(/CRC/);
  });
});
