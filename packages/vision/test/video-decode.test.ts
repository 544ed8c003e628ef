import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeFrames,
  decodeImage,
  type Frame,
  ffmpegPath,
  ffprobePath,
  outputSize,
  probeVideo,
  readFrameAt,
  run,
  VideoError,
  type VideoInfo,
} from '../src/video/index.ts';
import {
  CLIPS,
  childPids,
  isAlive,
  makeRotated,
  makeShortGopClip,
  makeTempDir,
  makeTextFile,
  makeTruncated,
  makeUndecodable,
  makeVfr,
  POSE_JPG,
  removeDir,
  waitFor,
} from './fixtures/video-fixtures.ts';

async function decodeAll(info: VideoInfo, opts: Parameters<typeof decodeFrames>[1] = {}): Promise<Frame[]> {
  const frames: Frame[] = [];
  for await (const f of decodeFrames(info, opts)) frames.push(f);
  return frames;
}

function meanAbsDiff(a: Uint8Array, b: Uint8Array): number {
  expect(a.length).toBe(b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(
    Buffer.from(b.buffer, b.byteOffset, b.byteLength),
  );
}

/** Rotates an rgb24 frame clockwise by `deg`. */
function rotateCw(f: Frame, deg: 90 | 180 | 270): Frame {
  const { width: w, height: h, data } = f;
  const [ow, oh] = deg === 180 ? [w, h] : [h, w];
  const out = new Uint8Array(data.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const [nx, ny] = deg === 90 ? [h - 1 - y, x] : deg === 180 ? [w - 1 - x, h - 1 - y] : [y, w - 1 - x];
      const s = (y * w + x) * 3;
      const d = (ny * ow + nx) * 3;
      out[d] = data[s]!;
      out[d + 1] = data[s + 1]!;
      out[d + 2] = data[s + 2]!;
    }
  }
  return { ...f, width: ow, height: oh, data: out };
}

/** Checks that decoding [0, n) in one go equals [0, k) + [k, n) decoded separately, for each k. */
async function expectExactSplits(info: VideoInfo, n: number, ks: number[], width: number) {
  const whole = await decodeAll(info, { endFrame: n, width });
  expect(whole.map((f) => f.index)).toEqual([...Array(n).keys()]);
  for (const k of ks) {
    // Neighbouring frames differ, so an off-by-one in the numbering could not go unnoticed.
    expect(sameBytes(whole[k - 1]!.data, whole[k]!.data)).toBe(false);
    const [head, tail] = await Promise.all([
      decodeAll(info, { startFrame: 0, endFrame: k, width, threads: 1 }),
      decodeAll(info, { startFrame: k, endFrame: n, width, threads: 1 }),
    ]);
    const joined = [...head, ...tail];
    expect(joined.map((f) => f.index)).toEqual([...Array(n).keys()]);
    expect(joined.map((f) => f.time)).toEqual(info.frameTimes.slice(0, n));
    for (let i = 0; i < n; i++) {
      if (!sameBytes(joined[i]!.data, whole[i]!.data)) {
        expect(
          meanAbsDiff(joined[i]!.data, whole[i]!.data),
          `frame ${i} with the split at ${k}`,
        ).toBeLessThan(0.5);
      }
    }
  }
}

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir();
});
afterAll(() => removeDir(dir));

