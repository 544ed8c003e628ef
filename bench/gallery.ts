/**
 * `npm run bench -- gallery [--clips name,name] [--model heavy|full|lite] [--frames 8] [--width 240]
 *  [--out dir] [--options json]`
 *
 * A contact sheet (PNG) per real clip — every `.mp4` of ../shared/testdata/videos and each camera of the
 * Pose2Sim static trial (../shared/testdata/gt/pose2sim_static_trial_4view/videos/cam0N.mp4) — to LOOK at the
 * solve: at evenly spaced frames, (1) the video frame with the solved skeleton projected through the solve's
 * camera, BlazePose's image landmarks and the solve's floor as a projected 1 m grid; (2) the product's character
 * (the BoyFBX mesh of `makeCharacterGlb`, animated by the solved clip) from the performer's front and (3) right
 * side, level orthographic views where the floor is a line; (4) per frame: knee angles, head pitch against the
 * chest, hips height, reprojection error, the character's lowest point above the floor.
 *
 * The capture path is the product's: `trackVideo` (tracks cached in bench/out/quality/tracks/, shared with
 * `bench quality`, same file names) → `solveDetailed(tracks)` with the product's defaults. The world → camera
 * transform is the solver's own when it exposes one (`details.worldToCamera`), otherwise the one `bench quality`
 * measures reprojection with (rotation fitted between the solved and raw poses, translation onto the solver's
 * camera-space root track). Frames come from ffmpeg; the sheet is laid out and the character rendered with
 * three.js in headless Chromium (software WebGL), then screenshotted. Output: bench/out/gallery/<clip>.png and
 * index.md (the figures of every sheet).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createSkeleton,
  DEFAULT_PROPORTIONS,
  forwardKinematics,
  hasFingers,
  type MotionClip,
  makeCharacterGlb,
  math,
  type SolveDetails,
  type SolveOptions,
  solveDetailed,
  type Vec3,
} from '@mocap/motion';
import { fitWorldToCamera, jointAt, RECORDED_JOINTS, rawFromTracks, solvedJoints } from '@mocap/quality';
import type { PoseModel, Tracks } from '@mocap/vision';
import { chromium } from 'playwright-core';
import { tracked } from './quality.ts';

const here = dirname(fileURLToPath(import.meta.url));
const DATA = join(here, '..', '..', 'shared', 'testdata');
const PAGE = join(here, 'gallery-page');
const THREE = resolve(dirname(createRequire(import.meta.url).resolve('three')), '..');
const ORIGIN = 'http://gallery.invalid';
const CHROMIUM = process.env.MOCAP_CHROMIUM ?? '/usr/bin/chromium';

const log = (s: string) => process.stderr.write(`${s}\n`);

function arg(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

interface Source {
  name: string;
  video: string;
  note: string;
}

/** The real clips and the Pose2Sim static trial's four cameras. */
export function gallerySources(): Source[] {
  const vids = join(DATA, 'videos');
  const out: Source[] = readdirSync(vids)
    .filter((f) => f.endsWith('.mp4'))
    .sort()
    .map((f) => ({ name: f.replace(/\.mp4$/, ''), video: join(vids, f), note: 'testdata/videos' }));
  const p2s = join(DATA, 'gt', 'pose2sim_static_trial_4view', 'videos');
  if (existsSync(p2s)) {
    for (const f of readdirSync(p2s)
      .filter((x) => x.endsWith('.mp4'))
      .sort()) {
      out.push({
        name: `pose2sim_static_${f.replace(/\.mp4$/, '')}`,
        video: join(p2s, f),
        note: 'Pose2Sim static trial (standing still, 1.72 m)',
      });
    }
  }
  return out;
}

interface WorldToCamera {
  q: math.Quat;
  t: Vec3;
  f: number;
  cx: number;
  cy: number;
  source: string;
}

/**
 * world → camera (x right, y up, z towards the viewer): the solver's own when `details` carries one, else the
 * transform `bench quality` uses for the reprojection error (see `solvedToCamera` of @mocap/quality).
 */
