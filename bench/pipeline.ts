import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLIPS, makeLongClip } from '../packages/vision/test/fixtures/video-fixtures.ts';

/**
 * `npm run bench -- pipeline [--seconds 60] [--jobs 2] [--variants old,new] [--full] [--cached-models]`:
 * a 60 s 1080p30 clip → tracks → solved clip → every bone type's zip (+ thumbnail) through the worker's
 * capture path (`capture()` of `@mocap/worker`, what a job runs between downloading the source and storing the
 * outputs), in a fresh process per variant: the first job (cold: fresh process, and unless `--cached-models`
 * an empty model cache at install, the job submitted as the process starts) and the following ones (warm), with
 * each stage's time, the process's peak RSS and the machine load, old and new side by side in one run.
 *
 * - `old`: the path as it was — no warm-up at start; each job starts its tracking threads and loads the models.
 * - `new`: the models are converted at install (`npm run models -w @mocap/vision`, as scripts/start.sh does; run
 *   and timed before the process, apart from the jobs); the worker's start-up warm-up (`warmUpTracking`, as
 *   `startWorker` does: threads started, sessions loaded and run once) begins with the process; tracking threads
 *   are kept warm between jobs.
 *
 * Body only by default (the default capture type: 14 zips; OnlyFace needs the face tracked); `--full` tracks
 * hands and face as well (15 zips).
 */

interface JobFigures {
  job: number;
  wall: number;
  tracking: number;
  solveExport: number;
  /** CPU seconds of the process's threads and its finished child processes (ffmpeg) during the job. */
  cpu: number;
  /** CPU seconds until the tracks were written (probe + tracking), and after (solve, export, thumbnail). */
  cpuTracking: number;
  zips: number;
  load: number;
}

interface ChildResult {
  variant: string;
  jobs: JobFigures[];
  peakRssMb: number;
  warmUpMs?: number;
  /** Process CPU seconds when the start-up warm-up ended (new). */
  warmUpCpu?: number;
}

const here = fileURLToPath(new URL('.', import.meta.url));

export default async function pipelineBench(args: string[]): Promise<void> {
  const arg = (name: string, dflt: string) => {
    const k = args.indexOf(name);
    return k >= 0 && args[k + 1] ? args[k + 1] : dflt;
  };
  if (args.includes('--child')) return child(args);
  const seconds = Number(arg('--seconds', '60'));
  const jobs = Number(arg('--jobs', '2'));
  const variants = arg('--variants', 'old,new').split(',');
  const full = args.includes('--full');
  const cachedModels = args.includes('--cached-models');
  const dir = join(process.cwd(), 'bench/out');
  await mkdir(dir, { recursive: true });
  const clip = await makeLongClip(CLIPS.studioDance, dir, seconds, { width: 1920, height: 1080, fps: 30 });
  console.log(
    `clip: ${clip} (${seconds} s, 1920x1080, 30 fps); ${jobs} jobs per fresh process; ${full ? 'hands + face' : 'body only'}; model cache ${cachedModels ? 'kept' : 'empty at install (new converts then, old in its first job)'}; load ${loadavg()[0].toFixed(2)}\n`,
  );
  const results: ChildResult[] = [];
  for (const variant of variants) {
    const cache = await mkdtemp(join(tmpdir(), 'mocap-bench-cache-'));
    try {
      const env = { ...process.env, ...(cachedModels ? {} : { MOCAP_CACHE_DIR: cache }) };
      if (variant === 'new' && !cachedModels) {
        // The new path converts the models at install (scripts/start.sh: `npm run models -w @mocap/vision`),
        // before the worker ever starts: done here in a process of its own, timed apart from the jobs.
        const t = performance.now();
        const r = spawnSync(
          process.execPath,
          ['--import', 'tsx', join(here, '../packages/vision/src/convert-models.ts')],
          {
            env,
            encoding: 'utf8',
          },
        );
        if (r.status !== 0) throw new Error(`model conversion failed: ${r.stderr}`);
        console.log(
          `new  install-time model conversion (all tracking models, not part of any job): ${((performance.now() - t) / 1000).toFixed(1)} s`,
        );
      }
      const r = await runChild(
        ['--child', variant, '--clip', clip, '--jobs', String(jobs), ...(full ? ['--full'] : [])],
        env,
      );
      results.push(r);
      for (const j of r.jobs)
        console.log(
          `${variant.padEnd(4)} job ${j.job} (${j.job === 1 ? 'cold' : 'warm'}): ${j.wall.toFixed(1)} s  (to tracks ${j.tracking.toFixed(1)}, solve+export+thumbnail ${j.solveExport.toFixed(1)}; CPU ${j.cpu.toFixed(1)} s = to tracks ${j.cpuTracking.toFixed(1)} + after ${(j.cpu - j.cpuTracking).toFixed(1)}; ${j.zips} zips; load ${j.load.toFixed(1)})`,
        );
      if (r.warmUpMs !== undefined)
        console.log(
          `${variant.padEnd(4)} start-up warm-up done ${(r.warmUpMs / 1000).toFixed(1)} s after the process started (process CPU then ${r.warmUpCpu?.toFixed(1)} s)`,
        );
      console.log(`${variant.padEnd(4)} peak RSS ${r.peakRssMb.toFixed(0)} MB\n`);
    } finally {
      await rm(cache, { recursive: true, force: true });
    }
  }

  console.log(
    '| variant | job | wall s | to tracks s | solve + export + thumbnail s | CPU s | zips | load (1 min) |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|');
  for (const r of results)
    for (const j of r.jobs)
      console.log(
        `| ${r.variant} | ${j.job === 1 ? '1 (cold)' : `${j.job} (warm)`} | ${j.wall.toFixed(1)} | ${j.tracking.toFixed(1)} | ${j.solveExport.toFixed(1)} | ${j.cpu.toFixed(1)} | ${j.zips} | ${j.load.toFixed(1)} |`,
      );
  console.log(
    '\n| variant | cold s | warm s (best) | cold / warm | cold CPU s | warm CPU s (best) | cold / warm CPU | peak RSS MB |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    const cold = r.jobs[0];
    const warm = Math.min(...r.jobs.slice(1).map((j) => j.wall));
    const warmCpu = Math.min(...r.jobs.slice(1).map((j) => j.cpu));
    console.log(
      `| ${r.variant} | ${cold.wall.toFixed(1)} | ${warm.toFixed(1)} | ${(cold.wall / warm).toFixed(2)} | ${cold.cpu.toFixed(1)} | ${warmCpu.toFixed(1)} | ${(cold.cpu / warmCpu).toFixed(2)} | ${r.peakRssMb.toFixed(0)} |`,
    );
  }
  const old = results.find((r) => r.variant === 'old');
  const neu = results.find((r) => r.variant === 'new');
  if (old && neu && old.jobs.length > 1 && neu.jobs.length > 1) {
    const best = (r: ChildResult) => Math.min(...r.jobs.slice(1).map((j) => j.wall));
    console.log(
      `\nnew vs old: cold ${(old.jobs[0].wall / neu.jobs[0].wall).toFixed(2)}× faster, warm ${(best(old) / best(neu)).toFixed(2)}× faster (targets: warm ≤ 40 s, cold ≤ 1.2× warm, peak RSS ≤ 1536 MB)`,
    );
  }
}

