import { describe, expect, it } from 'vitest';
import { makeCharacter, makeCharacterGlb, makeFaceMesh } from '../src/characters/index.ts';
import { CHARACTER_KINDS } from '../src/characters/texture.ts';
import { ARKIT_BLENDSHAPES, poseToWorld, restClip } from '../src/clip.ts';
import { write as writeGlb } from '../src/formats/gltf.ts';
import { decodePng } from '../src/formats/png.ts';
import { qRotate, readQuat, readVec3, type Vec3 } from '../src/math.ts';
import { buildRig } from '../src/rigs/index.ts';
import type { SkinnedMesh } from '../src/rigs/types.ts';
import { createSkeleton } from '../src/skeleton.ts';
import { randomClip } from './helpers.ts';
import {
  assimp,
  assimpInfo,
  blender,
  blenderImportGlb,
  clipWithFace,
  errorsOf,
  gltfValidate,
  tempFile,
  threeParseGlb,
} from './validators-b-helpers.ts';

function checkMesh(m: SkinnedMesh) {
  const V = m.positions.length / 3;
  expect(m.normals.length).toBe(3 * V);
  expect(m.uvs.length).toBe(2 * V);
  let bad = 0;
  for (let v = 0; v < V; v++) {
    let s = 0;
    for (let k = 0; k < 4; k++) {
      const w = m.weights[4 * v + k];
      if (w < 0 || (w > 0 && m.joints[4 * v + k] >= m.jointNames.length)) bad++;
      s += w;
    }
    if (Math.abs(s - 1) > 1e-5) bad++;
    if (Math.abs(Math.hypot(m.normals[3 * v], m.normals[3 * v + 1], m.normals[3 * v + 2]) - 1) > 1e-4) bad++;
  }
  for (const i of m.indices) if (i >= V) bad++;
  for (const u of m.uvs) if (!(u >= 0 && u <= 1)) bad++;
  expect(bad).toBe(0);
  // Outward-facing closed parts: the signed volume is positive and close to a body's (30–120 litres).
  let vol = 0;
  const p = m.positions;
  for (let t = 0; t < m.indices.length; t += 3) {
    const [a, b, c] = [m.indices[t] * 3, m.indices[t + 1] * 3, m.indices[t + 2] * 3];
    vol +=
      (p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) -
        p[a + 1] * (p[b] * p[c + 2] - p[b + 2] * p[c]) +
        p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c])) /
      6;
  }
  return { V, vol };
}

/** The vertices bound to the joint `name` alone (first weight > 0.99): how many, and the sum of their heights. */
function boundTo(m: ReturnType<typeof makeCharacter>['meshes'][number], name: string) {
  const joint = m.jointNames.indexOf(name);
  let ySum = 0;
  let count = 0;
  for (let v = 0; v < m.positions.length / 3; v++)
    if (m.joints[4 * v] === joint && m.weights[4 * v] > 0.99) {
      ySum += m.positions[3 * v + 1];
      count++;
    }
  return { ySum, count };
}

