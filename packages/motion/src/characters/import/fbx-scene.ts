/**
 * FBX node tree → `ImportedScene`: models and their rest world matrices (the full FBX transform chain: translation,
 * rotation offset/pivot, pre-rotation, Lcl Rotation in its rotation order, post-rotation, scaling offset/pivot,
 * Lcl Scaling), skeleton joints (LimbNode/Root models and every model a skin cluster binds), meshes posed at that
 * rest through their skin clusters (Σ w · boneWorld · TransformLink⁻¹ · Transform · v, so a file whose bind pose
 * differs from its rest pose still comes out consistent), normals, UVs, material groups, diffuse colours and
 * embedded PNG textures.
 */

import { compose4, invert4, mul4, transformDir4, transformPoint4 } from '../../mat4.ts';
import { type EulerOrder, qFromEuler } from '../../math.ts';
import type { MeshMaterial } from '../../rigs/types.ts';
import {
  arr,
  child,
  childrenNamed,
  type FbxNode,
  num,
  objectName,
  parseFbx,
  properties,
} from './fbx-parse.ts';
import {
  CharacterImportError,
  type ImportedScene,
  type SceneMesh,
  type SceneNode,
  topInfluences,
} from './scene.ts';

const ORDERS: EulerOrder[] = ['ZYX', 'YZX', 'XZY', 'ZXY', 'YXZ', 'XYZ'];
const DEG = Math.PI / 180;

/** FBX Euler (degrees, eEulerXYZ … by enum) → quaternion. FBX "XYZ" applies X first: M = Rz · Ry · Rx. */
function fbxEuler(v: number[], order = 0) {
  const o = ORDERS[order] ?? 'ZYX';
  const idx = (c: string) => (c === 'X' ? 0 : c === 'Y' ? 1 : 2);
  return qFromEuler([v[idx(o[0])] * DEG, v[idx(o[1])] * DEG, v[idx(o[2])] * DEG], o);
}

const vec = (p: Map<string, unknown[]>, k: string, d: number[]): number[] => {
  const v = p.get(k);
  if (!v || v.length < 3) return d;
  return [num(v[0] as number), num(v[1] as number), num(v[2] as number)];
};

function localMatrix(model: FbxNode): Float64Array {
  const p = properties(model) as Map<string, unknown[]>;
  const T = vec(p, 'Lcl Translation', [0, 0, 0]);
  const R = vec(p, 'Lcl Rotation', [0, 0, 0]);
  const S = vec(p, 'Lcl Scaling', [1, 1, 1]);
  const order = num((p.get('RotationOrder') ?? [0])[0] as number) || 0;
  const pre = vec(p, 'PreRotation', [0, 0, 0]);
  const post = vec(p, 'PostRotation', [0, 0, 0]);
  const Roff = vec(p, 'RotationOffset', [0, 0, 0]);
  const Rp = vec(p, 'RotationPivot', [0, 0, 0]);
  const Soff = vec(p, 'ScalingOffset', [0, 0, 0]);
  const Sp = vec(p, 'ScalingPivot', [0, 0, 0]);
  const tr = (v: number[]) => compose4(v, [0, 0, 0, 1], [1, 1, 1]);
  const rot = (q: number[]) => compose4([0, 0, 0], q, [1, 1, 1]);
  let m = tr(T);
  m = mul4(m, tr(Roff));
  m = mul4(m, tr(Rp));
  m = mul4(m, rot(fbxEuler(pre, 0)));
  m = mul4(m, rot(fbxEuler(R, order)));
  m = mul4(m, invert4(rot(fbxEuler(post, 0))));
  m = mul4(m, tr([-Rp[0], -Rp[1], -Rp[2]]));
  m = mul4(m, tr(Soff));
  m = mul4(m, tr(Sp));
  m = mul4(m, compose4([0, 0, 0], [0, 0, 0, 1], S));
  m = mul4(m, tr([-Sp[0], -Sp[1], -Sp[2]]));
  return m;
}

