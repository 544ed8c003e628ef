import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { TrackFrame } from '@mocap/contracts';
import * as ort from 'onnxruntime-node';
import { convertCached } from '../packages/vision/src/convert/cache.ts';
import {
  encodeModel,
  type OnnxGraph,
  type OnnxNode,
  type OnnxTensor,
} from '../packages/vision/src/convert/onnx.ts';
import { FrameTracker } from '../packages/vision/src/frame-tracker.ts';
import { modelJsonPath, type PoseModel } from '../packages/vision/src/models.ts';
import { POSE_OUTPUTS } from '../packages/vision/src/pose/landmarks.ts';
import { trackRange } from '../packages/vision/src/range.ts';
import { ffmpegPath, probeVideo } from '../packages/vision/src/video/index.ts';
import { CLIPS, makeLongClip } from '../packages/vision/test/fixtures/video-fixtures.ts';

/**
 * `npm run bench -- vision-routes [--frames 300] [--only breakdown,skip,full,session,int8,decode]`: where a frame's
 * CPU goes with the heavy model, and what the speed routes of issue 16 buy on this CPU. Figures are CPU time
 * (per frame, per model run), not wall time: the machine is shared and CPU time is far less sensitive to the
 * load; every comparison alternates its variants in one process and keeps the best of several rounds.
 *
 * - breakdown: one tracking thread over the first `--frames` frames of the 60 s 1080p30 clip: CPU in the
 *   landmark/detector model runs, in ffmpeg (decode + scale + rgb24), and the rest (warp, decoding, GC); and
 *   what that makes for 1800 frames on two cores — the floor of the current (float) path.
 * - full: the breakdown again with the full model in place of the heavy one, and how far its landmarks are.
 * - session: the heavy model with graph optimisation 'all' (NCHWc layouts, what we use) vs 'extended', and
 *   with the CPU memory arena off.
 * - int8: stacks of the heavy model's 1×1 convolution blocks (they hold 92 % of its 1.94 GMAC) at its four
 *   resolutions, float vs dynamic int8 (DynamicQuantizeLinear → ConvInteger → rescale; uint8 and int8
 *   weights) vs weight-only int8 (DequantizeLinear → Conv), written by our own ONNX encoder.
 * - decode: ffmpeg CPU per frame for our filter chain (one bilinear swscale pass 1080p yuv420p → 960 rgb24)
 *   vs scaling in YUV and converting after, the pixel difference between the two and what it does to the
 *   heavy model's landmarks.
 * - skip: from the breakdown's own tracks, how far an in-between frame's landmarks are from the mean of its
 *   neighbours' (what skipping its inference and interpolating would give), by how much the person moved.
 */
