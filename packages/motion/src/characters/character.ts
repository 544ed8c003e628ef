/**
 * An uploaded character (FBX binary/ASCII, GLB/glTF, VRM 0.x/1.0) as a document in canonical space: its skeleton
 * (rest world position and rotation of every bone, metres, Y up, facing +Z, left = +X, feet on y = 0), its skinned
 * meshes bound at that rest with their own materials, the automatic mapping to the canonical skeleton
 * (`mapping.ts`) and the detected rest pose (T, A or I: the arms' angle below the horizontal).
 *
 * Orientation: the file's declared up axis first; then, when the mapping finds them, the hips→head direction
 * gives up and the right→left thigh (or upper-arm) direction gives left; without names, the feet's toe direction
 * gives the front. So Z-up Unreal files, VRM 0.x (facing -Z) and mirrored exports all come out facing +Z.
 */

import { rotation4 } from '../mat4.ts';
import { cross, dot, normalize, type Quat, qFromMatrix, qMul, type Vec3 } from '../math.ts';
import type { MeshMaterial, SkinnedMesh } from '../rigs/types.ts';
import { isAsciiFbx, isBinaryFbx } from './import/fbx-parse.ts';
import { importFbx } from './import/fbx-scene.ts';
import { importGltf, isGlb, isGltfJson } from './import/gltf-scene.ts';
import { type CharacterFormat, CharacterImportError, type ImportedScene } from './import/scene.ts';
import { autoMap, CANONICAL_JOINTS, type JointMapping, type MappableBone } from './mapping.ts';

export { type CharacterFormat, CharacterImportError } from './import/scene.ts';

export interface CharacterBone {
  name: string;
  /** Parent bone index, -1 for the top bone (exactly one; parents come first). */
  parent: number;
  /** Rest world position (canonical metres). */
  position: Vec3;
  /** Rest world rotation (canonical axes). */
  rotation: Quat;
  /** Some vertex is weighted to it. */
  weighted: boolean;
}

export interface RestPoseInfo {
  kind: 'T' | 'A' | 'I';
  /** Mean angle of the arms below the horizontal, degrees. */
  armDownDeg: number;
  left?: number;
  right?: number;
}

export interface CharacterModel {
  format: CharacterFormat;
  bones: CharacterBone[];
  meshes: SkinnedMesh[];
  /** Standing height: top of the meshes (or bones) above the floor, metres. */
  height: number;
  mapping: JointMapping;
  restPose: RestPoseInfo;
  vrm?: { version: '0' | '1'; humanBones: Record<string, string>; title?: string };
  /**
   * The file's own length unit when it is not the metre/centimetre its header declares: a Roblox R15 file in studs
   * (its header says centimetres, its character is 5–6 units tall). Read as 1 stud = 0.28 m; FBX files of this
   * character are written back in studs (`unitsPerMetre` 100/28, UnitScaleFactor 28, as the R15 export rig does).
   */
  units?: { name: 'stud'; unitsPerMetre: number };
  warnings: string[];
  stats: { vertices: number; triangles: number; materials: number; bones: number };
}

/** Which format the bytes are, by content (not by file name). */
export function sniffCharacterFormat(b: Uint8Array): 'fbx' | 'fbx-ascii' | 'glb' | 'gltf' | null {
  if (isBinaryFbx(b)) return 'fbx';
  if (isGlb(b)) return 'glb';
  if (isAsciiFbx(b)) return 'fbx-ascii';
  if (isGltfJson(b)) return 'gltf';
  return null;
}

export function importScene(bytes: Uint8Array): ImportedScene {
  const f = sniffCharacterFormat(bytes);
  if (f === 'fbx' || f === 'fbx-ascii') return importFbx(bytes);
  if (f === 'glb' || f === 'gltf') return importGltf(bytes);
  throw new CharacterImportError('not an FBX, glTF/GLB or VRM file', 'format');
}

/** Imports a character file into canonical space and maps its skeleton. */
export function importCharacter(bytes: Uint8Array): CharacterModel {
  return characterFromScene(importScene(bytes));
}

const rowsToQuat = (l: Vec3, u: Vec3, f: Vec3): Quat => qFromMatrix([...l, ...u, ...f]);
const applyRows = (R: number[], p: Vec3): Vec3 => [
  R[0] * p[0] + R[1] * p[1] + R[2] * p[2],
  R[3] * p[0] + R[4] * p[1] + R[5] * p[2],
  R[6] * p[0] + R[7] * p[1] + R[8] * p[2],
];