function geometricMatrix(model: FbxNode): Float64Array {
  const p = properties(model) as Map<string, unknown[]>;
  const T = vec(p, 'GeometricTranslation', [0, 0, 0]);
  const R = vec(p, 'GeometricRotation', [0, 0, 0]);
  const S = vec(p, 'GeometricScaling', [1, 1, 1]);
  return compose4(T, fbxEuler(R, 0), S);
}

const idOf = (p: unknown): string => String(p);

function matDist(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  let scale = 1e-9;
  for (let i = 0; i < 16; i++) {
    s += (a[i] - b[i]) ** 2;
    scale += b[i] ** 2;
  }
  return s / scale;
}

const PNG = [0x89, 0x50, 0x4e, 0x47];

export function importFbx(bytes: Uint8Array): ImportedScene {
  let parsed: ReturnType<typeof parseFbx>;
  try {
    parsed = parseFbx(bytes);
  } catch (e) {
    throw new CharacterImportError(`FBX: ${(e as Error).message}`, 'format');
  }
  const { root, version } = parsed;
  const ascii = !(bytes[0] === 0x4b && bytes[1] === 0x61);
  if (version < 7000 && ascii)
    throw new CharacterImportError(`FBX ${version}: ASCII FBX older than 7.0 is not supported`, 'format');
  const warnings: string[] = [];
  const gs = properties(child(root, 'GlobalSettings')) as Map<string, unknown[]>;
  const unit = num((gs.get('UnitScaleFactor') ?? [1])[0] as number) || 1;
  const upAxis = num((gs.get('UpAxis') ?? [1])[0] as number);
  const upSign = num((gs.get('UpAxisSign') ?? [1])[0] as number) || 1;
  const declaredUp: [number, number, number] = [0, 0, 0];
  declaredUp[Number.isFinite(upAxis) ? upAxis : 1] = upSign;

  const objects = child(root, 'Objects');
  if (!objects) throw new CharacterImportError('FBX: no Objects section', 'format');
  const byId = new Map<string, FbxNode>();
  for (const o of objects.children) if (o.props.length) byId.set(idOf(o.props[0]), o);
  // Connections: child → parents (OO), and parent → children in file order.
  const parentsOf = new Map<string, string[]>();
  const childrenOf = new Map<string, { id: string; prop?: string }[]>();
  for (const c of childrenNamed(child(root, 'Connections'), 'C')) {
    const kind = c.props[0];
    const a = idOf(c.props[1]);
    const b = idOf(c.props[2]);
    if (!parentsOf.has(a)) parentsOf.set(a, []);
    parentsOf.get(a)?.push(b);
    if (!childrenOf.has(b)) childrenOf.set(b, []);
    childrenOf.get(b)?.push({ id: a, ...(kind === 'OP' ? { prop: String(c.props[3]) } : {}) });
  }
  const kids = (id: string, name?: string) =>
    (childrenOf.get(id) ?? [])
      .map((x) => ({ ...x, node: byId.get(x.id) }))
      .filter((x) => x.node && (!name || x.node.name === name));

  // Models and their hierarchy.
  const models = objects.children.filter((o) => o.name === 'Model');
  const modelIndex = new Map<string, number>();
  for (let i = 0; i < models.length; i++) modelIndex.set(idOf(models[i].props[0]), i);
  const parent = models.map((m) => {
    for (const p of parentsOf.get(idOf(m.props[0])) ?? []) {
      const pi = modelIndex.get(p);
      if (pi !== undefined) return pi;
    }
    return -1;
  });
  const world: Float64Array[] = new Array(models.length);
  const visiting = new Set<number>();
  const worldOf = (i: number): Float64Array => {
    if (world[i]) return world[i];
    if (visiting.has(i)) throw new CharacterImportError('FBX: cyclic model hierarchy', 'format');
    visiting.add(i);
    const l = localMatrix(models[i]);
    world[i] = parent[i] >= 0 ? mul4(worldOf(parent[i]), l) : l;
    return world[i];
  };
  const type = (m: FbxNode) => String(m.props[2] ?? '');
  const isBone = models.map((m) => type(m) === 'LimbNode' || type(m) === 'Root');

  // Skins: cluster → bone model, geometry → skin.
  const meshes: SceneMesh[] = [];
  const geometries = objects.children.filter((o) => o.name === 'Geometry' && String(o.props[2]) === 'Mesh');
  for (const geo of geometries) {
    const gid = idOf(geo.props[0]);
    const modelId = (parentsOf.get(gid) ?? []).find((p) => modelIndex.has(p));
    if (modelId === undefined) continue;
    const mi = modelIndex.get(modelId) as number;
    const meshModel = models[mi];
    const vertsSrc = arr(child(geo, 'Vertices'));
    const pvi = arr(child(geo, 'PolygonVertexIndex'));
    const nv = vertsSrc.length / 3;
    if (!nv || !pvi.length) continue;
    const meshWorld = mul4(worldOf(mi), geometricMatrix(meshModel));
    // Influences per control point: [model index, weight, per-cluster skin matrix].
    const infl: [number, number][][] = Array.from({ length: nv }, () => []);
    const skinMats = new Map<number, Float64Array>();
    for (const skin of kids(gid, 'Deformer')) {
      for (const cl of kids(skin.id, 'Deformer')) {
        const clusterNode = cl.node as FbxNode;
        const boneId = kids(cl.id, 'Model')[0]?.id;
        if (boneId === undefined) continue;
        const bi = modelIndex.get(boneId);
        if (bi === undefined) continue;
        isBone[bi] = true;
        const idx = arr(child(clusterNode, 'Indexes'));
        const w = arr(child(clusterNode, 'Weights'));
        const Tm = arr(child(clusterNode, 'Transform'));
        const TL = arr(child(clusterNode, 'TransformLink'));
        // The mesh's world matrix at bind: the FBX SDK stores it as Transform; Blender stores it relative to the
        // bone (Transform = TransformLink⁻¹ · mesh). Take the reading closer to the mesh's own matrix.
        let meshBind: ArrayLike<number> = meshWorld;
        if (Tm.length === 16 && TL.length === 16) {
          const rel = mul4(TL, Tm);
          meshBind = matDist(Tm, meshWorld) <= matDist(rel, meshWorld) ? Tm : rel;
        }
        const M = TL.length === 16 ? mul4(mul4(worldOf(bi), invert4(TL)), meshBind) : meshWorld;
        skinMats.set(bi, M);
        for (let k = 0; k < idx.length; k++) {
          const v = idx[k];
          if (v >= 0 && v < nv && w[k] > 0) infl[v].push([bi, w[k]]);
        }
      }
    }
    const skinned = skinMats.size > 0;
    // Posed control points and their blended matrices (for normals).
    const cp = new Float64Array(3 * nv);
    const cpMat: (Float64Array | null)[] = new Array(nv).fill(null);
    const joints = new Uint32Array(4 * nv);
    const weights = new Float32Array(4 * nv);
    for (let v = 0; v < nv; v++) {
      const x = vertsSrc[3 * v];
      const y = vertsSrc[3 * v + 1];
      const z = vertsSrc[3 * v + 2];
      const top = topInfluences(infl[v]);
      let M: Float64Array;
      if (skinned && top.length) {
        M = new Float64Array(16);
        for (const [b, w] of top) {
          const S = skinMats.get(b) as Float64Array;
          for (let k = 0; k < 16; k++) M[k] += S[k] * w;
        }
        top.forEach(([b, w], k) => {
          joints[4 * v + k] = b;
          weights[4 * v + k] = w;
        });
      } else {
        M = meshWorld;
        // Unskinned vertex of a skinned mesh: rigid on the mesh's parent bone if it is one.
        const pb = parent[mi];
        joints[4 * v] = pb >= 0 ? pb : mi;
        weights[4 * v] = 1;
      }
      const p = transformPoint4(M, x, y, z);
      cp.set(p, 3 * v);
      cpMat[v] = M;
    }
    if (!skinned) {
      // A rigid part (Roblox R15 style): bound to the bone it hangs under.
      let b = mi;
      while (b >= 0 && !isBone[b]) b = parent[b];
      for (let v = 0; v < nv; v++) joints[4 * v] = b >= 0 ? b : mi;
      if (b >= 0) isBone[b] = true;
    }
    // Layers.
    const layer = (name: string, data: string, index: string) => {
      const le = child(geo, name);
      if (!le) return null;
      const map = String(child(le, 'MappingInformationType')?.props[0] ?? '');
      const ref = String(child(le, 'ReferenceInformationType')?.props[0] ?? 'Direct');
      return { map, ref, data: arr(child(le, data)), index: arr(child(le, index)) };
    };
    const nl = layer('LayerElementNormal', 'Normals', 'NormalsIndex');
    const ul = layer('LayerElementUV', 'UV', 'UVIndex');
    const ml = layer('LayerElementMaterial', 'Materials', 'MaterialsIndex');
    const pick = (l: NonNullable<ReturnType<typeof layer>>, corner: number, vertex: number, poly: number) => {
      let i: number;
      if (l.map === 'ByPolygonVertex') i = corner;
      else if (l.map === 'ByPolygon') i = poly;
      else if (l.map === 'AllSame') i = 0;
      else i = vertex; // ByVertice / ByVertex / ByControlPoint
      if (l.ref === 'IndexToDirect' || l.ref === 'Index') i = l.index[i] ?? 0;
      return i;
    };
    // Materials of the mesh model, in connection order.
    const matNodes = kids(idOf(meshModel.props[0]), 'Material').map((x) => x.node as FbxNode);
    const materials: MeshMaterial[] = matNodes.map((mn) => materialOf(mn, kids, warnings));
    if (!materials.length) materials.push({ name: 'default', baseColor: [0.8, 0.8, 0.8, 1] });
    // Corners → vertices (deduplicated), triangles by material.
    const key = new Map<string, number>();
    const P: number[] = [];
    const N: number[] = [];
    const U: number[] = [];
    const J: number[] = [];
    const W: number[] = [];
    const tris: number[][] = materials.map(() => []);
    let poly = 0;
    let start = 0;
    for (let c = 0; c < pvi.length; c++) {
      if (pvi[c] >= 0) continue;
      const corners: number[] = [];
      for (let k = start; k <= c; k++) {
        const v = k === c ? -pvi[k] - 1 : pvi[k];
        const ni = nl ? pick(nl, k, v, poly) : -1;
        const ui = ul ? pick(ul, k, v, poly) : -1;
        const id = `${v}/${ni}/${ui}`;
        let out = key.get(id);
        if (out === undefined) {
          out = P.length / 3;
          key.set(id, out);
          P.push(cp[3 * v], cp[3 * v + 1], cp[3 * v + 2]);
          if (nl && ni >= 0) {
            const M = cpMat[v] as Float64Array;
            const n = transformDir4(M, nl.data[3 * ni], nl.data[3 * ni + 1], nl.data[3 * ni + 2]);
            const l = Math.hypot(n[0], n[1], n[2]) || 1;
            N.push(n[0] / l, n[1] / l, n[2] / l);
          } else N.push(0, 0, 0);
          if (ul && ui >= 0) U.push(ul.data[2 * ui], 1 - ul.data[2 * ui + 1]);
          else U.push(0, 0);
          for (let k2 = 0; k2 < 4; k2++) {
            J.push(joints[4 * v + k2]);
            W.push(weights[4 * v + k2]);
          }
        }
        corners.push(out);
      }
      // The material layer's array holds material indices itself (its "IndexToDirect" has no index array).
      const slot = ml ? (ml.map === 'AllSame' ? 0 : ml.map === 'ByPolygon' ? poly : -1) : -1;
      const mat = slot >= 0 ? Math.min(materials.length - 1, Math.max(0, ml?.data[slot] ?? 0)) : 0;
      for (let k = 1; k + 1 < corners.length; k++) tris[mat].push(corners[0], corners[k], corners[k + 1]);
      poly++;
      start = c + 1;
    }
    const indices: number[] = [];
    const groups: SceneMesh['groups'] = [];
    tris.forEach((t, m) => {
      if (!t.length) return;
      groups.push({ start: indices.length, count: t.length, material: m });
      for (const x of t) indices.push(x);
    });
    const normals = Float32Array.from(N);
    if (!nl) computeNormals(Float32Array.from(P), Uint32Array.from(indices), normals);
    meshes.push({
      name: objectName(meshModel.props[1]) || objectName(geo.props[1]) || 'Mesh',
      positions: Float32Array.from(P),
      normals,
      uvs: Float32Array.from(U),
      indices: Uint32Array.from(indices),
      joints: Uint32Array.from(J),
      weights: Float32Array.from(W),
      materials,
      groups,
    });
  }
  const nodes: SceneNode[] = models.map((m, i) => ({
    name: objectName(m.props[1]) || `node${i}`,
    parent: parent[i],
    world: worldOf(i),
    bone: isBone[i],
  }));
  return {
    format: ascii ? 'fbx-ascii' : 'fbx',
    metresPerUnit: unit / 100,
    declaredUp,
    nodes,
    meshes,
    warnings,
  };
}

