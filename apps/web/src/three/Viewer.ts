/**
 * The preview's 3D view: a procedural character built on the clip's own skeleton (capsule limbs, shaped
 * torso, head with a face direction, hands and shoes), playing the clip at a time the caller sets (the source
 * video is the clock), with an orbit camera following the hips, a floor with a soft shadow and an optional
 * skeleton overlay.
 */
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { sampleRoot, sampleRotation, supportPlatforms, type ViewerClip } from './clip.ts';
import type { LoadedModel } from './model.ts';
import { STAGE_COLOR, viewerRenderer } from './renderer.ts';

/** `model`: the product's own character from the bone type's FBX; the others are drawn from the clip's skeleton. */
export type CharacterKind = 'model' | 'boy' | 'girl' | 'robot';

export const CHARACTER_KINDS: readonly CharacterKind[] = ['model', 'boy', 'girl', 'robot'];

interface Palette {
  skin: number;
  top: number;
  bottom: number;
  shoes: number;
  hair: number;
  accent: number;
  metal: number;
}

const PALETTES: Record<Exclude<CharacterKind, 'model'>, Palette> = {
  boy: {
    skin: 0xe8b896,
    top: 0x3d6fd8,
    bottom: 0x2b2f3a,
    shoes: 0xf2f2f2,
    hair: 0x2a1d14,
    accent: 0xffc247,
    metal: 0,
  },
  girl: {
    skin: 0xf0c3a6,
    top: 0xe0588f,
    bottom: 0x5a4fcf,
    shoes: 0xffffff,
    hair: 0x5b3220,
    accent: 0xffe08a,
    metal: 0,
  },
  robot: {
    skin: 0xb9c3cf,
    top: 0x6d5dfc,
    bottom: 0x3a3f4b,
    shoes: 0x20232b,
    hair: 0x36d1c4,
    accent: 0x36d1c4,
    metal: 0.6,
  },
};

/** Limb radius (m) by joint name: the segment from this joint to its child. */
function segmentRadius(name: string, girl: boolean): number {
  if (/Thigh$/.test(name)) return girl ? 0.075 : 0.08;
  if (/Shin$/.test(name)) return 0.055;
  if (/UpperArm$/.test(name)) return girl ? 0.043 : 0.048;
  if (/Forearm$/.test(name)) return 0.038;
  if (/Clavicle$/.test(name)) return 0.045;
  if (/^neck$/.test(name)) return 0.05;
  if (/(Thumb|Index|Middle|Ring|Pinky)/.test(name)) return 0.009;
  return 0.05;
}

/**
 * A viewer in `el` showing `character`: null when there is no element, or (after `onError`) when WebGL cannot
 * start there.
 */
export function openViewer(
  el: HTMLElement | null,
  character: CharacterKind,
  onError: () => void,
): MotionViewer | null {
  if (!el) return null;
  let v: MotionViewer;
  try {
    v = new MotionViewer(el);
  } catch {
    onError();
    return null;
  }
  v.setCharacter(character);
  return v;
}

export class MotionViewer {
  readonly renderer: THREE.WebGLRenderer;
  readonly scene = new THREE.Scene();
  readonly camera = new THREE.PerspectiveCamera(40, 1, 0.05, 100);
  readonly controls: OrbitControls;
  private clip: ViewerClip | null = null;
  private bones: THREE.Bone[] = [];
  private root = new THREE.Group();
  private skeletonHelper: THREE.SkeletonHelper | null = null;
  private jointDots: THREE.Object3D[] = [];
  private kind: CharacterKind = 'boy';
  private skeletonOn = false;
  private time = 0;
  private raf = 0;
  private disposed = false;
  private lastTarget = new THREE.Vector3(0, 1, 0);
  private readonly q = [0, 0, 0, 1];
  private readonly p = [0, 0, 0];
  private resizeObserver: ResizeObserver | null = null;
  private model: LoadedModel | null = null;
  private mixer: THREE.AnimationMixer | null = null;
  private modelHelper: THREE.SkeletonHelper | null = null;
  private modelHips: THREE.Object3D | null = null;
  private framed = false;
  private timeSource: (() => number) | null = null;
  /** Raised ground the solve found under the feet (`supportPlatforms`), drawn as blocks on the floor. */
  private platforms = new THREE.Group();

