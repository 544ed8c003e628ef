/** Shared test helpers: test data paths, a random clip, independent readers (three.js, Blender). */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { mulberry32, type SyntheticOptions, synthesize } from '@mocap/testkit';
import { type MotionClip, restClip } from '../src/clip.ts';
import { read as readBvh } from '../src/formats/bvh.ts';
import { qExp, writeQuat } from '../src/math.ts';
import { createSkeleton } from '../src/skeleton.ts';

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
export async function blenderImportBvh(blender: string, file: string): Promise<BlenderBvh> {
  const { stdout } = await run(
    blender,
    ['-b', '--factory-startup', '--python-exit-code', '3', '--python-expr', BVH_INSPECTOR, '--', file],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`blender printed no result:\n${stdout.slice(-2000)}`);
  return JSON.parse(line.slice(7)) as BlenderBvh;
}