export default async function visionRoutesBench(args: string[]): Promise<void> {
  const arg = (name: string, dflt: string) => {
    const k = args.indexOf(name);
    return k >= 0 && args[k + 1] ? args[k + 1] : dflt;
  };
  const frames = Number(arg('--frames', '300'));
  const only = arg('--only', 'breakdown,skip,full,session,int8,decode').split(',');
  const dir = join(process.cwd(), 'bench/out');
  await mkdir(dir, { recursive: true });
  const clip = await makeLongClip(CLIPS.studioDance, dir, 60, { width: 1920, height: 1080, fps: 30 });
  console.log(`clip ${clip}; load ${load()}\n`);
  let tracks: TrackFrame[] = [];
  if (['breakdown', 'skip', 'full'].some((o) => only.includes(o))) tracks = await breakdown(clip, frames);
  if (tracks.length) skip(tracks);
  if (only.includes('full') && tracks.length) lighterModel(tracks, await breakdown(clip, frames, 'full'));
  if (only.includes('session')) await sessionOptions();
  if (only.includes('int8')) await int8();
  if (only.includes('decode')) await decodeTracks(decode(clip), 2);
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** CPU ms of this process (all threads) and of its finished children, from /proc/self/stat. */
function cpuMs(): { self: number; children: number } {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const tick = 10; // USER_HZ 100
  return { self: (Number(f[11]) + Number(f[12])) * tick, children: (Number(f[13]) + Number(f[14])) * tick };
}

const threadCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function breakdown(clip: string, n: number, pose: PoseModel = 'heavy'): Promise<TrackFrame[]> {
  const info = await probeVideo(clip);
  const tracker = await FrameTracker.create({
    model: pose,
    hands: false,
    face: false,
    backend: 'ort',
    threads: 1,
  });
  await tracker.warmUp();
  const model: Record<string, { ms: number; runs: number }> = {};
  for (const s of (
    tracker as unknown as { sessions: { model: string; run: (x: Float32Array) => Promise<unknown> }[] }
  ).sessions) {
    const run = s.run.bind(s);
    s.run = async (x) => {
      const t = threadCpuMs();
      const r = await run(x);
      model[s.model] ??= { ms: 0, runs: 0 };
      const m = model[s.model];
      m.ms += threadCpuMs() - t;
      m.runs++;
      return r;
    };
  }
  const c0 = cpuMs();
  const t0 = performance.now();
  const r = await trackRange(tracker, info, {
    start: 0,
    end: Math.min(n, info.frameCount),
    inferenceWidth: 960,
    decodeThreads: 1,
  });
  const wall = performance.now() - t0;
  const c1 = cpuMs();
  await tracker.dispose();
  const count = r.frames.length;
  const modelMs = Object.values(model).reduce((a, m) => a + m.ms, 0);
  const ffmpeg = c1.children - c0.children;
  const rest = c1.self - c0.self - modelMs;
  const per = (ms: number) => (ms / count).toFixed(1).padStart(6);
  console.log(
    `breakdown (${pose}): ${count} frames, one tracking thread, 960 px inference width (load ${load()}; wall ${(wall / count).toFixed(1)} ms/frame)`,
  );
  for (const [name, m] of Object.entries(model))
    console.log(
      `  ${name.padEnd(20)} ${per(m.ms)} ms CPU/frame  (${m.runs} runs, ${(m.ms / m.runs).toFixed(1)} ms/run)`,
    );
  console.log(`  ${'ffmpeg decode'.padEnd(20)} ${per(ffmpeg)} ms CPU/frame`);
  console.log(`  ${'rest (JS, GC)'.padEnd(20)} ${per(rest)} ms CPU/frame`);
  const total = modelMs + ffmpeg + rest;
  console.log(
    `  total ${per(total)} ms CPU/frame → 1800 frames on 2 cores ≥ ${((total / count) * 0.9).toFixed(1)} s of tracking (model alone ${((modelMs / count) * 0.9).toFixed(1)} s)\n`,
  );
  return r.frames;
}

async function bestOf(
  sessions: Record<string, ort.InferenceSession>,
  feeds: (s: ort.InferenceSession) => Record<string, ort.Tensor>,
  runs: number,
  rounds: number,
): Promise<Record<string, number>> {
  const best: Record<string, number> = {};
  for (const s of Object.values(sessions)) for (let i = 0; i < 3; i++) await s.run(feeds(s));
  for (let round = 0; round < rounds; round++)
    for (const [k, s] of Object.entries(sessions)) {
      const f = feeds(s);
      const t = threadCpuMs();
      for (let i = 0; i < runs; i++) await s.run(f);
      best[k] = Math.min(best[k] ?? Number.POSITIVE_INFINITY, (threadCpuMs() - t) / runs);
    }
  return best;
}

async function sessionOptions(): Promise<void> {
  const cached = await convertCached(modelJsonPath('blazepose-heavy'), 'blazepose-heavy', {
    outputs: POSE_OUTPUTS,
  });
  const base: ort.InferenceSession.SessionOptions = {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
  };
  const sessions = {
    "'all' (ours)": await ort.InferenceSession.create(cached.path, base),
    "'extended'": await ort.InferenceSession.create(cached.path, {
      ...base,
      graphOptimizationLevel: 'extended',
    }),
    'no memory arena': await ort.InferenceSession.create(cached.path, { ...base, enableCpuMemArena: false }),
  };
  const input = new ort.Tensor(
    'float32',
    Float32Array.from({ length: 256 * 256 * 3 }, () => Math.random()),
    [1, 256, 256, 3],
  );
  const best = await bestOf(sessions, (s) => ({ [s.inputNames[0]]: input }), 10, 5);
  const ref = best["'all' (ours)"];
  console.log(`session options, heavy landmark model, 1 intra-op thread (load ${load()}):`);
  for (const [k, v] of Object.entries(best))
    console.log(`  ${k.padEnd(18)} ${v.toFixed(1).padStart(6)} ms CPU/run  (${(ref / v).toFixed(2)}× ours)`);
  console.log('');
  await Promise.all(Object.values(sessions).map((s) => s.release()));
}

type Int8Mode = 'float' | 'dynamic u8' | 'dynamic s8' | 'weight-only';

/** `blocks` inverted-residual 1×1 pairs (c → e, ReLU6, e → c, + input) at hw×hw, as the heavy model has them. */
function blockStack(mode: Int8Mode, c: number, e: number, hw: number, blocks: number): Uint8Array {
  const nodes: OnnxNode[] = [];
  const inits: OnnxTensor[] = [];
  const f32 = (name: string, dims: number[], data: Float32Array) =>
    inits.push({ name, dims, dataType: 1, data });
  // UINT8 = 2, INT8 = 3: our encoder writes raw bytes whatever the element type.
  const i8 = (name: string, dims: number[], data: Uint8Array | Int8Array, dataType: 2 | 3) =>
    inits.push({ name, dims, dataType, data } as unknown as OnnxTensor);
  const rnd = (n: number, s: number) => Float32Array.from({ length: n }, () => (Math.random() * 2 - 1) * s);
  let id = 0;
  const conv = (inp: string, cin: number, cout: number, relu: boolean): string => {
    const k = id++;
    const w = rnd(cin * cout, 1 / Math.sqrt(cin));
    const out = relu ? `pre${k}` : `c${k}`;
    // Per-output-channel symmetric scales.
    const ws = new Float32Array(cout);
    for (let o = 0; o < cout; o++) {
      let m = 0;
      for (let i = 0; i < cin; i++) m = Math.max(m, Math.abs(w[o * cin + i]));
      ws[o] = m / 127 || 1;
    }
    const q = (o: number, i: number) => Math.round(w[o * cin + i] / ws[o]);
    if (mode === 'float') {
      f32(`w${k}`, [cout, cin, 1, 1], w);
      f32(`b${k}`, [cout], rnd(cout, 0.1));
      nodes.push({ op: 'Conv', inputs: [inp, `w${k}`, `b${k}`], outputs: [out], name: `conv${k}` });
    } else if (mode === 'weight-only') {
      i8(
        `wq${k}`,
        [cout, cin, 1, 1],
        Int8Array.from({ length: cin * cout }, (_, j) => q(Math.floor(j / cin), j % cin)),
        3,
      );
      i8(`wz${k}`, [cout], new Int8Array(cout), 3);
      f32(`ws${k}`, [cout], ws);
      f32(`b${k}`, [cout], rnd(cout, 0.1));
      nodes.push({
        op: 'DequantizeLinear',
        inputs: [`wq${k}`, `ws${k}`, `wz${k}`],
        outputs: [`w${k}`],
        name: `dq${k}`,
        attrs: { axis: 0 },
      });
      nodes.push({ op: 'Conv', inputs: [inp, `w${k}`, `b${k}`], outputs: [out], name: `conv${k}` });
    } else {
      const u8 = mode === 'dynamic u8';
      const wq = u8 ? new Uint8Array(cin * cout) : new Int8Array(cin * cout);
      for (let o = 0; o < cout; o++) for (let i = 0; i < cin; i++) wq[o * cin + i] = q(o, i) + (u8 ? 128 : 0);
      i8(`wq${k}`, [cout, cin, 1, 1], wq, u8 ? 2 : 3);
      i8(`wz${k}`, [], u8 ? new Uint8Array([128]) : new Int8Array([0]), u8 ? 2 : 3);
      f32(`ws${k}`, [1, cout, 1, 1], ws);
      f32(`b${k}`, [1, cout, 1, 1], rnd(cout, 0.1));
      nodes.push(
        {
          op: 'DynamicQuantizeLinear',
          inputs: [inp],
          outputs: [`xq${k}`, `xs${k}`, `xz${k}`],
          name: `dql${k}`,
        },
        {
          op: 'ConvInteger',
          inputs: [`xq${k}`, `wq${k}`, `xz${k}`, `wz${k}`],
          outputs: [`ci${k}`],
          name: `ci${k}`,
        },
        { op: 'Cast', inputs: [`ci${k}`], outputs: [`cf${k}`], name: `cast${k}`, attrs: { to: 1 } },
        { op: 'Mul', inputs: [`ws${k}`, `xs${k}`], outputs: [`s${k}`], name: `scale${k}` },
        { op: 'Mul', inputs: [`cf${k}`, `s${k}`], outputs: [`m${k}`], name: `mul${k}` },
        { op: 'Add', inputs: [`m${k}`, `b${k}`], outputs: [out], name: `bias${k}` },
      );
    }
    if (!relu) return out;
    f32(`lo${k}`, [], new Float32Array([0]));
    f32(`hi${k}`, [], new Float32Array([6]));
    nodes.push({ op: 'Clip', inputs: [out, `lo${k}`, `hi${k}`], outputs: [`c${k}`], name: `clip${k}` });
    return `c${k}`;
  };
  let x = 'input';
  for (let b = 0; b < blocks; b++) {
    const y = conv(conv(x, c, e, true), e, c, false);
    nodes.push({ op: 'Add', inputs: [x, y], outputs: [`res${b}`], name: `res${b}` });
    x = `res${b}`;
  }
  const graph: OnnxGraph = {
    name: 'blocks',
    nodes,
    initializers: inits,
    inputs: [{ name: 'input', elemType: 1, dims: [1, c, hw, hw] }],
    outputs: [{ name: x, elemType: 1, dims: [1, c, hw, hw] }],
    opset: 13,
    producer: 'vision-routes bench',
  };
  return encodeModel(graph);
}

async function int8(): Promise<void> {
  const opts: ort.InferenceSession.SessionOptions = {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
  };
  const modes: Int8Mode[] = ['float', 'dynamic u8', 'dynamic s8', 'weight-only'];
  console.log(
    `int8 on onnxruntime's CPU EP: 4 blocks of 1×1 pairs, CPU ms per run, best of 5 × 10 (load ${load()}):`,
  );
  console.log(`  ${'blocks'.padEnd(24)} ${modes.map((m) => m.padStart(22)).join('')}`);
  for (const [c, e, hw] of [
    [272, 1632, 8],
    [160, 960, 16],
    [64, 336, 32],
    [32, 192, 64],
  ]) {
    const sessions: Record<string, ort.InferenceSession> = {};
    for (const m of modes) sessions[m] = await ort.InferenceSession.create(blockStack(m, c, e, hw, 4), opts);
    const input = new ort.Tensor(
      'float32',
      Float32Array.from({ length: c * hw * hw }, () => Math.random() * 4 - 1),
      [1, c, hw, hw],
    );
    const best = await bestOf(sessions, () => ({ input }), 10, 5);
    console.log(
      `  ${`${c}→${e}→${c} @ ${hw}×${hw}`.padEnd(24)} ${modes.map((m) => `${best[m].toFixed(2)} (${(best.float / best[m]).toFixed(2)}×)`.padStart(22)).join('')}`,
    );
    await Promise.all(Object.values(sessions).map((s) => s.release()));
  }
  console.log('');
}

function decode(clip: string): Buffer[] {
  const chains: Record<string, string> = {
    'ours: scale → rgb24 in one pass': 'scale=960:540:flags=bilinear,setsar=1,format=rgb24',
    'scale in yuv420p, then rgb24':
      'scale=960:540:flags=bilinear,setsar=1,format=yuv420p,scale=flags=bilinear,format=rgb24',
    'decode only (no scale, yuv420p)': 'null',
  };
  const n = 150;
  const run = (vf: string, out: string) => {
    const t = cpuMs().children;
    const r = spawnSync(
      ffmpegPath(),
      [
        '-nostdin',
        '-y',
        '-loglevel',
        'error',
        '-threads',
        '1',
        '-filter_threads',
        '1',
        '-i',
        clip,
        '-an',
        '-vf',
        vf,
        '-frames:v',
        String(n),
        '-f',
        'rawvideo',
        ...(vf === 'null' ? [] : ['-pix_fmt', 'rgb24']),
        out,
      ],
      { maxBuffer: 1 << 30 },
    );
    if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
    return { ms: (cpuMs().children - t) / n, data: r.stdout };
  };
  const best: Record<string, number> = {};
  for (let round = 0; round < 3; round++)
    for (const [k, vf] of Object.entries(chains))
      best[k] = Math.min(best[k] ?? Number.POSITIVE_INFINITY, run(vf, '/dev/null').ms);
  console.log(
    `decode, ffmpeg 1 thread, ${n} frames of the 1080p clip, CPU ms per frame, best of 3 (load ${load()}):`,
  );
  for (const [k, v] of Object.entries(best)) console.log(`  ${k.padEnd(34)} ${v.toFixed(2).padStart(6)}`);
  const a = run(chains['ours: scale → rgb24 in one pass'], 'pipe:1').data;
  const b = run(chains['scale in yuv420p, then rgb24'], 'pipe:1').data;
  let max = 0;
  let sum = 0;
  let same = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - b[i]);
    max = Math.max(max, d);
    sum += d;
    if (d === 0) same++;
  }
  console.log(
    `  yuv-then-rgb vs ours: pixel values differ by ${(sum / a.length).toFixed(2)} levels on average, at most ${max}; ${((100 * same) / a.length).toFixed(1)} % identical`,
  );
  return [a, b];
}