export function characterFromScene(scene: ImportedScene): CharacterModel {
  const warnings = [...scene.warnings];
  const nodes = scene.nodes;
  // Skeleton: bone nodes, parented to their nearest bone ancestor, parents first.
  const boneOf = new Int32Array(nodes.length).fill(-1);
  const order: number[] = [];
  const depth = (i: number): number => {
    let d = 0;
    for (let p = nodes[i].parent; p >= 0; p = nodes[p].parent) d++;
    return d;
  };
  nodes
    .map((n, i) => ({ n, i, d: depth(i) }))
    .filter((x) => x.n.bone)
    .sort((a, b) => a.d - b.d || a.i - b.i)
    .forEach((x) => {
      boneOf[x.i] = order.length;
      order.push(x.i);
    });
  if (order.length < 10)
    throw new CharacterImportError(
      `the file has ${order.length} skeleton joints; a rigged humanoid (at least hips, spine, head, arms and legs) is needed`,
      'no-skeleton',
    );
  const nearestBone = (i: number): number => {
    for (let p = i; p >= 0; p = nodes[p].parent) if (boneOf[p] >= 0) return boneOf[p];
    return -1;
  };
  const names = new Set<string>();
  const m = scene.metresPerUnit;
  const raw = order.map((ni) => {
    let name = nodes[ni].name || 'bone';
    while (names.has(name)) name = `${name}_`;
    names.add(name);
    const w = nodes[ni].world;
    return {
      name,
      parent: nodes[ni].parent >= 0 ? nearestBone(nodes[ni].parent) : -1,
      position: [w[12] * m, w[13] * m, w[14] * m] as Vec3,
      rotation: rotation4(w),
    };
  });
  const tops = raw.filter((b) => b.parent < 0).length;
  let bonesRaw = raw;
  let shift = 0;
  if (tops > 1) {
    // Several top joints (a skeleton plus loose IK/prop roots): gather them under one root at the origin.
    bonesRaw = [
      {
        name: names.has('CharacterRoot') ? 'CharacterRoot_' : 'CharacterRoot',
        parent: -1,
        position: [0, 0, 0],
        rotation: [0, 0, 0, 1],
      },
      ...raw.map((b) => ({ ...b, parent: b.parent + 1 })),
    ];
    shift = 1;
  }
  if (!scene.meshes.length)
    throw new CharacterImportError('the file has no mesh to show the character with', 'no-mesh');
  const weighted = new Uint8Array(bonesRaw.length);
  for (const sm of scene.meshes)
    for (let k = 0; k < sm.joints.length; k++)
      if (sm.weights[k] > 0) {
        const b = nearestBone(sm.joints[k]);
        if (b >= 0) weighted[b + shift] = 1;
      }

  // Orientation: declared up → +Y first.
  const du = normalize(scene.declaredUp as Vec3);
  const ref: Vec3 = Math.abs(du[2]) < 0.9 ? [0, 0, 1] : [0, -1, 0];
  const f0 = normalize(cross(cross(du, ref), du));
  // rows: left, up, front with left = up × front
  const l0 = cross(du, f0);
  let R = [...l0, ...du, ...f0];
  const vrmNames: Record<string, string> | undefined = scene.vrm
    ? Object.fromEntries(
        Object.entries(scene.vrm.humanBones)
          .map(([role, ni]) => [role, boneOf[ni] >= 0 ? bonesRaw[boneOf[ni] + shift].name : ''])
          .filter(([, n]) => n),
      )
    : undefined;
  const mappable = (rot: number[]): MappableBone[] =>
    bonesRaw.map((b, i) => ({
      name: b.name,
      parent: b.parent,
      position: applyRows(rot, b.position),
      weighted: weighted[i] === 1,
    }));
  const vrmArg = scene.vrm && vrmNames ? { version: scene.vrm.version, humanBones: vrmNames } : undefined;
  const pre = autoMap(mappable(R), vrmArg);
  const pos = (rot: number[], c: string): Vec3 | null => {
    const n = pre.bones[c];
    const i = bonesRaw.findIndex((b) => b.name === n);
    return i >= 0 ? applyRows(rot, bonesRaw[i].position) : null;
  };
  const byName = (c: string) => pre.method[c] === 'name' || pre.method[c] === 'vrm';
  const hips = pos(R, 'hips');
  const top = pos(R, 'head') ?? pos(R, 'neck') ?? pos(R, 'spine2');
  let up: Vec3 = [0, 1, 0];
  if (hips && top && Math.hypot(top[0] - hips[0], top[1] - hips[1], top[2] - hips[2]) > 1e-6)
    up = normalize([top[0] - hips[0], top[1] - hips[1], top[2] - hips[2]]);
  let left: Vec3 | null = null;
  for (const [a, b] of [
    ['leftThigh', 'rightThigh'],
    ['leftUpperArm', 'rightUpperArm'],
  ])
    if (!left && byName(a) && byName(b)) {
      const pa = pos(R, a) as Vec3;
      const pb = pos(R, b) as Vec3;
      left = [pa[0] - pb[0], pa[1] - pb[1], pa[2] - pb[2]];
    }
  if (!left) {
    // Names do not tell the sides: the toes point to the front.
    let front: Vec3 = [0, 0, 0];
    for (const s of ['left', 'right']) {
      const f = pos(R, `${s}Foot`);
      const t = pos(R, `${s}Toes`);
      if (f && t) front = [front[0] + t[0] - f[0], front[1] + t[1] - f[1], front[2] + t[2] - f[2]];
    }
    const fh: Vec3 = [
      front[0] - dot(front, up) * up[0],
      front[1] - dot(front, up) * up[1],
      front[2] - dot(front, up) * up[2],
    ];
    if (Math.hypot(...fh) > 1e-6) {
      left = cross(up, normalize(fh));
      warnings.push('bone names not recognised: sides taken from the feet (toes point to the front)');
    } else left = [1, 0, 0];
  }
  const lh = normalize([
    left[0] - dot(left, up) * up[0],
    left[1] - dot(left, up) * up[1],
    left[2] - dot(left, up) * up[2],
  ]);
  const fr = cross(lh, up);
  const R1 = [...lh, ...up, ...fr];
  // R_total = R1 · R (both row-major).
  const Rt = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  for (let r = 0; r < 3; r++)
    for (let c = 0; c < 3; c++) for (let k = 0; k < 3; k++) Rt[3 * r + c] += R1[3 * r + k] * R[3 * k + c];
  R = Rt;
  const qR = rowsToQuat([R[0], R[1], R[2]], [R[3], R[4], R[5]], [R[6], R[7], R[8]]);

  // Meshes in canonical space; the floor at the lowest vertex.
  let floor = Number.POSITIVE_INFINITY;
  let topY = Number.NEGATIVE_INFINITY;
  const meshPos = scene.meshes.map((sm) => {
    const out = new Float32Array(sm.positions.length);
    for (let i = 0; i < sm.positions.length; i += 3) {
      const p = applyRows(R, [sm.positions[i] * m, sm.positions[i + 1] * m, sm.positions[i + 2] * m]);
      out[i] = p[0];
      out[i + 1] = p[1];
      out[i + 2] = p[2];
      floor = Math.min(floor, p[1]);
      topY = Math.max(topY, p[1]);
    }
    return out;
  });
  const bones: CharacterBone[] = bonesRaw.map((b, i) => {
    const p = applyRows(R, b.position);
    return {
      name: b.name,
      parent: b.parent,
      position: [p[0], p[1] - floor, p[2]],
      rotation: qMul(qR, b.rotation),
      weighted: weighted[i] === 1,
    };
  });
  const jointNames = bones.map((b) => b.name);
  let vertices = 0;
  let triangles = 0;
  const matSet = new Set<MeshMaterial>();
  const meshes: SkinnedMesh[] = scene.meshes.map((sm, k) => {
    const positions = meshPos[k];
    for (let i = 1; i < positions.length; i += 3) positions[i] -= floor;
    const normals = new Float32Array(sm.normals.length);
    for (let i = 0; i < sm.normals.length; i += 3)
      normals.set(applyRows(R, [sm.normals[i], sm.normals[i + 1], sm.normals[i + 2]]), i);
    const joints = new Uint16Array(sm.joints.length);
    for (let i = 0; i < sm.joints.length; i++) {
      const b = nearestBone(sm.joints[i]);
      joints[i] = b >= 0 ? b + shift : 0;
    }
    vertices += positions.length / 3;
    triangles += sm.indices.length / 3;
    for (const mt of sm.materials) matSet.add(mt);
    return {
      name: sm.name,
      positions,
      normals,
      uvs: sm.uvs,
      indices: sm.indices,
      joints,
      weights: sm.weights,
      jointNames,
      materials: sm.materials,
      groups: sm.groups,
    };
  });
  const mapping = autoMap(
    bones.map((b) => ({ name: b.name, parent: b.parent, position: b.position, weighted: b.weighted })),
    vrmArg,
  );
  // Roblox R15 in studs: a body of 4–8 "centimetres" by its header is 4–8 studs tall (1 stud = 0.28 m).
  let height = topY - floor;
  let units: CharacterModel['units'];
  const fileUnitsTall = height / m;
  if (mapping.scheme === 'r15' && height < 0.5 && fileUnitsTall > 3 && fileUnitsTall < 10) {
    const k = STUD_M / m;
    for (const b of bones) b.position = [b.position[0] * k, b.position[1] * k, b.position[2] * k];
    for (const mesh of meshes) for (let i = 0; i < mesh.positions.length; i++) mesh.positions[i] *= k;
    height *= k;
    units = { name: 'stud', unitsPerMetre: 1 / STUD_M };
    warnings.push(
      `Roblox R15 in studs (${fileUnitsTall.toFixed(1)} units tall): read as 1 stud = 0.28 m (${height.toFixed(2)} m)`,
    );
  }
  const model: CharacterModel = {
    format: scene.format,
    bones,
    meshes,
    height,
    ...(units ? { units } : {}),
    mapping,
    restPose: detectRestPose(bones, mapping),
    ...(scene.vrm && vrmNames
      ? {
          vrm: {
            version: scene.vrm.version,
            humanBones: vrmNames,
            ...(scene.vrm.title ? { title: scene.vrm.title } : {}),
          },
        }
      : {}),
    warnings,
    stats: { vertices, triangles, materials: matSet.size, bones: bones.length },
  };
  return model;
}

