import { describe, expect, it } from 'vitest';
import {
  type EulerOrder,
  length,
  normalize,
  type Quat,
  qAngleBetween,
  qExp,
  qFromBasis,
  qFromEuler,
  qFromMatrix,
  qFromTwoAxes,
  qFromUnitVectors,
  qLog,
  qMul,
  qPow,
  qRotate,
  qSlerp,
  qSwingTwist,
  qToEuler,
  qToMatrix,
  sub,
  type Vec3,
} from '../src/math.ts';

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const rand = rng(7);
const randQuat = (): Quat => qExp([(rand() - 0.5) * 6, (rand() - 0.5) * 6, (rand() - 0.5) * 6]);
const randVec = (): Vec3 => [rand() - 0.5, rand() - 0.5, rand() - 0.5];
const close = (a: Vec3, b: Vec3, eps = 1e-9) => expect(length(sub(a, b))).toBeLessThan(eps);

describe('math', () => {
  it('quaternion multiplication composes rotations (b first, then a)', () => {
    for (let i = 0; i < 50; i++) {
      const a = randQuat();
      const b = randQuat();
      const v = randVec();
      close(qRotate(qMul(a, b), v), qRotate(a, qRotate(b, v)));
    }
  });

  it('matrix and quaternion conversions agree', () => {
    for (let i = 0; i < 50; i++) {
      const q = randQuat();
      const m = qToMatrix(q);
      const v = randVec();
      const mv: Vec3 = [
        m[0] * v[0] + m[1] * v[1] + m[2] * v[2],
        m[3] * v[0] + m[4] * v[1] + m[5] * v[2],
        m[6] * v[0] + m[7] * v[1] + m[8] * v[2],
      ];
      close(mv, qRotate(q, v));
      expect(qAngleBetween(qFromMatrix(m), q)).toBeLessThan(1e-6);
    }
  });

  it('Euler round trips in all six orders, including near gimbal lock', () => {
    const orders: EulerOrder[] = ['XYZ', 'XZY', 'YXZ', 'YZX', 'ZXY', 'ZYX'];
    for (const order of orders) {
      for (let i = 0; i < 40; i++) {
        const q = i === 0 ? qFromEuler([0.3, Math.PI / 2, -0.2], order) : randQuat();
        const e = qToEuler(q, order);
        expect(qAngleBetween(qFromEuler(e, order), q)).toBeLessThan(1e-5);
      }
      // BVH convention: channels listed Z X Y compose as Rz·Rx·Ry.
      const e: [number, number, number] = [0.1, 0.2, 0.3];
      const axis: Record<string, Vec3> = { X: [1, 0, 0], Y: [0, 1, 0], Z: [0, 0, 1] };
      const manual = qMul(
        qMul(qExp(normalizeScale(axis[order[0]], e[0])), qExp(normalizeScale(axis[order[1]], e[1]))),
        qExp(normalizeScale(axis[order[2]], e[2])),
      );
      expect(qAngleBetween(manual, qFromEuler(e, order))).toBeLessThan(1e-12);
    }
  });

  it('log/exp, pow and slerp are consistent', () => {
    for (let i = 0; i < 30; i++) {
      const q = randQuat();
      expect(qAngleBetween(qExp(qLog(q)), q)).toBeLessThan(1e-9);
      const h = qPow(q, 0.5);
      expect(qAngleBetween(qMul(h, h), q)).toBeLessThan(1e-9);
      expect(qAngleBetween(qSlerp([0, 0, 0, 1], q, 0.5), h)).toBeLessThan(1e-6);
    }
  });

  it('swing-twist recomposes and the swing keeps the axis direction', () => {
    for (let i = 0; i < 30; i++) {
      const q = randQuat();
      const axis = normalize(randVec());
      const { swing, twist } = qSwingTwist(q, axis);
      expect(qAngleBetween(qMul(swing, twist), q)).toBeLessThan(1e-9);
      close(qRotate(twist, axis), axis);
      close(qRotate(swing, axis), qRotate(q, axis));
    }
  });

  it('frames from unit vectors and two axes', () => {
    const a = normalize(randVec());
    const b = normalize(randVec());
    close(qRotate(qFromUnitVectors(a, b), a), b);
    const q = qFromTwoAxes(a, b, 'yz');
    close(qRotate(q, [0, 1, 0]), a);
    expect(
      Math.abs(qRotate(q, [0, 0, 1])[0] * 0 + qRotate(q, [0, 0, 1]).reduce((s, v, k) => s + v * a[k], 0)),
    ).toBeLessThan(1e-9);
    const r = randQuat();
    const basis = qFromBasis(qRotate(r, [1, 0, 0]), qRotate(r, [0, 1, 0]), qRotate(r, [0, 0, 1]));
    expect(qAngleBetween(basis, r)).toBeLessThan(1e-6);
  });
});

function normalizeScale(axis: Vec3, angle: number): Vec3 {
  return [axis[0] * angle, axis[1] * angle, axis[2] * angle];
}