/** The heavy model's landmarks on the frames of both decode chains (same tracker path, forward only). */
async function decodeTracks([a, b]: Buffer[], scale: number): Promise<void> {
  const track = async (data: Buffer) => {
    const tracker = await FrameTracker.create({
      model: 'heavy',
      hands: false,
      face: false,
      backend: 'ort',
      threads: 1,
    });
    const [w, h] = [960, 540];
    const out: TrackFrame[] = [];
    for (let i = 0; (i + 1) * w * h * 3 <= data.length; i++) {
      const frame = {
        index: i,
        time: i / 30,
        width: w,
        height: h,
        data: data.subarray(i * w * h * 3, (i + 1) * w * h * 3),
      };
      out.push(await tracker.track(frame, scale));
    }
    await tracker.dispose();
    return out;
  };
  const [ta, tb] = [await track(a), await track(b)];
  let max = 0;
  let sum = 0;
  let n = 0;
  ta.forEach((f, i) => {
    const g = tb[i];
    if (!f.image || !g.image) return;
    for (let k = 0; k < 33; k++) {
      const d = Math.max(Math.abs(f.image[k][0] - g.image[k][0]), Math.abs(f.image[k][1] - g.image[k][1]));
      max = Math.max(max, d);
      sum += d;
      n++;
    }
  });
  console.log(
    `  landmarks (heavy, ${ta.length} frames, 1080p px, max abs of x and y): yuv-then-rgb vs ours mean ${(sum / n).toFixed(2)}, max ${max.toFixed(2)}\n`,
  );
}