  constructor(private readonly container: HTMLElement) {
    this.renderer = viewerRenderer(container);
    this.renderer.shadowMap.enabled = true;
    this.renderer.shadowMap.type = THREE.PCFSoftShadowMap;
    this.renderer.toneMapping = THREE.ACESFilmicToneMapping;

    this.scene.background = new THREE.Color(STAGE_COLOR);
    this.scene.fog = new THREE.Fog(STAGE_COLOR, 9, 22);
    const hemi = new THREE.HemisphereLight(0xdfe7ff, 0x30283a, 1.1);
    this.scene.add(hemi);
    const sun = new THREE.DirectionalLight(0xffffff, 2.2);
    sun.position.set(2.5, 5, 3.5);
    sun.castShadow = true;
    sun.shadow.mapSize.set(1024, 1024);
    sun.shadow.camera.left = -3;
    sun.shadow.camera.right = 3;
    sun.shadow.camera.top = 3;
    sun.shadow.camera.bottom = -3;
    sun.shadow.bias = -0.0005;
    this.scene.add(sun, sun.target);
    const rim = new THREE.DirectionalLight(0x8f84ff, 1.2);
    rim.position.set(-3, 3, -4);
    this.scene.add(rim);

    const floor = new THREE.Mesh(
      new THREE.CircleGeometry(12, 64),
      new THREE.MeshStandardMaterial({ color: 0x1c1f29, roughness: 0.95 }),
    );
    floor.rotation.x = -Math.PI / 2;
    floor.receiveShadow = true;
    this.scene.add(floor);
    const grid = new THREE.GridHelper(12, 24, 0x3a3f52, 0x262a38);
    (grid.material as THREE.Material).transparent = true;
    (grid.material as THREE.Material).opacity = 0.6;
    grid.position.y = 0.001;
    this.scene.add(grid);
    this.scene.add(this.platforms);
    this.scene.add(this.root);

    this.camera.position.set(1.6, 1.5, 3.6);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.target.set(0, 0.95, 0);
    this.controls.enableDamping = true;
    this.controls.minDistance = 0.8;
    this.controls.maxDistance = 12;
    this.controls.maxPolarAngle = Math.PI * 0.495;
    this.controls.update();

    this.resize();
    if (typeof ResizeObserver !== 'undefined') {
      this.resizeObserver = new ResizeObserver(() => this.resize());
      this.resizeObserver.observe(container);
    }
    const loop = () => {
      if (this.disposed) return;
      this.raf = requestAnimationFrame(loop);
      // Pose from the clock right before drawing: the picture always matches the source video's time.
      const t = this.timeSource?.();
      if (t !== undefined && Number.isFinite(t)) this.setTime(t);
      this.controls.update();
      this.renderer.render(this.scene, this.camera);
    };
    loop();
  }

  /** The clock the viewer follows (seconds), read once per drawn frame. */
  setTimeSource(fn: (() => number) | null): void {
    this.timeSource = fn;
  }

  resize(): void {
    const w = Math.max(1, this.container.clientWidth);
    const h = Math.max(1, this.container.clientHeight);
    this.renderer.setSize(w, h, false);
    this.renderer.domElement.style.width = '100%';
    this.renderer.domElement.style.height = '100%';
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
  }

  private frame(c: THREE.Vector3): void {
    if (this.framed) return;
    this.framed = true;
    this.controls.target.set(c.x, Math.max(0.8, c.y), c.z);
    // Hips above standing height on average (a clip on raised ground): the camera goes up with them.
    this.camera.position.set(c.x + 1.6, 1.5 + Math.max(0, c.y - 0.95), c.z + 3.6);
    this.lastTarget.copy(this.controls.target);
    this.controls.update();
  }

  setClip(clip: ViewerClip): void {
    this.clip = clip;
    this.buildPlatforms(clip);
    if (this.kind !== 'model') this.build();
    this.setTime(this.time);
    // Frame the subject: the camera looks at the hips' average position.
    const c = new THREE.Vector3();
    for (let f = 0; f < clip.frameCount; f++)
      c.add(
        new THREE.Vector3(
          clip.rootPositions[f * 3],
          clip.rootPositions[f * 3 + 1],
          clip.rootPositions[f * 3 + 2],
        ),
      );
    c.divideScalar(Math.max(1, clip.frameCount));
    this.frame(c);
  }

