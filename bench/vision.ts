import { mkdir } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import {
  probeVideo,
  type Tracks,
  type TrackVideoOptions,
  trackProbedVideo,
  warmUpTracking,
} from '@mocap/vision';
import { CLIPS, makeLongClip } from '../packages/vision/test/fixtures/video-fixtures.ts';

/**
 * `npm run bench -- vision [--seconds 60] [--quick] [--pool]`: wall time and frames/s of `video → tracks` on a long
 * 1080p30 clip (a testdata clip looped with ffmpeg), heavy and full, onnxruntime and tfjs-wasm, side by side
 * in one run, with the ratios. Also: one worker with two intra-op threads vs two workers with one thread
 * (the choice the pipeline makes), what downscaling to 960 px before inference costs in accuracy, and old vs
 * new tracking threads: started per call (old) or kept warm between calls and warmed up beforehand (new).
 */
export default async function visionBench(args: string[]): Promise<void> {
  const seconds = Number(args[args.indexOf('--seconds') + 1]) || 60;
  const quick = args.includes('--quick');
  // --pool: only the heavy model's old (fresh threads) and new (warm threads) runs.
  const poolOnly = args.includes('--pool');
  const dir = join(process.cwd(), 'bench/out');
  await mkdir(dir, { recursive: true });
  const clip = await makeLongClip(CLIPS.studioDance, dir, seconds, { width: 1920, height: 1080, fps: 30 });
  const info = await probeVideo(clip);
  console.log(
    `clip: ${info.width}x${info.height} ${info.fps.toFixed(2)} fps, ${info.frameCount} frames, ${info.duration.toFixed(1)} s (${info.codec})\n`,
  );

  const runs: { label: string; opts: TrackVideoOptions; warm?: boolean }[] = [
    // Old: tracking threads started and models loaded by every call; new: threads kept warm between calls
    // (a worker warms them up at start), the call only tracks.
    {
      label: 'heavy ort, fresh threads (old)',
      opts: { model: 'heavy', backend: 'ort', keepWarm: false },
    },
    {
      label: 'heavy ort (2 workers × 1 thread, 960 px)',
      opts: { model: 'heavy', backend: 'ort' },
      warm: true,
    },
    { label: 'full  ort (2 workers × 1 thread, 960 px)', opts: { model: 'full', backend: 'ort' } },
    ...(quick
      ? []
      : [
          {
            label: 'heavy ort (1 worker × 2 threads, 960 px)',
            opts: { model: 'heavy' as const, backend: 'ort' as const, workers: 1, threads: 2 },
          },
          {
            label: 'heavy ort (2 workers, native 1080p)',
            opts: { model: 'heavy' as const, backend: 'ort' as const, inferenceWidth: 0 },
          },
        ]),
    { label: 'heavy tfjs-wasm (2 workers)', opts: { model: 'heavy', backend: 'tfjs' } },
    { label: 'full  tfjs-wasm (2 workers)', opts: { model: 'full', backend: 'tfjs' } },
  ];
  const results: { label: string; wall: number; fps: number; coverage: number; tracks: Tracks }[] = [];
  console.log(
    `load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  for (const run of poolOnly ? runs.slice(0, 2) : runs) {
    if (run.warm) await warmUpTracking({ model: run.opts.model, workers: run.opts.workers });
    const t0 = performance.now();
    const tracks = await trackProbedVideo(info, run.opts);
    const wall = (performance.now() - t0) / 1000;
    const found = tracks.frames.filter((f) => f.state !== 'lost').length;
    results.push({
      label: run.label,
      wall,
      fps: tracks.frames.length / wall,
      coverage: found / tracks.frames.length,
      tracks,
    });
    console.log(
      `${run.label.padEnd(42)} ${wall.toFixed(1).padStart(7)} s  ${(tracks.frames.length / wall).toFixed(1).padStart(6)} frames/s  (load ${loadavg()[0].toFixed(1)})`,
    );
  }
  const by = (l: string) => results.find((r) => r.label.startsWith(l));
  console.log('\n| run | wall s | frames/s | person found |');
  console.log('|---|---:|---:|---:|');
  for (const r of results)
    console.log(
      `| ${r.label} | ${r.wall.toFixed(1)} | ${r.fps.toFixed(1)} | ${(100 * r.coverage).toFixed(1)} % |`,
    );
  const ratio = (a?: { wall: number }, b?: { wall: number }) =>
    a && b ? (b.wall / a.wall).toFixed(2) : 'n/a';
  console.log(
    `\nonnxruntime vs tfjs-wasm speed-up: heavy ${ratio(by('heavy ort (2 workers × 1'), by('heavy tfjs'))}×, full ${ratio(by('full  ort'), by('full  tfjs'))}×`,
  );
  const old = by('heavy ort, fresh threads (old)');
  const warm = by('heavy ort (2 workers × 1');
  if (old && warm) {
    const same = old.tracks.frames.every(
      (f, i) => JSON.stringify(f.image) === JSON.stringify(warm.tracks.frames[i]?.image),
    );
    console.log(
      `warm threads (new) vs fresh threads (old): ${ratio(warm, old)}× faster; landmarks ${same ? 'identical' : 'DIFFER'}`,
    );
  }
  const w1 = by('heavy ort (1 worker');
  if (w1)
    console.log(
      `2 workers × 1 thread vs 1 worker × 2 threads: ${ratio(by('heavy ort (2 workers × 1'), w1)}× faster`,
    );
  const native = by('heavy ort (2 workers, native');
  const scaled = by('heavy ort (2 workers × 1');
  if (native && scaled) {
    let sum = 0;
    let n = 0;
    native.tracks.frames.forEach((f, i) => {
      const g = scaled.tracks.frames[i];
      if (!f.image || !g.image) return;
      for (let k = 0; k < 33; k++) {
        sum += Math.hypot(f.image[k][0] - g.image[k][0], f.image[k][1] - g.image[k][1]);
        n++;
      }
    });
    console.log(
      `downscale 1920 → 960 before inference: mean landmark shift ${(sum / n).toFixed(2)} px (1080p pixels), wall ${ratio(scaled, native)}× faster`,
    );
  }
}
