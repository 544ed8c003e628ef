import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { createOverlayWriter, decodeFrames, probeVideo, type Tracks, trackProbedVideo } from '@mocap/vision';
import { ProgressBar } from '../progress.ts';
import { type Command, UsageError } from './types.ts';

const USAGE = `mocap track <video> -o tracks.json [options]

Tracks the main person in a video: 33 body landmarks per frame (image pixels and metres), optionally both
hands (21 points each) and the face mesh (468 points + iris).

Options:
  -o, --output <file>       tracks JSON to write (required)
  --model lite|full|heavy   body landmark model (default heavy)
  --hands                   also track both hands
  --face                    also track the face mesh and irises
  --backend ort|tfjs        onnxruntime (default) or the tfjs-wasm reference
  --overlay <out.mp4>       render the landmarks over the video
  --workers <n>             parallel shares (default: one per core)
  --inference-width <px>    downscale wider frames before inference (default 960, 0 = never)`;

export function parseEnum<T extends string>(
  name: string,
  value: string | undefined,
  allowed: readonly T[],
  dflt: T,
): T {
  if (value === undefined) return dflt;
  if (!allowed.includes(value as T))
    throw new UsageError(`--${name} must be one of ${allowed.join(', ')} (got '${value}')`);
  return value as T;
}

export function parseNumber(
  name: string,
  value: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max)
    throw new UsageError(`--${name} must be a number from ${min} to ${max} (got '${value}')`);
  return n;
}

export const track: Command = {
  summary: 'video → per-frame body (and hand/face) landmarks, tracks.json',
  usage: USAGE,
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        output: { type: 'string', short: 'o' },
        model: { type: 'string' },
        hands: { type: 'boolean', default: false },
        face: { type: 'boolean', default: false },
        backend: { type: 'string' },
        overlay: { type: 'string' },
        workers: { type: 'string' },
        'inference-width': { type: 'string' },
      },
    });
    if (positionals.length !== 1) throw new UsageError('give exactly one video file');
    if (!values.output) throw new UsageError('-o/--output is required');
    const info = await probeVideo(positionals[0]);
    const bar = new ProgressBar({ label: 'tracking' });
    const tracks = await trackProbedVideo(info, {
      model: parseEnum('model', values.model, ['lite', 'full', 'heavy'] as const, 'heavy'),
      backend: parseEnum('backend', values.backend, ['ort', 'tfjs'] as const, 'ort'),
      hands: values.hands,
      face: values.face,
      workers: parseNumber('workers', values.workers, 1, 64),
      inferenceWidth: parseNumber('inference-width', values['inference-width'], 0, 16384),
      onProgress: ({ done, total }) => bar.update(done, total),
    });
    await mkdir(dirname(values.output), { recursive: true });
    await writeFile(values.output, JSON.stringify(tracks));
    const found = tracks.frames.filter((f) => f.state !== 'lost').length;
    process.stderr.write(
      `${values.output}: ${tracks.frames.length} frames, person found on ${found} (${tracks.frames.length ? Math.round((100 * found) / tracks.frames.length) : 0} %)\n`,
    );
    for (const w of tracks.warnings) process.stderr.write(`warning: ${w}\n`);
    if (values.overlay) await renderOverlay(info, tracks, values.overlay);
    return 0;
  },
};

async function renderOverlay(
  info: Awaited<ReturnType<typeof probeVideo>>,
  tracks: Tracks,
  out: string,
): Promise<void> {
  await mkdir(dirname(out), { recursive: true });
  const bar = new ProgressBar({ label: 'overlay ' });
  const writer = await createOverlayWriter(out, { width: info.width, height: info.height, fps: info.fps });
  try {
    for await (const frame of decodeFrames(info)) {
      await writer.write(frame, tracks.frames[frame.index]);
      bar.update(frame.index + 1, info.frameCount);
    }
  } finally {
    await writer.close();
  }
  process.stderr.write(`${out}: overlay written\n`);
}