  private buildPlatforms(clip: ViewerClip): void {
    for (const o of [...this.platforms.children]) {
      const m = o as THREE.Mesh;
      m.geometry.dispose();
      (m.material as THREE.Material).dispose();
      this.platforms.remove(m);
    }
    const list = supportPlatforms(clip);
    this.container.dataset.platforms = String(list.length);
    for (const p of list) {
      // See-through: the orbit camera follows the hips, and a person who stepped down behind the block must
      // still show through it.
      const block = new THREE.Mesh(
        new THREE.BoxGeometry(p.x1 - p.x0, p.height, p.z1 - p.z0),
        new THREE.MeshStandardMaterial({
          color: 0x3a4258,
          roughness: 0.9,
          transparent: true,
          opacity: 0.7,
          depthWrite: false,
        }),
      );
      block.position.set((p.x0 + p.x1) / 2, p.height / 2, (p.z0 + p.z1) / 2);
      block.castShadow = true;
      block.receiveShadow = true;
      block.renderOrder = 1;
      this.platforms.add(block);
    }
  }

  /** The product's character (FBX from the bone type's zip) with its animation. */
  setModel(model: LoadedModel): void {
    if (this.model && this.model !== model) {
      this.hideModel();
      this.model.dispose();
    }
    this.model = model;
    this.container.dataset.modelTracks = String(model.clip?.tracks.length ?? 0);
    this.container.dataset.modelDuration = String(model.clip?.duration ?? 0);
    if (this.kind === 'model') this.showModel();
  }

  private hideModel(): void {
    if (!this.model) return;
    this.scene.remove(this.model.root);
    this.mixer?.stopAllAction();
    this.mixer = null;
    if (this.modelHelper) {
      this.scene.remove(this.modelHelper);
      this.modelHelper.dispose();
      this.modelHelper = null;
    }
  }

  private showModel(): void {
    const m = this.model;
    if (!m) return;
    this.clearCharacter();
    this.scene.add(m.root);
    this.mixer?.stopAllAction();
    this.mixer = new THREE.AnimationMixer(m.root);
    if (m.clip) this.mixer.clipAction(m.clip).play();
    this.modelHelper = new THREE.SkeletonHelper(m.root);
    const lm = this.modelHelper.material as THREE.LineBasicMaterial;
    lm.depthTest = false;
    lm.transparent = true;
    this.modelHelper.visible = this.skeletonOn || !m.hasMesh;
    this.scene.add(this.modelHelper);
    if (!m.hasMesh && !m.root.userData.jointDots) {
      // A skeleton-only rig: joints as dots so the figure reads at a glance (sized in metres).
      m.root.userData.jointDots = true;
      const r = 0.025 / m.scale;
      const geo = new THREE.SphereGeometry(r, 12, 8);
      const mat = new THREE.MeshStandardMaterial({ color: 0x36d1c4, roughness: 0.4 });
      const bones: THREE.Object3D[] = [];
      m.root.traverse((o) => {
        if ((o as THREE.Bone).isBone) bones.push(o);
      });
      for (const b of bones) {
        const dot = new THREE.Mesh(geo, mat);
        dot.castShadow = true;
        b.add(dot);
      }
    }
    this.modelHips = null;
    m.root.traverse((o) => {
      if (!this.modelHips && (o as THREE.Bone).isBone) this.modelHips = o;
    });
    this.setTime(this.time);
    const hips = new THREE.Vector3();
    (this.modelHips as THREE.Object3D | null)?.getWorldPosition(hips);
    this.frame(hips);
  }

  setCharacter(kind: CharacterKind): void {
    this.kind = kind;
    if (kind === 'model') {
      this.showModel();
      return;
    }
    this.hideModel();
    if (this.clip) {
      this.build();
      this.setTime(this.time);
    }
  }

  setSkeletonVisible(on: boolean): void {
    this.skeletonOn = on;
    if (this.skeletonHelper) this.skeletonHelper.visible = on;
    if (this.modelHelper) this.modelHelper.visible = on || !this.model?.hasMesh;
    for (const d of this.jointDots) d.visible = on;
  }

