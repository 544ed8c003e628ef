/**
 * Small vector / quaternion / Euler toolkit used by the motion package (no dependencies).
 *
 * Conventions:
 * - `Vec3` is `[x, y, z]`; `Quat` is `[x, y, z, w]` (scalar last, like three.js and glTF), unit length for rotations.
 * - Quaternions act on column vectors: `rotate(q, v) = q v q*`; `mul(a, b)` applies `b` first, then `a`
 *   (so a child's world rotation is `mul(parentWorld, childLocal)`).
 * - Euler orders name the BVH channel order: `'ZXY'` means the rotation matrix `Rz · Rx · Ry` (the BVH
 *   convention of listing channels left to right, each an intrinsic rotation of the previous frame).
 * - Angles are radians unless a name says `Deg`.
 *
 * The flat-array helpers (`readQuat`, `writeQuat`, ...) read and write `[x, y, z, w]` at `4 * index`.
 */
import { eulerQ64, matrixQ64 } from './quat64.ts';

export type Vec3 = [number, number, number];
export type Quat = [number, number, number, number];
export type EulerOrder = 'XYZ' | 'XZY' | 'YXZ' | 'YZX' | 'ZXY' | 'ZYX';
type NumArray = ArrayLike<number> & { [i: number]: number };

export const DEG = Math.PI / 180;

// ---------------------------------------------------------------- vectors

export const v3 = (x = 0, y = 0, z = 0): Vec3 => [x, y, z];
export const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
/** a + b * s */
export const addScaled = (a: Vec3, b: Vec3, s: number): Vec3 => [
  a[0] + b[0] * s,
  a[1] + b[1] * s,
  a[2] + b[2] * s,
];
export const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
export const length = (a: Vec3): number => Math.hypot(a[0], a[1], a[2]);
export const distance = (a: Vec3, b: Vec3): number => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
export const lerp = (a: Vec3, b: Vec3, t: number): Vec3 => [
  a[0] + (b[0] - a[0]) * t,
  a[1] + (b[1] - a[1]) * t,
  a[2] + (b[2] - a[2]) * t,
];
export const mid = (a: Vec3, b: Vec3): Vec3 => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];

/** Unit vector along `a`; `fallback` (default +Y) when `a` is (nearly) zero. */
export function normalize(a: Vec3, fallback: Vec3 = [0, 1, 0]): Vec3 {
  const l = length(a);
  return l > 1e-12 ? [a[0] / l, a[1] / l, a[2] / l] : [...fallback];
}

/** Unit vector along `a`; the zero vector stays zero (`normalize` with no fallback direction). */
export const unit = (a: Vec3): Vec3 => normalize(a, [0, 0, 0]);

/** Per index i, the largest value of `x` over the window [i - r, i + r] (clipped to the array). */
export function movingMax(x: ArrayLike<number>, r: number): Float64Array {
  const out = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const hi = Math.min(x.length - 1, i + r);
    let m = Number.NEGATIVE_INFINITY;
    for (let k = Math.max(0, i - r); k <= hi; k++) m = Math.max(m, x[k]);
    out[i] = m;
  }
  return out;
}

/** Per index i, the mean of `x` over the window [i - r, i + r] (clipped to the array). */
export function movingMean(x: ArrayLike<number>, r: number): Float64Array {
  const out = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const lo = Math.max(0, i - r);
    const hi = Math.min(x.length - 1, i + r);
    let sum = 0;
    for (let k = lo; k <= hi; k++) sum += x[k];
    out[i] = sum / (hi - lo + 1);
  }
  return out;
}

/** The part of `a` orthogonal to the unit vector `n`. */
export const rejectFrom = (a: Vec3, n: Vec3): Vec3 => addScaled(a, n, -dot(a, n));

/** Angle between two vectors, radians (0..π). */
export function angleBetween(a: Vec3, b: Vec3): number {
  return Math.atan2(length(cross(a, b)), dot(a, b));
}

export function readVec3(arr: ArrayLike<number>, index: number): Vec3 {
  const o = index * 3;
  return [arr[o], arr[o + 1], arr[o + 2]];
}

