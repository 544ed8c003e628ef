import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARKIT_BLENDSHAPES, forwardKinematics, jointCount } from '../src/clip.ts';
import { VRM_BONES, write as writeVrma } from '../src/formats/vrma.ts';
import { SHARED } from './helpers.ts';
import {
  clipWithFace,
  errorsOf,
  gltfValidate,
  threeGltfWorld,
  threeParseGlb,
} from './validators-b-helpers.ts';

async function vrmPlugin() {
  const modPath: string = '@pixiv/three-vrm-animation';
  const { VRMAnimationLoaderPlugin } = (await import(modPath)) as {
    VRMAnimationLoaderPlugin: new (p: unknown) => unknown;
  };
  return (p: unknown) => new VRMAnimationLoaderPlugin(p);
}

interface VrmAnimation {
  duration: number;
  humanoidTracks: { rotation: Map<string, unknown>; translation: Map<string, unknown> };
  expressionTracks: {
    preset: Map<string, { times: Float32Array; values: Float32Array }>;
    custom: Map<string, unknown>;
  };
}

describe('VRMA writer', () => {
  const clip = clipWithFace(12);
  const bytes = writeVrma(clip);

  it('passes gltf-validator with 0 errors (the extension is reported as unsupported, info only)', async () => {
    const r = await gltfValidate(bytes);
    expect(errorsOf(r)).toEqual([]);
    expect(r.messages.some((m) => m.code === 'UNSUPPORTED_EXTENSION')).toBe(true);
  });

  it('has the extension layout of the three-vrm sample idle_loop.vrma', async () => {
    const json = (b: Uint8Array) => {
      const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
      return JSON.parse(new TextDecoder().decode(b.subarray(20, 20 + dv.getUint32(12, true))));
    };
    const sample = json(new Uint8Array(readFileSync(join(SHARED, 'testdata/formats/vrma/idle_loop.vrma'))));
    const ours = json(bytes);
    expect(ours.extensionsUsed).toEqual(sample.extensionsUsed);
    const se = sample.extensions.VRMC_vrm_animation;
    const oe = ours.extensions.VRMC_vrm_animation;
    expect(oe.specVersion).toBe(se.specVersion);
    // Every humanoid bone the sample animates is one we write too.
    for (const bone of Object.keys(se.humanoid.humanBones))
      expect(oe.humanoid.humanBones[bone], bone).toBeDefined();
  });

  it('three-vrm-animation reads humanoid tracks, hips translation and expressions', async () => {
    const { gltf } = await threeParseGlb(bytes, [await vrmPlugin()]);
    const v = (gltf.userData.vrmAnimations as VrmAnimation[])[0];
    expect(v).toBeDefined();
    expect(v.duration).toBeCloseTo(11 / 30, 5);
    expect([...v.humanoidTracks.rotation.keys()].sort()).toEqual(Object.values(VRM_BONES).sort());
    expect([...v.humanoidTracks.translation.keys()]).toEqual(['hips']);
    const aa = v.expressionTracks.preset.get('aa');
    expect(aa).toBeDefined();
    expect(aa?.values[0]).toBeCloseTo(0, 5);
    expect(aa?.values[11]).toBeCloseTo(1, 5); // jawOpen 1 with nothing else → "a"
    const blinkLeft = v.expressionTracks.preset.get('blinkLeft');
    expect(Array.from(blinkLeft?.values.slice(0, 4) ?? [])).toEqual([0, 1, 0, 1]);
    expect(v.expressionTracks.preset.get('happy')?.values[3]).toBeCloseTo(0.5, 5);
    expect(v.expressionTracks.custom.has('jawOpen')).toBe(true);
  });

  it('humanoid node world positions match the canonical FK within 1 mm (three.js)', async () => {
    const { gltf, three } = await threeParseGlb(bytes);
    const fk = forwardKinematics(clip);
    const n = jointCount(clip.skeleton);
    for (const f of [0, 7]) {
      const w = threeGltfWorld(three, gltf, f / 30);
      for (let j = 0; j < n; j++) {
        const p = w[VRM_BONES[clip.skeleton.names[j]]];
        const i = (f * n + j) * 3;
        expect(
          Math.hypot(p[0] - fk.positions[i], p[1] - fk.positions[i + 1], p[2] - fk.positions[i + 2]),
        ).toBeLessThan(1e-3);
      }
    }
  });

  it('in-place option keeps the hips over the rest X/Z', async () => {
    const { gltf, three } = await threeParseGlb(writeVrma(clip, { inPlace: true }));
    const w = threeGltfWorld(three, gltf, 5 / 30);
    expect(w.hips[0]).toBeCloseTo(clip.skeleton.offsets[0], 5);
    expect(w.hips[2]).toBeCloseTo(clip.skeleton.offsets[2], 5);
    expect(w.hips[1]).toBeCloseTo(clip.rootPositions[5 * 3 + 1], 5);
  });

  it('gaze: a lookAt node whose rotation (yaw toward the left, pitch down) three-vrm-animation reads', async () => {
    const c = clipWithFace(4);
    const bs = c.blendshapes;
    if (!bs) throw new Error('clipWithFace has face curves');
    const w = bs.weights.slice();
    const K = ARKIT_BLENDSHAPES.length;
    w[2 * K + ARKIT_BLENDSHAPES.indexOf('eyeLookOutLeft')] = 1;
    w[2 * K + ARKIT_BLENDSHAPES.indexOf('eyeLookInRight')] = 1;
    w[3 * K + ARKIT_BLENDSHAPES.indexOf('eyeLookDownLeft')] = 1;
    w[3 * K + ARKIT_BLENDSHAPES.indexOf('eyeLookDownRight')] = 1;
    const bytes = writeVrma({
      ...c,
      blendshapes: { ...(c.blendshapes as NonNullable<typeof c.blendshapes>), weights: w },
    });
    expect(errorsOf(await gltfValidate(bytes))).toEqual([]);
    const { gltf } = await threeParseGlb(bytes, [await vrmPlugin()]);
    const v = (
      gltf.userData.vrmAnimations as (VrmAnimation & { lookAtTrack: { values: Float32Array } | null })[]
    )[0];
    const track = v.lookAtTrack;
    expect(track).not.toBeNull();
    const q = (f: number) => Array.from(track?.values.slice(4 * f, 4 * f + 4) ?? []);
    for (const [i, x] of q(0).entries()) {
      expect(x).toBeCloseTo([0, 0, 0, 1][i], 6);
    }
    // Frame 2: yaw +25° about Y (toward the character's left), no pitch.
    const y = (25 * Math.PI) / 180;
    for (const [i, x] of q(2).entries()) {
      expect(x).toBeCloseTo([0, Math.sin(y / 2), 0, Math.cos(y / 2)][i], 5);
    }
    // Frame 3: pitch +20° about X (down in VRM's convention).
    const p = (20 * Math.PI) / 180;
    for (const [i, x] of q(3).entries()) {
      expect(x).toBeCloseTo([Math.sin(p / 2), 0, 0, Math.cos(p / 2)][i], 5);
    }
  });
});
