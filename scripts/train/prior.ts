/**
 * `npm run train -- prior [--components K] [--iterations I] [--stride S] [--regularization R] [--seed S]
 *  [--rows-cache file] [--out file]`
 *
 * Trains the solver's pose prior (packages/motion/src/solver/prior.ts) and writes
 * `packages/motion/src/solver/prior-weights.json`.
 *
 * Data: CMU motion capture only (`../shared/testdata/bvh/cmu` and `bvh/cmu_more`; the CMU licence allows
 * shipping weights trained on it), one file per trial, the quality bench's trials held out (see
 * `cmu.ts`); every 12th remaining trial is the validation set. Bandai, Xia, Mixamo-derived and Quaternius
 * files are not used.
 *
 * Samples: each trial is synthesised into exact tracks (`synthesize`, no noise) and solved by our own 3D fit
 * (no image fit, no smoothing), so the rotations follow the solver's conventions (twist from the limb
 * poles); every `stride`-th frame (default 4 at 30 fps), plus its mirror image. Model: a Gaussian mixture
 * with full covariances (`gmm.ts`), k-means++ then EM, `R` (default 0.01 rad², a 0.1 rad floor: the 3D
 * fit's own noise on tracker data is larger than on exact landmarks) added to every covariance's diagonal;
 * deterministic for a seed. `--rows-cache` keeps the solved rows in a file (read when present) so other
 * mixture settings can be tried without solving again.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { concatArrays } from '../../packages/motion/src/formats/bytes.ts';
import { solveDetailed } from '../../packages/motion/src/index.ts';
import { fitGmm, meanLogLikelihood } from '../../packages/motion/src/solver/gmm.ts';
import {
  encodePrior,
  mirrorFeatures,
  PRIOR_DIMS,
  PRIOR_JOINTS,
  poseFeatures,
} from '../../packages/motion/src/solver/prior.ts';
import { synthetic } from '../../packages/testkit/src/index.ts';
import { cmuTrials, HELD_OUT, ROOT } from './cmu.ts';

function arg(args: string[], name: string, def: number): number {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : def;
}

/** Feature rows (and their mirror images) of one trial's solved rotations. */
function trialFeatures(doc: Parameters<typeof synthetic.synthesize>[0], stride: number): Float64Array | null {
  let clip: ReturnType<typeof synthetic.synthesize>;
  try {
    clip = synthetic.synthesize(doc, { maxFps: 30, dropouts: false, lost: false, noise2d: 0, noise3d: 0 });
  } catch {
    return null; // a skeleton convention synthesize does not know
  }
  const solved = solveDetailed(clip.tracks, {
    imageFit: false,
    smoothing: 0,
    hands: false,
    face: false,
    headNeutral: false,
    footLock: 'never',
  }).clip;
  const sk = solved.skeleton;
  const n = sk.names.length;
  const joints = PRIOR_JOINTS.map((name) => sk.names.indexOf(name));
  const rows: number[] = [];
  const x = new Float64Array(PRIOR_DIMS);
  const m = new Float64Array(PRIOR_DIMS);
  for (let f = 0; f < solved.frameCount; f += stride) {
    poseFeatures(solved.rotations, f * n, joints, x);
    mirrorFeatures(x, m);
    rows.push(...x, ...m);
  }
  return Float64Array.from(rows);
}

export default async function train(args: string[]): Promise<void> {
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const K = arg(args, '--components', 16);
  const iterations = arg(args, '--iterations', 40);
  const stride = arg(args, '--stride', 2);
  const regularization = arg(args, '--regularization', 0.01);
  const cacheIdx = args.indexOf('--rows-cache');
  const cacheFile = cacheIdx >= 0 ? args[cacheIdx + 1] : null;
  const seed = arg(args, '--seed', 1);
  const outIdx = args.indexOf('--out');
  const outFile =
    outIdx >= 0 ? args[outIdx + 1] : join(ROOT, 'packages', 'motion', 'src', 'solver', 'prior-weights.json');
  const t0 = performance.now();
  type Rows = { id: string; rows: Float64Array };
  let trials: Rows[];
  if (cacheFile && existsSync(cacheFile)) {
    const cached = JSON.parse(readFileSync(cacheFile, 'utf8')) as {
      stride: number;
      trials: { id: string; rows: number[] }[];
    };
    if (cached.stride !== stride)
      throw new Error(`${cacheFile} holds stride ${cached.stride}, not ${stride}`);
    trials = cached.trials.map((t) => ({ id: t.id, rows: Float64Array.from(t.rows) }));
    log(`${trials.length} trials read from ${cacheFile}`);
  } else {
    trials = cmuTrials<Rows>(({ id, doc }) => {
      const rows = trialFeatures(doc, stride);
      if (rows)
        log(
          `${id}: ${rows.length / PRIOR_DIMS / 2} frames, ${((performance.now() - t0) / 1000).toFixed(0)} s`,
        );
      return rows ? { id, rows } : null;
    });
    if (cacheFile)
      writeFileSync(
        cacheFile,
        JSON.stringify({ stride, trials: trials.map((t) => ({ id: t.id, rows: Array.from(t.rows) })) }),
      );
  }
  const trn: Float64Array[] = [];
  const val: Float64Array[] = [];
  const trnIds: string[] = [];
  const valIds: string[] = [];
  trials.forEach((t, i) => {
    if (i % 12 === 5) {
      val.push(t.rows);
      valIds.push(t.id);
    } else {
      trn.push(t.rows);
      trnIds.push(t.id);
    }
  });
  const X = concatArrays(trn, (n) => new Float64Array(n));
  const V = concatArrays(val, (n) => new Float64Array(n));
  const N = X.length / PRIOR_DIMS;
  const NV = V.length / PRIOR_DIMS;
  log(`train ${trn.length} trials (${N} rows incl. mirrors), validation ${val.length} trials (${NV} rows)`);
  const rand = synthetic.mulberry32(seed);
  const g = fitGmm(X, N, PRIOR_DIMS, {
    components: K,
    iterations,
    regularization,
    rand,
    onIteration: (it, ll) => {
      if (it % 5 === 0) log(`EM ${it}: train log-likelihood ${ll.toFixed(2)} nats/row`);
    },
  });
  const trainLl = meanLogLikelihood(g, X, N);
  const valLl = meanLogLikelihood(g, V, NV);
  log(`log-likelihood: train ${trainLl.toFixed(2)}, validation ${valLl.toFixed(2)} nats/row`);
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {}
  const json = encodePrior(g, {
    name: 'pose prior',
    trainedBy: 'npm run train -- prior',
    args: args.join(' '),
    commit,
    data: `CMU motion capture (mocap.cs.cmu.edu; ../shared/testdata/bvh/cmu and bvh/cmu_more), one file per trial; held out: ${[...HELD_OUT].join(', ')}`,
    trainTrials: trnIds.length,
    validationTrials: valIds,
    rows: N,
    stride,
    regularization,
    seed,
    iterations,
    trainLogLikelihood: Math.round(trainLl * 100) / 100,
    validationLogLikelihood: Math.round(valLl * 100) / 100,
    seconds: Math.round((performance.now() - t0) / 1000),
  });
  writeFileSync(outFile, `${JSON.stringify(json)}\n`);
  log(`wrote ${outFile} (${(statSync(outFile).size / 1e6).toFixed(2)} MB)`);
}