export function writeVec3(arr: NumArray, index: number, v: Vec3): void {
  const o = index * 3;
  arr[o] = v[0];
  arr[o + 1] = v[1];
  arr[o + 2] = v[2];
}

// ---------------------------------------------------------------- quaternions

export const qIdentity = (): Quat => [0, 0, 0, 1];

export function qMul(a: Quat, b: Quat): Quat {
  const [ax, ay, az, aw] = a;
  const [bx, by, bz, bw] = b;
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

/** Conjugate = inverse for unit quaternions. */
export const qConj = (q: Quat): Quat => [-q[0], -q[1], -q[2], q[3]];
export const qDot = (a: Quat, b: Quat): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
export const qNeg = (q: Quat): Quat => [-q[0], -q[1], -q[2], -q[3]];

export function qNormalize(q: Quat): Quat {
  const l = Math.hypot(q[0], q[1], q[2], q[3]);
  return l > 1e-12 ? [q[0] / l, q[1] / l, q[2] / l, q[3] / l] : [0, 0, 0, 1];
}

/** Rotates vector `v` by unit quaternion `q`. */
export function qRotate(q: Quat, v: Vec3): Vec3 {
  const [qx, qy, qz, qw] = q;
  const [vx, vy, vz] = v;
  // t = 2 * cross(q.xyz, v)
  const tx = 2 * (qy * vz - qz * vy);
  const ty = 2 * (qz * vx - qx * vz);
  const tz = 2 * (qx * vy - qy * vx);
  return [
    vx + qw * tx + (qy * tz - qz * ty),
    vy + qw * ty + (qz * tx - qx * tz),
    vz + qw * tz + (qx * ty - qy * tx),
  ];
}

export function qFromAxisAngle(axis: Vec3, angle: number): Quat {
  const n = normalize(axis, [1, 0, 0]);
  const s = Math.sin(angle / 2);
  return [n[0] * s, n[1] * s, n[2] * s, Math.cos(angle / 2)];
}

/** Rotation vector (axis * angle) → quaternion. */
export function qExp(r: Vec3): Quat {
  const a = length(r);
  if (a < 1e-9) return qNormalize([r[0] / 2, r[1] / 2, r[2] / 2, 1]);
  const s = Math.sin(a / 2) / a;
  return [r[0] * s, r[1] * s, r[2] * s, Math.cos(a / 2)];
}

/** Quaternion → rotation vector (axis * angle), angle in 0..π (shortest arc). */
export function qLog(q: Quat): Vec3 {
  let [x, y, z, w] = q;
  if (w < 0) {
    x = -x;
    y = -y;
    z = -z;
    w = -w;
  }
  const s = Math.hypot(x, y, z);
  if (s < 1e-9) return [2 * x, 2 * y, 2 * z];
  const angle = 2 * Math.atan2(s, w);
  return [(x / s) * angle, (y / s) * angle, (z / s) * angle];
}

/** Rotation angle of a unit quaternion, radians 0..π. */
export function qAngle(q: Quat): number {
  return 2 * Math.atan2(Math.hypot(q[0], q[1], q[2]), Math.abs(q[3]));
}

/** Geodesic angle between two rotations, radians 0..π. */
export function qAngleBetween(a: Quat, b: Quat): number {
  return qAngle(qMul(qConj(a), b));
}

/** Shortest rotation taking unit vector `a` onto unit vector `b`. */
export function qFromUnitVectors(a: Vec3, b: Vec3): Quat {
  const d = dot(a, b);
  if (d < -0.999999) {
    // Opposite: any perpendicular axis.
    let axis = cross([1, 0, 0], a);
    if (length(axis) < 1e-6) axis = cross([0, 1, 0], a);
    return qFromAxisAngle(axis, Math.PI);
  }
  const c = cross(a, b);
  return qNormalize([c[0], c[1], c[2], 1 + d]);
}

/** Spherical interpolation along the shortest arc. */
export function qSlerp(a: Quat, b: Quat, t: number): Quat {
  let cos = qDot(a, b);
  let bb = b;
  if (cos < 0) {
    cos = -cos;
    bb = qNeg(b);
  }
  if (cos > 0.9995) {
    return qNormalize([
      a[0] + (bb[0] - a[0]) * t,
      a[1] + (bb[1] - a[1]) * t,
      a[2] + (bb[2] - a[2]) * t,
      a[3] + (bb[3] - a[3]) * t,
    ]);
  }
  const theta = Math.acos(cos);
  const s = Math.sin(theta);
  const wa = Math.sin((1 - t) * theta) / s;
  const wb = Math.sin(t * theta) / s;
  return [a[0] * wa + bb[0] * wb, a[1] * wa + bb[1] * wb, a[2] * wa + bb[2] * wb, a[3] * wa + bb[3] * wb];
}

/** `q` raised to the power `t` (the same axis, angle scaled by t), shortest arc. */
export function qPow(q: Quat, t: number): Quat {
  return qExp(scale(qLog(q), t));
}

/**
 * Swing-twist decomposition about the unit `axis`: `q = swing * twist`, where `twist` rotates about `axis`
 * and `swing` has its axis perpendicular to `axis`. Returns the twist angle too (radians, -π..π).
 */
export function qSwingTwist(q: Quat, axis: Vec3): { swing: Quat; twist: Quat; twistAngle: number } {
  const p = dot([q[0], q[1], q[2]], axis);
  let twist: Quat = [axis[0] * p, axis[1] * p, axis[2] * p, q[3]];
  const l = Math.hypot(twist[0], twist[1], twist[2], twist[3]);
  if (l < 1e-9) twist = [0, 0, 0, 1];
  else twist = [twist[0] / l, twist[1] / l, twist[2] / l, twist[3] / l];
  const swing = qMul(q, qConj(twist));
  let twistAngle = 2 * Math.atan2(dot([twist[0], twist[1], twist[2]], axis), twist[3]);
  if (twistAngle > Math.PI) twistAngle -= 2 * Math.PI;
  if (twistAngle < -Math.PI) twistAngle += 2 * Math.PI;
  return { swing, twist, twistAngle };
}

/** Rotation whose columns (the images of the unit X, Y, Z axes) are the orthonormal `x`, `y`, `z`. */
export function qFromBasis(x: Vec3, y: Vec3, z: Vec3): Quat {
  return qFromMatrix([x[0], y[0], z[0], x[1], y[1], z[1], x[2], y[2], z[2]]);
}

/**
 * Orthonormal frame from a primary axis direction and a secondary hint: `primary` is kept exactly, the
 * `secondary` is made orthogonal to it. `which` says which local axes they are (e.g. 'yz': primary is the
 * local Y axis, secondary is the local Z axis). Returns the rotation taking local axes to these directions.
 */
export function qFromTwoAxes(
  primary: Vec3,
  secondary: Vec3,
  which: 'xy' | 'xz' | 'yx' | 'yz' | 'zx' | 'zy',
): Quat {
  const a = normalize(primary);
  let b = rejectFrom(secondary, a);
  if (length(b) < 1e-9) {
    // Secondary parallel to primary: pick any perpendicular.
    b = rejectFrom(Math.abs(a[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0], a);
  }
  b = normalize(b);
  // The third axis completes a right-handed frame: x = y × z, y = z × x, z = x × y.
  const v: Partial<Record<'x' | 'y' | 'z', Vec3>> = { [which[0]]: a, [which[1]]: b };
  const next = { x: 'y', y: 'z', z: 'x' } as const;
  const third = (['x', 'y', 'z'] as const).find((k) => !v[k]) as 'x' | 'y' | 'z';
  v[third] = cross(v[next[third]] as Vec3, v[next[next[third]]] as Vec3);
  return qFromBasis(v.x as Vec3, v.y as Vec3, v.z as Vec3);
}

/** Row-major 3×3 rotation matrix → unit quaternion (Shepperd's method). */
export function qFromMatrix(m: ArrayLike<number>): Quat {
  const m00 = m[0];
  const m01 = m[1];
  const m02 = m[2];
  const m10 = m[3];
  const m11 = m[4];
  const m12 = m[5];
  const m20 = m[6];
  const m21 = m[7];
  const m22 = m[8];
  const tr = m00 + m11 + m22;
  let q: Quat;
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    q = [(m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, 0.25 * s];
  } else if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    q = [0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s];
  } else if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    q = [(m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s];
  } else {
    const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
    q = [(m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s];
  }
  return qNormalize(q);
}

/** Unit quaternion → row-major 3×3 rotation matrix. */
export function qToMatrix(q: Quat): number[] {
  const m = new Float64Array(9);
  matrixQ64(Float64Array.from(q), 0, m);
  return Array.from(m);
}

const AXES: Record<string, Vec3> = { X: [1, 0, 0], Y: [0, 1, 0], Z: [0, 0, 1] };

/**
 * Euler angles (radians, one per letter of `order`, in that order) → quaternion `R(order[0]) · R(order[1]) ·
 * R(order[2])`. This is how BVH channels compose, and how three.js' BVHLoader builds its quaternions.
 */
export function qFromEuler(angles: [number, number, number], order: EulerOrder): Quat {
  let q = qFromAxisAngle(AXES[order[0]], angles[0]);
  q = qMul(q, qFromAxisAngle(AXES[order[1]], angles[1]));
  return qMul(q, qFromAxisAngle(AXES[order[2]], angles[2]));
}

/**
 * Quaternion → Euler angles for `order` (inverse of `qFromEuler`): returns `[a0, a1, a2]` with
 * `R = R(order[0], a0) · R(order[1], a1) · R(order[2], a2)`; the middle angle is in -π/2..π/2.
 */
export function qToEuler(q: Quat, order: EulerOrder): [number, number, number] {
  const idx = (c: string) => (c === 'X' ? 0 : c === 'Y' ? 1 : 2);
  const e = new Float64Array(3);
  eulerQ64(Float64Array.from(q), 0, idx(order[0]), idx(order[1]), idx(order[2]), e, 0);
  return [e[0], e[1], e[2]];
}

export function readQuat(arr: ArrayLike<number>, index: number): Quat {
  const o = index * 4;
  return [arr[o], arr[o + 1], arr[o + 2], arr[o + 3]];
}

export function writeQuat(arr: NumArray, index: number, q: Quat): void {
  const o = index * 4;
  arr[o] = q[0];
  arr[o + 1] = q[1];
  arr[o + 2] = q[2];
  arr[o + 3] = q[3];
}

// ---------------------------------------------------------------- small statistics helpers

/** Median of the finite values (NaN for none). Does not modify the input. */
export function median(values: ArrayLike<number>): number {
  const a = Array.from(values).filter(Number.isFinite);
  if (a.length === 0) return Number.NaN;
  a.sort((x, y) => x - y);
  const m = a.length >> 1;
  return a.length % 2 ? a[m] : (a[m - 1] + a[m]) / 2;
}

/** Quantile q in 0..1 of the finite values (linear interpolation). */
export function quantile(values: ArrayLike<number>, q: number): number {
  const a = Array.from(values).filter(Number.isFinite);
  if (a.length === 0) return Number.NaN;
  a.sort((x, y) => x - y);
  const pos = Math.max(0, Math.min(1, q)) * (a.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(a.length - 1, lo + 1);
  return a[lo] + (a[hi] - a[lo]) * (pos - lo);
}

export const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));

// ---------------------------------------------------------------- small linear algebra

/**
 * Eigen decomposition of a symmetric n×n matrix (row-major) by cyclic Jacobi rotations.
 * Returns eigenvalues in descending order and the matching unit eigenvectors (`vectors[k]`).
 */
export function symmetricEigen(m: ArrayLike<number>, n: number): { values: number[]; vectors: number[][] } {
  const a = Array.from(m);
  const v: number[] = Array.from({ length: n * n }, (_, i) => (i % (n + 1) === 0 ? 1 : 0));
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p * n + q] ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q];
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p];
          const akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k];
          const aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p];
          const vkq = v[k * n + q];
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => a[j * n + j] - a[i * n + i]);
  return {
    values: order.map((i) => a[i * n + i]),
    vectors: order.map((i) => Array.from({ length: n }, (_, k) => v[k * n + i])),
  };
}