describe('decodeFrames', () => {
  it('streams every frame at native size as tightly packed rgb24 with its time', async () => {
    const info = await probeVideo(CLIPS.treadmill);
    const frames = await decodeAll(info);
    expect(frames).toHaveLength(90);
    frames.forEach((f, i) => {
      expect(f.index).toBe(i);
      expect(f.time).toBe(info.frameTimes[i]);
      expect([f.width, f.height]).toEqual([720, 720]);
      expect(f.data).toBeInstanceOf(Uint8Array);
      expect(f.data.length).toBe(720 * 720 * 3);
    });
    // Real picture content, and each frame owns its buffer.
    expect(meanAbsDiff(frames[0]!.data, new Uint8Array(frames[0]!.data.length))).toBeGreaterThan(20);
    expect(frames[0]!.data.buffer).not.toBe(frames[1]!.data.buffer);
  });

  it('matches ffmpeg decoding the same frame to an image (colours and orientation)', async () => {
    const info = await probeVideo(CLIPS.portrait);
    const frame = await readFrameAt(info, 0);
    const png = path.join(dir, 'portrait0.png');
    const r = await run(ffmpegPath(), ['-v', 'error', '-y', '-i', CLIPS.portrait, '-frames:v', '1', png]);
    expect(r.code).toBe(0);
    const ref = await decodeImage(png);
    expect([ref.width, ref.height]).toEqual([1080, 1920]);
    expect(meanAbsDiff(frame.data, ref.data)).toBeLessThan(2);
  });

  it('downscales to the requested width, keeping the aspect ratio with even sizes, never upscaling', async () => {
    expect(outputSize({ width: 1920, height: 1080 }, 960)).toEqual({ width: 960, height: 540 });
    expect(outputSize({ width: 1920, height: 1080 }, 321)).toEqual({ width: 320, height: 180 });
    expect(outputSize({ width: 1080, height: 1920 }, 540)).toEqual({ width: 540, height: 960 });
    expect(outputSize({ width: 1768, height: 994 }, 500)).toEqual({ width: 500, height: 282 });
    expect(outputSize({ width: 640, height: 360 }, 1280)).toEqual({ width: 640, height: 360 });

    const info = await probeVideo(CLIPS.studioDance);
    const small = await decodeAll(info, { width: 960, endFrame: 3 });
    expect(small.map((f) => [f.width, f.height, f.data.length])).toEqual(
      Array(3).fill([960, 540, 960 * 540 * 3]),
    );
    const portrait = await readFrameAt(await probeVideo(CLIPS.portrait), 5, { width: 541 });
    expect([portrait.width, portrait.height]).toEqual([540, 960]);
    const notUp = await readFrameAt(await probeVideo(CLIPS.treadmill), 0, { width: 4000 });
    expect([notUp.width, notUp.height]).toEqual([720, 720]);
  });

  it('a downscaled frame looks like the full-size frame', async () => {
    const info = await probeVideo(CLIPS.taiji);
    const full = await readFrameAt(info, 100);
    const half = await readFrameAt(info, 100, { width: 640 });
    // Box-average the full frame 2x2 and compare.
    const avg = new Uint8Array(640 * 360 * 3);
    for (let y = 0; y < 360; y++) {
      for (let x = 0; x < 640; x++) {
        for (let c = 0; c < 3; c++) {
          const at = (yy: number, xx: number) => full.data[(yy * 1280 + xx) * 3 + c]!;
          avg[(y * 640 + x) * 3 + c] =
            (at(2 * y, 2 * x) + at(2 * y, 2 * x + 1) + at(2 * y + 1, 2 * x) + at(2 * y + 1, 2 * x + 1)) / 4;
        }
      }
    }
    expect(meanAbsDiff(half.data, avg)).toBeLessThan(3);
  });

  it('numbers frames exactly across split shares: H.264 with B-frames (split around its key frame 81)', async () => {
    const info = await probeVideo(CLIPS.studioDance);
    expect(info.keyFrames).toContain(81);
    await expectExactSplits(info, 300, [80, 81, 82], 320);
  });

  it('numbers frames exactly across split shares: VP9 (key frames every 60)', async () => {
    const info = await probeVideo(CLIPS.vp9);
    await expectExactSplits(info, 230, [59, 60, 61], 442);
  });

  it('numbers frames exactly across split shares: open-GOP H.264 with 3 B-frames, at every key frame ±1', async () => {
    const info = await probeVideo(await makeShortGopClip(dir));
    expect(info.keyFrames.length).toBeGreaterThan(8);
    const ks = info.keyFrames
      .filter((k) => k > 0)
      .flatMap((k) => [k - 1, k, k + 1])
      .filter((k) => k < 120);
    await expectExactSplits(info, 120, [...new Set(ks)], 320);
  });

  it('decodes a share from its middle without decoding from the start (seeks to the key frame)', async () => {
    const info = await probeVideo(CLIPS.taiji);
    const last = info.keyFrames.at(-1)!;
    const frames = await decodeAll(info, { startFrame: last + 2, endFrame: last + 5, width: 320 });
    expect(frames.map((f) => f.index)).toEqual([last + 2, last + 3, last + 4]);
    const ref = await decodeAll(info, { width: 320 });
    for (const f of frames) expect(sameBytes(f.data, ref[f.index]!.data)).toBe(true);
  });

  it('rejects invalid ranges and yields nothing for an empty one', async () => {
    const info = await probeVideo(CLIPS.treadmill);
    await expect(decodeAll(info, { startFrame: -1 })).rejects.toThrow(RangeError);
    await expect(decodeAll(info, { endFrame: 91 })).rejects.toThrow(
      /endFrame must be an integer in \[0, 90\]/,
    );
    await expect(decodeAll(info, { startFrame: 10, endFrame: 5 })).rejects.toThrow(RangeError);
    await expect(decodeAll(info, { startFrame: 1.5 })).rejects.toThrow(RangeError);
    expect(await decodeAll(info, { startFrame: 7, endFrame: 7 })).toEqual([]);
    await expect(readFrameAt(info, 90)).rejects.toThrow(RangeError);
  });
});

