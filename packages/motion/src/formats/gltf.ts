/**
 * GLB (binary glTF 2.0) writer: a joint hierarchy, its animation, and optionally a skinned, textured mesh with
 * morph targets.
 *
 * Conventions: glTF's own, which are the MotionClip's (right-handed, Y up, metres, front +Z), so no axis or unit
 * conversion happens here; a rig in other units passes `unitsPerMetre` and is scaled to metres.
 *
 * What is written
 * - one node per joint with its rest TRS (`translation` = rest offset from the parent, `rotation` = rest
 *   rotation); the root joint's rest translation is its rest position;
 * - one animation (`name` option, default "Take 001"): a `rotation` channel on every joint, a `translation`
 *   channel on the root (or on every joint whose translation changes, when the source has per-joint
 *   translations), `weights` on the mesh node for morph-target curves; every sampler LINEAR, one shared time
 *   accessor (`frame / fps` seconds, with `min`/`max`);
 * - with a mesh: a skin (joints = every joint node, inverse bind matrices = inverse rest world matrices, so the
 *   bind pose is the rest pose), `JOINTS_0` (UNSIGNED_SHORT) / `WEIGHTS_0` (FLOAT, normalised), `POSITION`
 *   (with min/max), `NORMAL`, `TEXCOORD_0`, indices (UNSIGNED_INT), a PBR material (base-colour PNG texture
 *   embedded in the BIN chunk, roughness 0.8, metallic 0), morph targets (POSITION deltas) named in
 *   `mesh.extras.targetNames`.
 *
 * Limits
 * - One animation, one skin, one mesh primitive per material; no cameras, lights or extensions (VRMA adds its
 *   own, see `vrma.ts`). Scale is never animated.
 * - Rotations are written as float quaternions, made sign-continuous across frames so LINEAR (slerp-like) playback
 *   never takes the long way round between two keys.
 * - Indices of up to 2^32 vertices, 65 535 joints.
 */

import type { MotionClip } from '../clip.ts';
import { compose4, mul4 } from '../mat4.ts';
import { continuousUnitQ64 } from '../quat64.ts';
import type { RigClip, SkinnedMesh } from '../rigs/types.ts';

/** A skeleton animation in glTF terms (metres unless `unitsPerMetre` says otherwise). */
export interface SkeletalAnimation {
  /** Joint (node) names, unique; parents come before children. */
  readonly names: readonly string[];
  /** Parent index per joint, -1 for roots. */
  readonly parents: readonly number[];
  /** Rest local translation per joint `[3n]` (root: its rest position). */
  readonly restTranslations: ArrayLike<number>;
  /** Rest local rotation per joint `[4n]` (x, y, z, w). */
  readonly restRotations: ArrayLike<number>;
  readonly fps: number;
  readonly frameCount: number;
  /** `rotations[(f * n + j) * 4 + k]`: local rotation per frame. */
  readonly rotations: ArrayLike<number>;
  /** Either per-frame translations of every joint `[f * n * 3]`, or only of joint 0 `[f * 3]`. */
  readonly translations: ArrayLike<number>;
  /** Units per metre of the translations (1 = metres, 100 = cm). */
  readonly unitsPerMetre?: number;
}

export interface GltfWriteOptions {
  /** Animation name (default "Take 001"). */
  animationName?: string;
  /** Skinned mesh to include (optional: an animation-only file otherwise). */
  mesh?: SkinnedMesh;
  /** Morph weight curves for the mesh: `weights[f * names.length + k]` for the mesh's target `names[k]`. */
  morphCurves?: { readonly names: readonly string[]; readonly weights: ArrayLike<number> };
  /** `asset.generator` (default "@mocap/motion"). */
  generator?: string;
  /** Leave out the animation (a rest-pose model, e.g. a character preview). */
  noAnimation?: boolean;
  /** Write a skin even without a mesh (default true: Blender builds an armature only from a skin). */
  skin?: boolean;
}

/** The canonical MotionClip as a `SkeletalAnimation` (metres, root translation only). */
export function fromMotionClip(clip: MotionClip): SkeletalAnimation {
  return {
    names: clip.skeleton.names,
    parents: clip.skeleton.parents,
    restTranslations: clip.skeleton.offsets,
    restRotations: clip.skeleton.restRotations,
    fps: clip.fps,
    frameCount: clip.frameCount,
    rotations: clip.rotations,
    translations: clip.rootPositions,
  };
}

