/** Shared test helpers: test data paths, a random clip, independent readers (three.js, Blender). */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { mulberry32, type SyntheticOptions, synthesize } from '@mocap/testkit';
import {
  ARKIT_BLENDSHAPES,
  forwardKinematics,
  jointCount,
  type MotionClip,
  restClip,
  type Skeleton,
} from '../src/clip.ts';
import { read as readBvh } from '../src/formats/bvh.ts';
import { qExp, readVec3, writeQuat } from '../src/math.ts';
import { createSkeleton, DEFAULT_PROPORTIONS } from '../src/skeleton.ts';
import { type CameraModel, project } from '../src/solver/camera.ts';
import { NUM_LANDMARKS } from '../src/solver/input.ts';
import { buildModel } from '../src/solver/model.ts';

const here = dirname(fileURLToPath(import.meta.url));
export const SHARED = join(here, '..', '..', '..', '..', 'shared');
export const BVH_DIR = join(SHARED, 'testdata', 'bvh');
export const VIDEO_DIR = join(SHARED, 'testdata', 'videos');

export function readSharedBvh(rel: string) {
  return readBvh(readFileSync(join(BVH_DIR, rel), 'utf8'));
}

/** Synthetic tracks + truth from a shared BVH file. */
export function syntheticFrom(rel: string, opts: SyntheticOptions = {}) {
  return synthesize(readSharedBvh(rel), { seed: 11, file: rel, ...opts });
}

/** A canonical-skeleton clip with random (moderate) rotations and a moving root. */
export function randomClip(frames = 10, fps = 30, seed = 5): MotionClip {
  const skeleton = createSkeleton();
  const clip = restClip(skeleton, frames, fps);
  const rand = mulberry32(seed);
  const n = skeleton.names.length;
  for (let f = 0; f < frames; f++) {
    for (let j = 0; j < n; j++) {
      const a = j === 0 ? 3 : 1.6;
      writeQuat(
        clip.rotations,
        f * n + j,
        qExp([(rand() - 0.5) * a, (rand() - 0.5) * a, (rand() - 0.5) * a]),
      );
    }
    clip.rootPositions.set([rand() - 0.5, 0.9 + 0.1 * rand(), rand() * 2], f * 3);
  }
  return clip;
}

/**
 * Smooth whole-body motion on `skeleton` sampled at `fps` for `seconds`: sinusoids of amplitudes `a` and `b` on
 * every joint and a hips yaw that keeps turning, a travelling root, the 52 ARKit face curves (sinusoids of
 * `f / faceFrames`). The tool-fit test's clip and `bench export`'s.
 */
export function smoothClip(
  skeleton: Skeleton,
  fps: number,
  seconds: number,
  a: number,
  b: number,
  faceFrames: number,
): MotionClip {
  const frames = Math.round(seconds * fps);
  const clip = restClip(skeleton, frames, fps);
  const n = skeleton.names.length;
  for (let f = 0; f < frames; f++) {
    const t = f / fps;
    for (let j = 0; j < n; j++) {
      const x = a * Math.sin(2 * Math.PI * (0.6 + 0.05 * (j % 7)) * t + j);
      const y = b * Math.cos(2 * Math.PI * (0.4 + 0.03 * (j % 5)) * t + 2 * j);
      writeQuat(clip.rotations, f * n + j, qExp([x, j === 0 ? 0.3 * t : y, 0.5 * x * y]));
    }
    clip.rootPositions.set([0.5 * Math.sin(0.3 * t), 0.95 + 0.03 * Math.sin(4 * t), 0.8 * t], 3 * f);
  }
  const weights = new Float32Array(frames * 52);
  for (let f = 0; f < frames; f++)
    for (let k = 0; k < 52; k++) weights[f * 52 + k] = 0.5 + 0.5 * Math.sin(f / faceFrames + k);
  return { ...clip, blendshapes: { names: ARKIT_BLENDSHAPES, weights, supported: ARKIT_BLENDSHAPES } };
}

// ---------------------------------------------------------------- solver fixtures

/** The body model of the default proportions without fingers, with its skeleton, joint count and joint indices. */
export function bodyModel() {
  const model = buildModel(DEFAULT_PROPORTIONS, {}, false);
  return { model, sk: model.skeleton, n: model.skeleton.names.length, j: model.joint };
}

/** Writes the image points of `points` (NUM_LANDMARKS world points, flat) seen by `cam` into `image` at frame `f`. */
export function projectLandmarks(
  cam: CameraModel,
  points: ArrayLike<number>,
  image: Float64Array,
  f = 0,
): void {
  for (let i = 0; i < NUM_LANDMARKS; i++) {
    const [u, v] = project(cam, [points[i * 3], points[i * 3 + 1], points[i * 3 + 2]]);
    image[(f * NUM_LANDMARKS + i) * 2] = u;
    image[(f * NUM_LANDMARKS + i) * 2 + 1] = v;
  }
}

// ---------------------------------------------------------------- three.js (plain Node)

