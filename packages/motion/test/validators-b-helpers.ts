/** Independent readers for part B's formats (GLB/VRMA/VMD/.anim): gltf-validator, three.js, Blender, assimp. */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ARKIT_BLENDSHAPES, type MotionClip } from '../src/clip.ts';
import { SUPPORTED_BLENDSHAPES } from '../src/solver/face.ts';
import { blenderResult, randomClip } from './helpers.ts';

const run = promisify(execFile);

/** A temp file holding `bytes`. */
export function tempFile(name: string, bytes: Uint8Array | string): string {
  const dir = mkdtempSync(join(tmpdir(), 'mocap-b-'));
  const p = join(dir, name);
  writeFileSync(p, bytes);
  return p;
}

export interface ValidatorReport {
  numErrors: number;
  numWarnings: number;
  messages: { code: string; severity: number; pointer?: string; message: string }[];
}

/** Khronos gltf-validator on GLB bytes. */
export async function gltfValidate(bytes: Uint8Array): Promise<ValidatorReport> {
  const modPath: string = 'gltf-validator';
  const validator = (await import(modPath)) as {
    validateBytes(b: Uint8Array, o?: object): Promise<{ issues: ValidatorReport }>;
  };
  const r = await validator.validateBytes(bytes, { maxIssues: 200, format: 'glb' });
  return r.issues;
}

export const errorsOf = (r: ValidatorReport) => r.messages.filter((m) => m.severity === 0);

interface V3 {
  x: number;
  y: number;
  z: number;
}
export interface ThreeObject {
  name: string;
  type: string;
  children: ThreeObject[];
  updateMatrixWorld(force?: boolean): void;
  getWorldPosition(v: V3): V3;
  traverse(cb: (o: ThreeObject) => void): void;
}
export interface ThreeGltf {
  scene: ThreeObject;
  animations: { name: string; duration: number; tracks: { name: string; times: Float32Array }[] }[];
  userData: Record<string, unknown>;
}
interface ThreeLib {
  Vector3: new () => V3;
  AnimationMixer: new (
    root: ThreeObject,
  ) => { clipAction(c: unknown): { play(): unknown }; setTime(t: number): unknown };
}

/** Parses GLB bytes with three.js' GLTFLoader (plugins: optional register callbacks). */
export async function threeParseGlb(
  bytes: Uint8Array,
  plugins: ((parser: unknown) => unknown)[] = [],
): Promise<{ gltf: ThreeGltf; three: ThreeLib }> {
  const loaderPath: string = 'three/examples/jsm/loaders/GLTFLoader.js';
  const threePath: string = 'three';
  const { GLTFLoader } = (await import(loaderPath)) as {
    GLTFLoader: new () => {
      register(cb: (p: unknown) => unknown): void;
      parse(ab: ArrayBuffer, path: string, ok: (g: ThreeGltf) => void, err: (e: unknown) => void): void;
    };
  };
  const three = (await import(threePath)) as ThreeLib;
  const loader = new GLTFLoader();
  for (const p of plugins) loader.register(p);
  const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const gltf = await new Promise<ThreeGltf>((res, rej) => loader.parse(ab, '', res, rej));
  return { gltf, three };
}

/** World positions of named nodes at time t after three.js plays the first animation. */
export function threeGltfWorld(
  three: ThreeLib,
  gltf: ThreeGltf,
  t: number,
): Record<string, [number, number, number]> {
  const mixer = new three.AnimationMixer(gltf.scene);
  mixer.clipAction(gltf.animations[0]).play();
  mixer.setTime(t);
  gltf.scene.updateMatrixWorld(true);
  const out: Record<string, [number, number, number]> = {};
  gltf.scene.traverse((o) => {
    const v = o.getWorldPosition(new three.Vector3());
    out[o.name] = [v.x, v.y, v.z];
  });
  return out;
}

/** Blender executable or null (an error under CI=true). */
export function blender(): string | null {
  for (const p of ['/usr/bin/blender', '/usr/local/bin/blender']) if (existsSync(p)) return p;
  if (process.env.CI === 'true') throw new Error('CI=true but blender is not installed');
  return null;
}

/** assimp executable or null (an error under CI=true). */
export function assimp(): string | null {
  for (const p of ['/usr/bin/assimp', '/usr/local/bin/assimp']) if (existsSync(p)) return p;
  if (process.env.CI === 'true') throw new Error('CI=true but assimp (assimp-utils) is not installed');
  return null;
}

