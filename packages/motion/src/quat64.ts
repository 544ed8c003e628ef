/**
 * Flat quaternion kernels (`[x, y, z, w]` at an offset) for the exporters' per-frame loops (retargeting, the
 * per-rig BVH), and the one quaternion → matrix / Euler implementation (`math.ts`' `qToMatrix`/`qToEuler` use it). Their arrays are Float64Arrays (and a clip's Float32Array rotations) only, so V8 keeps their
 * element loads monomorphic; the general helpers in `math.ts` see every array type and run up to ~2× slower.
 */

/** out = a · b */
export function mulQ64(
  out: Float64Array,
  o: number,
  a: Float64Array,
  ao: number,
  b: Float64Array | Float32Array,
  bo: number,
): void {
  mulSignedQ64(out, o, a, ao, 1, b, bo);
}

/** out = conj(a) · b */
export function conjMulQ64(
  out: Float64Array,
  o: number,
  a: Float64Array,
  ao: number,
  b: Float64Array,
  bo: number,
): void {
  mulSignedQ64(out, o, a, ao, -1, b, bo);
}

/** out = a · b, with a's vector part times `sign` (−1: the conjugate; the product by ±1 is exact). */
function mulSignedQ64(
  out: Float64Array,
  o: number,
  a: Float64Array,
  ao: number,
  sign: number,
  b: Float64Array | Float32Array,
  bo: number,
): void {
  const ax = a[ao] * sign;
  const ay = a[ao + 1] * sign;
  const az = a[ao + 2] * sign;
  const aw = a[ao + 3];
  const bx = b[bo];
  const by = b[bo + 1];
  const bz = b[bo + 2];
  const bw = b[bo + 3];
  out[o] = aw * bx + ax * bw + ay * bz - az * by;
  out[o + 1] = aw * by - ax * bz + ay * bw + az * bx;
  out[o + 2] = aw * bz + ax * by - ay * bx + az * bw;
  out[o + 3] = aw * bw - ax * bx - ay * by - az * bz;
}

/** out[0..2] = q applied to v, or conj(q) when `sign` is −1. */
export function rotateQ64(
  out: Float64Array,
  q: Float64Array,
  qo: number,
  vx: number,
  vy: number,
  vz: number,
  sign = 1,
): void {
  const qx = q[qo] * sign;
  const qy = q[qo + 1] * sign;
  const qz = q[qo + 2] * sign;
  const qw = q[qo + 3];
  const tx = 2 * (qy * vz - qz * vy);
  const ty = 2 * (qz * vx - qx * vz);
  const tz = 2 * (qx * vy - qy * vx);
  out[0] = vx + qw * tx + (qy * tz - qz * ty);
  out[1] = vy + qw * ty + (qz * tx - qx * tz);
  out[2] = vz + qw * tz + (qx * ty - qy * tx);
}

/**
 * Key continuity: normalises the quaternion in `s[0..3]` and negates it when it points away from the previous
 * key in `s[4..7]` (`hasPrevious` false for a first key), then makes it the previous key. Keeps consecutive keys on
 * the short arc for interpolating readers (glTF, MMD's slerp). `s` is the caller's 8-element scratch.
 */
export function continuousUnitQ64(s: Float64Array, hasPrevious: boolean): void {
  let x = s[0];
  let y = s[1];
  let z = s[2];
  let w = s[3];
  const l = Math.hypot(x, y, z, w) || 1;
  x /= l;
  y /= l;
  z /= l;
  w /= l;
  if (hasPrevious && x * s[4] + y * s[5] + z * s[6] + w * s[7] < 0) {
    x = -x;
    y = -y;
    z = -z;
    w = -w;
  }
  s[0] = s[4] = x;
  s[1] = s[5] = y;
  s[2] = s[6] = z;
  s[3] = s[7] = w;
}

/** The row-major 3×3 rotation matrix of the unit quaternion at `rot[q..q+3]`, into `m[0..8]`. */
export function matrixQ64(rot: Float32Array | Float64Array, q: number, m: Float64Array): void {
  // Read from the array here (four double arguments would be boxed on every call).
  const qx = rot[q];
  const qy = rot[q + 1];
  const qz = rot[q + 2];
  const qw = rot[q + 3];
  const xx = qx * qx;
  const yy = qy * qy;
  const zz = qz * qz;
  const xy = qx * qy;
  const xz = qx * qz;
  const yz = qy * qz;
  const wx = qw * qx;
  const wy = qw * qy;
  const wz = qw * qz;
  m[0] = 1 - 2 * (yy + zz);
  m[1] = 2 * (xy - wz);
  m[2] = 2 * (xz + wy);
  m[3] = 2 * (xy + wz);
  m[4] = 1 - 2 * (xx + zz);
  m[5] = 2 * (yz - wx);
  m[6] = 2 * (xz - wy);
  m[7] = 2 * (yz + wx);
  m[8] = 1 - 2 * (xx + yy);
}

const M = new Float64Array(9);

/**
 * Euler angles of the unit quaternion at `rot[q..q+3]` for the axis order (i, j, k) (0 = X, 1 = Y, 2 = Z) into
 * `out[o..o+2]`: `R = R(i, a0) · R(j, a1) · R(k, a2)`, the middle angle in −π/2..π/2. Allocation-free.
 */
export function eulerQ64(
  rot: Float32Array | Float64Array,
  q: number,
  i: number,
  j: number,
  k: number,
  out: Float64Array,
  o: number,
): void {
  matrixQ64(rot, q, M);
  // Parity: +1 for cyclic orders (XYZ, YZX, ZXY), −1 otherwise. For R = Ri(a) Rj(b) Rk(c): R[i][k] = sign · sin(b).
  const sign = (j - i + 3) % 3 === 1 ? 1 : -1;
  const sb = Math.max(-1, Math.min(1, sign * M[i * 3 + k]));
  const b = Math.asin(sb);
  if (Math.abs(sb) < 0.9999999) {
    out[o] = Math.atan2(-sign * M[j * 3 + k], M[k * 3 + k]);
    out[o + 2] = Math.atan2(-sign * M[i * 3 + j], M[i * 3 + i]);
  } else {
    // Gimbal lock: everything into the first angle.
    out[o] = Math.atan2(sign * M[k * 3 + j], M[j * 3 + j]);
    out[o + 2] = 0;
  }
  out[o + 1] = b;
}