/**
 * A retargeted clip as a `SkeletalAnimation` in glTF space: rig axes and units are converted back to canonical
 * (Y up, metres, +Z front) through the rig's basis, so any rig (even a left-handed one) plays correctly.
 */
export function fromRigClip(rc: RigClip): SkeletalAnimation {
  const { rig } = rc;
  const n = rig.bones.length;
  const B = rig.basis;
  // canonical = Bᵀ · rig (B is orthogonal up to a reflection).
  // Bᵀ · M · B for a rotation M: with P = ±B the proper rotation (a reflection's sign cancels), that is the
  // quaternion product p⁻¹ · q · p, p = quat(P).
  const det =
    B[0] * (B[4] * B[8] - B[5] * B[7]) -
    B[1] * (B[3] * B[8] - B[5] * B[6]) +
    B[2] * (B[3] * B[7] - B[4] * B[6]);
  const [px, py, pz, pw] = mat3ToQuat(det > 0 ? [...B] : B.map((v) => -v));
  const conjRot = (q: ArrayLike<number>, o: number, out: Float32Array | number[], oo: number) => {
    const x = q[o];
    const y = q[o + 1];
    const z = q[o + 2];
    const w = q[o + 3];
    // t = q · p
    const tx = w * px + x * pw + y * pz - z * py;
    const ty = w * py - x * pz + y * pw + z * px;
    const tz = w * pz + x * py - y * px + z * pw;
    const tw = w * pw - x * px - y * py - z * pz;
    // out = p⁻¹ · t
    out[oo] = pw * tx - px * tw - py * tz + pz * ty;
    out[oo + 1] = pw * ty + px * tz - py * tw - pz * tx;
    out[oo + 2] = pw * tz - px * ty + py * tx - pz * tw;
    out[oo + 3] = pw * tw + px * tx + py * ty + pz * tz;
  };
  const conjVec = (v: ArrayLike<number>, o: number, out: Float32Array | number[], oo: number) => {
    for (let r = 0; r < 3; r++)
      out[oo + r] = (B[r] * v[o] + B[3 + r] * v[o + 1] + B[6 + r] * v[o + 2]) / rig.unitsPerMetre;
  };
  const restT = new Float32Array(3 * n);
  const restR = new Float32Array(4 * n);
  rig.bones.forEach((b, j) => {
    conjVec(b.restTranslation, 0, restT, 3 * j);
    conjRot(b.restRotation, 0, restR, 4 * j);
  });
  const F = rc.frameCount;
  const rotations = new Float32Array(F * n * 4);
  const translations = new Float32Array(F * n * 3);
  for (let i = 0; i < F * n; i++) {
    conjRot(rc.rotations, 4 * i, rotations, 4 * i);
    conjVec(rc.translations, 3 * i, translations, 3 * i);
  }
  return {
    names: rig.bones.map((b) => b.name),
    parents: rig.bones.map((b) => (b.parent === null ? -1 : rig.bones.findIndex((p) => p.name === b.parent))),
    restTranslations: restT,
    restRotations: restR,
    fps: rc.fps,
    frameCount: F,
    rotations,
    translations,
  };
}

function mat3ToQuat(m: number[]): [number, number, number, number] {
  const tr = m[0] + m[4] + m[8];
  let q: [number, number, number, number];
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    q = [(m[7] - m[5]) / s, (m[2] - m[6]) / s, (m[3] - m[1]) / s, 0.25 * s];
  } else if (m[0] > m[4] && m[0] > m[8]) {
    const s = Math.sqrt(1 + m[0] - m[4] - m[8]) * 2;
    q = [0.25 * s, (m[1] + m[3]) / s, (m[2] + m[6]) / s, (m[7] - m[5]) / s];
  } else if (m[4] > m[8]) {
    const s = Math.sqrt(1 + m[4] - m[0] - m[8]) * 2;
    q = [(m[1] + m[3]) / s, 0.25 * s, (m[5] + m[7]) / s, (m[2] - m[6]) / s];
  } else {
    const s = Math.sqrt(1 + m[8] - m[0] - m[4]) * 2;
    q = [(m[2] + m[6]) / s, (m[5] + m[7]) / s, 0.25 * s, (m[3] - m[1]) / s];
  }
  const l = Math.hypot(q[0], q[1], q[2], q[3]);
  return [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
}

