/**
 * Flat quaternion kernels (`[x, y, z, w]` at an offset) for the exporters' per-frame loops (retargeting, the
 * per-rig BVH). Their arrays are Float64Arrays (and a clip's Float32Array rotations) only, so V8 keeps their
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
  const ax = a[ao];
  const ay = a[ao + 1];
  const az = a[ao + 2];
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

/** out = conj(a) · b */
export function conjMulQ64(
  out: Float64Array,
  o: number,
  a: Float64Array,
  ao: number,
  b: Float64Array,
  bo: number,
): void {
  const ax = -a[ao];
  const ay = -a[ao + 1];
  const az = -a[ao + 2];
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
