/**
 * The file side of uploads (an adapter: services get it as `FilePort`): temp files under DATA_DIR/tmp, md5,
 * and the content check — ffprobe through `probeVideo` of `@mocap/vision` plus the container brand read from
 * the file itself, so a QuickTime .mov renamed .mp4 or a text file named .mp4 are told apart from MP4.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, mkdirSync } from 'node:fs';
import { open, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isVideoError, probeVideo } from '@mocap/vision';
import { AppError, Codes, DefaultMessages } from '../../errors.ts';
import type { FilePort, ProbedFile } from '../../modules/video/ports.ts';

/** Reads the `ftyp` box: MP4 family brands (isom, mp41, mp42, avc1, iso2..6, dash, M4V…), not QuickTime `qt  `. */
export async function mp4Brand(path: string): Promise<string | null> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(32);
    const { bytesRead } = await fh.read(buf, 0, 32, 0);
    if (bytesRead < 12 || buf.toString('latin1', 4, 8) !== 'ftyp') return null;
    const major = buf.toString('latin1', 8, 12);
    if (major === 'qt  ') return null;
    return major;
  } finally {
    await fh.close();
  }
}

async function probeOnce(path: string): Promise<ProbedFile> {
  const none = { mp4: false, durationS: 0, width: 0, height: 0, fps: 0, frameCount: 0 };
  const brand = await mp4Brand(path).catch(() => null);
  if (!brand) return { ...none, problem: 'not an MP4 file (no ftyp box of the MP4 family)' };
  try {
    const info = await probeVideo(path, { timeoutMs: 30_000 });
    if (!/mp4/.test(info.container)) return { ...none, problem: `container ${info.container}` };
    return {
      mp4: true,
      durationS: info.duration,
      width: info.width,
      height: info.height,
      fps: info.fps,
      frameCount: info.frameCount,
    };
  } catch (err) {
    // A probe that timed out says nothing about the file: the server is overloaded (501, retry later).
    if (isVideoError(err, 'timeout')) throw new AppError(Codes.BUSY, DefaultMessages[Codes.BUSY]);
    if (isVideoError(err)) return { ...none, problem: err.message };
    throw err;
  }
}

/** At most `n` tasks at once (ffprobe runs: a burst of uploads must not starve a 2-core machine). */
function limiter(n: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    while (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

/** What every upload's file port does with a file on disk: its md5, its size, removing it. */
export const fileBasics = {
  md5(path: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const h = createHash('md5');
      createReadStream(path)
        .on('data', (c) => h.update(c))
        .on('end', () => resolve(h.digest('hex')))
        .on('error', reject);
    });
  },
  async size(path: string): Promise<number> {
    return (await stat(path)).size;
  },
  async remove(path: string): Promise<void> {
    await rm(path, { force: true });
  },
};

export function createFilePort(tmpDir: string, options: { probeConcurrency?: number } = {}): FilePort {
  mkdirSync(tmpDir, { recursive: true });
  const limit = limiter(options.probeConcurrency ?? 3);
  return {
    probe: (path: string) => limit(() => probeOnce(path)),
    ...fileBasics,
    tempPath(ext: string): string {
      return join(tmpDir, `${randomUUID()}${ext}`);
    },
  };
}
