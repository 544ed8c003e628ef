/**
 * `npm run train -- lifter [--steps N] [--hidden H] [--blocks B] [--seed S] [--out file]`
 *
 * Trains the solver's 2D → 3D lifter (packages/motion/src/solver/lifter.ts) and writes
 * `packages/motion/src/solver/lifter-weights.json`.
 *
 * Data: CMU motion capture only (`../shared/testdata/bvh/cmu` and `bvh/cmu_more`; the CMU licence allows
 * shipping weights trained on it). Each CMU trial (id NN_MM, found in several folders as different
 * conversions) is used once. Held out: the trials the quality bench renders (01_01, 02_04, 02_06, 05_03) are
 * never used; every 12th remaining trial is the validation set. Bandai, Xia, Mixamo-derived and Quaternius
 * animations are not used (the Quaternius animations are the quality bench's evaluation motions).
 *
 * Samples: a random frame of a random trial (33 landmarks placed on the skeleton as `synthesize` places them),
 * seen by a random pinhole camera (any azimuth, 0.2–2.8 m high, 2–9 m away, aimed near the hips, ±3° roll),
 * projected, with detector-like noise (1–4 % of the body's image size per landmark, 6 % of landmarks
 * "occluded": weight 0–0.3 and off by ~15 %), mirrored half the time. Target: the landmarks in camera axes
 * relative to the hip midpoint, scaled to a 1.75 m body. Loss: mean squared error; Adam, learning rate
 * 1e-3 decaying to 3e-5. Deterministic for a seed.
 */
import { execFileSync } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NUM_LANDMARKS } from '../../packages/motion/src/solver/input.ts';
import {
  LIFTER_HEIGHT,
  LIFTER_INPUTS,
  LIFTER_OUTPUTS,
  lifterFeatures,
  MIRROR,
} from '../../packages/motion/src/solver/lifter.ts';
import { encodeFloat32, type MlpJson, type MlpSpec } from '../../packages/motion/src/solver/mlp.ts';
import { synthetic } from '../../packages/testkit/src/index.ts';
import { cmuTrials, HELD_OUT, ROOT, trialId } from './cmu.ts';
import { gaussian, MlpTrainer } from './mlp-train.ts';

export { HELD_OUT, trialId };

function arg(args: string[], name: string, def: number): number {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : def;
}

interface Trial {
  id: string;
  file: string;
  /** `[F × 33 × 3]` world landmarks, Y up, metres. */
  lm: Float32Array;
  F: number;
  floorY: number;
  height: number;
}

function loadTrials(log: (s: string) => void): Trial[] {
  const trials = cmuTrials<Trial>(({ id, file, doc }) => {
    let clip: ReturnType<typeof synthetic.synthesize>;
    try {
      clip = synthetic.synthesize(doc, { maxFps: 30, dropouts: false, lost: false, noise2d: 0, noise3d: 0 });
    } catch {
      return null; // a skeleton convention synthesize does not know (no toe joints): skipped
    }
    const t = clip.truth;
    return {
      id,
      file,
      lm: Float32Array.from(t.landmarks),
      F: t.N,
      floorY: t.floorY,
      height: t.height,
    };
  });
  log(`${trials.length} trials, ${trials.reduce((s, t) => s + t.F, 0)} frames at 30 fps`);
  return trials;
}