function runChild(args: string[], env: NodeJS.ProcessEnv): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', join(here, 'index.ts'), 'pipeline', ...args], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    p.stdout.on('data', (d) => {
      out += d;
    });
    p.on('error', reject);
    p.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code !== 0 || !line) reject(new Error(`bench child exited with ${code}: ${out.slice(-2000)}`));
      else resolve(JSON.parse(line.slice(7)) as ChildResult);
    });
  });
}

/**
 * CPU milliseconds used so far by this process (all threads) and its waited-for children (ffmpeg), from
 * /proc/self/stat on Linux (utime, stime, cutime, cstime); the process's own CPU elsewhere. Less sensitive to
 * the machine's load than wall time: the figure to compare when the machine is shared.
 */
function cpuSeconds(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = [11, 12, 13, 14].reduce((a, k) => a + Number(f[k]), 0);
    return (ticks * 1000) / 100;
  } catch {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  }
}

/** One fresh process: (new) the worker's start-up warm-up, then `jobs` capture jobs of the clip in turn. */
async function child(args: string[]): Promise<void> {
  const t0 = performance.now();
  const variant = args[args.indexOf('--child') + 1];
  const clip = args[args.indexOf('--clip') + 1];
  const jobs = Number(args[args.indexOf('--jobs') + 1]);
  const full = args.includes('--full');
  // Imported here so their loading is part of the cold job, as in a worker process.
  const { warmUpTracking } = await import('@mocap/vision');
  const { capture, prestartSolveThread } = await import('@mocap/worker');
  const result: ChildResult = { variant, jobs: [], peakRssMb: 0 };
  // The old path closed its tracking threads after every job.
  if (variant === 'old') process.env.MOCAP_TRACK_KEEP_WARM = '0';
  if (variant === 'new') {
    // What startWorker does at start (runner.ts), in the background.
    void prestartSolveThread();
    void warmUpTracking({ model: 'heavy' }).then(() => {
      result.warmUpMs = performance.now() - t0;
      result.warmUpCpu = cpuSeconds() / 1000;
    });
  }
  for (let job = 1; job <= jobs; job++) {
    const out = await mkdtemp(join(tmpdir(), 'mocap-bench-job-'));
    const start = job === 1 ? t0 : performance.now();
    const cpu0 = job === 1 ? 0 : cpuSeconds();
    const marks: Record<string, number> = {};
    let cpuAtSolve: number | undefined;
    try {
      const r = await capture(clip, out, {
        model: 'heavy',
        hands: full,
        face: full,
        onProgress: (_p, stage) => {
          marks[stage] ??= performance.now();
          if (stage === 'solving') cpuAtSolve ??= cpuSeconds();
        },
      });
      const end = performance.now();
      const at = (s: string, dflt: number) => marks[s] ?? dflt;
      result.jobs.push({
        job,
        wall: (end - start) / 1000,
        tracking: (at('solving', end) - start) / 1000,
        solveExport: (end - at('solving', end)) / 1000,
        cpu: (cpuSeconds() - cpu0) / 1000,
        cpuTracking: ((cpuAtSolve ?? cpuSeconds()) - cpu0) / 1000,
        zips: r.zips.length,
        load: loadavg()[0],
      });
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }
  result.peakRssMb = process.resourceUsage().maxRSS / 1024;
  console.log(`RESULT ${JSON.stringify(result)}`);
  process.exit(0);
}