interface ThreeVector3 {
  x: number;
  y: number;
  z: number;
}
export interface ThreeBone {
  name: string;
  children: ThreeBone[];
  updateMatrixWorld(force?: boolean): void;
  getWorldPosition(v: ThreeVector3): ThreeVector3;
}
interface ThreeModule {
  Vector3: new () => ThreeVector3;
  AnimationMixer: new (
    root: ThreeBone,
  ) => { clipAction(clip: unknown): { play(): unknown }; setTime(t: number): unknown };
}
export interface ThreeBvh {
  skeleton: { bones: ThreeBone[] };
  clip: { duration: number; tracks: { name: string; times: Float32Array; values: Float32Array }[] };
}

/** Parses BVH text with three.js' BVHLoader (an independent reader). */
export async function threeParseBvh(text: string): Promise<{ result: ThreeBvh; three: ThreeModule }> {
  const loaderPath: string = 'three/examples/jsm/loaders/BVHLoader.js';
  const threePath: string = 'three';
  const { BVHLoader } = (await import(loaderPath)) as { BVHLoader: new () => { parse(t: string): ThreeBvh } };
  const three = (await import(threePath)) as ThreeModule;
  return { result: new BVHLoader().parse(text), three };
}

/** World positions (file units) of the named bones at time t, posed by three.js' animation mixer. */
export function threeWorldPositions(
  three: ThreeModule,
  parsed: ThreeBvh,
  t: number,
  names: string[],
): Record<string, [number, number, number]> {
  const root = parsed.skeleton.bones[0];
  const mixer = new three.AnimationMixer(root);
  mixer.clipAction(parsed.clip).play();
  mixer.setTime(t);
  root.updateMatrixWorld(true);
  const out: Record<string, [number, number, number]> = {};
  for (const b of parsed.skeleton.bones) {
    if (!names.includes(b.name)) continue;
    const v = b.getWorldPosition(new three.Vector3());
    out[b.name] = [v.x, v.y, v.z];
  }
  return out;
}

// ---------------------------------------------------------------- Blender (headless)

const run = promisify(execFile);

/** The Blender executable, or null when not installed. In CI (`CI=true`) its absence is an error. */
export function blenderPath(): string | null {
  for (const p of ['/usr/bin/blender', '/usr/local/bin/blender']) if (existsSync(p)) return p;
  if (process.env.CI === 'true')
    throw new Error('CI=true but blender is not installed (scripts/system-deps.sh --test)');
  return null;
}

const BVH_INSPECTOR = `
import bpy, sys, builtins, json
path = sys.argv[sys.argv.index("--") + 1]
bpy.ops.wm.read_factory_settings(use_empty=True)
import io_anim_bvh.import_bvh as ib
# Debian's Python 3.11 removed the 'rU' open mode the importer uses.
ib.open = lambda f, mode='r', *a, **k: builtins.open(f, mode.replace('U', ''), *a, **k)
bpy.ops.import_anim.bvh(filepath=path, update_scene_fps=True, update_scene_duration=True)
sc = bpy.context.scene
arm = [o for o in sc.objects if o.type == 'ARMATURE'][0]
act = bpy.data.actions[0]
print("RESULT " + json.dumps({
  "fps": sc.render.fps / sc.render.fps_base,
  "bones": [b.name for b in arm.data.bones],
  "parents": [b.parent.name if b.parent else None for b in arm.data.bones],
  "frameRange": list(act.frame_range),
}))
`;

export interface BlenderBvh {
  fps: number;
  bones: string[];
  parents: (string | null)[];
  frameRange: [number, number];
}

/** Imports a BVH file in Blender 3.4 headless and reports the armature and action. */
export function blenderImportBvh(blender: string, file: string): Promise<BlenderBvh> {
  return blenderResult<BlenderBvh>(blender, BVH_INSPECTOR, [file]);
}

/**
 * Runs a Python script in headless Blender (factory settings; `args` after `--`) and returns the JSON it printed
 * on its `RESULT ` line.
 */
export async function blenderResult<T>(
  exe: string,
  script: string,
  args: string[],
  maxBuffer = 64 << 20,
): Promise<T> {
  const { stdout } = await run(
    exe,
    ['-b', '--factory-startup', '--python-exit-code', '3', '--python-expr', script, '--', ...args],
    { maxBuffer },
  );
  const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`blender printed no result:\n${stdout.slice(-3000)}`);
  return JSON.parse(line.slice(7)) as T;
}

/**
 * Python lines for the body of a `for path in ...:` loop in a Blender script: an empty scene, then the file
 * imported by its extension (FBX, BVH with Debian's Python 3.11 fix for the importer's 'rU' open mode), `other`
 * the branch for anything else (glTF).
 */