describe('decodeFrames: orientation and timing', () => {
  it.each([90, 180, 270] as const)(
    'applies a %i degree rotation flag: frames come out upright',
    async (deg) => {
      const src = await probeVideo(CLIPS.taiji);
      const rotated = await probeVideo(await makeRotated(CLIPS.taiji, dir, deg));
      const original = await readFrameAt(src, 30);
      const frame = await readFrameAt(rotated, 30);
      const expected = rotateCw(original, deg);
      expect([frame.width, frame.height]).toEqual([rotated.width, rotated.height]);
      expect([frame.width, frame.height]).toEqual([expected.width, expected.height]);
      expect(meanAbsDiff(frame.data, expected.data)).toBeLessThan(3);
      if (deg !== 180) {
        // The other direction would be clearly wrong.
        const wrong = rotateCw(original, deg === 90 ? 270 : 90);
        expect(meanAbsDiff(frame.data, wrong.data)).toBeGreaterThan(15);
      }
      const small = await readFrameAt(rotated, 30, { width: 360 });
      expect([small.width, small.height]).toEqual(deg === 180 ? [360, 202] : [360, 640]);
    },
  );

  it('passes every frame of a VFR clip through with its real time (no duplicated or dropped frames)', async () => {
    const info = await probeVideo(await makeVfr(dir));
    expect(info.vfr).toBe(true);
    const frames = await decodeAll(info);
    expect(frames).toHaveLength(info.frameTimes.length);
    expect(frames.map((f) => f.time)).toEqual(info.frameTimes);
    const tail = await decodeAll(info, { startFrame: 12 });
    expect(tail.map((f) => f.index)).toEqual(frames.slice(12).map((f) => f.index));
    for (const f of tail) expect(sameBytes(f.data, frames[f.index]!.data)).toBe(true);
  });
});

describe('decodeFrames: ffmpeg never outlives the consumer', () => {
  it('kills ffmpeg when the consumer breaks early', async () => {
    const info = await probeVideo(CLIPS.studioDance);
    const before = new Set(childPids());
    let pid: number | undefined;
    let n = 0;
    for await (const f of decodeFrames(info)) {
      expect(f.index).toBe(n);
      n++;
      if (n === 2) {
        pid = childPids().find((p) => !before.has(p));
        break;
      }
    }
    expect(pid).toBeDefined();
    expect(isAlive(pid!)).toBe(false);
    expect(childPids().filter((p) => !before.has(p))).toEqual([]);
  });

  it('kills ffmpeg and throws the reason on abort', async () => {
    const info = await probeVideo(CLIPS.studioDance);
    const ac = new AbortController();
    const before = new Set(childPids());
    let pid: number | undefined;
    const seen: number[] = [];
    const consume = async () => {
      for await (const f of decodeFrames(info, { signal: ac.signal })) {
        seen.push(f.index);
        pid ??= childPids().find((p) => !before.has(p));
        if (f.index === 3) ac.abort(new Error('user cancelled'));
      }
    };
    await expect(consume()).rejects.toThrow('user cancelled');
    expect(seen).toEqual([0, 1, 2, 3]);
    expect(pid).toBeDefined();
    expect(isAlive(pid!)).toBe(false);
    const aborted = AbortSignal.abort();
    await expect(decodeAll(info, { signal: aborted })).rejects.toThrow(/abort/i);
  });

  it('kills ffmpeg when the consumer throws', async () => {
    const info = await probeVideo(CLIPS.taiji);
    const before = new Set(childPids());
    let pid: number | undefined;
    const consume = async () => {
      for await (const _ of decodeFrames(info)) {
        pid = childPids().find((p) => !before.has(p));
        throw new Error('tracker failed');
      }
    };
    await expect(consume()).rejects.toThrow('tracker failed');
    expect(pid).toBeDefined();
    expect(isAlive(pid!)).toBe(false);
  });

  it('respects backpressure: ffmpeg stops writing while the consumer holds a frame', async () => {
    const info = await probeVideo(CLIPS.studioDance);
    const frameBytes = 1920 * 1080 * 3;
    const before = new Set(childPids());
    const gen = decodeFrames(info);
    const first = await gen.next();
    expect(first.done).toBe(false);
    const pid = childPids().find((p) => !before.has(p))!;
    expect(pid).toBeDefined();
    const written = () => Number(/wchar:\s*(\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))![1]);
    // Wait until ffmpeg is blocked on the full pipe: its written byte count stops changing.
    let last = -1;
    let stableSince = Date.now();
    await waitFor(
      () => {
        const w = written();
        if (w !== last) {
          last = w;
          stableSince = Date.now();
        }
        return Date.now() - stableSince > 300;
      },
      30_000,
      'ffmpeg to block',
    );
    // The whole clip is 300 frames (1.9 GB); ffmpeg may only be a few frames ahead.
    expect(written()).toBeLessThan(4 * frameBytes);
    expect(isAlive(pid)).toBe(true);
    await gen.return(undefined);
    expect(isAlive(pid)).toBe(false);
  });
});