type V3 = [number, number, number];
const sub3 = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot3 = (a: V3, b: V3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross3 = (a: V3, b: V3): V3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const norm3 = (a: V3): V3 => {
  const l = Math.hypot(a[0], a[1], a[2]) || 1;
  return [a[0] / l, a[1] / l, a[2] / l];
};

/** One training sample into `x` (features) and `y` (target). Returns false when degenerate. */
function sample(
  trials: Trial[],
  rand: () => number,
  x: Float32Array,
  y: Float32Array,
  uv: Float64Array,
  w: Float64Array,
  feat: Float64Array,
): boolean {
  const tr = trials[Math.floor(rand() * trials.length)];
  const f = Math.floor(rand() * tr.F);
  const P = (i: number): V3 => {
    const o = (f * NUM_LANDMARKS + i) * 3;
    return [tr.lm[o], tr.lm[o + 1], tr.lm[o + 2]];
  };
  const k = tr.height / LIFTER_HEIGHT;
  const hip: V3 = P(23).map((v, a) => (v + P(24)[a]) / 2) as V3;
  const az = rand() * 2 * Math.PI;
  const dist = (2 + 7 * rand()) * k;
  const camH = tr.floorY + (0.2 + 2.6 * rand()) * k;
  const cam: V3 = [hip[0] + dist * Math.sin(az), camH, hip[2] + dist * Math.cos(az)];
  const target: V3 = [hip[0], hip[1] + (-0.4 + 0.7 * rand()) * k, hip[2]];
  const zc = norm3(sub3(target, cam));
  let xc = norm3(cross3(zc, [0, 1, 0]));
  let yc = cross3(zc, xc);
  const roll = (gaussian(rand) * (3 * Math.PI)) / 180;
  const cr = Math.cos(roll);
  const sr = Math.sin(roll);
  const xr: V3 = [xc[0] * cr + yc[0] * sr, xc[1] * cr + yc[1] * sr, xc[2] * cr + yc[2] * sr];
  const yr: V3 = [-xc[0] * sr + yc[0] * cr, -xc[1] * sr + yc[1] * cr, -xc[2] * sr + yc[2] * cr];
  xc = xr;
  yc = yr;
  const toCam = (p: V3): V3 => {
    const d = sub3(p, cam);
    return [dot3(d, xc), dot3(d, yc), dot3(d, zc)];
  };
  const hc = toCam(hip);
  const mirror = rand() < 0.5;
  const cams: V3[] = [];
  for (let i = 0; i < NUM_LANDMARKS; i++) {
    const c = toCam(P(i));
    if (c[2] < 0.3) return false;
    cams.push(c);
  }
  const fpx = 1000;
  // Image size of the body for the noise scale.
  for (let i = 0; i < NUM_LANDMARKS; i++) {
    const src = mirror ? MIRROR[i] : i;
    const c = cams[src];
    uv[i * 2] = (fpx * (mirror ? -c[0] : c[0])) / c[2];
    uv[i * 2 + 1] = (fpx * c[1]) / c[2];
    w[i] = 1;
  }
  const size = lifterFeatures(uv, w, feat);
  if (!size) return false;
  const noise = (0.01 + 0.03 * rand()) * size;
  for (let i = 0; i < NUM_LANDMARKS; i++) {
    uv[i * 2] += gaussian(rand) * noise;
    uv[i * 2 + 1] += gaussian(rand) * noise;
    if (rand() < 0.06) {
      w[i] = 0.3 * rand();
      uv[i * 2] += gaussian(rand) * 0.15 * size;
      uv[i * 2 + 1] += gaussian(rand) * 0.15 * size;
    } else {
      w[i] = rand() < 0.8 ? 1 : 0.5 + 0.5 * rand();
    }
  }
  if (!lifterFeatures(uv, w, feat)) return false;
  for (let i = 0; i < LIFTER_INPUTS; i++) x[i] = feat[i];
  for (let i = 0; i < NUM_LANDMARKS; i++) {
    const c = cams[mirror ? MIRROR[i] : i];
    // Body space: x right, y up, z towards the camera; hip-relative; 1.75 m body.
    y[i * 3] = ((mirror ? -c[0] : c[0]) - (mirror ? -hc[0] : hc[0])) / k;
    y[i * 3 + 1] = -(c[1] - hc[1]) / k;
    y[i * 3 + 2] = -(c[2] - hc[2]) / k;
  }
  return true;
}

function batch(
  trials: Trial[],
  rand: () => number,
  B: number,
  X: Float32Array,
  Y: Float32Array,
  bufs: { uv: Float64Array; w: Float64Array; feat: Float64Array },
): void {
  for (let b = 0; b < B; ) {
    if (
      sample(
        trials,
        rand,
        X.subarray(b * LIFTER_INPUTS, (b + 1) * LIFTER_INPUTS),
        Y.subarray(b * LIFTER_OUTPUTS, (b + 1) * LIFTER_OUTPUTS),
        bufs.uv,
        bufs.w,
        bufs.feat,
      )
    )
      b++;
  }
}

/** Mean per-landmark 3D error (mm, for a 1.75 m body) over the 12 limb landmarks. */
function mpjpe(out: Float32Array, Y: Float32Array, B: number): number {
  const J = [11, 12, 13, 14, 15, 16, 23, 24, 25, 26, 27, 28];
  let s = 0;
  for (let b = 0; b < B; b++) {
    for (const i of J) {
      const o = b * LIFTER_OUTPUTS + i * 3;
      s += Math.hypot(out[o] - Y[o], out[o + 1] - Y[o + 1], out[o + 2] - Y[o + 2]);
    }
  }
  return (1000 * s) / (B * J.length);
}

export default async function train(args: string[]): Promise<void> {
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const steps = arg(args, '--steps', 15000);
  const seed = arg(args, '--seed', 1);
  const spec: MlpSpec = {
    input: LIFTER_INPUTS,
    hidden: arg(args, '--hidden', 128),
    output: LIFTER_OUTPUTS,
    blocks: arg(args, '--blocks', 2),
  };
  const B = arg(args, '--batch', 64);
  const outIdx = args.indexOf('--out');
  const outFile =
    outIdx >= 0 ? args[outIdx + 1] : join(ROOT, 'packages', 'motion', 'src', 'solver', 'lifter-weights.json');
  const t0 = performance.now();
  const all = loadTrials(log);
  const val = all.filter((_, i) => i % 12 === 5);
  const trn = all.filter((_, i) => i % 12 !== 5);
  log(`train ${trn.length} trials, validation ${val.length} trials (${val.map((t) => t.id).join(', ')})`);
  const rand = synthetic.mulberry32(seed);
  const net = new MlpTrainer(spec, rand);
  const bufs = {
    uv: new Float64Array(NUM_LANDMARKS * 2),
    w: new Float64Array(NUM_LANDMARKS),
    feat: new Float64Array(LIFTER_INPUTS),
  };
  // Fixed validation set.
  const VB = 2048;
  const VX = new Float32Array(VB * LIFTER_INPUTS);
  const VY = new Float32Array(VB * LIFTER_OUTPUTS);
  batch(val, synthetic.mulberry32(seed + 1000), VB, VX, VY, bufs);
  const validate = () => {
    let s = 0;
    for (let b = 0; b < VB; b += 256) {
      const out = net.forward(VX.subarray(b * LIFTER_INPUTS), 256);
      s += mpjpe(out, VY.subarray(b * LIFTER_OUTPUTS), 256) * 256;
    }
    return s / VB;
  };
  const X = new Float32Array(B * LIFTER_INPUTS);
  const Y = new Float32Array(B * LIFTER_OUTPUTS);
  const dOut = new Float32Array(B * LIFTER_OUTPUTS);
  let run = 0;
  let valErr = validate();
  log(`${spec.hidden} hidden, ${spec.blocks} blocks; before training: validation ${valErr.toFixed(1)} mm`);
  for (let step = 1; step <= steps; step++) {
    batch(trn, rand, B, X, Y, bufs);
    const out = net.forward(X, B);
    for (let j = 0; j < dOut.length; j++) dOut[j] = 2 * (out[j] - Y[j]);
    run = 0.98 * run + 0.02 * mpjpe(out, Y, B);
    net.zeroGrad();
    net.backward(X, dOut, B);
    const lr = 1e-3 * (3e-5 / 1e-3) ** (step / steps);
    net.step(lr, B);
    if (step % 1000 === 0 || step === steps) {
      valErr = validate();
      const sec = (performance.now() - t0) / 1000;
      log(
        `step ${step}/${steps}: train ${run.toFixed(1)} mm, validation ${valErr.toFixed(1)} mm, ${sec.toFixed(0)} s`,
      );
      if (step % 3000 === 0 && step < steps) save(step, valErr, `${outFile}.partial`);
    }
  }
  save(steps, valErr, outFile);
  function save(step: number, valErr: number, file: string): void {
    let commit = 'unknown';
    try {
      commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    } catch {}
    // Per-landmark RMS 3D error on the validation set (m, 1.75 m body): the solver weighs the lifter by it.
    const rms = new Float64Array(NUM_LANDMARKS);
    for (let b = 0; b < VB; b += 256) {
      const out = net.forward(VX.subarray(b * LIFTER_INPUTS), 256);
      const Yb = VY.subarray(b * LIFTER_OUTPUTS);
      for (let r = 0; r < 256; r++)
        for (let i = 0; i < NUM_LANDMARKS; i++)
          for (let a = 0; a < 3; a++)
            rms[i] += (out[r * LIFTER_OUTPUTS + i * 3 + a] - Yb[r * LIFTER_OUTPUTS + i * 3 + a]) ** 2 / VB;
    }
    const json: MlpJson = {
      format: 'mocap-mlp',
      version: 1,
      spec,
      data: encodeFloat32(net.params),
      meta: {
        name: 'lifter',
        trainedBy: 'npm run train -- lifter',
        args: args.join(' '),
        commit,
        data: 'CMU motion capture (mocap.cs.cmu.edu; ../shared/testdata/bvh/cmu and bvh/cmu_more), one file per trial; held out: 01_01, 02_04, 02_06, 05_03',
        trainTrials: trn.length,
        validationTrials: val.map((t) => t.id),
        steps: step,
        batch: B,
        seed,
        validationMpjpeMm: Math.round(valErr * 10) / 10,
        validationRmsM: Array.from(rms, (x) => Math.round(Math.sqrt(x) * 1e4) / 1e4),
        seconds: Math.round((performance.now() - t0) / 1000),
      },
    };
    writeFileSync(file, `${JSON.stringify(json)}\n`);
    log(`wrote ${file} (${(statSync(file).size / 1e6).toFixed(2)} MB)`);
  }
}
