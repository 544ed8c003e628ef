/**
 * The MMD page's viewer (issue 22, lab page `mmd`): a MikuMikuDance model in the browser playing a VMD motion the
 * way MikuMikuDance plays it — bone keys (position + rotation) over the bone's rest offset, then the model's own
 * IK chains (leg and toe IK, CCD as in MMD, knees bending on X only) and its granted ("付与") rotations.
 *
 * Models: the user's own PMX (read by mmd-parser with its textures from the same file pick), or, by default, our
 * own mannequin — the MMD standard-bone rig the VMD writer targets (`mmd-mannequin.json`, generated from
 * `@mocap/motion`'s rig template by `scripts/build-mmd-mannequin.ts`) with a segment mesh rigidly skinned per bone.
 * No third-party model ships with the product.
 *
 * Coordinates: mmd-parser converts PMX and VMD to right-handed axes (z negated); the mannequin file is already so.
 * `data-state` on the container says loading / ready / error; `data-time` the seconds played (tests read both).
 */
import { Parser } from 'mmd-parser';
import * as THREE from 'three';
import { CCDIKSolver, type IK } from 'three/examples/jsm/animation/CCDIKSolver.js';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import mannequin from './mmd-mannequin.json';
import { STAGE_COLOR, viewerRenderer } from './renderer.ts';

interface PmxBone {
  name: string;
  parentIndex: number;
  position: number[];
  ik?: {
    effector: number;
    iteration: number;
    maxAngle: number;
    links: {
      index: number;
      angleLimitation: number;
      lowerLimitationAngle?: number[];
      upperLimitationAngle?: number[];
    }[];
  };
  grant?: { parentIndex: number; ratio: number; affectRotation: boolean; affectPosition: boolean };
  transformationClass?: number;
}
interface PmxVertex {
  position: number[];
  normal: number[];
  uv: number[];
  skinIndices: number[];
  skinWeights: number[];
}
interface PmxMaterial {
  name: string;
  diffuse: number[];
  textureIndex: number;
  flag: number;
  faceCount: number;
}
export interface PmxDocument {
  metadata: { modelName: string; englishModelName?: string; comment?: string };
  vertices: PmxVertex[];
  faces: { indices: number[] }[];
  textures: string[];
  materials: PmxMaterial[];
  bones: PmxBone[];
}
export interface VmdDocument {
  metadata: { name: string; motionCount: number };
  motions: { boneName: string; frameNum: number; position: number[]; rotation: number[] }[];
}

export function parsePmx(bytes: ArrayBuffer): PmxDocument {
  return new Parser().parsePmx(bytes, true) as PmxDocument;
}

export function parseVmd(bytes: ArrayBuffer): VmdDocument {
  return new Parser().parseVmd(bytes, true) as VmdDocument;
}

interface Grant {
  bone: number;
  source: number;
  ratio: number;
}

/** A model ready to animate: the skinned mesh, its IK chains and granted bones. */
interface MmdModel {
  mesh: THREE.SkinnedMesh;
  iks: IK[];
  grants: Grant[];
  name: string;
}

function skeletonOf(bones: { name: string; parent: number; position: number[] }[]): THREE.Bone[] {
  const out = bones.map((b) => {
    const bone = new THREE.Bone();
    bone.name = b.name;
    return bone;
  });
  bones.forEach((b, i) => {
    const p = b.parent >= 0 ? bones[b.parent]!.position : [0, 0, 0];
    out[i]!.position.set(b.position[0]! - p[0]!, b.position[1]! - p[1]!, b.position[2]! - p[2]!);
    if (b.parent >= 0) out[b.parent]!.add(out[i]!);
  });
  return out;
}

/** IK chains as MMDLoader builds them (rotation limits converted to right-handed axes, knees on X only). */
function iksOf(bones: PmxBone[]): IK[] {
  const iks: IK[] = [];
  bones.forEach((b, i) => {
    if (!b.ik) return;
    iks.push({
      target: i,
      effector: b.ik.effector,
      iteration: b.ik.iteration,
      maxAngle: b.ik.maxAngle,
      links: b.ik.links.map((l) => {
        const link: IK['links'][number] = { index: l.index, enabled: true };
        if (l.angleLimitation === 1 && l.lowerLimitationAngle && l.upperLimitationAngle) {
          const lo = l.lowerLimitationAngle.slice();
          const hi = l.upperLimitationAngle.slice();
          lo[0] = -lo[0]!;
          lo[1] = -lo[1]!;
          hi[0] = -hi[0]!;
          hi[1] = -hi[1]!;
          link.rotationMin = new THREE.Vector3().fromArray(lo);
          link.rotationMax = new THREE.Vector3().fromArray(hi);
        }
        if (bones[l.index]?.name.includes('ひざ')) link.limitation = new THREE.Vector3(1, 0, 0);
        return link;
      }),
    });
  });
  return iks;
}