describe('decodeFrames: damaged files', () => {
  it('a file cut at 40 % yields the frames that decode, then warns', async () => {
    const info = await probeVideo(await makeTruncated(CLIPS.walkingMovingCamera, dir, 0.4));
    const warnings: string[] = [];
    const t0 = Date.now();
    const frames = await decodeAll(info, { width: 480, onWarning: (m) => warnings.push(m) });
    expect(Date.now() - t0).toBeLessThan(30_000);
    expect(frames.length).toBeGreaterThan(20);
    expect(frames.length).toBeLessThanOrEqual(info.frameCount);
    expect(frames.map((f) => f.index)).toEqual([...Array(frames.length).keys()]);
    if (frames.length < info.frameCount) {
      expect(warnings.join('\n')).toMatch(/only \d+ of the \d+ frames .*truncated/);
    }
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings[0]).toContain(info.file);
  });

  it('a video without one decodable frame → VideoError decode_failed', async () => {
    const info = await probeVideo(await makeUndecodable(CLIPS.treadmill, dir));
    const err = await decodeAll(info).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VideoError);
    expect((err as VideoError).code).toBe('decode_failed');
    expect((err as VideoError).message).toContain('treadmill');
  });

  it('ffmpeg producing nothing within the stall limit → VideoError timeout, ffmpeg killed', async () => {
    const info = await probeVideo(CLIPS.studioDance);
    const err = await decodeAll(info, { stallTimeoutMs: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VideoError);
    expect((err as VideoError).code).toBe('timeout');
    expect(childPids()).toEqual([]);
  });

  it('a file that disappeared after probing → VideoError decode_failed, no hang', async () => {
    const info = await probeVideo(CLIPS.treadmill);
    const gone = { ...info, path: path.join(dir, 'deleted.mp4'), file: 'deleted.mp4' };
    const err = await decodeAll(gone).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VideoError);
    expect((err as VideoError).code).toBe('decode_failed');
  });
});

describe('decodeImage', () => {
  it('decodes the pose test JPEG to one rgb24 frame', async () => {
    const img = await decodeImage(POSE_JPG);
    const r = await run(ffprobePath(), [
      '-v',
      'error',
      '-show_entries',
      'stream=width,height',
      '-of',
      'csv=p=0',
      POSE_JPG,
    ]);
    const [w, h] = r.stdout.toString().trim().split(',').map(Number);
    expect([img.width, img.height]).toEqual([w, h]);
    expect(img.index).toBe(0);
    expect(img.time).toBe(0);
    expect(img.data.length).toBe(w! * h! * 3);
    expect(meanAbsDiff(img.data, new Uint8Array(img.data.length))).toBeGreaterThan(20);
    const small = await decodeImage(POSE_JPG, { width: 100 });
    expect(small.width).toBe(100);
    expect(small.height).toBe(2 * Math.round((h! * 100) / w! / 2));
  });

  it('fails with a VideoError for missing, empty and non-image files', async () => {
    await expect(decodeImage(path.join(dir, 'none.jpg'))).rejects.toMatchObject({ code: 'not_found' });
    await expect(decodeImage(await makeTextFile(dir, 'photo.jpg'))).rejects.toMatchObject({
      code: 'not_a_video',
      message: expect.stringContaining('"photo.jpg"'),
    });
  });
});
