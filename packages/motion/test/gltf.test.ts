import { describe, expect, it } from 'vitest';
import { forwardKinematics, jointCount } from '../src/clip.ts';
import { write as writeGlb } from '../src/formats/gltf.ts';
import { retarget, rigWorldPositions } from '../src/retarget/index.ts';
import { buildRig, type RigId, rigToCanonical } from '../src/rigs/index.ts';
import { randomClip } from './helpers.ts';
import {
  assimp,
  assimpInfo,
  blender,
  blenderImportGlb,
  errorsOf,
  gltfValidate,
  tempFile,
  threeGltfWorld,
  threeParseGlb,
} from './validators-b-helpers.ts';

describe('GLB writer (canonical clip)', () => {
  const clip = randomClip(12, 30, 9);
  const glb = writeGlb(clip);

  it('passes gltf-validator with 0 errors', async () => {
    const r = await gltfValidate(glb);
    expect(errorsOf(r)).toEqual([]);
    expect(r.numErrors).toBe(0);
  });

  it('three.js GLTFLoader: joint world positions match the canonical FK within 1 mm', async () => {
    const { gltf, three } = await threeParseGlb(glb);
    expect(gltf.animations).toHaveLength(1);
    expect(gltf.animations[0].duration).toBeCloseTo(11 / 30, 5);
    const fk = forwardKinematics(clip);
    const n = jointCount(clip.skeleton);
    for (const f of [0, 4, 11]) {
      const w = threeGltfWorld(three, gltf, f / 30);
      for (let j = 0; j < n; j++) {
        const p = w[clip.skeleton.names[j]];
        const e = Math.hypot(
          p[0] - fk.positions[(f * n + j) * 3],
          p[1] - fk.positions[(f * n + j) * 3 + 1],
          p[2] - fk.positions[(f * n + j) * 3 + 2],
        );
        expect(e, `${clip.skeleton.names[j]} @${f}`).toBeLessThan(1e-3);
      }
    }
  });

  it('Blender imports the armature, the action and the poses', async () => {
    const exe = blender();
    if (!exe) return;
    const file = tempFile('clip.glb', glb);
    const r = await blenderImportGlb(exe, file, [0, 4, 11]);
    expect(r.bones).toEqual([...clip.skeleton.names]);
    expect(r.parents).toEqual(clip.skeleton.parents.map((p) => (p < 0 ? null : clip.skeleton.names[p])));
    expect(r.actions.length).toBeGreaterThanOrEqual(1);
    const fk = forwardKinematics(clip);
    const n = jointCount(clip.skeleton);
    for (const f of [0, 4, 11]) {
      const heads = r.heads[String(f)];
      for (let j = 0; j < n; j++) {
        const h = heads[clip.skeleton.names[j]];
        // Blender is Z-up: glTF (x, y, z) → Blender (x, -z, y).
        const p = [h[0], h[2], -h[1]];
        const i = (f * n + j) * 3;
        const e = Math.hypot(p[0] - fk.positions[i], p[1] - fk.positions[i + 1], p[2] - fk.positions[i + 2]);
        expect(e, `${clip.skeleton.names[j]} @${f}`).toBeLessThan(1e-3);
      }
    }
  });

  it('assimp reads it with one animation', async () => {
    const exe = assimp();
    if (!exe) return;
    const out = await assimpInfo(exe, tempFile('clip.glb', glb));
    expect(out).toMatch(/Animations:\s+1/);
    for (const name of ['hips', 'leftToes', 'rightPinky3']) expect(out).toContain(name);
  });
});

describe('GLB writer (retargeted RigClip: rig axes and units converted back to glTF)', () => {
  const clip = randomClip(6, 30, 21);
  const fk = forwardKinematics(clip);
  const n = jointCount(clip.skeleton);
  // Z-up cm (UE4), left-handed MMD units, left-handed metres (Unity), right-handed cm (Mixamo).
  it.each(['ue4', 'mmd', 'unity', 'mixamo', 'biped'] as RigId[])(
    '%s: 0 validator errors; every bone where the rig-space FK puts it, mapped joints on the canonical clip (1 mm)',
    async (id) => {
      const rig = buildRig(id, clip.skeleton);
      const rc = retarget(clip, rig);
      const glb = writeGlb(rc);
      expect(errorsOf(await gltfValidate(glb))).toEqual([]);
      const { gltf, three } = await threeParseGlb(glb);
      const sanitize = (name: string) => name.replace(/[[\].:/]/g, '').replace(/\s/g, '_');
      for (const f of [0, 5]) {
        const w = threeGltfWorld(three, gltf, f / 30);
        const rigWorld = rigWorldPositions(rc, f);
        let mapped = 0;
        rig.bones.forEach((b, k) => {
          const p = w[sanitize(b.name)];
          expect(p, b.name).toBeDefined();
          const q = rigToCanonical(rig, rigWorld, 3 * k);
          expect(Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]), `${b.name} @${f}`).toBeLessThan(1e-3);
          // Bones placed on their source joint land on the canonical clip's joint.
          const j = b.source ? clip.skeleton.names.indexOf(b.source) : -1;
          const i = (f * n + j) * 3;
          if (
            j >= 0 &&
            Math.hypot(p[0] - fk.positions[i], p[1] - fk.positions[i + 1], p[2] - fk.positions[i + 2]) < 1e-3
          )
            mapped++;
        });
        expect(mapped).toBeGreaterThan(20);
      }
    },
  );
});
