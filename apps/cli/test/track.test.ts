import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { probeVideo } from '@mocap/vision';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = resolve(import.meta.dirname, '../bin/mocap.js');
const SQUATS = resolve(
  import.meta.dirname,
  '../../../../shared/testdata/gt/tfjs_blazepose_movenet_reference/pose_squats.mp4',
);

const mocap = (args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 300_000 });

describe('mocap track', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mocap-cli-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes versioned tracks and an overlay video, with a progress bar', async () => {
    const out = join(dir, 'tracks.json');
    const overlay = join(dir, 'overlay.mp4');
    const r = mocap(['track', SQUATS, '-o', out, '--model', 'lite', '--overlay', overlay]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/tracking \[#+\] 100% 65\/65 frames/);
    const tracks = JSON.parse(await readFile(out, 'utf8'));
    expect(tracks.format).toBe('mocap-tracks');
    expect(tracks.version).toBe(1);
    expect(tracks.models.pose.name).toBe('blazepose-lite');
    expect(tracks.video).toMatchObject({ width: 720, height: 1280, frameCount: 65 });
    expect(tracks.frames).toHaveLength(65);
    expect(tracks.frames[10].image).toHaveLength(33);
    expect(tracks.frames[10].world).toHaveLength(33);
    const info = await probeVideo(overlay);
    expect(info.frameCount).toBe(65);
    expect([info.width, info.height]).toEqual([720, 1280]);
  });

  it('refuses bad arguments with exit code 2 and the usage', () => {
    const r = mocap(['track', SQUATS, '-o', join(dir, 'x.json'), '--model', 'giant']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--model must be one of lite, full, heavy/);
    expect(r.stderr).toMatch(/Usage|mocap track <video>/);
  });

  it('reports an unreadable video clearly, exit code 1', async () => {
    const r = mocap(['track', join(dir, 'missing.mp4'), '-o', join(dir, 'y.json')]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/missing\.mp4/);
  });
});