/** The full model in place of the heavy one on every frame: how far its landmarks are from the heavy's. */
function lighterModel(heavy: TrackFrame[], full: TrackFrame[]): void {
  const d: number[] = [];
  heavy.forEach((f, i) => {
    const g = full[i];
    if (!f.image || !g?.image) return;
    for (let k = 0; k < 33; k++)
      d.push(Math.hypot(f.image[k][0] - g.image[k][0], f.image[k][1] - g.image[k][1]));
  });
  d.sort((a, b) => a - b);
  console.log(
    `full vs heavy landmarks (1080p px, ${d.length / 33} frames × 33 points): mean ${(d.reduce((a, b) => a + b, 0) / d.length).toFixed(1)}, median ${d[Math.floor(d.length / 2)].toFixed(1)}, p95 ${d[Math.floor(d.length * 0.95)].toFixed(1)}, max ${d[d.length - 1].toFixed(1)}\n`,
  );
}

function skip(frames: TrackFrame[]): void {
  const rows: { err: number; motion: number }[] = [];
  for (let i = 1; i + 1 < frames.length; i++) {
    const [a, b, c] = [frames[i - 1].image, frames[i].image, frames[i + 1].image];
    if (!a || !b || !c) continue;
    let err = 0;
    let motion = 0;
    for (let k = 0; k < 33; k++) {
      err = Math.max(err, Math.hypot(b[k][0] - (a[k][0] + c[k][0]) / 2, b[k][1] - (a[k][1] + c[k][1]) / 2));
      motion = Math.max(motion, Math.hypot(c[k][0] - a[k][0], c[k][1] - a[k][1]));
    }
    rows.push({ err, motion });
  }
  const q = (v: number[], p: number) =>
    [...v].sort((x, y) => x - y)[Math.min(v.length - 1, Math.floor(p * v.length))];
  console.log(
    `skip: a frame's landmarks vs the mean of its two neighbours' (interpolation in place of its inference), worst of 33 points, 1080p px, ${rows.length} frames:`,
  );
  for (const limit of [Number.POSITIVE_INFINITY, 40, 20, 10]) {
    const sel = rows.filter((r) => r.motion < limit).map((r) => r.err);
    if (!sel.length) continue;
    console.log(
      `  neighbours' motion < ${String(limit).padEnd(8)} ${((100 * sel.length) / rows.length).toFixed(1).padStart(5)} % of frames: median ${q(sel, 0.5).toFixed(1)}, p95 ${q(sel, 0.95).toFixed(1)}, max ${Math.max(...sel).toFixed(1)} px`,
    );
  }
  console.log('');
}