// ---------------------------------------------------------------- binary assembly

interface Json {
  [k: string]: unknown;
}

/** Collects buffer views into one BIN chunk (4-byte aligned) and accessors over them. */
class BinBuilder {
  private parts: Uint8Array[] = [];
  private length = 0;
  readonly bufferViews: Json[] = [];
  readonly accessors: Json[] = [];

  view(bytes: Uint8Array, target?: number): number {
    const pad = (4 - (this.length % 4)) % 4;
    if (pad) {
      this.parts.push(new Uint8Array(pad));
      this.length += pad;
    }
    this.parts.push(bytes);
    const bv: Json = { buffer: 0, byteOffset: this.length, byteLength: bytes.byteLength };
    if (target) bv.target = target;
    this.length += bytes.byteLength;
    this.bufferViews.push(bv);
    return this.bufferViews.length - 1;
  }

  accessor(
    data: Float32Array | Uint16Array | Uint32Array,
    type: 'SCALAR' | 'VEC2' | 'VEC3' | 'VEC4' | 'MAT4',
    opts: { target?: number; minMax?: boolean } = {},
  ): number {
    const comps = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 }[type];
    const componentType = data instanceof Float32Array ? 5126 : data instanceof Uint16Array ? 5123 : 5125;
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    const view = this.view(bytes.slice(), opts.target);
    const acc: Json = { bufferView: view, componentType, count: data.length / comps, type };
    if (opts.minMax) {
      const min = new Array<number>(comps).fill(Number.POSITIVE_INFINITY);
      const max = new Array<number>(comps).fill(Number.NEGATIVE_INFINITY);
      for (let i = 0; i < data.length; i++) {
        const c = i % comps;
        const v = data[i];
        if (v < min[c]) min[c] = v;
        if (v > max[c]) max[c] = v;
      }
      // Float32 values round-trip exactly through JSON doubles; keep them as float32.
      acc.min = min.map((v) => Math.fround(v));
      acc.max = max.map((v) => Math.fround(v));
    }
    this.accessors.push(acc);
    return this.accessors.length - 1;
  }

  bytes(): Uint8Array {
    const pad = (4 - (this.length % 4)) % 4;
    const out = new Uint8Array(this.length + pad);
    let o = 0;
    for (const p of this.parts) {
      out.set(p, o);
      o += p.byteLength;
    }
    return out;
  }
}

/** Packs a glTF JSON document and a BIN chunk into GLB bytes. */
export function packGlb(json: object, bin: Uint8Array): Uint8Array {
  const jsonBytes = new TextEncoder().encode(JSON.stringify(json));
  const jsonPad = (4 - (jsonBytes.length % 4)) % 4;
  const binPad = (4 - (bin.length % 4)) % 4;
  const jsonLen = jsonBytes.length + jsonPad;
  const binLen = bin.length + binPad;
  const total = 12 + 8 + jsonLen + (bin.length ? 8 + binLen : 0);
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0x46546c67, true);
  dv.setUint32(4, 2, true);
  dv.setUint32(8, total, true);
  dv.setUint32(12, jsonLen, true);
  dv.setUint32(16, 0x4e4f534a, true);
  out.set(jsonBytes, 20);
  out.fill(0x20, 20 + jsonBytes.length, 20 + jsonLen);
  if (bin.length) {
    const o = 20 + jsonLen;
    dv.setUint32(o, binLen, true);
    dv.setUint32(o + 4, 0x004e4942, true);
    out.set(bin, o + 8);
  }
  return out;
}

// ---------------------------------------------------------------- helpers

/** Inverse of a rigid (rotation + translation) column-major matrix. */
function invRigid(m: Float64Array): Float64Array {
  const o = new Float64Array(16);
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) o[c * 4 + r] = m[r * 4 + c];
  for (let r = 0; r < 3; r++) o[12 + r] = -(o[r] * m[12] + o[4 + r] * m[13] + o[8 + r] * m[14]);
  o[15] = 1;
  return o;
}