/** A user's PMX with its textures (file name → object URL; missing ones fall back to the material colour). */
export function modelFromPmx(pmx: PmxDocument, textures: Map<string, string>): MmdModel {
  const n = pmx.vertices.length;
  const pos = new Float32Array(n * 3);
  const nor = new Float32Array(n * 3);
  const uv = new Float32Array(n * 2);
  const si = new Uint16Array(n * 4);
  const sw = new Float32Array(n * 4);
  pmx.vertices.forEach((v, i) => {
    pos.set(v.position, i * 3);
    nor.set(v.normal, i * 3);
    uv[i * 2] = v.uv[0]!;
    uv[i * 2 + 1] = v.uv[1]!;
    for (let k = 0; k < 4; k++) {
      si[i * 4 + k] = v.skinIndices[k] ?? 0;
      sw[i * 4 + k] = v.skinWeights[k] ?? 0;
    }
    // BDEF2 stores one weight: the second bone takes the rest.
    if (v.skinIndices.length === 2 && v.skinWeights.length === 1) sw[i * 4 + 1] = 1 - v.skinWeights[0]!;
  });
  const index: number[] = [];
  for (const f of pmx.faces) index.push(...f.indices);
  const geo = new THREE.BufferGeometry();
  geo.setAttribute('position', new THREE.BufferAttribute(pos, 3));
  geo.setAttribute('normal', new THREE.BufferAttribute(nor, 3));
  geo.setAttribute('uv', new THREE.BufferAttribute(uv, 2));
  geo.setAttribute('skinIndex', new THREE.BufferAttribute(si, 4));
  geo.setAttribute('skinWeight', new THREE.BufferAttribute(sw, 4));
  geo.setIndex(index);
  // A material's faceCount counts indices in PMX (vertices of its triangles).
  const total = pmx.materials.reduce((s, m) => s + m.faceCount, 0);
  const perIndex = total === index.length ? 1 : 3;
  let offset = 0;
  const loader = new THREE.TextureLoader();
  const materials = pmx.materials.map((m, i) => {
    geo.addGroup(offset, m.faceCount * perIndex, i);
    offset += m.faceCount * perIndex;
    const file = pmx.textures[m.textureIndex];
    const url = file ? textures.get(baseName(file)) : undefined;
    const mat = new THREE.MeshLambertMaterial({
      color: new THREE.Color(m.diffuse[0], m.diffuse[1], m.diffuse[2]),
      opacity: m.diffuse[3] ?? 1,
      transparent: (m.diffuse[3] ?? 1) < 1 || !!url,
      alphaTest: 0.05,
      side: m.flag & 1 ? THREE.DoubleSide : THREE.FrontSide,
    });
    if (url) {
      const tex = loader.load(url);
      tex.flipY = false;
      tex.colorSpace = THREE.SRGBColorSpace;
      tex.wrapS = THREE.RepeatWrapping;
      tex.wrapT = THREE.RepeatWrapping;
      mat.map = tex;
    }
    return mat;
  });
  const bones = skeletonOf(
    pmx.bones.map((b) => ({ name: b.name, parent: b.parentIndex, position: b.position })),
  );
  const mesh = new THREE.SkinnedMesh(geo, materials);
  for (let i = 0; i < bones.length; i++) if (!bones[i]!.parent) mesh.add(bones[i]!);
  mesh.bind(new THREE.Skeleton(bones));
  const grants: Grant[] = [];
  pmx.bones
    .map((b, i) => ({ b, i }))
    .sort((p, q) => (p.b.transformationClass ?? 0) - (q.b.transformationClass ?? 0))
    .forEach(({ b, i }) => {
      if (b.grant?.affectRotation && b.grant.parentIndex >= 0)
        grants.push({ bone: i, source: b.grant.parentIndex, ratio: b.grant.ratio });
    });
  return { mesh, iks: iksOf(pmx.bones), grants, name: pmx.metadata.modelName };
}

const baseName = (p: string) => p.replace(/\\/g, '/').split('/').pop()!.toLowerCase();

