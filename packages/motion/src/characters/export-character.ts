/**
 * Files of an imported character driven by a canonical clip: FBX (the character's own meshes and materials,
 * skinned to its own skeleton), GLB (one skinned mesh, one primitive per material) and, for VRM characters, VRMA
 * (humanoid-normalised: the VRM viewer applies it to the avatar's own bones). Without a clip: a rest-pose model.
 */
import type { MotionClip } from '../clip.ts';
import { restClip } from '../clip.ts';
import { write as writeFbx } from '../formats/fbx.ts';
import { write as writeGlb } from '../formats/gltf.ts';
import { write as writeVrma } from '../formats/vrma.ts';
import type { MeshMaterial, SkinnedMesh } from '../rigs/types.ts';
import { createSkeleton } from '../skeleton.ts';
import type { CharacterModel } from './character.ts';
import { retargetToCharacter } from './retarget-character.ts';

export type CharacterExportFormat = 'fbx' | 'glb' | 'vrma';

/** All meshes as one (shared joint names; material groups kept). */
export function mergeMeshes(meshes: readonly SkinnedMesh[], name = 'Character'): SkinnedMesh {
  if (meshes.length === 1) return meshes[0];
  let nv = 0;
  let ni = 0;
  for (const m of meshes) {
    nv += m.positions.length / 3;
    ni += m.indices.length;
  }
  const positions = new Float32Array(3 * nv);
  const normals = new Float32Array(3 * nv);
  const uvs = new Float32Array(2 * nv);
  const joints = new Uint16Array(4 * nv);
  const weights = new Float32Array(4 * nv);
  const indices = new Uint32Array(ni);
  const materials: MeshMaterial[] = [];
  const groups: { start: number; count: number; material: number }[] = [];
  let v0 = 0;
  let i0 = 0;
  for (const m of meshes) {
    const n = m.positions.length / 3;
    positions.set(m.positions, 3 * v0);
    normals.set(m.normals, 3 * v0);
    uvs.set(m.uvs, 2 * v0);
    joints.set(m.joints, 4 * v0);
    weights.set(m.weights, 4 * v0);
    for (let k = 0; k < m.indices.length; k++) indices[i0 + k] = m.indices[k] + v0;
    for (const g of m.groups) {
      const mat = m.materials[g.material];
      let mi = materials.indexOf(mat);
      if (mi < 0) {
        mi = materials.length;
        materials.push(mat);
      }
      groups.push({ start: i0 + g.start, count: g.count, material: mi });
    }
    v0 += n;
    i0 += m.indices.length;
  }
  return {
    name,
    positions,
    normals,
    uvs,
    indices,
    joints,
    weights,
    jointNames: meshes[0].jointNames,
    materials,
    groups,
  };
}

export function exportCharacter(
  model: CharacterModel,
  format: CharacterExportFormat,
  clip?: MotionClip,
  options: { name?: string } = {},
): Uint8Array {
  const motion = clip ?? restClip(createSkeleton(), 2, 30);
  if (format === 'vrma') {
    if (!model.vrm) throw new Error('VRMA is for VRM characters');
    return writeVrma(motion);
  }
  // FBX in the character's own units (centimetres, or studs for a Roblox R15 character); GLB in metres.
  const r = retargetToCharacter(motion, model, {
    unitsPerMetre: format === 'fbx' ? (model.units?.unitsPerMetre ?? 100) : 1,
  });
  const rc = options.name ? { ...r.clip, name: options.name } : r.clip;
  if (format === 'fbx')
    return writeFbx(rc, { meshes: model.meshes, noAnimation: !clip, creator: '@mocap/motion characters' });
  return writeGlb(rc, { mesh: mergeMeshes(model.meshes), noAnimation: !clip, animationName: rc.name });
}