function worldToCamera(details: SolveDetails, tracks: Tracks): WorldToCamera {
  const { f, cx, cy } = details.camera;
  const own = details.cameraFromWorld;
  const { rotation, translation } =
    own ??
    fitWorldToCamera(
      solvedJoints(details.clip),
      rawFromTracks(tracks, { fx: f, fy: f, cx, cy }).camera,
      details.rootCamera,
    );
  return { q: rotation, t: translation, f, cx, cy, source: own ? 'solver' : 'fitted' };
}

function project(c: WorldToCamera, p: Vec3): [number, number] | null {
  const x = math.add(math.qRotate(c.q, p), c.t);
  if (x[2] > -0.05) return null;
  return [c.cx + (c.f * x[0]) / -x[2], c.cy - (c.f * x[1]) / -x[2]];
}

/** The video frame at `time` (s) as a JPEG `width` px wide. */
function frameJpeg(video: string, time: number, width: number): Buffer {
  const r = spawnSync(
    'ffmpeg',
    [
      '-hide_banner',
      '-v',
      'error',
      '-ss',
      Math.max(0, time - 0.001).toFixed(4),
      '-i',
      `file:${video}`,
      '-frames:v',
      '1',
      '-vf',
      `scale=${width}:-2`,
      '-q:v',
      '3',
      '-f',
      'image2',
      '-c:v',
      'mjpeg',
      'pipe:1',
    ],
    { maxBuffer: 64 << 20 },
  );
  if (r.status !== 0 || !r.stdout.length) throw new Error(`ffmpeg frame ${time}s of ${video}: ${r.stderr}`);
  return r.stdout;
}

/**
 * The clip on the canonical skeleton with fingers (straight, identity rotations) when it has none: the
 * character mesh is built with finger joints (`makeCharacterGlb` refuses a finger-less skeleton). Finger bones
 * are the default skeleton's, scaled by the ratio of the forearms.
 */
function withFingers(clip: MotionClip): MotionClip {
  if (hasFingers(clip.skeleton)) return clip;
  const full = createSkeleton(DEFAULT_PROPORTIONS, { fingers: true });
  const src = clip.skeleton;
  const at = (sk: typeof src, name: string) => sk.names.indexOf(name);
  const len = (sk: typeof src, name: string) => {
    const j = at(sk, name);
    return Math.hypot(sk.offsets[3 * j], sk.offsets[3 * j + 1], sk.offsets[3 * j + 2]);
  };
  const k = len(src, 'leftHand') / Math.max(1e-6, len(full, 'leftHand'));
  const m = full.names.length;
  const offsets = new Float32Array(m * 3);
  const tips = new Float32Array(m * 3);
  const map = full.names.map((name) => at(src, name));
  for (let j = 0; j < m; j++) {
    const i = map[j]!;
    for (let a = 0; a < 3; a++) {
      offsets[3 * j + a] = i >= 0 ? src.offsets[3 * i + a]! : full.offsets[3 * j + a]! * k;
      tips[3 * j + a] = i >= 0 ? src.tips[3 * i + a]! : full.tips[3 * j + a]! * k;
    }
  }
  const n = src.names.length;
  const rotations = new Float32Array(clip.frameCount * m * 4);
  for (let f = 0; f < clip.frameCount; f++) {
    for (let j = 0; j < m; j++) {
      const i = map[j]!;
      for (let a = 0; a < 4; a++)
        rotations[(f * m + j) * 4 + a] = i >= 0 ? clip.rotations[(f * n + i) * 4 + a]! : a === 3 ? 1 : 0;
    }
  }
  return {
    ...clip,
    skeleton: { names: full.names, parents: full.parents, offsets, restRotations: full.restRotations, tips },
    rotations,
  };
}

const deg = (r: number) => (r * 180) / Math.PI;

function angleBetween(a: Vec3, b: Vec3): number {
  const c = math.dot(a, b) / Math.max(1e-9, Math.hypot(...a) * Math.hypot(...b));
  return deg(Math.acos(Math.max(-1, Math.min(1, c))));
}