describe('procedural characters', () => {
  const sk = createSkeleton();

  it.each(CHARACTER_KINDS)(
    '%s: valid skinned mesh (≤ 4 normalised weights, unit normals, outward, body-sized)',
    (kind) => {
      const c = makeCharacter(kind, undefined, sk);
      const m = c.meshes[0];
      const { V, vol } = checkMesh(m);
      expect(V).toBeGreaterThan(3000);
      expect(vol).toBeGreaterThan(0.03);
      expect(vol).toBeLessThan(0.12);
      let minY = Infinity;
      let maxY = -Infinity;
      for (let v = 0; v < V; v++) {
        minY = Math.min(minY, m.positions[3 * v + 1]);
        maxY = Math.max(maxY, m.positions[3 * v + 1]);
      }
      expect(minY).toBeGreaterThan(-0.01); // soles on the floor
      expect(minY).toBeLessThan(0.02);
      expect(maxY).toBeGreaterThan(1.7); // head top of a 1.75 m skeleton (+ hair)
      expect(maxY).toBeLessThan(1.85);
      expect(c.textures).toHaveLength(1);
      expect(c.textures[0].fileName).toBe(`${kind}_basecolor.png`);
    },
  );

  it('textures decode as 1024² PNGs with the palette at known atlas points', () => {
    const boy = decodePng(makeCharacter('boy', undefined, sk).textures[0].png);
    expect([boy.width, boy.height]).toEqual([1024, 1024]);
    const at = (img: typeof boy, u: number, v: number) => {
      const i = (Math.floor(v * img.height) * img.width + Math.floor(u * img.width)) * 4;
      return Array.from(img.pixels.slice(i, i + 3));
    };
    // Skin patch (neck) and the shoe sole (under side of the shoe, u ≈ 0).
    expect(at(boy, 0.875, 0.125)).toEqual([0xf1, 0xc2, 0x7d]);
    expect(at(boy, 0.502, 0.85)).toEqual([0xf4, 0xf4, 0xf4]);
    const robloxHead = at(decodePng(makeCharacter('roblox', undefined, sk).textures[0].png), 0.05, 0.25);
    expect(robloxHead).toEqual([0xf5, 0xcd, 0x30]);
  });

  it('skinning follows the skeleton: vertices bound to one joint keep their offset from it when posed', () => {
    const m = makeCharacter('boy', undefined, sk).meshes[0];
    const clip = randomClip(2, 30, 4);
    const n = sk.names.length;
    const rest = poseToWorld(sk, sk.restRotations, 0, readVec3(sk.offsets, 0));
    const posed = poseToWorld(clip.skeleton, clip.rotations, n * 4, readVec3(clip.rootPositions, 1));
    let checked = 0;
    for (let v = 0; v < m.positions.length / 3; v += 7) {
      if (m.weights[4 * v] < 0.999) continue;
      const j = sk.names.indexOf(m.jointNames[m.joints[4 * v]]);
      const local = [0, 1, 2].map((k) => m.positions[3 * v + k] - rest.positions[3 * j + k]) as Vec3;
      // LBS with a single joint: posed = P_j + R_j · (rest − restP_j) (rest rotations are identity).
      const p = qRotate(readQuat(posed.rotations, j), local);
      const expected = [0, 1, 2].map((k) => posed.positions[3 * j + k] + p[k]);
      const d = Math.hypot(...([0, 1, 2].map((k) => expected[k] - posed.positions[3 * j + k]) as Vec3));
      if (Math.abs(d - Math.hypot(...local)) < 1e-6) checked++;
    }
    expect(checked).toBeGreaterThan(300);
    // The hands are bound to the hand/finger joints, the shoes to the feet.
    const near = (joint: string) => {
      const j = sk.names.indexOf(joint);
      let count = 0;
      for (let v = 0; v < m.positions.length / 3; v++) {
        const d = Math.hypot(
          ...([0, 1, 2].map((k) => m.positions[3 * v + k] - rest.positions[3 * j + k]) as Vec3),
        );
        if (d < 0.03 && m.jointNames[m.joints[4 * v]].startsWith(joint.replace(/(Hand|Foot)$/, ''))) count++;
      }
      return count;
    };
    expect(near('leftHand')).toBeGreaterThan(10);
    expect(near('rightFoot')).toBeGreaterThan(10);
  });

  it('binds to a rig: rig bone names, A-pose arms for an A-pose rig', () => {
    const rig = buildRig('ue4', sk);
    const m = makeCharacter('ue4', rig).meshes[0];
    checkMesh(m);
    const bones = new Set(rig.bones.map((b) => b.name));
    for (const n of m.jointNames) expect(bones.has(n), n).toBe(true);
    expect(m.jointNames).toContain('hand_l');
    // The left hand's vertices are below the shoulder (arms lowered by the rig's armDownDeg).
    const hand = boundTo(m, 'hand_l');
    const shoulderY = createSkeleton().offsets[1] + 0.5 * 0.9; // hips + torso to the shoulders (rest)
    expect(hand.count).toBeGreaterThan(20);
    expect(hand.ySum / hand.count).toBeLessThan(shoulderY - 0.2);
    // The T-pose rig keeps the arms horizontal.
    const mx = makeCharacter('boy', buildRig('mixamo', sk)).meshes[0];
    const h2 = boundTo(mx, 'mixamorig:LeftHand');
    expect(Math.abs(h2.ySum / h2.count - shoulderY)).toBeLessThan(0.05);
  });

  it('face mesh: the 52 ARKit shapes by their ARKit names, each moving the face; blink and jaw move the right side and way', () => {
    const f = makeFaceMesh();
    checkMesh(f);
    const names = (f.morphTargets ?? []).map((t) => t.name);
    expect(names).toEqual([...ARKIT_BLENDSHAPES]);
    for (const t of f.morphTargets ?? []) {
      let most = 0;
      for (let i = 0; i < t.positions.length; i += 3)
        most = Math.max(most, Math.hypot(t.positions[i], t.positions[i + 1], t.positions[i + 2]));
      // Every shape visibly moves the surface (≥ 1.5 mm) and stays on the face (≤ 3 cm).
      expect(most, t.name).toBeGreaterThan(0.0015);
      expect(most, t.name).toBeLessThan(0.03);
    }
    const target = (n: string) => f.morphTargets?.find((t) => t.name === n)?.positions as Float32Array;
    const blink = target('eyeBlinkLeft');
    let leftDown = 0;
    let rightMoved = 0;
    for (let v = 0; v < blink.length / 3; v++) {
      const d = Math.hypot(blink[3 * v], blink[3 * v + 1], blink[3 * v + 2]);
      if (d < 1e-5) continue;
      if (f.positions[3 * v] > 0 && blink[3 * v + 1] < 0) leftDown++;
      if (f.positions[3 * v] < -0.02) rightMoved++;
    }
    expect(leftDown).toBeGreaterThan(20); // the subject's left is +X
    expect(rightMoved).toBe(0);
    const jaw = target('jawOpen');
    let maxDown = 0;
    for (let v = 0; v < jaw.length / 3; v++) maxDown = Math.max(maxDown, -jaw[3 * v + 1]);
    expect(maxDown).toBeGreaterThan(0.008);
    expect(maxDown).toBeLessThan(0.03);
  });

  it('GLB with the character: gltf-validator 0 errors; Blender imports mesh, armature, texture; assimp reads it', async () => {
    const c = makeCharacter('girl', undefined, sk);
    const clip = randomClip(5, 30, 8);
    const glb = writeGlb(clip, { mesh: c.meshes[0] });
    const r = await gltfValidate(glb);
    expect(errorsOf(r)).toEqual([]);
    const exe = blender();
    if (exe) {
      const b = await blenderImportGlb(exe, tempFile('girl.glb', glb), [0]);
      expect(b.meshes).toHaveLength(1);
      expect(b.vertices).toBeGreaterThan(3000);
      expect(b.images.some((i) => i.includes('girl'))).toBe(true);
      expect(b.bones).toEqual([...sk.names]);
    }
    const ax = assimp();
    if (ax) {
      const out = await assimpInfo(ax, tempFile('girl.glb', glb));
      expect(out).toMatch(/Meshes:\s+1/);
      expect(out).toMatch(/Animations:\s+1/);
    }
    // A rest-pose face mesh with morph targets validates too.
    const face = makeFaceMesh({ skeleton: sk });
    const fg = writeGlb(restClip(sk, 1, 30), { mesh: face, noAnimation: true });
    expect(errorsOf(await gltfValidate(fg))).toEqual([]);
  });

  it('three.js GLTFLoader skins it like our linear blend skinning (posed vertices within 1 mm)', async () => {
    const c = makeCharacter('boy', undefined, sk);
    const mesh = {
      ...c.meshes[0],
      materials: c.meshes[0].materials.map((m) => ({ ...m, texture: undefined })),
    };
    const clip = randomClip(3, 30, 17);
    const { gltf, three } = await threeParseGlb(writeGlb(clip, { mesh }));
    type V3 = { x: number; y: number; z: number };
    let skinned: { getVertexPosition(i: number, v: V3): V3 } | undefined;
    gltf.scene.traverse((o) => {
      if ((o as { isSkinnedMesh?: boolean }).isSkinnedMesh) skinned = o as unknown as typeof skinned;
    });
    expect(skinned).toBeDefined();
    const t3 = three as unknown as {
      Vector3: new () => V3;
      AnimationMixer: new (
        r: unknown,
      ) => { clipAction(c: unknown): { play(): void }; setTime(t: number): void };
    };
    const mixer = new t3.AnimationMixer(gltf.scene);
    mixer.clipAction(gltf.animations[0]).play();
    mixer.setTime(2 / 30);
    gltf.scene.updateMatrixWorld(true);
    // Our LBS at frame 2 from the canonical FK (rest rotations are identity).
    const n = sk.names.length;
    const rest = poseToWorld(sk, sk.restRotations, 0, readVec3(sk.offsets, 0));
    const posed = poseToWorld(clip.skeleton, clip.rotations, 2 * n * 4, readVec3(clip.rootPositions, 2));
    let worst = 0;
    for (let v = 0; v < mesh.positions.length / 3; v += 11) {
      const out = [0, 0, 0];
      for (let k = 0; k < 4; k++) {
        const w = mesh.weights[4 * v + k];
        if (w === 0) continue;
        const j = sk.names.indexOf(mesh.jointNames[mesh.joints[4 * v + k]]);
        const local = [0, 1, 2].map((c) => mesh.positions[3 * v + c] - rest.positions[3 * j + c]) as Vec3;
        const r = qRotate(readQuat(posed.rotations, j), local);
        for (let c = 0; c < 3; c++) out[c] += w * (posed.positions[3 * j + c] + r[c]);
      }
      const p = (skinned as { getVertexPosition(i: number, v: V3): V3 }).getVertexPosition(
        v,
        new t3.Vector3(),
      );
      worst = Math.max(worst, Math.hypot(p.x - out[0], p.y - out[1], p.z - out[2]));
    }
    expect(worst).toBeLessThan(1e-3);
  });

  it('makeCharacterGlb: a rest-pose preview and a clip-driven one (face curves on the morph targets) validate', async () => {
    const rest = makeCharacterGlb('ue5');
    expect(errorsOf(await gltfValidate(rest))).toEqual([]);
    const animated = makeCharacterGlb('girl', clipWithFace(4));
    expect(errorsOf(await gltfValidate(animated))).toEqual([]);
    const dv = new DataView(animated.buffer, animated.byteOffset, animated.byteLength);
    const json = JSON.parse(new TextDecoder().decode(animated.subarray(20, 20 + dv.getUint32(12, true))));
    expect(json.meshes[0].extras.targetNames).toContain('jawOpen');
    expect(
      json.animations[0].channels.some((c: { target: { path: string } }) => c.target.path === 'weights'),
    ).toBe(true);
    expect(json.images).toHaveLength(1);
  });
});