  /** Poses the character at `time` seconds of the clip. */
  setTime(time: number): void {
    this.time = time;
    if (this.kind === 'model') {
      if (this.mixer && this.model) {
        const d = this.model.clip?.duration ?? 0;
        this.mixer.setTime(d > 0 ? Math.min(time, d - 1e-4) : time);
        this.container.dataset.time = this.mixer.time.toFixed(3);
        if (this.modelHips) {
          const p = new THREE.Vector3();
          this.modelHips.getWorldPosition(p);
          this.follow(p.x, p.z, p.y);
        }
      }
      return;
    }
    const clip = this.clip;
    if (!clip || this.bones.length === 0) return;
    for (let j = 0; j < this.bones.length; j++) {
      const b = this.bones[j];
      sampleRotation(clip, j, time, this.q);
      b.quaternion.set(this.q[0], this.q[1], this.q[2], this.q[3]);
      if (clip.parents[j] < 0) {
        sampleRoot(clip, time, this.p);
        b.position.set(this.p[0], this.p[1], this.p[2]);
      }
    }
    const hips = this.bones[0].position;
    this.follow(hips.x, hips.z, hips.y);
  }

  /** The camera target follows the hips (walking subjects stay in view). */
  private follow(x: number, z: number, y: number): void {
    const dx = x - this.lastTarget.x;
    const dz = z - this.lastTarget.z;
    if (Math.hypot(dx, dz) > 0.6) {
      const k = 1 - 0.6 / Math.hypot(dx, dz);
      this.controls.target.x += dx * k;
      this.controls.target.z += dz * k;
      this.camera.position.x += dx * k;
      this.camera.position.z += dz * k;
      this.lastTarget.copy(this.controls.target);
    }
    // On a clip with raised ground the hips change level by a metre or more: the view follows them up and
    // down too (outside a 0.3 m band; jumps on flat ground keep the camera still).
    if (this.platforms.children.length > 0) {
      const dy = Math.max(0.8, y) - this.lastTarget.y;
      if (Math.abs(dy) > 0.3) {
        const m = dy - Math.sign(dy) * 0.3;
        this.controls.target.y += m;
        this.camera.position.y += m;
        this.lastTarget.copy(this.controls.target);
      }
    }
  }

  private clearCharacter(): void {
    this.root.traverse((o) => {
      if (o instanceof THREE.Mesh) {
        o.geometry.dispose();
        const m = o.material as THREE.Material | THREE.Material[];
        for (const x of Array.isArray(m) ? m : [m]) x.dispose();
      }
    });
    this.root.clear();
    if (this.skeletonHelper) {
      this.scene.remove(this.skeletonHelper);
      this.skeletonHelper.dispose();
      this.skeletonHelper = null;
    }
    this.bones = [];
    this.jointDots = [];
  }

