/**
 * 4×4 matrix helpers, column-major (glTF/FBX order: translation in 12..14): the character importers' scene
 * matrices and the glTF writer's node matrices.
 */
import type { Quat, Vec3 } from './math.ts';
import { qFromMatrix, unit } from './math.ts';

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

/**
 * The inverse by cofactors: each entry of the adjugate is a 3×3 minor expanded along its first remaining row, its
 * six products summed in the classic (MESA) order, so the result is the same to the bit as the written-out formula.
 */
export function invert4(a: ArrayLike<number>): Float64Array {
  const inv = new Float64Array(16);
  const at = (c: number, r: number) => a[c * 4 + r];
  for (let c = 0; c < 4; c++)
    for (let r = 0; r < 4; r++) {
      // Entry (column c, row r) of the adjugate: the cofactor of column r, row c.
      const cols = [0, 1, 2, 3].filter((k) => k !== r);
      const rows = [0, 1, 2, 3].filter((k) => k !== c);
      let s = 0;
      for (let i = 0; i < 3; i++) {
        const [j, k] = cols.filter((_, n) => n !== i);
        const p = ((r + c + i) % 2 === 0 ? 1 : -1) * at(cols[i], rows[0]);
        const t1 = p * at(j, rows[1]) * at(k, rows[2]);
        const t2 = -p * at(j, rows[2]) * at(k, rows[1]);
        s = i === 0 ? t1 + t2 : s + t1 + t2;
      }
      inv[c * 4 + r] = s;
    }
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
  const x = unit([m[0], m[1], m[2]]);
  let y: Vec3 = [m[4], m[5], m[6]];
  const d = x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
  y = unit([y[0] - d * x[0], y[1] - d * x[1], y[2] - d * x[2]]);
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