function materialOf(
  mn: FbxNode,
  kids: (id: string, name?: string) => { id: string; prop?: string; node?: FbxNode }[],
  warnings: string[],
): MeshMaterial {
  const p = properties(mn) as Map<string, unknown[]>;
  const c = vec(p, 'DiffuseColor', vec(p, 'Diffuse', [0.8, 0.8, 0.8]));
  const factor = num((p.get('DiffuseFactor') ?? [1])[0] as number);
  const f = Number.isFinite(factor) && factor > 0 ? Math.min(1, factor) : 1;
  const opacity = num((p.get('Opacity') ?? [1])[0] as number);
  const name = objectName(mn.props[1]) || 'Material';
  const mat: { -readonly [K in keyof MeshMaterial]: MeshMaterial[K] } = {
    name,
    baseColor: [
      c[0] * f,
      c[1] * f,
      c[2] * f,
      Number.isFinite(opacity) ? Math.min(1, Math.max(0, opacity)) : 1,
    ],
  };
  const tex = kids(idOf(mn.props[0]), 'Texture').find((t) => !t.prop || /Diffuse|Base/i.test(t.prop));
  if (tex?.node) {
    const video = kids(tex.id, 'Video')[0]?.node;
    const content = video ? child(video, 'Content')?.props[0] : undefined;
    const file = String(
      child(tex.node, 'RelativeFilename')?.props[0] ?? child(tex.node, 'FileName')?.props[0] ?? '',
    );
    const base = file.split(/[\\/]/).pop() || `${name}.png`;
    if (content instanceof Uint8Array && content.length > 8 && PNG.every((b, i) => content[i] === b)) {
      mat.texture = { fileName: base.replace(/\.[^.]*$/, '.png'), png: new Uint8Array(content) };
      // A texture replaces the colour as the base (glTF multiplies them).
      mat.baseColor = [1, 1, 1, mat.baseColor[3]];
    } else if (content instanceof Uint8Array && content.length > 0)
      warnings.push(`texture ${base}: only embedded PNG textures are kept (the colour is used)`);
    else if (file) warnings.push(`texture ${base}: not embedded in the file (the colour is used)`);
  }
  return mat;
}

/** Area-weighted vertex normals. */
export function computeNormals(P: Float32Array, I: Uint32Array, out: Float32Array): void {
  out.fill(0);
  for (let t = 0; t < I.length; t += 3) {
    const a = I[t];
    const b = I[t + 1];
    const c = I[t + 2];
    const ux = P[3 * b] - P[3 * a];
    const uy = P[3 * b + 1] - P[3 * a + 1];
    const uz = P[3 * b + 2] - P[3 * a + 2];
    const vx = P[3 * c] - P[3 * a];
    const vy = P[3 * c + 1] - P[3 * a + 1];
    const vz = P[3 * c + 2] - P[3 * a + 2];
    const nx = uy * vz - uz * vy;
    const ny = uz * vx - ux * vz;
    const nz = ux * vy - uy * vx;
    for (const v of [a, b, c]) {
      out[3 * v] += nx;
      out[3 * v + 1] += ny;
      out[3 * v + 2] += nz;
    }
  }
  for (let v = 0; v < out.length; v += 3) {
    const l = Math.hypot(out[v], out[v + 1], out[v + 2]) || 1;
    out[v] /= l;
    out[v + 1] /= l;
    out[v + 2] /= l;
  }
}