/** Our mannequin: the MMD standard-bone rig, a box per bone segment rigidly skinned to the bone. */
export function mannequinModel(): MmdModel {
  const bones = mannequin.bones;
  const pos: number[] = [];
  const nor: number[] = [];
  const si: number[] = [];
  const sw: number[] = [];
  const index: number[] = [];
  const skip = /^(全ての親|センター|グルーブ|腰|両目|左目|右目)$|ＩＫ|IK|捩/;
  const box = (a: THREE.Vector3, b: THREE.Vector3, r: number, bone: number) => {
    const axis = new THREE.Vector3().subVectors(b, a);
    const len = axis.length();
    if (len < 1e-4) return;
    const g = new THREE.BoxGeometry(r * 2, len, r * 2);
    g.translate(0, len / 2, 0);
    g.applyQuaternion(
      new THREE.Quaternion().setFromUnitVectors(new THREE.Vector3(0, 1, 0), axis.normalize()),
    );
    g.translate(a.x, a.y, a.z);
    const base = pos.length / 3;
    const p = g.getAttribute('position');
    const nn = g.getAttribute('normal');
    for (let i = 0; i < p.count; i++) {
      pos.push(p.getX(i), p.getY(i), p.getZ(i));
      nor.push(nn.getX(i), nn.getY(i), nn.getZ(i));
      si.push(bone, 0, 0, 0);
      sw.push(1, 0, 0, 0);
    }
    const idx = g.getIndex()!;
    for (let i = 0; i < idx.count; i++) index.push(base + idx.getX(i));
  };
  const v = (i: number) => new THREE.Vector3().fromArray(bones[i]!.position);
  bones.forEach((b, i) => {
    if (b.parent < 0 || skip.test(b.name) || skip.test(bones[b.parent]!.name)) return;
    const thick = /足|ひざ/.test(bones[b.parent]!.name) ? 0.55 : /指/.test(b.name) ? 0.1 : 0.4;
    box(v(b.parent), v(i), thick, b.parent);
  });
  // Torso, hips and head as larger blocks.
  const named = (n: string) => bones.findIndex((b) => b.name === n);
  box(v(named('下半身')).add(new THREE.Vector3(0, -1, 0)), v(named('上半身')), 1.3, named('下半身'));
  box(v(named('上半身')), v(named('首')), 1.4, named('上半身'));
  box(
    v(named('頭')).add(new THREE.Vector3(0, -0.3, 0)),
    v(named('頭')).add(new THREE.Vector3(0, 2.4, 0)),
    1.1,
    named('頭'),
  );
  const geo = new THREE.BufferGeometry();
  geo.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
  geo.setAttribute('normal', new THREE.Float32BufferAttribute(nor, 3));
  geo.setAttribute('skinIndex', new THREE.Uint16BufferAttribute(si, 4));
  geo.setAttribute('skinWeight', new THREE.Float32BufferAttribute(sw, 4));
  geo.setIndex(index);
  const skel = skeletonOf(bones);
  const mesh = new THREE.SkinnedMesh(geo, new THREE.MeshLambertMaterial({ color: 0xd9dee8 }));
  for (let i = 0; i < skel.length; i++) if (!skel[i]!.parent) mesh.add(skel[i]!);
  mesh.bind(new THREE.Skeleton(skel));
  const iks: IK[] = mannequin.iks.map((k) => ({
    target: k.target,
    effector: k.effector,
    iteration: k.iteration,
    maxAngle: k.maxAngle,
    links: k.links.map((index) => ({
      index,
      enabled: true,
      ...(bones[index]!.name.includes('ひざ') ? { limitation: new THREE.Vector3(1, 0, 0) } : {}),
    })),
  }));
  return { mesh, iks, grants: [], name: 'mannequin' };
}

/** A VMD as a three.js clip on a model's bones (keys it has no bone for are left out). */
function clipOf(vmd: VmdDocument, mesh: THREE.SkinnedMesh): { clip: THREE.AnimationClip; keyed: number } {
  const byBone = new Map<string, VmdDocument['motions']>();
  for (const m of vmd.motions) {
    const list = byBone.get(m.boneName) ?? [];
    list.push(m);
    byBone.set(m.boneName, list);
  }
  const tracks: THREE.KeyframeTrack[] = [];
  let keyed = 0;
  for (const [name, keys] of byBone) {
    const bone = mesh.skeleton.getBoneByName(name);
    if (!bone) continue;
    keyed++;
    keys.sort((a, b) => a.frameNum - b.frameNum);
    const times = keys.map((k) => k.frameNum / 30);
    const p: number[] = [];
    const q: number[] = [];
    for (const k of keys) {
      p.push(
        bone.position.x + k.position[0]!,
        bone.position.y + k.position[1]!,
        bone.position.z + k.position[2]!,
      );
      q.push(...k.rotation);
    }
    tracks.push(new THREE.VectorKeyframeTrack(`.bones[${name}].position`, times, p));
    tracks.push(new THREE.QuaternionKeyframeTrack(`.bones[${name}].quaternion`, times, q));
  }
  return { clip: new THREE.AnimationClip('vmd', -1, tracks), keyed };
}