/**
 * Weighted best-fit rotation (Horn's quaternion method): the unit quaternion R minimising
 * `Σ w_k |R (a_k - ā) - (b_k - b̄)|²` where ā, b̄ are the weighted centroids (`centered` true, default), or
 * `Σ w_k |R a_k - b_k|²` about the origin (`centered` false).
 */
export function bestFitRotation(a: Vec3[], b: Vec3[], w?: number[], centered = true): Quat {
  let ca: Vec3 = [0, 0, 0];
  let cb: Vec3 = [0, 0, 0];
  let ws = 0;
  for (let k = 0; k < a.length; k++) {
    const wk = w ? w[k] : 1;
    ws += wk;
    ca = addScaled(ca, a[k], wk);
    cb = addScaled(cb, b[k], wk);
  }
  if (!(ws > 0)) return [0, 0, 0, 1];
  if (centered) {
    ca = scale(ca, 1 / ws);
    cb = scale(cb, 1 / ws);
  } else {
    ca = [0, 0, 0];
    cb = [0, 0, 0];
  }
  let sxx = 0;
  let sxy = 0;
  let sxz = 0;
  let syx = 0;
  let syy = 0;
  let syz = 0;
  let szx = 0;
  let szy = 0;
  let szz = 0;
  for (let k = 0; k < a.length; k++) {
    const wk = w ? w[k] : 1;
    if (!(wk > 0)) continue;
    const p = sub(a[k], ca);
    const q = sub(b[k], cb);
    sxx += wk * p[0] * q[0];
    sxy += wk * p[0] * q[1];
    sxz += wk * p[0] * q[2];
    syx += wk * p[1] * q[0];
    syy += wk * p[1] * q[1];
    syz += wk * p[1] * q[2];
    szx += wk * p[2] * q[0];
    szy += wk * p[2] * q[1];
    szz += wk * p[2] * q[2];
  }
  // Horn's N matrix in (w, x, y, z) order.
  const N = [
    sxx + syy + szz,
    syz - szy,
    szx - sxz,
    sxy - syx,
    syz - szy,
    sxx - syy - szz,
    sxy + syx,
    szx + sxz,
    szx - sxz,
    sxy + syx,
    -sxx + syy - szz,
    syz + szy,
    sxy - syx,
    szx + sxz,
    syz + szy,
    -sxx - syy + szz,
  ];
  const { vectors } = symmetricEigen(N, 4);
  const e = vectors[0];
  return qNormalize([e[1], e[2], e[3], e[0]]);
}

