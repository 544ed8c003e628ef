/**
 * `npm run bench -- quality [--quick] [--clips id,id] [--no-real] [--no-pose2sim] [--model heavy|full|lite]
 *  [--out file.json] [--compare previous.json] [--options json] [--baseline-options json]`
 *
 * Renders (or reuses from `bench/out/quality/renders/`) characters with known motion (see
 * `packages/quality/src/scenes.ts`), runs the capture path on each video (`trackVideo` → `solve`, the render's
 * true focal length given to the solver) and on the real clips of ../shared/testdata/videos (default 60° FOV
 * guess) and on each camera of the Pose2Sim static trial alone (its calibrated focal length; PA-MPJPE against
 * the 4-view triangulation), and prints per clip a markdown table (raw BlazePose world landmarks vs solved output vs truth),
 * then the summary. Results go to `bench/out/quality/report.json` (or `--out`); `--compare` flags summary
 * metrics more than 5 % worse than a previous report. Tracks are cached by video content and model.
 * `--options` passes solve options to every solve; `--baseline-options` solves every clip a second time with
 * those options instead (e.g. `'{"imageFit":false}'`: the solve without a new stage) and prints that summary
 * beside this one, old → new, measured in the same run on the same renders and tracks.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_FOV_DEG, type SolveOptions, solveDetailed } from '@mocap/motion';
import {
  CAMERAS,
  CHARACTERS,
  CLIPS,
  type ClipResult,
  clipMarkdown,
  compareMarkdown,
  compareSummaries,
  ensureRendered,
  evaluatePose2Sim,
  evaluateReal,
  evaluateRendered,
  type Pose2SimResult,
  pageSpec,
  parseCalibration,
  parseTrc,
  Renderer,
  type Summary,
  summarize,
  summaryMarkdown,
  triangulateTrial,
} from '@mocap/quality';
import { type PoseModel, type Tracks, trackVideo } from '@mocap/vision';

const here = dirname(fileURLToPath(import.meta.url));
const DATA = join(here, '..', '..', 'shared', 'testdata');
const OUT = join(here, 'out', 'quality');

function arg(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

/**
 * Tracks of a video, cached under `bench/out/quality/tracks` as `<name>-<model>-<sha16>.json` (also by `bench
 * gallery`), written whole or not at all; `s`: the seconds tracking took (0 when cached).
 */
export async function tracked(
  video: string,
  name: string,
  model: PoseModel,
): Promise<{ tracks: Tracks; cached: boolean; s: number }> {
  const sha = createHash('sha256').update(readFileSync(video)).digest('hex').slice(0, 16);
  const file = join(OUT, 'tracks', `${name}-${model}-${sha}.json`);
  if (existsSync(file)) return { tracks: JSON.parse(readFileSync(file, 'utf8')), cached: true, s: 0 };
  const t0 = performance.now();
  const tracks = await trackVideo(video, { model });
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(tracks));
  renameSync(tmp, file);
  return { tracks, cached: false, s: (performance.now() - t0) / 1000 };
}

const log = (s: string) => process.stderr.write(`${s}\n`);

