import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createOverlayWriter, decodeFrames, probeVideo, type Tracks, trackProbedVideo } from '@mocap/vision';
import { ProgressBar } from '../progress.ts';
import { fileCommand, parseNumber, TRACKING_FLAGS, trackingOptions } from './options.ts';

const HELP = {
  summary: 'video → per-frame body (and hand/face) landmarks, tracks.json',
  input: 'video file',
  usage: `mocap track <video> -o tracks.json [options]

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
  --inference-width <px>    downscale wider frames before inference (default 960, 0 = never)`,
};

export const track = fileCommand(
  HELP,
  {
    ...TRACKING_FLAGS,
    overlay: { type: 'string' },
    workers: { type: 'string' },
    'inference-width': { type: 'string' },
  },
  async ({ values, input, output }) => {
    const info = await probeVideo(input);
    const bar = new ProgressBar({ label: 'tracking' });
    const tracks = await trackProbedVideo(info, {
      ...trackingOptions(values),
      workers: parseNumber('workers', values.workers, 1, 64),
      inferenceWidth: parseNumber('inference-width', values['inference-width'], 0, 16384),
      onProgress: ({ done, total }) => bar.update(done, total),
    });
    await mkdir(dirname(output), { recursive: true });
    await writeFile(output, JSON.stringify(tracks));
    const found = tracks.frames.filter((f) => f.state !== 'lost').length;
    process.stderr.write(
      `${output}: ${tracks.frames.length} frames, person found on ${found} (${tracks.frames.length ? Math.round((100 * found) / tracks.frames.length) : 0} %)\n`,
    );
    for (const w of tracks.warnings) process.stderr.write(`warning: ${w}\n`);
    if (values.overlay) await renderOverlay(info, tracks, values.overlay);
    return 0;
  },
);

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
