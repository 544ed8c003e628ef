import { describe, expect, it } from 'vitest';
import {
  ARKIT_BLENDSHAPES,
  forwardKinematics,
  jointIndex,
  restClip,
  restPositions,
  validateClip,
} from '../src/clip.ts';
import { qFromAxisAngle, readVec3, writeQuat } from '../src/math.ts';
import { createSkeleton, DEFAULT_PROPORTIONS, standingHeight } from '../src/skeleton.ts';

describe('canonical skeleton and FK', () => {
  it('has the body joints, 15 finger joints per hand, and a T-pose of the expected height', () => {
    const s = createSkeleton();
    expect(s.names.length).toBe(22 + 30);
    expect(createSkeleton(DEFAULT_PROPORTIONS, { fingers: false }).names.length).toBe(22);
    const p = restPositions(s);
    const y = (name: string) => p[jointIndex(s, name) * 3 + 1];
    const x = (name: string) => p[jointIndex(s, name) * 3];
    // Left on +X, arms straight out, shoulders at hips + torso.
    expect(x('leftHand')).toBeGreaterThan(0.6);
    expect(x('rightHand')).toBeLessThan(-0.6);
    expect(y('leftHand')).toBeCloseTo(y('leftUpperArm'), 6);
    expect(y('leftUpperArm') - y('hips')).toBeCloseTo(DEFAULT_PROPORTIONS.torso, 6);
    expect(y('leftFoot')).toBeCloseTo(DEFAULT_PROPORTIONS.ankleHeight, 6);
    const head = jointIndex(s, 'head');
    expect(y('head') + s.tips[head * 3 + 1]).toBeCloseTo(standingHeight(DEFAULT_PROPORTIONS), 6);
    expect(ARKIT_BLENDSHAPES.length).toBe(52);
    expect(new Set(ARKIT_BLENDSHAPES).size).toBe(52);
  });

  it('forward kinematics: rotating the left upper arm by 90° about Z raises the arm, lengths constant', () => {
    const s = createSkeleton();
    const clip = restClip(s, 2, 30);
    validateClip(clip);
    const n = s.names.length;
    const ua = jointIndex(s, 'leftUpperArm');
    writeQuat(clip.rotations, n + ua, qFromAxisAngle([0, 0, 1], Math.PI / 2));
    const { positions } = forwardKinematics(clip);
    const hand0 = readVec3(positions, jointIndex(s, 'leftHand'));
    const hand1 = readVec3(positions, n + jointIndex(s, 'leftHand'));
    const sh = readVec3(positions, n + ua);
    const armLen = DEFAULT_PROPORTIONS.upperArm + DEFAULT_PROPORTIONS.forearm;
    expect(hand1[1] - sh[1]).toBeCloseTo(armLen, 5);
    expect(hand1[0] - sh[0]).toBeCloseTo(0, 5);
    expect(hand0[0] - sh[0]).toBeCloseTo(armLen, 5);
  });
});