export default async function bench(args: string[]): Promise<void> {
  const quick = args.includes('--quick');
  const model = (arg(args, '--model') ?? 'heavy') as PoseModel;
  const only = arg(args, '--clips')?.split(',');
  const outFile = arg(args, '--out') ?? join(OUT, quick ? 'report-quick.json' : 'report.json');
  const comparePath = arg(args, '--compare');
  const extra = JSON.parse(arg(args, '--options') ?? '{}') as SolveOptions;
  const baseOpts = arg(args, '--baseline-options');
  const baseline = baseOpts ? (JSON.parse(baseOpts) as SolveOptions) : null;
  const baseResults: ClipResult[] = [];
  const basePose2sim: Pose2SimResult[] = [];
  let basePose2simVideo: { cameras: Pose2SimResult[]; reprojPx: number[] } | undefined;
  const t0 = performance.now();
  let clips = CLIPS.map((c) => ({ def: c, id: c.id, seconds: c.seconds }));
  if (quick) clips = clips.slice(0, 3).map((c) => ({ ...c, id: `${c.id}-quick`, seconds: 2 }));
  if (only) clips = clips.filter((c) => only.includes(c.id) || only.includes(c.def.id));
  let renderer: Renderer | undefined;
  const results: ClipResult[] = [];
  let renderSeconds = 0;
  let trackSeconds = 0;
  try {
    for (const c of clips) {
      const spec = pageSpec(c.def, c.seconds);
      const r = await ensureRendered(c.id, spec, join(OUT, 'renders'), async () => {
        renderer ??= await Renderer.open(DATA);
        return renderer;
      });
      renderSeconds += r.renderSeconds;
      log(
        `${c.id}: ${r.cached ? 'cached render' : `rendered in ${r.renderSeconds.toFixed(0)} s`} (${r.video})`,
      );
      const t1 = performance.now();
      const { tracks, cached } = await tracked(r.video, c.id, model);
      if (!cached) trackSeconds += (performance.now() - t1) / 1000;
      const meta = {
        motion: c.def.motion.kind,
        character: basename(CHARACTERS[c.def.character].file),
        camera: CAMERAS[c.def.camera].name,
      };
      const focal = { focalLengthPx: r.gt.intrinsics.fx };
      const details = solveDetailed(tracks, { ...extra, ...focal });
      const res = evaluateRendered(r.gt, tracks, details, meta);
      if (baseline) {
        baseResults.push(
          evaluateRendered(r.gt, tracks, solveDetailed(tracks, { ...baseline, ...focal }), meta),
        );
      }
      results.push(res);
      console.log(`${clipMarkdown(res)}\n`);
    }
  } finally {
    await (renderer as Renderer | undefined)?.close();
  }
  if (!args.includes('--no-real')) {
    const dir = join(DATA, 'videos');
    let videos = readdirSync(dir)
      .filter((f) => f.endsWith('.mp4'))
      .sort();
    if (quick) videos = videos.filter((v) => v.startsWith('dme_treadmill'));
    if (only) videos = videos.filter((v) => only.includes(v.replace(/\.mp4$/, '')));
    for (const v of videos) {
      const name = v.replace(/\.mp4$/, '');
      const t1 = performance.now();
      const { tracks, cached } = await tracked(join(dir, v), name, model);
      if (!cached) trackSeconds += (performance.now() - t1) / 1000;
      const details = solveDetailed(tracks, extra);
      // The solver's default guess (no focal length known for these clips).
      const { width, height } = tracks.video;
      const f = width / 2 / Math.tan((DEFAULT_FOV_DEG * Math.PI) / 360);
      const k = { fx: f, fy: f, cx: width / 2, cy: height / 2 };
      const res = evaluateReal(name, tracks, details, k);
      if (baseline) baseResults.push(evaluateReal(name, tracks, solveDetailed(tracks, baseline), k));
      results.push(res);
      console.log(`${clipMarkdown(res)}\n`);
    }
  }
  const pose2sim: Pose2SimResult[] = [];
  let pose2simVideo: { cameras: Pose2SimResult[]; reprojPx: number[] } | undefined;
  if (!args.includes('--no-pose2sim') && !quick) {
    const dir = join(DATA, 'gt', 'pose2sim_static_trial_4view');
    const cams = parseCalibration(readFileSync(join(dir, 'calibration', 'Calib_qualisys.toml'), 'utf8'));
    const truth = parseTrc(readFileSync(join(dir, 'pose-3d', 'S00_P00_T00_StaticTrial_0-12.trc'), 'utf8'));
    const seen: { cam: (typeof cams)[number]; tracks: Tracks }[] = [];
    for (const cam of cams) {
      const video = join(dir, 'videos', `${cam.name.replace('cam_', 'cam')}.mp4`);
      if (!existsSync(video)) continue;
      const t1 = performance.now();
      const { tracks, cached } = await tracked(
        video,
        `pose2sim_static_${cam.name.replace('cam_', 'cam')}`,
        model,
      );
      if (!cached) trackSeconds += (performance.now() - t1) / 1000;
      seen.push({ cam, tracks });
      const details = solveDetailed(tracks, { ...extra, focalLengthPx: cam.k.fx });
      const r = evaluatePose2Sim(cam.name, tracks, details, truth, cam.k);
      if (baseline) {
        const b = solveDetailed(tracks, { ...baseline, focalLengthPx: cam.k.fx });
        basePose2sim.push(evaluatePose2Sim(cam.name, tracks, b, truth, cam.k));
      }
      pose2sim.push(r);
      console.log(
        `Pose2Sim ${cam.name}: PA-MPJPE raw ${r.raw.toFixed(1)} mm, solved ${r.solved.toFixed(1)} mm (${r.frames} frames); upper arms from the trunk axis: reference ${r.armFromTrunk.reference.toFixed(0)}°, this camera's BlazePose ${r.armFromTrunk.raw.toFixed(0)}°`,
      );
    }
    // The shipped TRC holds another pose than the videos (arms ~30° from the trunk; the videos a T-pose):
    // the same cameras also against the videos' own 4-view triangulation.
    if (seen.length >= 2) {
      const tri = triangulateTrial(
        seen.map((x) => x.cam),
        seen.map((x) => x.tracks),
      );
      const solveOf = (o: SolveOptions, x: (typeof seen)[number]) =>
        evaluatePose2Sim(
          x.cam.name,
          x.tracks,
          solveDetailed(x.tracks, { ...o, focalLengthPx: x.cam.k.fx }),
          tri.frames,
          x.cam.k,
        );
      pose2simVideo = { cameras: seen.map((x) => solveOf(extra, x)), reprojPx: tri.reprojPx };
      if (baseline)
        basePose2simVideo = { cameras: seen.map((x) => solveOf(baseline, x)), reprojPx: tri.reprojPx };
      for (const r of pose2simVideo.cameras) {
        console.log(
          `Pose2Sim ${r.camera} vs its videos triangulated: PA-MPJPE raw ${r.raw.toFixed(1)} mm, solved ${r.solved.toFixed(1)} mm`,
        );
      }
      console.log(
        `triangulation reprojection (median px per camera): ${tri.reprojPx.map((v) => v.toFixed(1)).join(', ')}`,
      );
    }
    console.log('');
  }
  const summary = summarize(results, pose2sim, pose2simVideo);
  console.log('## Summary\n');
  console.log(summaryMarkdown(summary));
  const seconds = (performance.now() - t0) / 1000;
  console.log(
    `\nmodel ${model}; ${results.length} clips; rendering ${renderSeconds.toFixed(0)} s, tracking ${trackSeconds.toFixed(0)} s, total ${seconds.toFixed(0)} s`,
  );
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(
    outFile,
    JSON.stringify(
      {
        format: 'mocap-quality-report',
        version: 1,
        model,
        quick,
        createdAt: new Date().toISOString(),
        summary,
        clips: results,
      },
      null,
      1,
    ),
  );
  console.log(`report: ${outFile}`);
  if (baseline) {
    const before = summarize(baseResults, basePose2sim, basePose2simVideo);
    console.log(
      `\n## Baseline options ${baseOpts} → this run's options ${JSON.stringify(extra)} (same tracks)\n`,
    );
    console.log(compareMarkdown(before, summary));
    writeFileSync(
      outFile.replace(/\.json$/, '-baseline.json'),
      JSON.stringify({ summary: before, clips: baseResults }, null, 1),
    );
  }
  if (comparePath) {
    const prev = JSON.parse(readFileSync(comparePath, 'utf8')) as { summary: Summary };
    console.log(`\n## Old → new (${comparePath} → this run)\n`);
    console.log(compareMarkdown(prev.summary, summary));
    const worse = compareSummaries(prev.summary, summary);
    console.log(
      worse.length
        ? `\n**Worse than ${comparePath} by more than 5 %:**\n${worse.map((w) => `- ${w}`).join('\n')}`
        : `\nnothing worse than ${comparePath} by more than 5 %`,
    );
  }
}
