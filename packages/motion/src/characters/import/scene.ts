/**
 * The format-neutral scene an importer produces (FBX, glTF/GLB, VRM): nodes with their rest world matrices and
 * meshes already posed at that rest (vertices in world space, file units), before the character is put into
 * canonical space (`character.ts`). Matrices are 4×4 column-major (glTF/FBX order: translation in 12..14).
 */
import type { Quat, Vec3 } from '../../math.ts';
import { qFromMatrix } from '../../math.ts';
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

// ------------------------------------------------------------------ 4×4 column-major helpers

export const IDENTITY4 = (): Float64Array => Float64Array.of(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);

export function mul4(a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  const o = new Float64Array(16);
  for (let c = 0; c < 4; c++)
    for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
      o[c * 4 + r] = s;
    }
  return o;
}

export function invert4(m: ArrayLike<number>): Float64Array {
  const inv = new Float64Array(16);
  const a = m;
  inv[0] =
    a[5] * a[10] * a[15] -
    a[5] * a[11] * a[14] -
    a[9] * a[6] * a[15] +
    a[9] * a[7] * a[14] +
    a[13] * a[6] * a[11] -
    a[13] * a[7] * a[10];
  inv[4] =
    -a[4] * a[10] * a[15] +
    a[4] * a[11] * a[14] +
    a[8] * a[6] * a[15] -
    a[8] * a[7] * a[14] -
    a[12] * a[6] * a[11] +
    a[12] * a[7] * a[10];
  inv[8] =
    a[4] * a[9] * a[15] -
    a[4] * a[11] * a[13] -
    a[8] * a[5] * a[15] +
    a[8] * a[7] * a[13] +
    a[12] * a[5] * a[11] -
    a[12] * a[7] * a[9];
  inv[12] =
    -a[4] * a[9] * a[14] +
    a[4] * a[10] * a[13] +
    a[8] * a[5] * a[14] -
    a[8] * a[6] * a[13] -
    a[12] * a[5] * a[10] +
    a[12] * a[6] * a[9];
  inv[1] =
    -a[1] * a[10] * a[15] +
    a[1] * a[11] * a[14] +
    a[9] * a[2] * a[15] -
    a[9] * a[3] * a[14] -
    a[13] * a[2] * a[11] +
    a[13] * a[3] * a[10];
  inv[5] =
    a[0] * a[10] * a[15] -
    a[0] * a[11] * a[14] -
    a[8] * a[2] * a[15] +
    a[8] * a[3] * a[14] +
    a[12] * a[2] * a[11] -
    a[12] * a[3] * a[10];
  inv[9] =
    -a[0] * a[9] * a[15] +
    a[0] * a[11] * a[13] +
    a[8] * a[1] * a[15] -
    a[8] * a[3] * a[13] -
    a[12] * a[1] * a[11] +
    a[12] * a[3] * a[9];
  inv[13] =
    a[0] * a[9] * a[14] -
    a[0] * a[10] * a[13] -
    a[8] * a[1] * a[14] +
    a[8] * a[2] * a[13] +
    a[12] * a[1] * a[10] -
    a[12] * a[2] * a[9];
  inv[2] =
    a[1] * a[6] * a[15] -
    a[1] * a[7] * a[14] -
    a[5] * a[2] * a[15] +
    a[5] * a[3] * a[14] +
    a[13] * a[2] * a[7] -
    a[13] * a[3] * a[6];
  inv[6] =
    -a[0] * a[6] * a[15] +
    a[0] * a[7] * a[14] +
    a[4] * a[2] * a[15] -
    a[4] * a[3] * a[14] -
    a[12] * a[2] * a[7] +
    a[12] * a[3] * a[6];
  inv[10] =
    a[0] * a[5] * a[15] -
    a[0] * a[7] * a[13] -
    a[4] * a[1] * a[15] +
    a[4] * a[3] * a[13] +
    a[12] * a[1] * a[7] -
    a[12] * a[3] * a[5];
  inv[14] =
    -a[0] * a[5] * a[14] +
    a[0] * a[6] * a[13] +
    a[4] * a[1] * a[14] -
    a[4] * a[2] * a[13] -
    a[12] * a[1] * a[6] +
    a[12] * a[2] * a[5];
  inv[3] =
    -a[1] * a[6] * a[11] +
    a[1] * a[7] * a[10] +
    a[5] * a[2] * a[11] -
    a[5] * a[3] * a[10] -
    a[9] * a[2] * a[7] +
    a[9] * a[3] * a[6];
  inv[7] =
    a[0] * a[6] * a[11] -
    a[0] * a[7] * a[10] -
    a[4] * a[2] * a[11] +
    a[4] * a[3] * a[10] +
    a[8] * a[2] * a[7] -
    a[8] * a[3] * a[6];
  inv[11] =
    -a[0] * a[5] * a[11] +
    a[0] * a[7] * a[9] +
    a[4] * a[1] * a[11] -
    a[4] * a[3] * a[9] -
    a[8] * a[1] * a[7] +
    a[8] * a[3] * a[5];
  inv[15] =
    a[0] * a[5] * a[10] -
    a[0] * a[6] * a[9] -
    a[4] * a[1] * a[10] +
    a[4] * a[2] * a[9] +
    a[8] * a[1] * a[6] -
    a[8] * a[2] * a[5];
  let det = a[0] * inv[0] + a[1] * inv[4] + a[2] * inv[8] + a[3] * inv[12];
  if (Math.abs(det) < 1e-30) det = 1e-30;
  for (let i = 0; i < 16; i++) inv[i] /= det;
  return inv;
}

