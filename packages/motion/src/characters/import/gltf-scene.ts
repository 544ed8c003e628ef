/**
 * glTF 2.0 (GLB or embedded-buffer .gltf) and VRM (0.x `VRM` extension, 1.0 `VRMC_vrm`) → `ImportedScene`.
 * Rest world matrices come from the node hierarchy; skinned vertices are posed at that rest through their skins
 * (Σ w · jointWorld · inverseBindMatrix · v, the glTF skinning equation, so a scaling armature node such as
 * FBX2glTF's 100× root is accounted for). Materials: baseColorFactor and PNG base-colour textures.
 */

import { compose4, IDENTITY4, mul4, transformDir4, transformPoint4 } from '../../mat4.ts';
import type { MeshMaterial } from '../../rigs/types.ts';
import { computeNormals } from './fbx-scene.ts';
import { CharacterImportError, type ImportedScene, type SceneMesh, type SceneNode } from './scene.ts';

interface GltfJson {
  asset?: { version?: string };
  scene?: number;
  scenes?: { nodes?: number[] }[];
  nodes?: {
    name?: string;
    children?: number[];
    matrix?: number[];
    translation?: number[];
    rotation?: number[];
    scale?: number[];
    mesh?: number;
    skin?: number;
  }[];
  meshes?: {
    name?: string;
    primitives: { attributes: Record<string, number>; indices?: number; material?: number; mode?: number }[];
  }[];
  skins?: { joints: number[]; inverseBindMatrices?: number; skeleton?: number }[];
  accessors?: {
    bufferView?: number;
    byteOffset?: number;
    componentType: number;
    count: number;
    type: string;
    normalized?: boolean;
  }[];
  bufferViews?: { buffer: number; byteOffset?: number; byteLength: number; byteStride?: number }[];
  buffers?: { byteLength: number; uri?: string }[];
  materials?: {
    name?: string;
    pbrMetallicRoughness?: { baseColorFactor?: number[]; baseColorTexture?: { index: number } };
  }[];
  textures?: { source?: number }[];
  images?: { bufferView?: number; mimeType?: string; uri?: string; name?: string }[];
  extensions?: Record<string, unknown>;
  extensionsUsed?: string[];
}

const COMPONENTS: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 };

export function isGlb(b: Uint8Array): boolean {
  return b.length >= 20 && b[0] === 0x67 && b[1] === 0x6c && b[2] === 0x54 && b[3] === 0x46;
}

export function isGltfJson(b: Uint8Array): boolean {
  const head = new TextDecoder().decode(b.subarray(0, Math.min(b.length, 2048)));
  return (
    /^\s*\{/.test(head) &&
    /"asset"\s*:/.test(new TextDecoder().decode(b.subarray(0, Math.min(b.length, 1 << 20))))
  );
}

function split(bytes: Uint8Array): { json: GltfJson; bin: Uint8Array[] } {
  if (isGlb(bytes)) {
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (dv.getUint32(4, true) !== 2)
      throw new CharacterImportError('GLB: only glTF 2.0 is supported', 'format');
    let off = 12;
    let json: GltfJson | null = null;
    const bin: Uint8Array[] = [];
    while (off + 8 <= bytes.length) {
      const len = dv.getUint32(off, true);
      const type = dv.getUint32(off + 4, true);
      const data = bytes.subarray(off + 8, off + 8 + len);
      if (type === 0x4e4f534a) json = JSON.parse(new TextDecoder().decode(data)) as GltfJson;
      else if (type === 0x004e4942) bin.push(data);
      off += 8 + len + ((4 - (len % 4)) % 4);
    }
    if (!json) throw new CharacterImportError('GLB: no JSON chunk', 'format');
    return { json, bin };
  }
  let json: GltfJson;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes)) as GltfJson;
  } catch {
    throw new CharacterImportError('glTF: the JSON does not parse', 'format');
  }
  const bin = (json.buffers ?? []).map((b) => {
    const m = /^data:[^;]*;base64,(.*)$/.exec(b.uri ?? '');
    if (!m)
      throw new CharacterImportError('glTF: external buffers are not supported; upload a .glb', 'format');
    return Uint8Array.from(Buffer.from(m[1], 'base64'));
  });
  return { json, bin };
}