interface FrameSpec {
  time: number;
  /** Source rectangle of the video frame shown (video pixels): around the performer. */
  crop: [number, number, number, number];
  tag: string;
  imageUrl: string;
  bones2d: number[][];
  landmarks: number[][];
  floor2d: number[][];
  /** Height of the surface under the feet (the solve's support level; 0 = the floor). */
  support: number;
  hips: Vec3;
  facingYaw: number;
  lines: string[];
  bad: boolean[];
}

interface SheetFigures {
  name: string;
  frames: number;
  fps: number;
  width: number;
  height: number;
  camera: string;
  heightM: number;
  reprojPx: number;
  reprojPct: number;
  perFrame: { t: number; kneeL: number; kneeR: number; head: number; hips: number; reproj: number }[];
  warnings: string[];
  solveS: number;
}

/** Everything the page needs for one clip, and the figures. */
function buildSpec(
  src: Source,
  tracks: Tracks,
  details: SolveDetails,
  frames: number,
  width: number,
  solveS: number,
) {
  const clip: MotionClip = details.clip;
  const s = clip.skeleton;
  const n = s.names.length;
  const J = (name: string) => s.names.indexOf(name);
  const { positions, rotations } = forwardKinematics(clip);
  const P = (f: number, j: number): Vec3 => [
    positions[(f * n + j) * 3],
    positions[(f * n + j) * 3 + 1],
    positions[(f * n + j) * 3 + 2],
  ];
  const R = (f: number, j: number): math.Quat => math.readQuat(rotations, f * n + j);
  const cam = worldToCamera(details, tracks);
  const sameGrid = clip.frameCount === tracks.frames.length && !tracks.video.vfr;
  const t0 = tracks.frames[0]?.time ?? 0;
  const body = s.names
    .map((name, j) => ({ name, j, p: s.parents[j] }))
    .filter((b) => b.p >= 0 && !/(Thumb|Index|Middle|Ring|Pinky)/.test(b.name));
  const colourOf = (name: string) => (/^left/.test(name) ? 1 : /^right/.test(name) ? 2 : 0);

  // Reprojection per frame (solved joints through the camera vs the image landmarks, RECORDED_JOINTS).
  const k = { fx: cam.f, fy: cam.f, cx: cam.cx, cy: cam.cy };
  const raw = rawFromTracks(tracks, k);
  const solvedW = solvedJoints(clip);
  const reprojOf = (f: number): { px: number; pct: number } | null => {
    const im = sameGrid ? raw.image[f] : null;
    const w = solvedW[f];
    const fr = sameGrid ? tracks.frames[f] : undefined;
    if (!im || !w || !fr?.image) return null;
    let sum = 0;
    let c = 0;
    for (let j = 0; j < RECORDED_JOINTS.length; j++) {
      const uv = project(cam, jointAt(w, j));
      if (!uv) continue;
      sum += Math.hypot(uv[0] - im[2 * j], uv[1] - im[2 * j + 1]);
      c++;
    }
    const ys = fr.image.filter((l) => l[3] > 0.5).map((l) => l[1]);
    const h = ys.length ? Math.max(...ys) - Math.min(...ys) : Number.NaN;
    return c ? { px: sum / c, pct: (100 * sum) / c / h } : null;
  };
  let rSum = 0;
  let rPct = 0;
  let rN = 0;
  for (let f = 0; f < clip.frameCount; f++) {
    const r = reprojOf(f);
    if (r && Number.isFinite(r.pct)) {
      rSum += r.px;
      rPct += r.pct;
      rN++;
    }
  }

  const K = Math.min(frames, clip.frameCount);
  const dataPrefix = `${encodeURIComponent(src.name)}-${Date.now().toString(36)}`;
  // The performer's box in the image per frame (landmarks seen), for a crop that follows them at one scale.
  const boxOf = (f: number): [number, number, number, number] | null => {
    const fr = sameGrid ? tracks.frames[f] : undefined;
    const pts = fr?.image?.filter((l) => l[3] > 0.5) ?? [];
    if (pts.length < 5) return null;
    const xs = pts.map((l) => l[0]);
    const ys = pts.map((l) => l[1]);
    return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  };
  const cellAspect = 4 / 3; // height / width of a video cell
  const picks = Array.from({ length: K }, (_, i) =>
    K === 1 ? 0 : Math.round((i * (clip.frameCount - 1)) / (K - 1)),
  );
  const boxes = picks.map(boxOf);
  let cropH = 0;
  for (const b of boxes)
    if (b) cropH = Math.max(cropH, (b[3] - b[1]) * 1.45, (b[2] - b[0]) * 1.3 * cellAspect);
  if (!(cropH > 0)) cropH = tracks.video.height;
  cropH = Math.min(cropH, Math.max(tracks.video.height, tracks.video.width * cellAspect));
  const cropW = cropH / cellAspect;
  let lastBox: [number, number, number, number] = [0, 0, tracks.video.width, tracks.video.height];
  const specFrames: FrameSpec[] = [];
  const perFrame: SheetFigures['perFrame'] = [];
  const images = new Map<string, Buffer>();
  let viewTop = 2.1;
  for (let i = 0; i < K; i++) {
    const f = picks[i]!;
    const box = boxes[i] ?? lastBox;
    lastBox = box;
    const crop: [number, number, number, number] = [
      (box[0] + box[2]) / 2 - cropW / 2,
      (box[1] + box[3]) / 2 - cropH / 2,
      cropW,
      cropH,
    ];
    const videoTime = sameGrid ? tracks.frames[f]!.time : t0 + f / clip.fps;
    // Unique per clip and run: the page would otherwise reuse the previous clip's cached frames.
    const url = `/data/${dataPrefix}/frame-${i}.jpg`;
    images.set(url, frameJpeg(src.video, videoTime, Math.min(tracks.video.width, 1600)));
    const bones2d: number[][] = [];
    for (const b of body) {
      const a = project(cam, P(f, b.p));
      const c = project(cam, P(f, b.j));
      if (a && c) bones2d.push([a[0], a[1], c[0], c[1], colourOf(b.name)]);
    }
    const tf = sameGrid ? tracks.frames[f] : undefined;
    const landmarks = tf?.image ? tf.image.map((l) => [l[0], l[1], l[3]]) : [];
    const hips = P(f, 0);
    const floor2d: number[][] = [];
    const support = clip.support ? clip.support[f] : 0;
    const gx = Math.round(hips[0]);
    const gz = Math.round(hips[2]);
    for (let g = -3; g <= 3; g++) {
      for (const dirX of [true, false]) {
        for (let m = 0; m < 12; m++) {
          const u0 = -3 + m * 0.5;
          const u1 = u0 + 0.5;
          const a: Vec3 = dirX ? [gx + u0, support, gz + g] : [gx + g, support, gz + u0];
          const c: Vec3 = dirX ? [gx + u1, support, gz + g] : [gx + g, support, gz + u1];
          const pa = project(cam, a);
          const pc = project(cam, c);
          if (pa && pc) floor2d.push([pa[0], pa[1], pc[0], pc[1]]);
        }
      }
    }
    const fwd = math.qRotate(R(f, 0), [0, 0, 1]);
    const facingYaw = Math.atan2(fwd[0], fwd[2]);
    const knee = (side: string) =>
      angleBetween(
        math.sub(P(f, J(`${side}Thigh`)), P(f, J(`${side}Shin`))),
        math.sub(P(f, J(`${side}Foot`)), P(f, J(`${side}Shin`))),
      );
    const kneeL = knee('left');
    const kneeR = knee('right');
    const chestUp = math.qRotate(R(f, J('spine2')), [0, 1, 0]);
    const chestFwd = math.qRotate(R(f, J('spine2')), [0, 0, 1]);
    const headUp = math.qRotate(R(f, J('head')), [0, 1, 0]);
    const head = deg(Math.atan2(math.dot(headUp, chestFwd), math.dot(headUp, chestUp)));
    const headTop = math.add(P(f, J('head')), math.qRotate(R(f, J('head')), [0, 0.2, 0]));
    for (let j = 0; j < n; j++) viewTop = Math.max(viewTop, P(f, j)[1] + 0.3);
    viewTop = Math.max(viewTop, headTop[1] + 0.15);
    const r = reprojOf(f);
    perFrame.push({ t: f / clip.fps, kneeL, kneeR, head, hips: hips[1], reproj: r?.px ?? Number.NaN });
    specFrames.push({
      time: f / clip.fps,
      crop,
      tag: `${(f / clip.fps).toFixed(2)} s · f${f}`,
      imageUrl: url,
      bones2d,
      landmarks,
      floor2d,
      support,
      hips,
      facingYaw,
      lines: [
        `knees L ${kneeL.toFixed(0)}° R ${kneeR.toFixed(0)}°`,
        `head ${head >= 0 ? '+' : ''}${head.toFixed(0)}° vs chest`,
        `hips ${hips[1].toFixed(2)} m`,
        r ? `reproj ${r.px.toFixed(1)} px (${r.pct.toFixed(1)} %)` : 'reproj —',
      ],
      bad: [false, Math.abs(head) > 25, false, (r?.pct ?? 0) > 1.5],
    });
  }
  const m = clip.metadata;
  const figures: SheetFigures = {
    name: src.name,
    frames: clip.frameCount,
    fps: clip.fps,
    width: tracks.video.width,
    height: tracks.video.height,
    camera: `f ${cam.f.toFixed(0)} px (${details.camera.horizontalFovDeg.toFixed(0)}° ${details.camera.source}), world→camera ${cam.source}`,
    heightM: m.height ?? Number.NaN,
    reprojPx: rN ? rSum / rN : Number.NaN,
    reprojPct: rN ? rPct / rN : Number.NaN,
    perFrame,
    warnings: m.warnings ?? [],
    solveS,
  };
  const spec = {
    title: `${src.name}`,
    subtitle:
      `${src.note} · ${tracks.video.width}×${tracks.video.height}, ${clip.frameCount} frames at ${clip.fps.toFixed(2)} fps · ` +
      `solved height ${figures.heightM.toFixed(2)} m · camera ${figures.camera} · ` +
      `mean reprojection ${figures.reprojPx.toFixed(1)} px (${figures.reprojPct.toFixed(2)} % of the person's height) · ` +
      `solve ${solveS.toFixed(1)} s${figures.warnings.length ? ` · warnings: ${figures.warnings.join('; ')}` : ''}`,
    legend:
      'Row 1: the video frame around the performer (one scale per clip) · solved skeleton through the solve’s camera (white centre, blue left, orange right) · ' +
      'yellow dots: BlazePose image landmarks (visibility ≥ 0.5) · cyan: the solve’s floor, 1 m grid. ' +
      'Rows 2–3: the BoyFBX character animated by the solved clip, level orthographic views from the performer’s ' +
      'front and right side; thick line: floor (y = 0, or the raised ground the solve found under the feet), thin line: 10 cm above. Knee 180° = straight; head pitch ' +
      'against the chest, + = forward.',
    colWidth: width,
    video: { width: tracks.video.width, height: tracks.video.height },
    glbUrl: `/data/${dataPrefix}/clip.glb`,
    viewTop: Math.min(viewTop, 3.5),
    frames: specFrames,
  };
  images.set(`/data/${dataPrefix}/clip.glb`, Buffer.from(makeCharacterGlb('boy', withFingers(clip))));
  return { spec, images, figures };
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.jpg': 'image/jpeg',
  '.glb': 'model/gltf-binary',
};