export const blenderImportByExtension = (other: string): string => `
    bpy.ops.wm.read_factory_settings(use_empty=True)
    ext = os.path.splitext(path)[1].lower()
    if ext == '.fbx':
        bpy.ops.import_scene.fbx(filepath=path)
    elif ext == '.bvh':
        import io_anim_bvh.import_bvh as ib
        ib.open = lambda f, mode='r', *a, **k: builtins.open(f, mode.replace('U', ''), *a, **k)
        bpy.ops.import_anim.bvh(filepath=path, update_scene_fps=True, update_scene_duration=True)
${other}`;

// ---------------------------------------------------------------- fbx2json (Blender's binary FBX dumper)

/** Blender's FBX add-on folder: its fbx2json.py reads a binary FBX into a node tree. */
export const FBX2JSON_DIR = '/usr/share/blender/scripts/addons/io_scene_fbx';
export const haveFbx2Json = existsSync(join(FBX2JSON_DIR, 'fbx2json.py'));

/**
 * The prelude of every fbx2json script: `root` the FBX node tree, `version` the FBX version, `first(e, name)`
 * the first child of e with that id (or None), `objs` and `conns` the Objects and Connections nodes.
 */
const FBX2JSON_PY = `
import sys, json, math
sys.path.insert(0, sys.argv[1])
import fbx2json
root, version = fbx2json.parse(sys.argv[2])
def first(e, name):
    for c in e.elems:
        if c.id == name: return c
    return None
objs = first(root, b'Objects')
conns = first(root, b'Connections')
`;

/**
 * Runs the Python `body` after the fbx2json prelude on an FBX file (further arguments from sys.argv[3]) and
 * returns the JSON it printed.
 */
export async function fbx2json<T>(body: string, file: string, ...args: string[]): Promise<T> {
  const { stdout } = await run('python3', ['-c', FBX2JSON_PY + body, FBX2JSON_DIR, file, ...args], {
    maxBuffer: 64 << 20,
  });
  return JSON.parse(stdout) as T;
}

// ---------------------------------------------------------------- Unity .anim (YAML) as the tests read it

export interface AnimKey {
  time: number;
  value: Record<string, number>;
  inSlope: Record<string, number>;
  outSlope: Record<string, number>;
}
export interface AnimClip {
  m_RotationCurves: { curve: { m_Curve: AnimKey[] }; path: string }[];
  m_PositionCurves: { curve: { m_Curve: AnimKey[] }; path: string }[];
  m_SampleRate: number;
  m_ClipBindingConstant: { genericBindings: { path: number; attribute: number }[] };
}

/**
 * Samples a curve at time t as Unity plays it: cubic Hermite between keys (outSlope of the left key, inSlope of
 * the right one; weightedMode 0).
 */
export function sampleAnimCurve(keys: AnimKey[], t: number): number[] {
  let i = 0;
  while (i + 1 < keys.length && keys[i + 1].time <= t + 1e-9) i++;
  const a = keys[i];
  const b = keys[Math.min(i + 1, keys.length - 1)];
  const dt = b.time - a.time;
  const s = dt > 0 ? Math.min(1, Math.max(0, (t - a.time) / dt)) : 0;
  const h00 = 2 * s ** 3 - 3 * s ** 2 + 1;
  const h10 = s ** 3 - 2 * s ** 2 + s;
  const h01 = -2 * s ** 3 + 3 * s ** 2;
  const h11 = s ** 3 - s ** 2;
  return Object.keys(a.value).map(
    (k) => h00 * a.value[k] + h10 * dt * a.outSlope[k] + h01 * b.value[k] + h11 * dt * b.inSlope[k],
  );
}

// ---------------------------------------------------------------- the CLI

const MOCAP_CLI = join(here, '..', '..', '..', 'apps', 'cli', 'bin', 'mocap.js');

/** Runs the real CLI entry point (`node apps/cli/bin/mocap.js <args>`). */
export const mocap = (...args: string[]) => run('node', [MOCAP_CLI, ...args]);

/** Writes the synthetic walk's tracks (its first `maxFrames` frames) to `<dir>/walk.tracks.json`: a convert input. */
export function walkTracksFile(dir: string, maxFrames: number): string {
  const input = join(dir, 'walk.tracks.json');
  const syn = syntheticFrom('bandai_namco/dataset-1_walk_normal_001.bvh', { maxFrames });
  writeFileSync(input, JSON.stringify(syn.tracks));
  return input;
}

// ---------------------------------------------------------------- figures

/** Mean acceleration magnitude of all joints (m/s²): the jitter figure. */
export function jitter(clip: MotionClip): number {
  const n = jointCount(clip.skeleton);
  const { positions } = forwardKinematics(clip);
  let s = 0;
  let c = 0;
  for (let f = 1; f + 1 < clip.frameCount; f++) {
    for (let j = 0; j < n; j++) {
      const a = readVec3(positions, (f - 1) * n + j);
      const b = readVec3(positions, f * n + j);
      const d = readVec3(positions, (f + 1) * n + j);
      s += Math.hypot(a[0] - 2 * b[0] + d[0], a[1] - 2 * b[1] + d[1], a[2] - 2 * b[2] + d[2]);
      c++;
    }
  }
  return (s / c) * clip.fps ** 2;
}
