/** Issue 13.3: the capture path tracks at most 60 frames per second; faster videos are resampled first. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeVideo } from '@mocap/vision';
import { afterAll, describe, expect, it } from 'vitest';
import { capFrameRate, resampledWarning, TRACK_MAX_FPS } from '../src/fps.ts';

const dir = mkdtempSync(join(tmpdir(), 'mocap-fps-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function clip(name: string, rate: number, seconds: number): string {
  const out = join(dir, name);
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', `testsrc=size=96x64:rate=${rate}:duration=${seconds}`],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', out],
  ]);
  return out;
}

describe('capFrameRate', () => {
  it('resamples a 200 fps clip to 60 fps (same duration, 60 frames a second) and says so', async () => {
    const src = await probeVideo(clip('fast.mp4', 200, 1.5));
    expect(src.frameCount).toBe(300);
    const work = mkdtempSync(join(dir, 'w-'));
    const r = await capFrameRate(src, work);
    expect(r.resampled).toBe(true);
    expect(r.info.fps).toBeCloseTo(TRACK_MAX_FPS, 0);
    expect(r.info.frameCount).toBeGreaterThanOrEqual(89);
    expect(r.info.frameCount).toBeLessThanOrEqual(91);
    expect(r.info.duration).toBeCloseTo(1.5, 1);
    expect(resampledWarning(src.fps, TRACK_MAX_FPS)).toBe(
      'the video has 200 frames per second: motion was tracked at 60 fps',
    );
  });

  it('leaves a 30 fps clip as it is', async () => {
    const src = await probeVideo(clip('normal.mp4', 30, 1));
    const r = await capFrameRate(src, mkdtempSync(join(dir, 'w-')));
    expect(r.resampled).toBe(false);
    expect(r.info).toBe(src);
  });
});