export function importGltf(bytes: Uint8Array): ImportedScene {
  const { json, bin } = split(bytes);
  if (!json.asset?.version?.startsWith('2'))
    throw new CharacterImportError('glTF: only glTF 2.0 is supported', 'format');
  const glb = isGlb(bytes);
  const warnings: string[] = [];
  const view = (i: number): Uint8Array => {
    const bv = json.bufferViews?.[i];
    if (!bv) throw new CharacterImportError(`glTF: bufferView ${i} missing`, 'format');
    const buf = bin[bv.buffer];
    if (!buf || (bv.byteOffset ?? 0) + bv.byteLength > buf.length)
      throw new CharacterImportError(`glTF: bufferView ${i} out of range`, 'format');
    return buf.subarray(bv.byteOffset ?? 0, (bv.byteOffset ?? 0) + bv.byteLength);
  };
  const accessor = (i: number): Float64Array => {
    const a = json.accessors?.[i];
    if (!a) throw new CharacterImportError(`glTF: accessor ${i} missing`, 'format');
    const nc = COMPONENTS[a.type] ?? 1;
    const out = new Float64Array(a.count * nc);
    if (a.bufferView === undefined) return out;
    const v = view(a.bufferView);
    const dv = new DataView(v.buffer, v.byteOffset, v.byteLength);
    const size =
      a.componentType === 5126 || a.componentType === 5125
        ? 4
        : a.componentType === 5123 || a.componentType === 5122
          ? 2
          : 1;
    const stride = json.bufferViews?.[a.bufferView]?.byteStride || size * nc;
    const base = a.byteOffset ?? 0;
    if (base + stride * (a.count - 1) + size * nc > v.length)
      throw new CharacterImportError(`glTF: accessor ${i} out of range`, 'format');
    const norm = a.normalized === true;
    for (let e = 0; e < a.count; e++)
      for (let c = 0; c < nc; c++) {
        const o = base + e * stride + c * size;
        let x: number;
        switch (a.componentType) {
          case 5126:
            x = dv.getFloat32(o, true);
            break;
          case 5125:
            x = dv.getUint32(o, true);
            break;
          case 5123:
            x = dv.getUint16(o, true);
            if (norm) x /= 65535;
            break;
          case 5122:
            x = dv.getInt16(o, true);
            if (norm) x = Math.max(-1, x / 32767);
            break;
          case 5121:
            x = v[o];
            if (norm) x /= 255;
            break;
          case 5120:
            x = dv.getInt8(o);
            if (norm) x = Math.max(-1, x / 127);
            break;
          default:
            throw new CharacterImportError(`glTF: component type ${a.componentType}`, 'format');
        }
        out[e * nc + c] = x;
      }
    return out;
  };

  const gnodes = json.nodes ?? [];
  const parent = new Int32Array(gnodes.length).fill(-1);
  gnodes.forEach((n, i) => {
    for (const c of n.children ?? []) parent[c] = i;
  });
  const local = gnodes.map((n) =>
    n.matrix?.length === 16
      ? Float64Array.from(n.matrix)
      : compose4(n.translation ?? [0, 0, 0], n.rotation ?? [0, 0, 0, 1], n.scale ?? [1, 1, 1]),
  );
  const world: Float64Array[] = new Array(gnodes.length);
  const worldOf = (i: number): Float64Array => {
    if (!world[i]) world[i] = parent[i] >= 0 ? mul4(worldOf(parent[i]), local[i]) : local[i];
    return world[i];
  };
  const isBone = new Uint8Array(gnodes.length);
  for (const s of json.skins ?? []) for (const j of s.joints) isBone[j] = 1;

  // Materials.
  const materials: MeshMaterial[] = (json.materials ?? []).map((m, i) => {
    const f = m.pbrMetallicRoughness?.baseColorFactor ?? [1, 1, 1, 1];
    const mat: { -readonly [K in keyof MeshMaterial]: MeshMaterial[K] } = {
      name: m.name ?? `Material${i}`,
      baseColor: [f[0], f[1], f[2], f[3] ?? 1],
    };
    const t = m.pbrMetallicRoughness?.baseColorTexture;
    const img = t ? json.images?.[json.textures?.[t.index]?.source ?? -1] : undefined;
    if (img) {
      const data = img.bufferView !== undefined ? view(img.bufferView) : dataUri(img.uri);
      const png = data && data.length > 8 && data[0] === 0x89 && data[1] === 0x50 && data[2] === 0x4e;
      if (png)
        mat.texture = {
          fileName: `${(img.name ?? mat.name).replace(/[^\w.-]+/g, '_')}.png`,
          png: new Uint8Array(data),
        };
      else warnings.push(`texture of ${mat.name}: only PNG textures are kept (the colour factor is used)`);
    }
    return mat;
  });
  const defaultMat: MeshMaterial = { name: 'default', baseColor: [0.8, 0.8, 0.8, 1] };

  const meshes: SceneMesh[] = [];
  gnodes.forEach((n, ni) => {
    if (n.mesh === undefined) return;
    const gm = json.meshes?.[n.mesh];
    if (!gm) return;
    const skin = n.skin !== undefined ? json.skins?.[n.skin] : undefined;
    const ibm = skin?.inverseBindMatrices !== undefined ? accessor(skin.inverseBindMatrices) : null;
    const jointMats = skin
      ? skin.joints.map((j, k) => mul4(worldOf(j), ibm ? ibm.subarray(16 * k, 16 * k + 16) : IDENTITY4()))
      : [];
    const P: number[] = [];
    const N: number[] = [];
    const U: number[] = [];
    const J: number[] = [];
    const W: number[] = [];
    const I: number[] = [];
    const groups: SceneMesh['groups'] = [];
    const mats: MeshMaterial[] = [];
    let needNormals = false;
    for (const prim of gm.primitives) {
      if ((prim.mode ?? 4) !== 4) continue;
      const pos = accessor(prim.attributes.POSITION);
      const nv = pos.length / 3;
      const nor = prim.attributes.NORMAL !== undefined ? accessor(prim.attributes.NORMAL) : null;
      if (!nor) needNormals = true;
      const uv = prim.attributes.TEXCOORD_0 !== undefined ? accessor(prim.attributes.TEXCOORD_0) : null;
      const jo = prim.attributes.JOINTS_0 !== undefined ? accessor(prim.attributes.JOINTS_0) : null;
      const we = prim.attributes.WEIGHTS_0 !== undefined ? accessor(prim.attributes.WEIGHTS_0) : null;
      const idx =
        prim.indices !== undefined ? accessor(prim.indices) : Float64Array.from({ length: nv }, (_, i) => i);
      const base = P.length / 3;
      for (let v = 0; v < nv; v++) {
        let M: Float64Array;
        const infl: [number, number][] = [];
        if (skin && jo && we) {
          M = new Float64Array(16);
          let s = 0;
          for (let k = 0; k < 4; k++) {
            const w = we[4 * v + k];
            if (w <= 0) continue;
            const jm = jointMats[jo[4 * v + k]];
            if (!jm) throw new CharacterImportError('glTF: joint index out of range', 'format');
            for (let e = 0; e < 16; e++) M[e] += jm[e] * w;
            infl.push([skin.joints[jo[4 * v + k]], w]);
            s += w;
          }
          if (s > 0) for (let e = 0; e < 16; e++) M[e] /= s;
          else M = worldOf(ni);
        } else {
          M = worldOf(ni);
          // A rigid mesh hangs on the nearest bone above it (or becomes a joint itself).
          let b = ni;
          while (b >= 0 && !isBone[b]) b = parent[b];
          infl.push([b >= 0 ? b : ni, 1]);
          if (b < 0) isBone[ni] = 1;
        }
        const p = transformPoint4(M, pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]);
        P.push(p[0], p[1], p[2]);
        if (nor) {
          const d = transformDir4(M, nor[3 * v], nor[3 * v + 1], nor[3 * v + 2]);
          const l = Math.hypot(d[0], d[1], d[2]) || 1;
          N.push(d[0] / l, d[1] / l, d[2] / l);
        } else N.push(0, 0, 0);
        U.push(uv ? uv[2 * v] : 0, uv ? uv[2 * v + 1] : 0);
        const s = infl.reduce((a, x) => a + x[1], 0) || 1;
        for (let k = 0; k < 4; k++) {
          J.push(infl[k]?.[0] ?? 0);
          W.push(infl[k] ? infl[k][1] / s : 0);
        }
      }
      const m = prim.material !== undefined ? (materials[prim.material] ?? defaultMat) : defaultMat;
      let mi = mats.indexOf(m);
      if (mi < 0) {
        mi = mats.length;
        mats.push(m);
      }
      groups.push({ start: I.length, count: idx.length - (idx.length % 3), material: mi });
      for (let k = 0; k + 2 < idx.length; k += 3) I.push(base + idx[k], base + idx[k + 1], base + idx[k + 2]);
    }
    if (!P.length) return;
    const positions = Float32Array.from(P);
    const indices = Uint32Array.from(I);
    const normals = Float32Array.from(N);
    if (needNormals) computeNormals(positions, indices, normals);
    meshes.push({
      name: gm.name ?? n.name ?? `Mesh${meshes.length}`,
      positions,
      normals,
      uvs: Float32Array.from(U),
      indices,
      joints: Uint32Array.from(J),
      weights: Float32Array.from(W),
      materials: mats,
      groups,
    });
  });

  // VRM humanoid.
  let vrm: ImportedScene['vrm'];
  const ext = json.extensions ?? {};
  const v1 = ext.VRMC_vrm as
    | { humanoid?: { humanBones?: Record<string, { node: number }> }; meta?: { name?: string } }
    | undefined;
  const v0 = ext.VRM as
    | { humanoid?: { humanBones?: { bone: string; node: number }[] }; meta?: { title?: string } }
    | undefined;
  if (v1?.humanoid?.humanBones) {
    const hb: Record<string, number> = {};
    for (const [k, v] of Object.entries(v1.humanoid.humanBones))
      if (typeof v?.node === 'number') hb[k] = v.node;
    vrm = { version: '1', humanBones: hb, ...(v1.meta?.name ? { title: v1.meta.name } : {}) };
  } else if (v0?.humanoid?.humanBones) {
    const hb: Record<string, number> = {};
    for (const b of v0.humanoid.humanBones) if (typeof b?.node === 'number' && b.bone) hb[b.bone] = b.node;
    vrm = { version: '0', humanBones: hb, ...(v0.meta?.title ? { title: v0.meta.title } : {}) };
  }
  if (vrm) for (const n of Object.values(vrm.humanBones)) if (n >= 0 && n < gnodes.length) isBone[n] = 1;
  const nodes: SceneNode[] = gnodes.map((n, i) => ({
    name: n.name ?? `node${i}`,
    parent: parent[i],
    world: worldOf(i),
    bone: isBone[i] === 1,
  }));
  return {
    format: vrm ? (vrm.version === '0' ? 'vrm0' : 'vrm1') : glb ? 'glb' : 'gltf',
    metresPerUnit: 1,
    declaredUp: [0, 1, 0],
    nodes,
    meshes,
    ...(vrm ? { vrm } : {}),
    warnings,
  };
}

function dataUri(uri: string | undefined): Uint8Array | null {
  const m = /^data:[^;]*;base64,(.*)$/.exec(uri ?? '');
  return m ? Uint8Array.from(Buffer.from(m[1], 'base64')) : null;
}
