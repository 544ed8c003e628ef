/**
 * The format-neutral scene an importer produces (FBX, glTF/GLB, VRM): nodes with their rest world matrices and
 * meshes already posed at that rest (vertices in world space, file units), before the character is put into
 * canonical space (`character.ts`). Matrices are 4×4 column-major (glTF/FBX order: translation in 12..14).
 */
import type { Vec3 } from '../../math.ts';
import type { MeshMaterial } from '../../rigs/types.ts';

export type CharacterFormat = 'fbx' | 'fbx-ascii' | 'glb' | 'gltf' | 'vrm0' | 'vrm1';

export interface SceneNode {
  name: string;
  /** Parent node index or -1. */
  parent: number;
  /** Rest world matrix, file units. */
  world: Float64Array;
  /** A skeleton joint: an FBX LimbNode/Root or a skin joint. */
  bone: boolean;
}

export interface SceneMesh {
  name: string;
  /** World-space rest positions `[3n]`, file units. */
  positions: Float32Array;
  normals: Float32Array;
  uvs: Float32Array;
  indices: Uint32Array;
  /** `[4n]` node indices. */
  joints: Uint32Array;
  weights: Float32Array;
  materials: MeshMaterial[];
  groups: { start: number; count: number; material: number }[];
}

export interface ImportedScene {
  format: CharacterFormat;
  /** Metres per file unit (FBX UnitScaleFactor / 100; 1 for glTF). */
  metresPerUnit: number;
  /** The up axis the file declares, in file coordinates. */
  declaredUp: Vec3;
  nodes: SceneNode[];
  meshes: SceneMesh[];
  /** VRM humanoid bones (VRM role → node index). */
  vrm?: { version: '0' | '1'; humanBones: Record<string, number>; title?: string };
  /** Things a user should know (textures skipped, non-uniform scale...). */
  warnings: string[];
}

export class CharacterImportError extends Error {
  constructor(
    message: string,
    readonly reason: 'format' | 'no-skeleton' | 'no-mesh' | 'not-humanoid' | 'too-large',
  ) {
    super(message);
  }
}

/** Up to 4 influences per vertex, largest first, normalised. */
export function topInfluences(list: [number, number][]): [number, number][] {
  list.sort((a, b) => b[1] - a[1]);
  const top = list.slice(0, 4).filter((x) => x[1] > 0);
  const s = top.reduce((a, x) => a + x[1], 0) || 1;
  return top.map(([j, w]) => [j, w / s]);
}