/** Lower Cholesky factor of an SPD matrix (row-major), or null when not positive definite. */
export function cholesky(a: ArrayLike<number>, n: number): Float64Array | null {
  const L = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i * n + j];
      for (let k = 0; k < j; k++) s -= L[i * n + k] * L[j * n + k];
      if (i === j) {
        if (!(s > 0)) return null;
        L[i * n + i] = Math.sqrt(s);
      } else L[i * n + j] = s / L[j * n + j];
    }
  }
  return L;
}

/**
 * Solves the symmetric positive definite system A x = b (A row-major n×n) by Cholesky factorisation.
 * Returns null when A is not positive definite.
 */
export function solveSPD(A: ArrayLike<number>, b: ArrayLike<number>, n: number): Float64Array | null {
  const L = cholesky(A, n);
  if (!L) return null;
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= L[i * n + k] * y[k];
    y[i] = s / L[i * n + i];
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = y[i];
    for (let k = i + 1; k < n; k++) s -= L[k * n + i] * x[k];
    x[i] = s / L[i * n + i];
  }
  return x;
}

/**
 * A few Levenberg–Marquardt steps on `residuals(x)` (numeric forward-difference Jacobian). Small problems only.
 * Returns the improved parameters.
 */
export function levenbergMarquardt(
  residuals: (x: Float64Array) => Float64Array,
  x0: Float64Array,
  iterations = 4,
  step = 1e-4,
): Float64Array {
  const n = x0.length;
  let x = Float64Array.from(x0);
  let r = residuals(x);
  let cost = r.reduce((s, v) => s + v * v, 0);
  let mu = 1e-3;
  for (let it = 0; it < iterations; it++) {
    const m = r.length;
    const J = new Float64Array(m * n);
    for (let k = 0; k < n; k++) {
      const xk = x[k];
      x[k] = xk + step;
      const rk = residuals(x);
      x[k] = xk;
      for (let i = 0; i < m; i++) J[i * n + k] = (rk[i] - r[i]) / step;
    }
    const A = new Float64Array(n * n);
    const g = new Float64Array(n);
    for (let i = 0; i < m; i++) {
      for (let a = 0; a < n; a++) {
        const ja = J[i * n + a];
        if (ja === 0) continue;
        g[a] -= ja * r[i];
        for (let b = a; b < n; b++) A[a * n + b] += ja * J[i * n + b];
      }
    }
    for (let a = 0; a < n; a++) for (let b = 0; b < a; b++) A[a * n + b] = A[b * n + a];
    let improved = false;
    for (let tries = 0; tries < 4 && !improved; tries++) {
      const Ad = Float64Array.from(A);
      for (let a = 0; a < n; a++) Ad[a * n + a] += mu * (A[a * n + a] + 1e-9);
      const dx = solveSPD(Ad, g, n);
      if (!dx) {
        mu *= 10;
        continue;
      }
      const xn = x.map((v, k) => v + dx[k]);
      const rn = residuals(xn);
      const cn = rn.reduce((s, v) => s + v * v, 0);
      if (cn < cost) {
        x = xn;
        r = rn;
        cost = cn;
        mu = Math.max(1e-6, mu / 3);
        improved = true;
      } else mu *= 10;
    }
    if (!improved) break;
  }
  return x;
}