/** Rest world matrices (column-major, metres) of every joint. */
export function restWorldMatrices(anim: SkeletalAnimation): Float64Array[] {
  const s = 1 / (anim.unitsPerMetre ?? 1);
  const out: Float64Array[] = [];
  for (let j = 0; j < anim.names.length; j++) {
    const t = [
      anim.restTranslations[3 * j] * s,
      anim.restTranslations[3 * j + 1] * s,
      anim.restTranslations[3 * j + 2] * s,
    ];
    const q = Array.from({ length: 4 }, (_, k) => anim.restRotations[4 * j + k]);
    const local = compose4(t, q, [1, 1, 1]);
    const p = anim.parents[j];
    out.push(p < 0 ? local : mul4(out[p], local));
  }
  return out;
}

function checkAnimation(anim: SkeletalAnimation): void {
  const n = anim.names.length;
  if (n === 0) throw new Error('glTF: the skeleton has no joints');
  if (new Set(anim.names).size !== n) throw new Error('glTF: joint names must be unique');
  if (anim.parents.length !== n) throw new Error('glTF: parents length mismatch');
  anim.parents.forEach((p, j) => {
    if (p >= j) throw new Error(`glTF: joint ${anim.names[j]}: its parent must come before it`);
  });
  if (!(anim.fps > 0)) throw new Error('glTF: fps must be > 0');
  if (!Number.isInteger(anim.frameCount) || anim.frameCount < 1)
    throw new Error('glTF: frameCount must be ≥ 1');
  if (anim.rotations.length !== anim.frameCount * n * 4) throw new Error('glTF: rotations length mismatch');
  if (
    anim.translations.length !== anim.frameCount * 3 &&
    anim.translations.length !== anim.frameCount * n * 3
  )
    throw new Error('glTF: translations must be [frames × 3] (root) or [frames × joints × 3]');
}

function checkMesh(mesh: SkinnedMesh, jointIndex: Map<string, number>): void {
  const v = mesh.positions.length / 3;
  if (!Number.isInteger(v) || v === 0) throw new Error('glTF mesh: positions must be a non-empty [3v] array');
  if (mesh.normals.length !== 3 * v || mesh.uvs.length !== 2 * v)
    throw new Error('glTF mesh: normals/uvs length');
  if (mesh.joints.length !== 4 * v || mesh.weights.length !== 4 * v)
    throw new Error('glTF mesh: joints/weights length');
  if (mesh.indices.length % 3 !== 0) throw new Error('glTF mesh: indices must be triangles');
  for (const i of mesh.indices) if (i >= v) throw new Error('glTF mesh: index out of range');
  for (const name of mesh.jointNames)
    if (!jointIndex.has(name)) throw new Error(`glTF mesh: joint "${name}" is not in the skeleton`);
  if (mesh.materials.length === 0) throw new Error('glTF mesh: at least one material');
  for (const g of mesh.groups)
    if (g.start % 3 || g.count % 3 || g.start + g.count > mesh.indices.length || !mesh.materials[g.material])
      throw new Error('glTF mesh: bad material group');
  for (const t of mesh.morphTargets ?? [])
    if (t.positions.length !== 3 * v) throw new Error(`glTF mesh: morph target ${t.name} length`);
}

/** Copies `count` quaternions (stride 4 at `base + f * stride`) into `out`, sign-continuous. */
function continuousQuats(
  src: ArrayLike<number>,
  frames: number,
  n: number,
  j: number,
  out: Float32Array,
): void {
  const q = new Float64Array(8);
  for (let f = 0; f < frames; f++) {
    const i = (f * n + j) * 4;
    q[0] = src[i];
    q[1] = src[i + 1];
    q[2] = src[i + 2];
    q[3] = src[i + 3];
    continuousUnitQ64(q, f > 0);
    out[4 * f] = q[0];
    out[4 * f + 1] = q[1];
    out[4 * f + 2] = q[2];
    out[4 * f + 3] = q[3];
  }
}

/** The glTF document (JSON + BIN) before packing: `vrma.ts` extends it. */
export interface GltfDocument {
  json: Json & { nodes: Json[]; scenes: Json[]; extensionsUsed?: string[]; extensions?: Json };
  bin: BinBuilder;
  /** Node index of each joint. */
  jointNodes: number[];
  /** Index of the animation in `json.animations` (absent with `noAnimation`). */
  animation?: { channels: Json[]; samplers: Json[]; timeAccessor: number };
}

