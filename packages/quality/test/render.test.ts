/**
 * One small real render: Chromium (SwiftShader WebGL) + three.js + a BVH retargeted onto the X Bot, piped to
 * ffmpeg. Checks the video and that the ground truth agrees with the picture (the projected joints land on
 * the character). Skipped when Chromium or the test data are absent, unless CI=true.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { probeVideo } from '@mocap/vision';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHROMIUM_PATH,
  CLIPS,
  type GroundTruth,
  groundTruth,
  jointIndexOf,
  pageSpec,
  project,
  Renderer,
} from '../src/index.ts';

const DATA = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'shared', 'testdata');
const available = existsSync(CHROMIUM_PATH) && existsSync(DATA);
if (!available && process.env.CI === 'true') {
  throw new Error(`render test needs ${CHROMIUM_PATH} and ${DATA} under CI`);
}

describe.skipIf(!available)('renderer', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mocap-quality-test-'));
  const video = join(dir, 'clip.mp4');
  const W = 320;
  const H = 180;
  let renderer: Renderer;
  let gt: GroundTruth;
  beforeAll(async () => {
    renderer = await Renderer.open(DATA);
    const clip = CLIPS.find((c) => c.id === 'xbot-walk-front')!;
    const spec = { ...pageSpec(clip), width: W, height: H, frames: 3 };
    gt = groundTruth('test', spec, await renderer.render(spec, video));
  });
  afterAll(async () => {
    await renderer?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes an H.264 video with one frame per rendered pose', async () => {
    const info = await probeVideo(video);
    expect(info.width).toBe(W);
    expect(info.height).toBe(H);
    expect(info.frameCount).toBe(3);
    expect(gt.world).toHaveLength(3);
    expect(gt.world[0]).toHaveLength(gt.joints.length * 3);
  });

  it('ground truth is a standing body on the floor, seen by the camera', () => {
    const w = gt.world[1];
    const y = (name: Parameters<typeof jointIndexOf>[0]) => w[jointIndexOf(name) * 3 + 1];
    expect(y('head')).toBeGreaterThan(y('hips') + 0.4);
    expect(y('hips')).toBeGreaterThan(y('leftFoot') + 0.6);
    expect(Math.min(y('leftToes'), y('rightToes'))).toBeGreaterThan(-0.02);
    expect(Math.min(y('leftToes'), y('rightToes'))).toBeLessThan(0.15);
    // Camera space: in front of the camera (z < 0).
    expect(gt.camera[1][jointIndexOf('hips') * 3 + 2]).toBeLessThan(-1);
    expect(gt.intrinsics.fx).toBeGreaterThan(100);
  });

  it('projected joints land on the character (red-dominant X Bot), not on the sky', () => {
    const rgb = execFileSync('ffmpeg', [
      ...['-loglevel', 'error', '-i', video, '-vf', 'select=eq(n\\,1)', '-frames:v', '1'],
      ...['-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    ]);
    expect(rgb.length).toBe(W * H * 3);
    const redness = (u: number, v: number) => {
      let s = 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const o = ((Math.round(v) + dy) * W + Math.round(u) + dx) * 3;
          s += rgb[o] - rgb[o + 2];
        }
      }
      return s / 9;
    };
    const c = gt.camera[1];
    for (const name of ['hips', 'head'] as const) {
      const j = jointIndexOf(name);
      const [u, v] = project(gt.intrinsics, [c[j * 3], c[j * 3 + 1], c[j * 3 + 2]]);
      expect(u).toBeGreaterThan(2);
      expect(u).toBeLessThan(W - 2);
      expect(redness(u, v)).toBeGreaterThan(30);
    }
    expect(redness(3, 3)).toBeLessThan(10);
  });
});