// Flat-array quaternion kernels for hot loops live in `quat64.ts`.

// ---------------------------------------------------------------- Euler curves

/** `a` wrapped into [−halfTurn, halfTurn) (halfTurn π for radians, 180 for degrees); in range: `a` itself. */
export function wrapAngle(a: number, halfTurn: number): number {
  return a >= -halfTurn && a < halfTurn ? a : a - 2 * halfTurn * Math.round(a / (2 * halfTurn));
}

/**
 * In place: unwraps the Euler triple at `e[o..o+2]` against the previous frame's at `e[p..p+2]`, choosing the
 * closer of the two triples that give the same rotation, (a, b, c) and (a + ½, ½ − b, c + ½) turns, each angle
 * wrapped to within half a turn of the previous one. The second is only worth computing when the first is more than
 * half a turn away in total: its a and c steps are half a turn minus the first's, so it is never closer otherwise.
 * `halfTurn`: π (radians) or 180 (degrees). Shared by the BVH and FBX writers.
 */
export function unwrapEulerInto(e: Float64Array, o: number, p: number, halfTurn: number): void {
  const a0 = e[p] + wrapAngle(e[o] - e[p], halfTurn);
  const a1 = e[p + 1] + wrapAngle(e[o + 1] - e[p + 1], halfTurn);
  const a2 = e[p + 2] + wrapAngle(e[o + 2] - e[p + 2], halfTurn);
  const da = Math.abs(a0 - e[p]) + Math.abs(a1 - e[p + 1]) + Math.abs(a2 - e[p + 2]);
  if (da > halfTurn) {
    const b0 = e[p] + wrapAngle(e[o] + halfTurn - e[p], halfTurn);
    const b1 = e[p + 1] + wrapAngle(halfTurn - e[o + 1] - e[p + 1], halfTurn);
    const b2 = e[p + 2] + wrapAngle(e[o + 2] + halfTurn - e[p + 2], halfTurn);
    const db = Math.abs(b0 - e[p]) + Math.abs(b1 - e[p + 1]) + Math.abs(b2 - e[p + 2]);
    if (db < da) {
      e[o] = b0;
      e[o + 1] = b1;
      e[o + 2] = b2;
      return;
    }
  }
  e[o] = a0;
  e[o + 1] = a1;
  e[o + 2] = a2;
}