/** T · R · S as a column-major matrix (q = x, y, z, w). */
export function compose4(t: ArrayLike<number>, q: ArrayLike<number>, s: ArrayLike<number>): Float64Array {
  const [x, y, z, w] = [q[0], q[1], q[2], q[3]];
  const m = new Float64Array(16);
  m[0] = (1 - 2 * (y * y + z * z)) * s[0];
  m[1] = 2 * (x * y + w * z) * s[0];
  m[2] = 2 * (x * z - w * y) * s[0];
  m[4] = 2 * (x * y - w * z) * s[1];
  m[5] = (1 - 2 * (x * x + z * z)) * s[1];
  m[6] = 2 * (y * z + w * x) * s[1];
  m[8] = 2 * (x * z + w * y) * s[2];
  m[9] = 2 * (y * z - w * x) * s[2];
  m[10] = (1 - 2 * (x * x + y * y)) * s[2];
  m[12] = t[0];
  m[13] = t[1];
  m[14] = t[2];
  m[15] = 1;
  return m;
}

export const translation4 = (m: ArrayLike<number>): Vec3 => [m[12], m[13], m[14]];

/** The rotation of a matrix with its scale (and shear) removed: Gram–Schmidt on the columns, x kept. */
export function rotation4(m: ArrayLike<number>): Quat {
  const n = (v: Vec3): Vec3 => {
    const l = Math.hypot(v[0], v[1], v[2]) || 1;
    return [v[0] / l, v[1] / l, v[2] / l];
  };
  const x = n([m[0], m[1], m[2]]);
  let y: Vec3 = [m[4], m[5], m[6]];
  const d = x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
  y = n([y[0] - d * x[0], y[1] - d * x[1], y[2] - d * x[2]]);
  let z: Vec3 = [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]];
  // A mirrored node (negative scale) keeps a proper rotation.
  if (z[0] * m[8] + z[1] * m[9] + z[2] * m[10] < 0) z = [z[0], z[1], z[2]];
  // Row-major rotation with columns x, y, z.
  return qFromMatrix([x[0], y[0], z[0], x[1], y[1], z[1], x[2], y[2], z[2]]);
}

export function transformPoint4(m: ArrayLike<number>, x: number, y: number, z: number): Vec3 {
  return [
    m[0] * x + m[4] * y + m[8] * z + m[12],
    m[1] * x + m[5] * y + m[9] * z + m[13],
    m[2] * x + m[6] * y + m[10] * z + m[14],
  ];
}

export function transformDir4(m: ArrayLike<number>, x: number, y: number, z: number): Vec3 {
  return [m[0] * x + m[4] * y + m[8] * z, m[1] * x + m[5] * y + m[9] * z, m[2] * x + m[6] * y + m[10] * z];
}

/** Up to 4 influences per vertex, largest first, normalised. */
export function topInfluences(list: [number, number][]): [number, number][] {
  list.sort((a, b) => b[1] - a[1]);
  const top = list.slice(0, 4).filter((x) => x[1] > 0);
  const s = top.reduce((a, x) => a + x[1], 0) || 1;
  return top.map(([j, w]) => [j, w / s]);
}
