/**
 * The procedural characters must read as people to BlazePose (the quality harness renders them): a posed
 * character is rendered by Blender (Cycles, CPU, headless), turned into a short video and tracked with the
 * vision package's `trackVideo`; the person must be found with the body parts in anatomical order and the sides
 * right.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { trackVideo } from '@mocap/vision';
import { describe, expect, it } from 'vitest';
import { makeCharacter } from '../src/characters/index.ts';
import { restClip } from '../src/clip.ts';
import { write as writeGlb } from '../src/formats/gltf.ts';
import { qFromAxisAngle, writeQuat } from '../src/math.ts';
import { createSkeleton } from '../src/skeleton.ts';
import { blender } from './validators-b-helpers.ts';

const run = promisify(execFile);

const RENDER = `
import bpy, sys, math
import numpy
if not hasattr(numpy, "bool"): numpy.bool = bool
path, out = sys.argv[sys.argv.index("--") + 1:][:2]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=path)
sc = bpy.context.scene
sc.render.engine = 'CYCLES'; sc.cycles.samples = 6; sc.cycles.use_denoising = False
sc.render.resolution_x = 360; sc.render.resolution_y = 480
world = bpy.data.worlds.new("w"); sc.world = world; world.use_nodes = True
world.node_tree.nodes["Background"].inputs[0].default_value = (0.75, 0.78, 0.8, 1)
cam = bpy.data.cameras.new("cam"); cam.lens = 40
co = bpy.data.objects.new("cam", cam); sc.collection.objects.link(co); sc.camera = co
yaw = 0.35
co.location = (3.6 * math.sin(yaw), -3.6 * math.cos(yaw), 0.95); co.rotation_euler = (math.radians(90), 0, yaw)
ld = bpy.data.lights.new("sun", 'SUN'); ld.energy = 3
lo = bpy.data.objects.new("sun", ld); sc.collection.objects.link(lo); lo.rotation_euler = (0.8, 0.2, 0.5)
sc.frame_set(1)
sc.render.filepath = out
bpy.ops.render.render(write_still=True)
`;

describe('characters are recognised by BlazePose', () => {
  it.each(['boy', 'girl'] as const)('%s: tracked, parts in order, sides right', async (kind) => {
    const exe = blender();
    if (!exe) return;
    const sk = createSkeleton();
    const clip = restClip(sk, 2, 30);
    const n = sk.names.length;
    const D = Math.PI / 180;
    const pose: [string, [number, number, number], number][] = [
      ['leftUpperArm', [0, 0, 1], -62],
      ['rightUpperArm', [0, 0, 1], 62],
      ['leftForearm', [0, 1, 0], -25],
      ['rightForearm', [0, 1, 0], 25],
      ['leftThigh', [0, 0, 1], 6],
      ['rightThigh', [0, 0, 1], -6],
    ];
    for (const [joint, axis, deg] of pose)
      for (let f = 0; f < 2; f++)
        writeQuat(clip.rotations, f * n + sk.names.indexOf(joint), qFromAxisAngle(axis, deg * D));
    const dir = mkdtempSync(join(tmpdir(), 'mocap-char-'));
    const glb = join(dir, `${kind}.glb`);
    writeFileSync(glb, writeGlb(clip, { mesh: makeCharacter(kind, undefined, sk).meshes[0] }));
    const png = join(dir, `${kind}.png`);
    await run(
      exe,
      ['-b', '--factory-startup', '--python-exit-code', '3', '--python-expr', RENDER, '--', glb, png],
      {
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const mp4 = join(dir, `${kind}.mp4`);
    await run('ffmpeg', [
      '-loglevel',
      'error',
      '-y',
      '-loop',
      '1',
      '-i',
      png,
      '-t',
      '0.2',
      '-r',
      '30',
      '-pix_fmt',
      'yuv420p',
      mp4,
    ]);
    // The heavy model, as the product and the quality harness use. The lite model reads this girl's static
    // render with the sides swapped on most frames since the region follows the heatmap-refined points 33/34
    // (as MediaPipe does); full and heavy read it right.
    const tracks = await trackVideo(mp4, { model: 'heavy', workers: 1 });
    const frames = tracks.frames.filter((f) => f.state === 'tracked' && (f.score ?? 0) > 0.8);
    expect(frames.length).toBeGreaterThanOrEqual(Math.ceil(tracks.frames.length * 0.8));
    let sidesRight = 0;
    for (const f of frames) {
      const y = (i: number) => (f.image as number[][])[i][1];
      const x = (i: number) => (f.image as number[][])[i][0];
      // Image y grows downwards: nose < shoulders < hips < knees < ankles.
      expect(y(0)).toBeLessThan(Math.min(y(11), y(12)));
      expect(Math.max(y(11), y(12))).toBeLessThan(Math.min(y(23), y(24)));
      expect(Math.max(y(23), y(24))).toBeLessThan(Math.min(y(25), y(26)));
      expect(Math.max(y(25), y(26))).toBeLessThan(Math.min(y(27), y(28)));
      // Facing the camera: the subject's left shoulder, hip and ankle are on the image's right (BlazePose, like on
      // real people, may swap the sides on a single frame: counted below).
      if (x(11) > x(12) && x(23) > x(24) && x(27) > x(28)) sidesRight++;
      // Wrists below the shoulders (arms lowered in the pose).
      expect(y(15)).toBeGreaterThan(y(11));
      expect(y(16)).toBeGreaterThan(y(12));
    }
    expect(sidesRight).toBeGreaterThanOrEqual(Math.ceil(frames.length * 0.75));
  });
});