export class MmdViewer {
  private readonly renderer: THREE.WebGLRenderer;
  private readonly scene = new THREE.Scene();
  private readonly camera = new THREE.PerspectiveCamera(35, 1, 0.1, 2000);
  private readonly controls: OrbitControls;
  private readonly clock = new THREE.Clock();
  private model: MmdModel | null = null;
  private ik: CCDIKSolver | null = null;
  private mixer: THREE.AnimationMixer | null = null;
  private duration = 0;
  private raf = 0;
  private resizeObserver: ResizeObserver | null = null;
  private readonly identity = new THREE.Quaternion();
  private readonly tmp = new THREE.Vector3();
  /** Granted bones the motion does not key: back to rest before each frame's grant. */
  private grantRest: { bone: THREE.Bone; rest: THREE.Quaternion }[] = [];
  playing = true;
  /** Seconds of motion played (tests read it through `data-time`). */
  time = 0;

  constructor(private readonly container: HTMLElement) {
    this.renderer = viewerRenderer(container);
    this.scene.background = new THREE.Color(STAGE_COLOR);
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x404050, 2.2));
    const key = new THREE.DirectionalLight(0xffffff, 1.6);
    key.position.set(10, 30, 25);
    this.scene.add(key);
    const grid = new THREE.GridHelper(60, 30, 0x3a4050, 0x262a36);
    this.scene.add(grid);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.enableDamping = true;
    this.resize();
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(container);
    const tick = () => {
      this.raf = requestAnimationFrame(tick);
      this.step(this.clock.getDelta());
      this.controls.update();
      this.renderer.render(this.scene, this.camera);
    };
    tick();
  }

  private resize(): void {
    const w = this.container.clientWidth || 640;
    const h = this.container.clientHeight || 480;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
  }

  setModel(model: MmdModel): void {
    if (this.model) this.scene.remove(this.model.mesh);
    this.model = model;
    this.scene.add(model.mesh);
    this.ik = new CCDIKSolver(model.mesh, model.iks);
    this.mixer = null;
    this.duration = 0;
    const box = new THREE.Box3().setFromObject(model.mesh);
    const size = box.getSize(new THREE.Vector3());
    const centre = box.getCenter(new THREE.Vector3());
    const h = Math.max(size.y, 1);
    this.camera.near = h / 100;
    this.camera.far = h * 100;
    this.camera.position.set(centre.x + h * 0.45, centre.y + h * 0.1, centre.z + h * 1.55);
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(centre);
  }

  /** Plays a VMD on the model from the start; returns how many of its bones the model has. */
  setMotion(vmd: VmdDocument): { keyedBones: number; duration: number } {
    if (!this.model) throw new Error('no model');
    this.model.mesh.pose();
    const { clip, keyed } = clipOf(vmd, this.model.mesh);
    this.mixer = new THREE.AnimationMixer(this.model.mesh);
    this.mixer.clipAction(clip).play();
    this.duration = clip.duration;
    this.time = 0;
    const keyedNames = new Set(vmd.motions.map((m) => m.boneName));
    this.grantRest = this.model.grants
      .map((g) => this.model!.mesh.skeleton.bones[g.bone]!)
      .filter((b) => !keyedNames.has(b.name))
      .map((bone) => ({ bone, rest: bone.quaternion.clone() }));
    this.container.dataset.duration = clip.duration.toFixed(2);
    return { keyedBones: keyed, duration: clip.duration };
  }

  private step(dt: number): void {
    if (!this.model || !this.mixer || this.duration <= 0) return;
    if (this.playing) this.time = (this.time + Math.min(dt, 0.1)) % this.duration;
    for (const r of this.grantRest) r.bone.quaternion.copy(r.rest);
    this.mixer.setTime(this.time);
    this.model.mesh.updateMatrixWorld(true);
    this.ik?.update();
    const bones = this.model.mesh.skeleton.bones;
    for (const g of this.model.grants) {
      const src = bones[g.source]!.quaternion;
      const q =
        g.ratio >= 0
          ? this.identity.clone().slerp(src, g.ratio)
          : this.identity.clone().slerp(src.clone().invert(), -g.ratio);
      bones[g.bone]!.quaternion.multiply(q);
    }
    this.container.dataset.time = this.time.toFixed(2);
    // The left ankle's world position (the leg IK's result; tests read it).
    const ankle = this.model.mesh.skeleton.getBoneByName('左足首');
    if (ankle) {
      ankle.updateWorldMatrix(true, false);
      const p = ankle.getWorldPosition(this.tmp);
      this.container.dataset.ankle = `${p.x.toFixed(3)},${p.y.toFixed(3)},${p.z.toFixed(3)}`;
    }
  }

  /** World position of a bone (tests and the foot readout). */
  boneWorld(name: string): THREE.Vector3 | null {
    const b = this.model?.mesh.skeleton.getBoneByName(name);
    return b ? b.getWorldPosition(new THREE.Vector3()) : null;
  }

  dispose(): void {
    cancelAnimationFrame(this.raf);
    this.resizeObserver?.disconnect();
    this.controls.dispose();
    this.renderer.dispose();
    this.renderer.domElement.remove();
  }
}
