/**
 * A GLB viewer for the digital-human page: the character's own skinned mesh and materials (three.js GLTFLoader),
 * its first animation looping, an orbit camera framed on the character's size (characters come in any unit), a
 * floor grid. A motion that travels (a walk, a dance across the floor) is followed: the camera and the grid move
 * with the hips over the floor, so the character stays in view while the user can still orbit. `data-state` on
 * the container says loading / ready / error for tests.
 */
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { STAGE_COLOR, viewerRenderer } from './renderer.ts';

export class GltfViewer {
  private readonly renderer: THREE.WebGLRenderer;
  private readonly scene = new THREE.Scene();
  private readonly camera = new THREE.PerspectiveCamera(35, 1, 0.01, 1000);
  private readonly controls: OrbitControls;
  private readonly clock = new THREE.Clock();
  private mixer: THREE.AnimationMixer | null = null;
  private model: THREE.Object3D | null = null;
  /** The bone carrying the travel (hips), followed over the floor; where it was last frame. */
  private follow: THREE.Object3D | null = null;
  private readonly followAt = new THREE.Vector3();
  private grid: THREE.Object3D | null = null;
  private gridCell = 1;
  private raf = 0;
  private disposed = false;
  private resizeObserver: ResizeObserver | null = null;
  /** Seconds of animation played (tests read it). */
  time = 0;

  constructor(private readonly container: HTMLElement) {
    this.renderer = viewerRenderer(container);
    this.scene.background = new THREE.Color(STAGE_COLOR);
    this.scene.add(new THREE.HemisphereLight(0xe8eeff, 0x2a2533, 1.6));
    const sun = new THREE.DirectionalLight(0xffffff, 2.0);
    sun.position.set(2, 4, 3);
    this.scene.add(sun);
    const rim = new THREE.DirectionalLight(0x8f84ff, 0.9);
    rim.position.set(-3, 2, -3);
    this.scene.add(rim);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.enableDamping = true;
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(container);
    this.resize();
    const loop = () => {
      if (this.disposed) return;
      this.raf = requestAnimationFrame(loop);
      const dt = this.clock.getDelta();
      if (this.mixer) {
        this.mixer.update(dt);
        this.time += dt;
      }
      this.followTravel();
      this.controls.update();
      this.renderer.render(this.scene, this.camera);
    };
    loop();
  }

  /** Moves the camera, its target and the grid (by whole cells) by the hips' travel over the floor. */
  private followTravel(): void {
    if (!this.follow) return;
    const p = this.follow.getWorldPosition(new THREE.Vector3());
    const dx = p.x - this.followAt.x;
    const dz = p.z - this.followAt.z;
    this.followAt.copy(p);
    if (dx === 0 && dz === 0) return;
    this.controls.target.x += dx;
    this.controls.target.z += dz;
    this.camera.position.x += dx;
    this.camera.position.z += dz;
    if (this.grid) {
      this.grid.position.x = Math.round(p.x / this.gridCell) * this.gridCell;
      this.grid.position.z = Math.round(p.z / this.gridCell) * this.gridCell;
    }
  }

  private resize(): void {
    const w = Math.max(1, this.container.clientWidth);
    const h = Math.max(1, this.container.clientHeight);
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
  }

  /** Loads a GLB (replacing the current model) and plays its first animation. */
  async load(url: string): Promise<{ animated: boolean }> {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const buf = await res.arrayBuffer();
    const gltf = await new GLTFLoader().parseAsync(buf, '');
    if (this.disposed) return { animated: false };
    if (this.model) this.scene.remove(this.model);
    this.mixer?.stopAllAction();
    this.mixer = null;
    this.time = 0;
    this.model = gltf.scene;
    this.scene.add(gltf.scene);
    // Frame on the rest-pose bounds (any unit), the floor under the feet.
    const box = new THREE.Box3().setFromObject(gltf.scene);
    const size = box.getSize(new THREE.Vector3());
    const h = Math.max(size.y, 1e-3);
    const grid = new THREE.GridHelper(h * 6, 24, 0x3a3f52, 0x262a38);
    grid.name = 'floor';
    const old = this.scene.getObjectByName('floor');
    if (old) this.scene.remove(old);
    grid.position.y = box.min.y;
    this.scene.add(grid);
    this.grid = grid;
    this.gridCell = (h * 6) / 24;
    this.follow = null;
    const center = box.getCenter(new THREE.Vector3());
    this.controls.target.set(center.x, box.min.y + h * 0.5, center.z);
    this.camera.near = h / 100;
    this.camera.far = h * 100;
    // A motion travels and swings the limbs: frame it wider than the rest pose.
    const far = gltf.animations.length ? 3.4 : 2.3;
    this.camera.position.set(center.x + h * 0.4 * far, box.min.y + h * 0.75, center.z + h * far);
    this.camera.updateProjectionMatrix();
    if (gltf.animations.length) {
      const clip = gltf.animations[0];
      this.mixer = new THREE.AnimationMixer(gltf.scene);
      this.mixer.clipAction(clip).play();
      // The bone that travels most over the floor (its position track): the hips.
      let best = 0;
      for (const track of clip.tracks) {
        if (!track.name.endsWith('.position')) continue;
        const v = track.values;
        let minX = Number.POSITIVE_INFINITY;
        let maxX = Number.NEGATIVE_INFINITY;
        let minZ = Number.POSITIVE_INFINITY;
        let maxZ = Number.NEGATIVE_INFINITY;
        for (let i = 0; i + 2 < v.length; i += 3) {
          minX = Math.min(minX, v[i]);
          maxX = Math.max(maxX, v[i]);
          minZ = Math.min(minZ, v[i + 2]);
          maxZ = Math.max(maxZ, v[i + 2]);
        }
        const range = Math.hypot(maxX - minX, maxZ - minZ);
        const node = gltf.scene.getObjectByName(track.name.slice(0, -'.position'.length));
        if (node && range > best) {
          best = range;
          this.follow = node;
        }
      }
      if (this.follow) {
        this.mixer.update(0);
        gltf.scene.updateMatrixWorld(true);
        this.follow.getWorldPosition(this.followAt);
        // Start framed on where the motion starts (the clip may begin away from the rest place).
        const dx = this.followAt.x - center.x;
        const dz = this.followAt.z - center.z;
        this.controls.target.x += dx;
        this.controls.target.z += dz;
        this.camera.position.x += dx;
        this.camera.position.z += dz;
      }
    }
    return { animated: gltf.animations.length > 0 };
  }

  dispose(): void {
    this.disposed = true;
    cancelAnimationFrame(this.raf);
    this.resizeObserver?.disconnect();
    this.controls.dispose();
    this.renderer.dispose();
    this.renderer.domElement.remove();
  }
}
