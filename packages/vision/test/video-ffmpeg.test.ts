import { statSync } from 'node:fs';
import { chmod, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureExecutable, ffmpegPath, ffprobePath, findOnPath, run } from '../src/video/index.ts';
import { isAlive, makeTempDir, removeDir } from './fixtures/video-fixtures.ts';

const require = createRequire(import.meta.url);
const saved = {
  PATH: process.env.PATH,
  FFMPEG_PATH: process.env.FFMPEG_PATH,
  FFPROBE_PATH: process.env.FFPROBE_PATH,
};

function restoreEnv() {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
}

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir();
});
afterAll(() => removeDir(dir));
afterEach(restoreEnv);

describe('ffmpegPath / ffprobePath', () => {
  it('uses the binaries on PATH when there are some', () => {
    delete process.env.FFMPEG_PATH;
    delete process.env.FFPROBE_PATH;
    const onPath = findOnPath('ffmpeg');
    expect(onPath).toBeDefined();
    expect(ffmpegPath()).toBe(onPath);
    expect(ffprobePath()).toBe(findOnPath('ffprobe'));
  });

  it('falls back to the @ffmpeg-installer / @ffprobe-installer binaries, executable, when PATH has none', async () => {
    delete process.env.FFMPEG_PATH;
    delete process.env.FFPROBE_PATH;
    process.env.PATH = dir;
    const ff = ffmpegPath();
    const fp = ffprobePath();
    expect(ff).toBe((require('@ffmpeg-installer/ffmpeg') as { path: string }).path);
    expect(fp).toBe((require('@ffprobe-installer/ffprobe') as { path: string }).path);
    for (const bin of [ff, fp]) {
      expect(statSync(bin).mode & 0o100).toBe(0o100);
      const r = await run(bin, ['-version'], { timeoutMs: 30_000 });
      expect(r.code).toBe(0);
      expect(r.stdout.toString()).toMatch(/^ff(mpeg|probe) version/);
    }
  });

  it('honours FFMPEG_PATH / FFPROBE_PATH and rejects a wrong one clearly', async () => {
    const fake = path.join(dir, 'my-ffmpeg');
    await writeFile(fake, '#!/bin/sh\necho fake\n');
    await chmod(fake, 0o755);
    process.env.FFMPEG_PATH = fake;
    process.env.FFPROBE_PATH = fake;
    expect(ffmpegPath()).toBe(fake);
    expect(ffprobePath()).toBe(fake);
    process.env.FFMPEG_PATH = path.join(dir, 'missing-ffmpeg');
    expect(() => ffmpegPath()).toThrow(/FFMPEG_PATH.*missing-ffmpeg.*not an executable/);
  });

  it('makes a non-executable binary executable (the skipped postinstall chmod)', async () => {
    const file = path.join(dir, 'tool');
    await writeFile(file, '#!/bin/sh\nexit 0\n');
    await chmod(file, 0o644);
    expect(ensureExecutable(file)).toBe(file);
    expect(statSync(file).mode & 0o777).toBe(0o755);
    const r = await run(file, [], { timeoutMs: 10_000 });
    expect(r.code).toBe(0);
  });
});

describe('run', () => {
  it('collects stdout and the exit code', async () => {
    const r = await run(ffprobePath(), ['-version'], { timeoutMs: 30_000 });
    expect(r.code).toBe(0);
    expect(r.timedOut).toBe(false);
    expect(r.stdout.toString()).toContain('ffprobe version');
  });

  it('kills a command that runs past its time limit', async () => {
    const t0 = Date.now();
    // An endless encode: only the time limit stops it.
    const r = await run(ffmpegPath(), ['-nostdin', '-f', 'lavfi', '-i', 'testsrc2', '-f', 'null', '-'], {
      timeoutMs: 500,
    });
    expect(r.timedOut).toBe(true);
    expect(r.signal).toBe('SIGKILL');
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(r.pid).toBeDefined();
    expect(isAlive(r.pid!)).toBe(false);
  });

  it('kills the command on abort and rejects with the reason', async () => {
    const ac = new AbortController();
    const p = run(ffmpegPath(), ['-nostdin', '-f', 'lavfi', '-i', 'testsrc2', '-f', 'null', '-'], {
      timeoutMs: 60_000,
      signal: ac.signal,
    });
    ac.abort(new Error('stop now'));
    await expect(p).rejects.toThrow('stop now');
  });

  it('rejects when the command cannot be started', async () => {
    await expect(run(path.join(dir, 'no-such-binary'), [])).rejects.toThrow(/could not run .*no-such-binary/);
  });
});