/** Builds the glTF document for an animation (+ mesh). */
export function buildGltf(anim: SkeletalAnimation, options: GltfWriteOptions = {}): GltfDocument {
  checkAnimation(anim);
  const n = anim.names.length;
  const F = anim.frameCount;
  const s = 1 / (anim.unitsPerMetre ?? 1);
  const bin = new BinBuilder();
  const nodes: Json[] = [];
  const jointNodes: number[] = [];
  const children: number[][] = anim.names.map(() => []);
  for (let j = 0; j < n; j++) {
    const node: Json = { name: anim.names[j] };
    const t = [0, 1, 2].map((k) => Math.fround(anim.restTranslations[3 * j + k] * s));
    if (t.some((v) => v !== 0)) node.translation = t;
    const q = [0, 1, 2, 3].map((k) => anim.restRotations[4 * j + k]);
    const ql = Math.hypot(q[0], q[1], q[2], q[3]);
    if (Math.abs(q[3] / ql - 1) > 1e-9) node.rotation = q.map((v) => Math.fround(v / ql));
    nodes.push(node);
    jointNodes.push(j);
    if (anim.parents[j] >= 0) children[anim.parents[j]].push(j);
  }
  children.forEach((c, j) => {
    if (c.length) nodes[j].children = c;
  });
  const roots = anim.parents.flatMap((p, j) => (p < 0 ? [j] : []));
  const sceneNodes = [...roots];
  const json: GltfDocument['json'] = {
    asset: { version: '2.0', generator: options.generator ?? '@mocap/motion' },
    scene: 0,
    scenes: [{ name: 'Scene', nodes: sceneNodes }],
    nodes,
  };
  const doc: GltfDocument = { json, bin, jointNodes };

  // A skin even without a mesh: Blender (and most DCC importers) build an armature only from skins.
  // Its joints are every joint (skin joint index = skeleton index); IBMs = inverse rest world, so the bind pose
  // is the rest pose.
  if (options.skin !== false || options.mesh) {
    const world = restWorldMatrices(anim);
    const ibm = new Float32Array(16 * n);
    for (let j = 0; j < n; j++) ibm.set(invRigid(world[j]), 16 * j);
    json.skins = [
      {
        name: 'Armature',
        joints: jointNodes,
        inverseBindMatrices: bin.accessor(ibm, 'MAT4'),
        skeleton: roots[0],
      },
    ];
  }

  let meshNode = -1;
  if (options.mesh) {
    const mesh = options.mesh;
    const jointIndex = new Map(anim.names.map((name, j) => [name, j]));
    checkMesh(mesh, jointIndex);
    const skinJoints = new Uint16Array(mesh.joints.length);
    const remap = mesh.jointNames.map((name) => jointIndex.get(name) as number);
    for (let i = 0; i < mesh.joints.length; i++)
      skinJoints[i] = mesh.weights[i] > 0 ? remap[mesh.joints[i]] : 0;
    const weights = new Float32Array(mesh.weights.length);
    for (let v = 0; v < weights.length; v += 4) {
      const sum = mesh.weights[v] + mesh.weights[v + 1] + mesh.weights[v + 2] + mesh.weights[v + 3];
      if (!(sum > 0)) throw new Error(`glTF mesh: vertex ${v / 4} has no weights`);
      for (let k = 0; k < 4; k++) weights[v + k] = mesh.weights[v + k] / sum;
    }
    const attributes: Json = {
      POSITION: bin.accessor(mesh.positions, 'VEC3', { target: 34962, minMax: true }),
      NORMAL: bin.accessor(mesh.normals, 'VEC3', { target: 34962 }),
      TEXCOORD_0: bin.accessor(mesh.uvs, 'VEC2', { target: 34962 }),
      JOINTS_0: bin.accessor(skinJoints, 'VEC4', { target: 34962 }),
      WEIGHTS_0: bin.accessor(weights, 'VEC4', { target: 34962 }),
    };
    const targets = (mesh.morphTargets ?? []).map((t) => ({
      POSITION: bin.accessor(t.positions, 'VEC3', { target: 34962, minMax: true }),
    }));
    const targetNames = (mesh.morphTargets ?? []).map((t) => t.name);
    const images: Json[] = [];
    const textures: Json[] = [];
    json.materials = mesh.materials.map((m) => {
      const material: Json = {
        name: m.name,
        pbrMetallicRoughness: { metallicFactor: 0, roughnessFactor: 0.8, baseColorFactor: [...m.baseColor] },
      };
      if (m.texture) {
        images.push({
          name: m.texture.fileName.replace(/\.png$/i, ''),
          bufferView: bin.view(m.texture.png),
          mimeType: 'image/png',
        });
        textures.push({ sampler: 0, source: images.length - 1 });
        (material.pbrMetallicRoughness as Json).baseColorTexture = { index: textures.length - 1 };
      }
      return material;
    });
    if (images.length) {
      json.images = images;
      json.textures = textures;
      json.samplers = [{ magFilter: 9729, minFilter: 9987, wrapS: 33071, wrapT: 33071 }];
    }
    const groups = mesh.groups.length ? mesh.groups : [{ start: 0, count: mesh.indices.length, material: 0 }];
    const primitives = groups.map((g) => ({
      attributes,
      indices: bin.accessor(mesh.indices.slice(g.start, g.start + g.count), 'SCALAR', { target: 34963 }),
      material: g.material,
      mode: 4,
      ...(targets.length ? { targets } : {}),
    }));
    json.meshes = [
      {
        name: mesh.name,
        primitives,
        ...(targetNames.length ? { weights: targetNames.map(() => 0), extras: { targetNames } } : {}),
      },
    ];
    meshNode = nodes.length;
    nodes.push({ name: mesh.name, mesh: 0, skin: 0 });
    sceneNodes.push(meshNode);
  }

  if (!options.noAnimation) {
    const times = new Float32Array(F);
    for (let f = 0; f < F; f++) times[f] = f / anim.fps;
    const timeAccessor = bin.accessor(times, 'SCALAR', { minMax: true });
    const samplers: Json[] = [];
    const channels: Json[] = [];
    const add = (node: number, path: string, output: number) => {
      samplers.push({ input: timeAccessor, output, interpolation: 'LINEAR' });
      channels.push({ sampler: samplers.length - 1, target: { node, path } });
    };
    const perJoint = anim.translations.length === F * n * 3;
    const stride = perJoint ? n : 1;
    for (let j = 0; j < n; j++) {
      const q = new Float32Array(4 * F);
      continuousQuats(anim.rotations, F, n, j, q);
      add(j, 'rotation', bin.accessor(q, 'VEC4'));
      if (j !== 0 && !perJoint) continue;
      const t = new Float32Array(3 * F);
      let varies = j === 0;
      for (let f = 0; f < F; f++)
        for (let k = 0; k < 3; k++) {
          const v = anim.translations[(f * stride + j) * 3 + k] * s;
          t[3 * f + k] = v;
          if (!varies && Math.abs(v - anim.restTranslations[3 * j + k] * s) > 1e-7) varies = true;
        }
      if (varies) add(j, 'translation', bin.accessor(t, 'VEC3'));
    }
    if (options.morphCurves && meshNode >= 0 && options.mesh?.morphTargets?.length) {
      const targets = options.mesh.morphTargets.map((t) => t.name);
      const K = options.morphCurves.names.length;
      const w = new Float32Array(F * targets.length);
      targets.forEach((name, k) => {
        const src = options.morphCurves?.names.indexOf(name) ?? -1;
        if (src < 0) return;
        for (let f = 0; f < F; f++)
          w[f * targets.length + k] = options.morphCurves?.weights[f * K + src] ?? 0;
      });
      add(meshNode, 'weights', bin.accessor(w, 'SCALAR'));
    }
    json.animations = [{ name: options.animationName ?? 'Take 001', channels, samplers }];
    doc.animation = { channels, samplers, timeAccessor };
  }
  return doc;
}

/** Finishes a document into GLB bytes. */
export function finishGltf(doc: GltfDocument): Uint8Array {
  const bin = doc.bin.bytes();
  doc.json.accessors = doc.bin.accessors;
  doc.json.bufferViews = doc.bin.bufferViews;
  if (bin.length) doc.json.buffers = [{ byteLength: bin.length }];
  return packGlb(doc.json, bin);
}

/** Writes a GLB: the skeleton (+ mesh) and its animation. */
export function write(
  anim: SkeletalAnimation | MotionClip | RigClip,
  options: GltfWriteOptions = {},
): Uint8Array {
  const a = 'skeleton' in anim ? fromMotionClip(anim) : 'rig' in anim ? fromRigClip(anim) : anim;
  return finishGltf(buildGltf(a, options));
}