/** Metres per Roblox stud (rigs.md: 1 stud = 28 cm). */
const STUD_M = 0.28;

/** Rest pose from the arms: T below 20° under the horizontal, I above 70°, A between. */
export function detectRestPose(bones: readonly CharacterBone[], mapping: JointMapping): RestPoseInfo {
  const at = (c: string) => bones.find((b) => b.name === mapping.bones[c])?.position;
  const angles: Record<string, number> = {};
  for (const s of ['left', 'right']) {
    const a = at(`${s}UpperArm`);
    const e = at(`${s}Hand`) ?? at(`${s}Forearm`);
    if (!a || !e) continue;
    const d = normalize([e[0] - a[0], e[1] - a[1], e[2] - a[2]]);
    angles[s] = (Math.asin(Math.max(-1, Math.min(1, -d[1]))) * 180) / Math.PI;
  }
  const vals = Object.values(angles);
  const mean = vals.length ? vals.reduce((x, y) => x + y, 0) / vals.length : 0;
  const kind = mean < 20 ? 'T' : mean > 70 ? 'I' : 'A';
  return { kind, armDownDeg: Math.round(mean * 10) / 10, ...angles };
}

/**
 * Canonical joints the mapping lacks that the rig may have (body joints first): neither mapped nor absent by
 * design (`mapping.absent`, see `absentJoints`).
 */
export function missingJoints(mapping: JointMapping, withFingers: boolean): string[] {
  const absent = new Set(mapping.absent ?? []);
  return CANONICAL_JOINTS.filter(
    (c) =>
      (withFingers || !/(Thumb|Index|Middle|Ring|Pinky)\d$/.test(c)) && !mapping.bones[c] && !absent.has(c),
  );
}

/** Canonical joints the rig does not have (by design: no bone where they would be), body joints first. */
export function absentFromRig(mapping: JointMapping, withFingers: boolean): string[] {
  const absent = new Set(mapping.absent ?? []);
  return CANONICAL_JOINTS.filter(
    (c) => (withFingers || !/(Thumb|Index|Middle|Ring|Pinky)\d$/.test(c)) && absent.has(c),
  );
}