const GLTF_INSPECTOR = `
import bpy, sys, json
import numpy
# Blender 3.4's glTF importer uses numpy.bool, removed in Debian 12's numpy 1.24: alias it (meshes need it).
if not hasattr(numpy, "bool"): numpy.bool = bool
path = sys.argv[sys.argv.index("--") + 1]
frames = [int(x) for x in sys.argv[sys.argv.index("--") + 2].split(",")]
fps_in = float(sys.argv[sys.argv.index("--") + 3])
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.context.scene.render.fps = int(round(fps_in))
bpy.context.scene.render.fps_base = round(fps_in) / fps_in
bpy.ops.import_scene.gltf(filepath=path)
sc = bpy.context.scene
arm = [o for o in sc.objects if o.type == 'ARMATURE'][0]
meshes = [o for o in sc.objects if o.type == 'MESH']
res = {"bones": [b.name for b in arm.data.bones], "parents": [b.parent.name if b.parent else None for b in arm.data.bones],
       "actions": [a.name for a in bpy.data.actions], "meshes": [m.name for m in meshes],
       "vertices": sum(len(m.data.vertices) for m in meshes),
       "images": [i.name for i in bpy.data.images], "shapeKeys": [], "heads": {}}
for m in meshes:
    if m.data.shape_keys:
        res["shapeKeys"] += [k.name for k in m.data.shape_keys.key_blocks]
fps = sc.render.fps / sc.render.fps_base
for f in frames:
    sc.frame_set(f)
    # Blender's glTF import is Y-up -> Z-up: (x, y, z)_gltf -> (x, -z, y)_blender.
    res["heads"][str(f)] = {b.name: list(arm.matrix_world @ b.head) for b in arm.pose.bones}
res["fps"] = fps
print("RESULT " + json.dumps(res))
`;

export interface BlenderGltf {
  bones: string[];
  parents: (string | null)[];
  actions: string[];
  meshes: string[];
  vertices: number;
  images: string[];
  shapeKeys: string[];
  heads: Record<string, Record<string, [number, number, number]>>;
  fps: number;
}

/** Imports a GLB in Blender 3.4 headless: bones, meshes, images, shape keys, pose-bone heads at frames. */
export function blenderImportGlb(
  exe: string,
  file: string,
  frames: number[],
  fps = 30,
): Promise<BlenderGltf> {
  return blenderResult<BlenderGltf>(exe, GLTF_INSPECTOR, [file, frames.join(','), String(fps)]);
}

/** `assimp info -r FILE`: the text summary (throws on a load failure). */
export async function assimpInfo(exe: string, file: string): Promise<string> {
  const { stdout } = await run(exe, ['info', file, '-r'], { maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

/** A random clip with face curves: jawOpen ramps 0 → 1, the left eye blinks on odd frames. */
export function clipWithFace(frames = 12): MotionClip {
  const clip = randomClip(frames, 30, 3);
  const K = ARKIT_BLENDSHAPES.length;
  const weights = new Float32Array(frames * K);
  for (let f = 0; f < frames; f++) {
    weights[f * K + ARKIT_BLENDSHAPES.indexOf('jawOpen')] = f / (frames - 1);
    weights[f * K + ARKIT_BLENDSHAPES.indexOf('eyeBlinkLeft')] = f % 2;
    weights[f * K + ARKIT_BLENDSHAPES.indexOf('mouthSmileLeft')] = 0.5;
    weights[f * K + ARKIT_BLENDSHAPES.indexOf('mouthSmileRight')] = 0.5;
  }
  return { ...clip, blendshapes: { names: ARKIT_BLENDSHAPES, weights, supported: SUPPORTED_BLENDSHAPES } };
}

const FBX_INSPECTOR = `
import bpy, sys, json
path = sys.argv[sys.argv.index("--") + 1]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.fbx(filepath=path)
sc = bpy.context.scene
arms = [o for o in sc.objects if o.type == 'ARMATURE']
meshes = [o for o in sc.objects if o.type == 'MESH']
res = {"bones": [b.name for b in arms[0].data.bones] if arms else [],
       "meshes": [m.name for m in meshes], "vertices": sum(len(m.data.vertices) for m in meshes),
       "groups": sorted({g.name for m in meshes for g in m.vertex_groups}),
       "skinned": all(any(md.type == 'ARMATURE' for md in m.modifiers) for m in meshes),
       "shapeKeys": [k.name for m in meshes if m.data.shape_keys for k in m.data.shape_keys.key_blocks],
       "images": [i.name for i in bpy.data.images], "actions": [a.name for a in bpy.data.actions]}
print("RESULT " + json.dumps(res))
`;

export interface BlenderFbx {
  bones: string[];
  meshes: string[];
  vertices: number;
  groups: string[];
  skinned: boolean;
  shapeKeys: string[];
  images: string[];
  actions: string[];
}

/** Imports an FBX in Blender 3.4 headless: armature bones, meshes, vertex groups, shape keys, images. */
export function blenderImportFbx(exe: string, file: string): Promise<BlenderFbx> {
  return blenderResult<BlenderFbx>(exe, FBX_INSPECTOR, [file]);
}