function fileInside(root: string, rel: string): string | null {
  const p = normalize(join(root, decodeURIComponent(rel)));
  if (p !== root && !p.startsWith(root + sep)) return null;
  return existsSync(p) ? p : null;
}

export default async function bench(args: string[]): Promise<void> {
  const model = (arg(args, '--model') ?? 'heavy') as PoseModel;
  const frames = Number(arg(args, '--frames') ?? 8);
  const width = Number(arg(args, '--width') ?? 240);
  const out = arg(args, '--out') ?? join(here, 'out', 'gallery');
  const only = arg(args, '--clips')?.split(',');
  /** Solve options other than the product's defaults (experiments; the gallery of record uses none). */
  const solveOptions = JSON.parse(arg(args, '--options') ?? '{}') as SolveOptions;
  let sources = gallerySources();
  if (only) sources = sources.filter((s) => only.includes(s.name));
  mkdirSync(out, { recursive: true });
  const uptime = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  log(`gallery: ${sources.length} clips → ${out} (load ${uptime})`);

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-quic'],
  });
  const data = new Map<string, Buffer>();
  const figures: SheetFigures[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.route(`${ORIGIN}/**`, async (route) => {
      const path = new URL(route.request().url()).pathname;
      const m = /^\/(page|three|data)\/(.+)$/.exec(path);
      if (m?.[1] === 'data') {
        const body = data.get(path);
        return body
          ? route.fulfill({
              status: 200,
              body,
              contentType: MIME[extname(path)] ?? 'application/octet-stream',
            })
          : route.fulfill({ status: 404, body: 'missing' });
      }
      const file = m ? fileInside(m[1] === 'page' ? PAGE : THREE, m[2]!) : null;
      if (!file) return route.fulfill({ status: 404, body: `not found: ${path}` });
      return route.fulfill({
        status: 200,
        body: readFileSync(file),
        contentType: MIME[extname(file)] ?? 'application/octet-stream',
      });
    });
    await page.goto(`${ORIGIN}/page/index.html`);
    await page
      .waitForFunction(
        () => (globalThis as { gallery?: { ready: boolean } }).gallery?.ready === true,
        undefined,
        {
          timeout: 30_000,
        },
      )
      .catch(() => {
        throw new Error(`gallery page did not load: ${errors.join('; ') || 'timeout'}`);
      });

    for (const src of sources) {
      const { tracks, s: trackS } = await tracked(src.video, src.name, model);
      const t1 = performance.now();
      const details = solveDetailed(tracks, solveOptions);
      const solveS = (performance.now() - t1) / 1000;
      const { spec, images, figures: fig } = buildSpec(src, tracks, details, frames, width, solveS);
      data.clear();
      for (const [k, v] of images) data.set(k, v);
      await page.setViewportSize({ width: frames * (width + 4) + 40, height: 900 });
      await page.evaluate(
        (sp) =>
          (globalThis as unknown as { gallery: { render(s: unknown): Promise<unknown> } }).gallery.render(sp),
        spec,
      );
      const file = join(out, `${src.name}.png`);
      await page.locator('#sheet').screenshot({ path: file });
      figures.push(fig);
      log(
        `${src.name}: ${trackS ? `tracked in ${trackS.toFixed(0)} s, ` : ''}solved in ${solveS.toFixed(1)} s, ` +
          `reprojection ${fig.reprojPx.toFixed(1)} px (${fig.reprojPct.toFixed(2)} %) → ${file}`,
      );
    }
  } finally {
    await browser.close();
  }

  const lines = [
    '# Gallery',
    '',
    `model ${model}; ${figures.length} sheets; load ${uptime}; ${new Date().toISOString()}`,
    '',
    '| clip | frames | fps | solved height | mean reproj px | % of person height | solve s |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...figures.map(
      (f) =>
        `| ${f.name} | ${f.frames} | ${f.fps.toFixed(1)} | ${f.heightM.toFixed(2)} | ${f.reprojPx.toFixed(1)} | ${f.reprojPct.toFixed(2)} | ${f.solveS.toFixed(1)} |`,
    ),
    '',
    ...figures.flatMap((f) => [
      `## ${f.name}`,
      '',
      `camera: ${f.camera}`,
      '',
      '| t s | knee L ° | knee R ° | head ° vs chest | hips m | reproj px |',
      '|---:|---:|---:|---:|---:|---:|',
      ...f.perFrame.map(
        (p) =>
          `| ${p.t.toFixed(2)} | ${p.kneeL.toFixed(0)} | ${p.kneeR.toFixed(0)} | ${p.head.toFixed(0)} | ${p.hips.toFixed(2)} | ${p.reproj.toFixed(1)} |`,
      ),
      '',
    ]),
  ];
  writeFileSync(join(out, 'index.md'), lines.join('\n'));
  console.log(lines.slice(0, 6 + figures.length).join('\n'));
  console.log(`\nsheets: ${out}`);
}