  private build(): void {
    const clip = this.clip;
    if (!clip) return;
    this.clearCharacter();
    const pal = PALETTES[this.kind === 'model' ? 'boy' : this.kind];
    const girl = this.kind === 'girl';
    const mat = (color: number, rough = 0.6) =>
      new THREE.MeshStandardMaterial({ color, roughness: rough, metalness: pal.metal });
    const skin = mat(pal.skin, 0.55);
    const top = mat(pal.top);
    const bottom = mat(pal.bottom, 0.8);
    const shoes = mat(pal.shoes, 0.5);
    const hair = mat(pal.hair, 0.7);
    const accent = mat(pal.accent, 0.4);

    const n = clip.names.length;
    for (let j = 0; j < n; j++) {
      const b = new THREE.Bone();
      b.name = clip.names[j];
      b.position.set(clip.offsets[3 * j], clip.offsets[3 * j + 1], clip.offsets[3 * j + 2]);
      this.bones.push(b);
    }
    for (let j = 0; j < n; j++) {
      const p = clip.parents[j];
      if (p >= 0) this.bones[p].add(this.bones[j]);
      else this.root.add(this.bones[j]);
    }
    const children = (j: number) => clip.parents.flatMap((p, c) => (p === j ? [c] : []));
    const off = (j: number) =>
      new THREE.Vector3(clip.offsets[3 * j], clip.offsets[3 * j + 1], clip.offsets[3 * j + 2]);
    const tip = (j: number) =>
      new THREE.Vector3(clip.tips[3 * j], clip.tips[3 * j + 1], clip.tips[3 * j + 2]);
    const idx = (name: string) => clip.names.indexOf(name);

    const capsule = (
      parent: THREE.Object3D,
      to: THREE.Vector3,
      r0: number,
      material: THREE.Material,
      r1 = r0,
    ) => {
      const len = to.length();
      if (len < 1e-4) return;
      const geo = new THREE.CylinderGeometry(r1, r0, len, 18, 1, false);
      const m = new THREE.Mesh(geo, material);
      m.position.copy(to).multiplyScalar(0.5);
      m.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), to.clone().normalize());
      m.castShadow = true;
      parent.add(m);
      const cap = (r: number, at: THREE.Vector3) => {
        const s = new THREE.Mesh(new THREE.SphereGeometry(r, 18, 12), material);
        s.position.copy(at);
        s.castShadow = true;
        parent.add(s);
      };
      cap(r0, new THREE.Vector3());
      cap(r1, to);
    };

    const isFinger = (name: string) => /(Thumb|Index|Middle|Ring|Pinky)/.test(name);
    for (let j = 0; j < n; j++) {
      const name = clip.names[j];
      const bone = this.bones[j];
      if (name === 'hips' || name === 'spine' || name === 'spine1' || name === 'spine2') continue;
      if (isFinger(name)) {
        const kids = children(j);
        const to = kids.length ? off(kids[0]) : tip(j);
        capsule(bone, to, 0.0095, skin, 0.008);
        continue;
      }
      if (/Hand$/.test(name)) {
        const hasFingers = children(j).length > 0;
        const side = name.startsWith('left') ? 1 : -1;
        const palm = new THREE.Mesh(new THREE.BoxGeometry(0.09, 0.028, 0.08), skin);
        palm.position.set(side * 0.045, 0, 0);
        palm.castShadow = true;
        bone.add(palm);
        if (!hasFingers) capsule(bone, tip(j), 0.03, skin, 0.022);
        continue;
      }
      if (/Foot$/.test(name)) {
        const kids = children(j);
        const toes = kids.length ? off(kids[0]) : new THREE.Vector3(0, -0.05, 0.12);
        const shoe = new THREE.Mesh(new THREE.BoxGeometry(0.1, 0.085, 0.26), shoes);
        shoe.position.set(toes.x * 0.5, toes.y + 0.02, 0.05);
        shoe.castShadow = true;
        bone.add(shoe);
        capsule(bone, new THREE.Vector3(0, toes.y + 0.04, 0), 0.05, bottom, 0.045);
        continue;
      }
      if (/Toes$/.test(name)) {
        const toe = new THREE.Mesh(new THREE.BoxGeometry(0.1, 0.06, Math.max(0.04, tip(j).z)), shoes);
        toe.position.set(0, -0.015, Math.max(0.04, tip(j).z) / 2);
        toe.castShadow = true;
        bone.add(toe);
        continue;
      }
      if (name === 'head') {
        const h = tip(j).length() || 0.16;
        const head = new THREE.Mesh(new THREE.SphereGeometry(h * 0.62, 32, 24), skin);
        head.scale.set(0.92, 1.08, 1);
        head.position.set(0, h * 0.55, 0.01);
        head.castShadow = true;
        bone.add(head);
        const cap = new THREE.Mesh(
          new THREE.SphereGeometry(h * 0.66, 32, 16, 0, Math.PI * 2, 0, Math.PI * 0.55),
          hair,
        );
        cap.scale.set(0.95, 1.08, 1.05);
        cap.position.set(0, h * 0.6, -0.012);
        cap.rotation.x = -0.35;
        bone.add(cap);
        if (girl) {
          const tail = new THREE.Mesh(new THREE.SphereGeometry(h * 0.3, 16, 12), hair);
          tail.scale.set(0.8, 1.6, 0.8);
          tail.position.set(0, h * 0.25, -h * 0.62);
          bone.add(tail);
        }
        // Eyes and a nose tell which way the character faces (+Z).
        for (const s of [-1, 1]) {
          const eye = new THREE.Mesh(new THREE.SphereGeometry(h * 0.07, 12, 8), mat(0x1a1a22, 0.3));
          eye.position.set(s * h * 0.2, h * 0.62, h * 0.55);
          bone.add(eye);
        }
        const nose = new THREE.Mesh(new THREE.SphereGeometry(h * 0.06, 12, 8), skin);
        nose.position.set(0, h * 0.5, h * 0.63);
        bone.add(nose);
        continue;
      }
      const kids = children(j);
      if (kids.length === 0) continue;
      const to = off(kids[0]);
      if (name === 'neck') {
        capsule(bone, to, 0.05, skin, 0.045);
        continue;
      }
      const r = segmentRadius(name, girl);
      const material = /Thigh|Shin/.test(name)
        ? bottom
        : /UpperArm|Clavicle/.test(name)
          ? top
          : /Forearm/.test(name)
            ? skin
            : top;
      const taper = /Thigh/.test(name) ? 0.72 : /Shin/.test(name) ? 0.78 : /UpperArm/.test(name) ? 0.85 : 0.8;
      capsule(bone, to, r, material, r * taper);
    }

    // Torso: pelvis, belly and chest volumes on the spine bones.
    const hips = idx('hips');
    const spine = idx('spine');
    const spine1 = idx('spine1');
    const spine2 = idx('spine2');
    const chestW = girl ? 0.15 : 0.17;
    const blob = (j: number, w: number, h: number, d: number, y: number, material: THREE.Material) => {
      if (j < 0) return;
      const m = new THREE.Mesh(new THREE.SphereGeometry(1, 28, 20), material);
      m.scale.set(w, h, d);
      m.position.set(0, y, 0);
      m.castShadow = true;
      this.bones[j].add(m);
    };
    const leftThigh = idx('leftThigh');
    const hipHalf = leftThigh >= 0 ? Math.abs(clip.offsets[3 * leftThigh]) : 0.09;
    blob(hips, hipHalf + (girl ? 0.08 : 0.065), 0.11, 0.1, -0.01, bottom);
    const segLen = (j: number) => (j >= 0 ? off(children(j)[0] ?? j).length() : 0.12);
    blob(spine, chestW * 0.85, segLen(spine) * 1.2 + 0.06, 0.095, segLen(spine) * 0.5, top);
    blob(spine1, chestW * 0.9, segLen(spine1) * 0.75 + 0.02, 0.1, segLen(spine1) * 0.5, top);
    blob(spine2, chestW, 0.13, 0.11, 0.09, top);
    if (spine2 >= 0) {
      // Shoulder line and a chest stripe (accent colour) for orientation.
      const stripe = new THREE.Mesh(new THREE.BoxGeometry(chestW * 1.3, 0.025, 0.01), accent);
      stripe.position.set(0, 0.07, 0.107);
      this.bones[spine2].add(stripe);
    }

    // Skeleton overlay: lines + joint dots, drawn on top.
    this.skeletonHelper = new THREE.SkeletonHelper(this.bones[0]);
    const lm = this.skeletonHelper.material as THREE.LineBasicMaterial;
    lm.depthTest = false;
    lm.transparent = true;
    lm.linewidth = 2;
    this.skeletonHelper.visible = this.skeletonOn;
    this.scene.add(this.skeletonHelper);
    const dotMat = new THREE.MeshBasicMaterial({ color: 0x36d1c4, depthTest: false, transparent: true });
    for (let j = 0; j < n; j++) {
      if (isFinger(clip.names[j])) continue;
      const d = new THREE.Mesh(new THREE.SphereGeometry(0.018, 10, 8), dotMat);
      d.renderOrder = 10;
      d.visible = this.skeletonOn;
      this.bones[j].add(d);
      this.jointDots.push(d);
    }
  }

  /** The canvas's pixels, for tests and thumbnails. */
  snapshot(): string {
    this.renderer.render(this.scene, this.camera);
    return this.renderer.domElement.toDataURL('image/png');
  }

  dispose(): void {
    this.disposed = true;
    cancelAnimationFrame(this.raf);
    this.resizeObserver?.disconnect();
    this.controls.dispose();
    this.hideModel();
    this.model?.dispose();
    this.clearCharacter();
    this.renderer.dispose();
    this.renderer.domElement.remove();
  }
}
