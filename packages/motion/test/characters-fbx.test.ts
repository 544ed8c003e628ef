/**
 * Contract with the FBX writer (part A): a character (BoyFBX/GirlFBX) and the OnlyFace face mesh written through
 * `fbx.write` import in Blender as a skinned mesh on the rig's armature, with the ARKit shape keys.
 */
import { describe, expect, it } from 'vitest';
import { makeCharacter, makeFaceMesh } from '../src/characters/index.ts';
import { write as writeFbx } from '../src/formats/fbx.ts';
import { retarget } from '../src/retarget/index.ts';
import { buildRig } from '../src/rigs/index.ts';
import { SUPPORTED_BLENDSHAPES } from '../src/solver/face.ts';
import { blender, blenderImportFbx, clipWithFace, tempFile } from './validators-b-helpers.ts';

describe('characters through the FBX writer', () => {
  const clip = clipWithFace(6);

  it('boy on the Mixamo rig: skinned mesh, vertex groups are rig bones', async () => {
    const rig = buildRig('mixamo', clip.skeleton);
    const character = makeCharacter('boy', rig);
    const bytes = writeFbx(retarget(clip, rig), { meshes: character.meshes });
    const exe = blender();
    if (!exe) return;
    const r = await blenderImportFbx(exe, tempFile('boy.fbx', bytes));
    expect(r.meshes.length).toBe(1);
    expect(r.vertices).toBe(character.meshes[0].positions.length / 3);
    expect(r.skinned).toBe(true);
    const bones = new Set(r.bones);
    for (const g of r.groups) expect(bones.has(g), g).toBe(true);
    expect(r.groups).toContain('mixamorig:LeftHand');
  });

  it('face mesh: the ARKit shape keys', async () => {
    const rig = buildRig('mixamo', clip.skeleton);
    const mesh = makeFaceMesh({ rig });
    const bytes = writeFbx(retarget(clip, rig), { meshes: [mesh] });
    const exe = blender();
    if (!exe) return;
    const r = await blenderImportFbx(exe, tempFile('face.fbx', bytes));
    for (const s of SUPPORTED_BLENDSHAPES) expect(r.shapeKeys, s).toContain(s);
  });
});
