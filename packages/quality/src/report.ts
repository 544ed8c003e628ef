/**
 * Evaluation of one clip (rendered with ground truth, or real without) into raw and solved rows, the
 * summaries, markdown tables and the comparison with a previous JSON report.
 */
import { type BodyModel, lowestFootHeight, type MotionClip, math, poseToWorld } from '@mocap/motion';
import type { Tracks } from '@mocap/vision';
import { EVAL_JOINTS, JOINT_LABEL, jointIndexOf, type RecordedJoint } from './correspondence.ts';
import { cameraToWorld, rawFromTracks, solvedJoints, solvedToCamera } from './estimates.ts';
import type { GroundTruth } from './gt.ts';
import * as M from './metrics.ts';
import type { Pose2SimResult } from './pose2sim.ts';
import type { SolvedInput } from './solved.ts';

export const METRICS = {
  mpjpe: { label: 'MPJPE mm', higherIsBetter: false },
  paMpjpe: { label: 'PA-MPJPE mm', higherIsBetter: false },
  angle: { label: 'angle °', higherIsBetter: false },
  accel: { label: 'accel mm/f²', higherIsBetter: false },
  jitter: { label: 'jitter m/s³', higherIsBetter: false },
  sliding: { label: 'slide mm', higherIsBetter: false },
  penetration: { label: 'penetr. mm', higherIsBetter: false },
  rootErr: { label: 'root mm', higherIsBetter: false },
  rte: { label: 'RTE %', higherIsBetter: false },
  boneStd: { label: 'bone std mm', higherIsBetter: false },
  coverage: { label: 'coverage %', higherIsBetter: true },
  reproj: { label: 'reproj px', higherIsBetter: false },
  reprojPct: { label: 'reproj % height', higherIsBetter: false },
  floorPct: { label: 'feet on floor %', higherIsBetter: true },
} as const;
export type MetricKey = keyof typeof METRICS;
export type MetricRow = Partial<Record<MetricKey, number>>;

export const GT_METRICS: MetricKey[] = [
  'mpjpe',
  'paMpjpe',
  'angle',
  'accel',
  'jitter',
  'sliding',
  'penetration',
  'rootErr',
  'rte',
  'boneStd',
  'coverage',
  'reproj',
];
export const NO_GT_METRICS: MetricKey[] = [
  'coverage',
  'jitter',
  'sliding',
  'boneStd',
  'reproj',
  'reprojPct',
  'floorPct',
];

export interface ClipResult {
  id: string;
  kind: 'rendered' | 'real';
  motion?: string;
  character?: string;
  camera?: string;
  frames: number;
  fps: number;
  raw: MetricRow;
  solved: MetricRow;
  /** The truth's own jitter and sliding (reference values). */
  truth?: { jitter: number; sliding: number };
  /** Contact frame pairs behind the sliding figures. */
  contactPairs: number;
  /** Distance the truth's pelvis travels, m. */
  travelM?: number;
  /** PA-MPJPE per joint. */
  perJoint?: { raw: Record<string, number>; solved: Record<string, number> };
  perAngle?: { raw: Record<string, number>; solved: Record<string, number> };
  /** Median height of the subject in the picture (head joint to lowest foot point, projected truth), px. */
  subjectPx?: number;
  /** Camera distance actually used (grown when the subject would leave the picture), m. */
  cameraDistance?: number;
  /** Mean 2D distance of the tracked image landmarks to the projected true joints, px (detection quality). */
  detection2d?: number;
  /** Solved PA-MPJPE with the truth's depths, and with the truth's image-plane positions (`withTruth`), mm. */
  withTruth?: { depth: number; imagePlane: number };
  /** Limb depth order in camera space against the truth's (`depthOrder`), raw BlazePose and solved. */
  depthOrder?: { raw: M.DepthOrder; solved: M.DepthOrder };
  /** The solver's detected foot contacts against the truth's, frame by frame (`contactAgreement`). */
  contacts?: M.ContactAgreement;
  notes: string[];
}

/** Projected ground-truth joints per frame (`[J × 2]`). */
function projectFrames(frames: M.Frames, k: M.Intrinsics): (number[] | null)[] {
  return frames.map((fr) => {
    if (!fr) return null;
    const out: number[] = [];
    for (let j = 0; j < fr.length / 3; j++)
      out.push(...M.project(k, [fr[j * 3], fr[j * 3 + 1], fr[j * 3 + 2]]));
    return out;
  });
}

function twoDError(a: (number[] | null)[], b: (number[] | null)[]): number {
  let s = 0;
  let n = 0;
  const evalIdx = EVAL_JOINTS.map((_, i) => i);
  for (let f = 0; f < Math.min(a.length, b.length); f++) {
    const x = a[f];
    const y = b[f];
    if (!x || !y) continue;
    for (const j of evalIdx) {
      s += Math.hypot(x[j * 2] - y[j * 2], x[j * 2 + 1] - y[j * 2 + 1]);
      n++;
    }
  }
  return n ? s / n : Number.NaN;
}

/** A rendered clip against its ground truth. */
export function evaluateRendered(
  gt: GroundTruth,
  tracks: Tracks,
  solved: SolvedInput,
  meta: { motion: string; character: string; camera: string },
): ClipResult {
  const k = gt.intrinsics;
  const truth: M.Frames = gt.world;
  const raw = rawFromTracks(tracks, k);
  const notes: string[] = [];
  const N = Math.min(gt.frames, raw.camera.length, solved.clip.frameCount);
  if (raw.camera.length !== gt.frames || solved.clip.frameCount !== gt.frames) {
    notes.push(
      `frame counts differ: truth ${gt.frames}, tracks ${raw.camera.length}, solved ${solved.clip.frameCount}`,
    );
  }
  const cut = <T>(x: T[]) => x.slice(0, N);
  const rawWorld = M.alignRigid(cut(cameraToWorld(raw.camera, gt.extrinsics)), cut(truth)).aligned;
  const solvedWorldOwn = solvedJoints(solved.clip);
  const solvedWorld = M.alignRigid(cut(solvedWorldOwn), cut(truth)).aligned;
  const solvedCam = solvedToCamera(solvedWorldOwn, raw.camera, solved.rootCamera, solved.cameraFromWorld);
  const contacts: M.Contacts = gt.contacts;
  const row = (est: M.Frames, cam: M.Frames): MetricRow => {
    const pe = M.poseErrors(est, cut(truth));
    const rt = M.rootTrajectoryError(est, cut(truth), gt.fps);
    return {
      mpjpe: pe.mpjpe,
      paMpjpe: pe.paMpjpe,
      angle: M.jointAngleError(est, cut(truth)).mean,
      accel: M.accelerationError(est, cut(truth)),
      jitter: M.jitter(est, gt.fps),
      sliding: M.footSliding(est, contacts).mm,
      penetration: M.groundPenetration(est, cut(truth)).meanMm,
      rootErr: rt.meanMm,
      rte: rt.rtePct,
      boneStd: M.boneLengthStd(est),
      coverage: M.coverage(est) * 100,
      reproj: M.reprojectionError(cam, raw.image, k),
    };
  };
  const rawRow = row(rawWorld, raw.camera);
  const solvedRow = row(solvedWorld, solvedCam);
  const perJoint = {
    raw: M.poseErrors(rawWorld, cut(truth)).perJointPa,
    solved: M.poseErrors(solvedWorld, cut(truth)).perJointPa,
  };
  const perAngle = {
    raw: M.jointAngleError(rawWorld, cut(truth)).perAngle,
    solved: M.jointAngleError(solvedWorld, cut(truth)).perAngle,
  };
  const camTruth = cut(gt.camera);
  const withTruthPa = (side: 'depth' | 'imagePlane') =>
    M.poseErrors(M.withTruth(cut(solvedCam), camTruth, side), camTruth).paMpjpe;
  const projected = projectFrames(gt.camera, k);
  const detection2d = twoDError(raw.image, projected);
  const heights = projected
    .map((p) => {
      if (!p) return Number.NaN;
      const v = (name: RecordedJoint) => p[jointIndexOf(name) * 2 + 1];
      return Math.max(v('leftFoot'), v('rightFoot'), v('leftToes'), v('rightToes')) - v('head');
    })
    .sort((a, b) => a - b);
  const subjectPx = heights[heights.length >> 1];
  {
    // Where the tracker's hip points sit along the thigh (0 = the truth's hip joint, 1 = its knee) and its
    // ankle points along the shin from the knee, medians over frames and sides (projected truth).
    const along = (a: RecordedJoint, b: RecordedJoint, lmOf: RecordedJoint) => {
      const vals: number[] = [];
      for (let f = 0; f < Math.min(projected.length, raw.image.length); f++) {
        const p = projected[f];
        const im = raw.image[f];
        if (!p || !im) continue;
        const ia = jointIndexOf(a) * 2;
        const ib = jointIndexOf(b) * 2;
        const il = jointIndexOf(lmOf) * 2;
        const dx = p[ib] - p[ia];
        const dy = p[ib + 1] - p[ia + 1];
        const l2 = dx * dx + dy * dy;
        if (l2 < 100) continue;
        vals.push(((im[il] - p[ia]) * dx + (im[il + 1] - p[ia + 1]) * dy) / l2);
      }
      return math.median(vals);
    };
    const hipL = along('leftThigh', 'leftShin', 'leftThigh');
    const hipR = along('rightThigh', 'rightShin', 'rightThigh');
    const ankL = along('leftShin', 'leftFoot', 'leftFoot');
    const ankR = along('rightShin', 'rightFoot', 'rightFoot');
    notes.push(
      `landmark bias (projected truth): hip points ${fmt(hipL)}/${fmt(hipR)} down the thigh, ankle points ${fmt(ankL)}/${fmt(ankR)} of the shin from the knee`,
    );
  }
  const cov = rawRow.coverage ?? 0;
  if (cov < 90) notes.push(`BlazePose found the body in only ${cov.toFixed(0)} % of frames`);
  if (solved.cameraFromWorld && gt.extrinsics.length) {
    // The solver's up (world +Y seen from its camera) against the true one (first frame's camera).
    const up = math.qRotate(solved.cameraFromWorld.rotation, [0, 1, 0]);
    const R = gt.extrinsics[0].R;
    const cosA = up[0] * R[1] + up[1] * R[4] + up[2] * R[7];
    notes.push(
      `up direction error: ${((Math.acos(Math.max(-1, Math.min(1, cosA))) * 180) / Math.PI).toFixed(1)}°`,
    );
  }
  return {
    id: gt.id,
    kind: 'rendered',
    ...meta,
    frames: N,
    fps: gt.fps,
    raw: rawRow,
    solved: solvedRow,
    truth: { jitter: M.jitter(truth, gt.fps), sliding: M.footSliding(truth, contacts).mm },
    contactPairs: M.footSliding(truth, contacts).pairs,
    travelM: M.rootTrajectoryError(cut(truth), cut(truth), gt.fps).travelM,
    perJoint,
    perAngle,
    detection2d,
    withTruth: { depth: withTruthPa('depth'), imagePlane: withTruthPa('imagePlane') },
    depthOrder: {
      raw: M.depthOrder(cut(raw.camera), camTruth),
      solved: M.depthOrder(cut(solvedCam), camTruth),
    },
    ...(solved.clip.contacts
      ? {
          contacts: M.contactAgreement(
            {
              left: solved.clip.contacts.left.subarray(0, N),
              right: solved.clip.contacts.right.subarray(0, N),
            },
            { left: Array.from(contacts.left).slice(0, N), right: Array.from(contacts.right).slice(0, N) },
          ),
        }
      : {}),
    subjectPx,
    cameraDistance: gt.setup.distance,
    notes,
  };
}

/** A real clip without ground truth (contacts: the solver's detected ones, for both rows). */
export function evaluateReal(id: string, tracks: Tracks, solved: SolvedInput, k: M.Intrinsics): ClipResult {
  const raw = rawFromTracks(tracks, k);
  const solvedWorld = solvedJoints(solved.clip);
  const solvedCam = solvedToCamera(solvedWorld, raw.camera, solved.rootCamera, solved.cameraFromWorld);
  const fps = solved.clip.fps;
  const c = solved.clip.contacts;
  const contacts: M.Contacts = c
    ? { left: Array.from(c.left, (x) => (x ? 3 : 0)), right: Array.from(c.right, (x) => (x ? 3 : 0)) }
    : { left: [], right: [] };
  const notes: string[] = [];
  if (Math.abs(tracks.frames.length - solved.clip.frameCount) > 0) {
    notes.push(
      `variable frame rate: ${tracks.frames.length} tracked frames resampled to ${solved.clip.frameCount}`,
    );
  }
  const row = (est: M.Frames, cam: M.Frames, rate: number): MetricRow => ({
    coverage: M.coverage(est) * 100,
    jitter: M.jitter(est, rate),
    sliding: M.footSliding(est, contacts).mm,
    boneStd: M.boneLengthStd(est),
    reproj: M.reprojectionError(cam, raw.image, k),
  });
  const sameRate = tracks.frames.length === solved.clip.frameCount;
  const rawRow = row(raw.camera, raw.camera, tracks.video.fps);
  if (!sameRate) rawRow.sliding = Number.NaN; // contact flags are on the solver's resampled frames
  const personPx = bodyImageHeight(tracks);
  rawRow.reprojPct = ((rawRow.reproj ?? Number.NaN) / personPx) * 100;
  const solvedRow = {
    ...row(solvedWorld, sameRate ? solvedCam : [], fps),
    ...(sameRate ? {} : { reproj: Number.NaN }),
  };
  solvedRow.reprojPct = ((solvedRow.reproj ?? Number.NaN) / personPx) * 100;
  if (solved.model && sameRate) {
    const floor = feetOnFloor(tracks, solved.clip, solved.model, personPx);
    solvedRow.floorPct = floor.pct;
    notes.push(
      `feet on floor: ${floor.onFloor} of ${floor.frames} no-jump frames (${floor.jumps} jump frames)`,
    );
  }
  return {
    id,
    kind: 'real',
    frames: tracks.frames.length,
    fps: tracks.video.fps,
    raw: rawRow,
    solved: solvedRow,
    contactPairs: M.footSliding(solvedWorld, contacts).pairs,
    subjectPx: personPx,
    notes,
  };
}

const FOOT_LM = [29, 30, 31, 32];

/**
 * The person's image height (px): median over tracked frames of the vertical extent of the 33 image
 * landmarks (top: the eyes/ears, about 10 cm below the top of the head; bottom: the lowest heel or toe).
 */
export function bodyImageHeight(tracks: Tracks): number {
  const hs: number[] = [];
  for (const fr of tracks.frames) {
    if (fr.state !== 'tracked' || !fr.image) continue;
    let top = Number.POSITIVE_INFINITY;
    let bottom = Number.NEGATIVE_INFINITY;
    for (const q of fr.image) {
      top = Math.min(top, q[1]);
      bottom = Math.max(bottom, q[1]);
    }
    hs.push(bottom - top);
  }
  hs.sort((a, b) => a - b);
  return hs.length ? hs[hs.length >> 1] : Number.NaN;
}

/**
 * Feet on the floor (real clips): per frame, the lowest sole point of the solved body (the solver's model:
 * heel and toe points of both feet) against the solved floor (y = 0, or the raised ground the solver found
 * under the feet in that frame, `clip.support`). Frames where the image shows a jump
 * are left out: the lower foot's image point (heel/toe landmarks) at least 8 % of the body's image height
 * above its running median over ±1 s. Returns the share of the remaining frames within 5 cm of the floor.
 */
export function feetOnFloor(
  tracks: Tracks,
  clip: MotionClip,
  model: BodyModel,
  personPx: number,
): { pct: number; frames: number; onFloor: number; jumps: number } {
  const N = Math.min(clip.frameCount, tracks.frames.length);
  const low = new Float64Array(N).fill(Number.NaN);
  for (let f = 0; f < N; f++) {
    const fr = tracks.frames[f];
    if (fr.state !== 'tracked' || !fr.image) continue;
    low[f] = Math.max(...FOOT_LM.map((i) => fr.image![i][1]));
  }
  const win = Math.max(1, Math.round(clip.fps));
  const n = clip.skeleton.names.length;
  const pose = { positions: new Float64Array(n * 3), rotations: new Float64Array(n * 4) };
  let frames = 0;
  let onFloor = 0;
  let jumps = 0;
  for (let f = 0; f < N; f++) {
    if (!Number.isFinite(low[f])) continue;
    const near: number[] = [];
    for (let g = Math.max(0, f - win); g <= Math.min(N - 1, f + win); g++)
      if (Number.isFinite(low[g])) near.push(low[g]);
    near.sort((a, b) => a - b);
    if (near[near.length >> 1] - low[f] > 0.08 * personPx) {
      jumps++;
      continue;
    }
    const root = [
      clip.rootPositions[f * 3],
      clip.rootPositions[f * 3 + 1],
      clip.rootPositions[f * 3 + 2],
    ] as [number, number, number];
    poseToWorld(clip.skeleton, clip.rotations, f * n * 4, root, pose);
    frames++;
    const level = clip.support ? clip.support[f] : 0;
    if (Math.abs(lowestFootHeight(model, pose) - level) <= 0.05) onFloor++;
  }
  return { pct: frames ? (onFloor / frames) * 100 : Number.NaN, frames, onFloor, jumps };
}

// ---------------------------------------------------------------- summaries

const fin = (x: number | undefined): x is number => x !== undefined && Number.isFinite(x);

/** Frame-weighted mean of each metric over clips (sliding weighted by contact pairs; RTE over clips with travel). */
export function aggregate(results: ClipResult[], pick: (r: ClipResult) => MetricRow): MetricRow {
  const out: MetricRow = {};
  for (const key of Object.keys(METRICS) as MetricKey[]) {
    let s = 0;
    let w = 0;
    for (const r of results) {
      const v = pick(r)[key];
      if (!fin(v)) continue;
      const wt = key === 'sliding' ? r.contactPairs : key === 'rte' ? 1 : r.frames;
      s += v * wt;
      w += wt;
    }
    if (w > 0) out[key] = s / w;
  }
  return out;
}

const fmt = (x: number | undefined, key?: MetricKey) =>
  !fin(x) ? '–' : key === 'jitter' || key === 'coverage' ? x.toFixed(0) : x.toFixed(Math.abs(x) < 10 ? 2 : 1);

/** A markdown table with one column per metric and one row per labelled metric row. */
export function metricTable(rows: [string, MetricRow][], keys: MetricKey[]): string {
  const head = `| | ${keys.map((k) => METRICS[k].label).join(' | ')} |`;
  const sep = `|---|${keys.map(() => '---:').join('|')}|`;
  return [
    head,
    sep,
    ...rows.map(([label, r]) => `| ${label} | ${keys.map((k) => fmt(r[k], k)).join(' | ')} |`),
  ].join('\n');
}

export function clipMarkdown(r: ClipResult): string {
  const lines: string[] = [];
  if (r.kind === 'rendered') {
    lines.push(
      `### ${r.id} — ${r.motion}, ${r.character}, camera ${r.camera} (actual distance ${r.cameraDistance?.toFixed(1)} m; ${r.frames} frames, travels ${r.travelM?.toFixed(1)} m, subject ~${r.subjectPx?.toFixed(0)} px tall)`,
    );
    lines.push('');
    lines.push(
      metricTable(
        [
          ['raw BlazePose', r.raw],
          ['solved', r.solved],
          ['truth', { jitter: r.truth?.jitter, sliding: r.truth?.sliding }],
        ],
        GT_METRICS,
      ),
    );
    if (r.perJoint) {
      const worst = Object.entries(r.perJoint.solved)
        .filter(([j]) => j !== 'hips')
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([j, v]) => `${JOINT_LABEL[j as keyof typeof JOINT_LABEL]} ${v.toFixed(0)}`)
        .join(', ');
      lines.push('');
      lines.push(
        `worst joints (solved PA-MPJPE mm): ${worst}; 2D landmark error vs projected truth: ${fmt(r.detection2d)} px`,
      );
      if (r.withTruth)
        lines.push(
          `\nsolved PA-MPJPE with the truth's depths ${fmt(r.withTruth.depth)} mm, with its image-plane positions ${fmt(r.withTruth.imagePlane)} mm`,
        );
      if (r.depthOrder) lines.push(`\n${depthOrderLine(r.depthOrder)}`);
      if (r.contacts) {
        const c = M.contactScores(r.contacts);
        lines.push(
          `\ndetected foot contacts against the truth's: precision ${fmt(c.precision * 100)} %, recall ${fmt(c.recall * 100)} % (${r.contacts.both + r.contacts.missed} true contact frames of both feet)`,
        );
      }
    }
  } else {
    lines.push(`### ${r.id} (real, ${r.frames} frames @ ${r.fps.toFixed(2)} fps, no ground truth)`);
    lines.push('');
    lines.push(
      metricTable(
        [
          ['raw BlazePose', r.raw],
          ['solved', r.solved],
        ],
        NO_GT_METRICS,
      ),
    );
  }
  for (const n of r.notes) lines.push(`\nnote: ${n}`);
  return lines.join('\n');
}

/** Depth-order results of several clips added up per limb kind. */
function poolDepthOrder(list: (M.DepthOrder | undefined)[]): M.DepthOrder {
  const out = Object.fromEntries(
    M.DEPTH_ORDER_LIMBS.map(([k]) => [k, { wrong: 0, counted: 0 }]),
  ) as M.DepthOrder;
  for (const d of list) {
    if (!d) continue;
    for (const k of Object.keys(out) as M.DepthOrderLimb[]) {
      out[k].wrong += d[k].wrong;
      out[k].counted += d[k].counted;
    }
  }
  return out;
}

/** "far end on the wrong side of the near one in depth: thigh 11 → 5 % of 812 frames, …" (raw → solved). */
function depthOrderLine(d: { raw: M.DepthOrder; solved: M.DepthOrder }): string {
  const pct = (x: { wrong: number; counted: number }) => (x.counted ? fmt((100 * x.wrong) / x.counted) : '–');
  const parts = (Object.keys(d.solved) as M.DepthOrderLimb[]).map(
    (k) => `${k} ${pct(d.raw[k])} → ${pct(d.solved[k])} % of ${d.solved[k].counted}`,
  );
  return `limb far end on the wrong side of the near one in depth (raw → solved; frames where the truth's depth offset is ≥ 35 % of the bone): ${parts.join(', ')}`;
}

export interface Summary {
  rendered: {
    raw: MetricRow;
    solved: MetricRow;
    clips: number;
    frames: number;
    /** Frame-weighted mean of the clips' `withTruth` (mm). */
    withTruth?: { depth: number; imagePlane: number };
    /** The clips' limb depth order pooled (frames of all clips). */
    depthOrder?: { raw: M.DepthOrder; solved: M.DepthOrder };
    /** The clips' contact agreement pooled (frames of both feet). */
    contacts?: M.ContactAgreement;
  };
  real: { raw: MetricRow; solved: MetricRow; clips: number; frames: number };
  byMotion: Record<string, { raw: MetricRow; solved: MetricRow; clips: number }>;
  /** Per character: detection (coverage, 2D landmark error against the projected truth) and PA-MPJPE. */
  byCharacter: Record<string, { raw: MetricRow; solved: MetricRow; clips: number; detection2d: number }>;
  perJoint: { raw: Record<string, number>; solved: Record<string, number> };
  /** Pose2Sim static trial, each camera alone vs the triangulated 3D shipped with it (PA-MPJPE mm). */
  pose2sim?: Pose2SimSummary;
  /**
   * The same cameras against the trial's own videos triangulated from all four calibrated views
   * (`triangulateTrial`; the shipped TRC holds another pose), with each camera's median reprojection (px).
   */
  pose2simVideo?: Pose2SimSummary & { reprojPx: number[] };
}

/** Pose2Sim cameras, each alone, and their means (PA-MPJPE mm). */
export interface Pose2SimSummary {
  cameras: Pose2SimResult[];
  raw: number;
  solved: number;
}

export function summarize(
  results: ClipResult[],
  pose2sim: Pose2SimResult[] = [],
  pose2simVideo?: { cameras: Pose2SimResult[]; reprojPx: number[] },
): Summary {
  const ren = results.filter((r) => r.kind === 'rendered');
  const real = results.filter((r) => r.kind === 'real');
  const byMotion: Summary['byMotion'] = {};
  for (const m of [...new Set(ren.map((r) => r.motion ?? '?'))]) {
    const rs = ren.filter((r) => r.motion === m);
    byMotion[m] = {
      raw: aggregate(rs, (r) => r.raw),
      solved: aggregate(rs, (r) => r.solved),
      clips: rs.length,
    };
  }
  const byCharacter: Summary['byCharacter'] = {};
  for (const c of [...new Set(ren.map((r) => r.character ?? '?'))]) {
    const rs = ren.filter((r) => r.character === c);
    const fr = rs.reduce((a, r) => a + r.frames, 0);
    byCharacter[c] = {
      raw: aggregate(rs, (r) => r.raw),
      solved: aggregate(rs, (r) => r.solved),
      clips: rs.length,
      detection2d:
        rs.reduce((a, r) => a + (fin(r.detection2d) ? r.detection2d * r.frames : 0), 0) / Math.max(1, fr),
    };
  }
  const perJoint = { raw: {} as Record<string, number>, solved: {} as Record<string, number> };
  const frames = ren.reduce((a, r) => a + r.frames, 0);
  for (const j of EVAL_JOINTS) {
    for (const side of ['raw', 'solved'] as const) {
      perJoint[side][j] =
        ren.reduce((a, r) => a + (r.perJoint?.[side][j] ?? 0) * r.frames, 0) / Math.max(1, frames);
    }
  }
  const wt = ren.filter((r) => r.withTruth);
  const wtFrames = wt.reduce((a, r) => a + r.frames, 0);
  const wtMean = (k: 'depth' | 'imagePlane') =>
    wt.reduce((a, r) => a + (r.withTruth?.[k] ?? 0) * r.frames, 0) / Math.max(1, wtFrames);
  return {
    rendered: {
      raw: aggregate(ren, (r) => r.raw),
      solved: aggregate(ren, (r) => r.solved),
      clips: ren.length,
      frames,
      ...(wt.length ? { withTruth: { depth: wtMean('depth'), imagePlane: wtMean('imagePlane') } } : {}),
      ...(ren.some((r) => r.depthOrder)
        ? {
            depthOrder: {
              raw: poolDepthOrder(ren.map((r) => r.depthOrder?.raw)),
              solved: poolDepthOrder(ren.map((r) => r.depthOrder?.solved)),
            },
          }
        : {}),
      ...(ren.some((r) => r.contacts)
        ? {
            contacts: ren.reduce(
              (a, r) => ({
                both: a.both + (r.contacts?.both ?? 0),
                detectedOnly: a.detectedOnly + (r.contacts?.detectedOnly ?? 0),
                missed: a.missed + (r.contacts?.missed ?? 0),
              }),
              { both: 0, detectedOnly: 0, missed: 0 },
            ),
          }
        : {}),
    },
    real: {
      raw: aggregate(real, (r) => r.raw),
      solved: aggregate(real, (r) => r.solved),
      clips: real.length,
      frames: real.reduce((a, r) => a + r.frames, 0),
    },
    byMotion,
    byCharacter,
    perJoint,
    ...(pose2sim.length
      ? {
          pose2sim: {
            cameras: pose2sim,
            raw: pose2sim.reduce((a, r) => a + r.raw, 0) / pose2sim.length,
            solved: pose2sim.reduce((a, r) => a + r.solved, 0) / pose2sim.length,
          },
        }
      : {}),
    ...(pose2simVideo?.cameras.length
      ? {
          pose2simVideo: {
            ...pose2simVideo,
            raw: pose2simVideo.cameras.reduce((a, r) => a + r.raw, 0) / pose2simVideo.cameras.length,
            solved: pose2simVideo.cameras.reduce((a, r) => a + r.solved, 0) / pose2simVideo.cameras.length,
          },
        }
      : {}),
  };
}

/** The capture targets (issue 14) for the solved rows, each with its margin. */
export function targetLines(s: Summary): string[] {
  const sol = s.rendered.solved;
  const real = s.real.solved;
  const line = (ok: boolean, text: string) => `- ${ok ? 'met' : '**missed**'}: ${text}`;
  const out: string[] = [];
  const le = (x: number | undefined, t: number, label: string, unit: string) => {
    if (fin(x)) out.push(line(x <= t, `${label} ≤ ${t} ${unit}: ${fmt(x)} ${unit}`));
  };
  le(sol.paMpjpe, 60, 'rendered PA-MPJPE', 'mm');
  le(sol.mpjpe, 90, 'rendered MPJPE', 'mm');
  le(sol.angle, 12, 'rendered joint-angle error', '°');
  le(sol.sliding, 5, 'rendered foot sliding', 'mm');
  le(sol.penetration, 10, 'rendered ground penetration', 'mm');
  le(sol.rte, 4, 'rendered RTE', '%');
  if (s.pose2sim) le(s.pose2sim.solved, 45, 'Pose2Sim per-camera PA-MPJPE (mean) vs the shipped TRC', 'mm');
  if (s.pose2simVideo)
    le(s.pose2simVideo.solved, 45, 'Pose2Sim per-camera PA-MPJPE (mean) vs its videos triangulated', 'mm');
  le(real.reprojPct, 1.5, 'real-clip reprojection', '% of body height');
  if (fin(real.floorPct)) {
    out.push(
      line(
        real.floorPct >= 97,
        `real-clip feet on the floor ≥ 97 % of no-jump frames: ${fmt(real.floorPct)} %`,
      ),
    );
  }
  le(real.boneStd, 0.05, 'real-clip bone-length std', 'mm');
  return out;
}

export function summaryMarkdown(s: Summary): string {
  const out: string[] = [];
  const rawVsSolved = (title: string, g: { raw: MetricRow; solved: MetricRow }, metrics: MetricKey[]) =>
    out.push(
      title,
      '',
      metricTable(
        [
          ['raw BlazePose', g.raw],
          ['solved', g.solved],
        ],
        metrics,
      ),
      '',
    );
  rawVsSolved(
    `**Rendered clips** (${s.rendered.clips} clips, ${s.rendered.frames} frames, with ground truth)`,
    s.rendered,
    GT_METRICS,
  );
  rawVsSolved(
    `**Real clips** (${s.real.clips} clips, ${s.real.frames} frames, no ground truth)`,
    s.real,
    NO_GT_METRICS,
  );
  if (s.rendered.withTruth) {
    out.push(
      `Where the rendered error is: solved PA-MPJPE ${fmt(s.rendered.solved.paMpjpe)} mm; with the truth's camera depths ${fmt(s.rendered.withTruth.depth)} mm, with the truth's image-plane positions ${fmt(s.rendered.withTruth.imagePlane)} mm (each joint relative to the pelvis, camera axes).`,
    );
    out.push('');
  }
  if (s.rendered.depthOrder) {
    out.push(
      `Limb depth order (rendered, both sides and all clips pooled): ${depthOrderLine(s.rendered.depthOrder)}.`,
    );
    out.push('');
  }
  if (s.rendered.contacts) {
    const c = M.contactScores(s.rendered.contacts);
    out.push(
      `Foot contacts (rendered, frames of both feet pooled): the solver's detected contacts against the truth's, precision ${fmt(c.precision * 100)} %, recall ${fmt(c.recall * 100)} % (${s.rendered.contacts.both + s.rendered.contacts.missed} true contact frames; sliding is measured on the true ones, locking acts on the detected ones).`,
    );
    out.push('');
  }
  if (s.pose2sim) {
    out.push(
      '**Pose2Sim static trial** (each camera alone vs the 4-view triangulated 3D; PA-MPJPE mm, raw → solved)',
    );
    out.push('');
    out.push(`| ${s.pose2sim.cameras.map((c) => c.camera).join(' | ')} | mean |`);
    out.push(`|${s.pose2sim.cameras.map(() => '---:').join('|')}|---:|`);
    out.push(
      `| ${s.pose2sim.cameras.map((c) => `${fmt(c.raw)} → ${fmt(c.solved)}`).join(' | ')} | ${fmt(s.pose2sim.raw)} → ${fmt(s.pose2sim.solved)} |`,
    );
    out.push('');
    const cams = s.pose2sim.cameras.filter((c) => c.armFromTrunk);
    if (cams.length) {
      const ref = cams[0].armFromTrunk.reference;
      out.push(
        `Upper arms from the trunk axis (0° hanging, 90° horizontal): reference ${ref.toFixed(0)}°, BlazePose per camera ${cams.map((c) => `${c.armFromTrunk.raw.toFixed(0)}°`).join(', ')}.` +
          (Math.abs(ref - cams.reduce((a, c) => a + c.armFromTrunk.raw, 0) / cams.length) > 30
            ? ' The videos show a T-pose and the reference does not: it was triangulated from another recording, so this comparison measures that mismatch, not the solve.'
            : ''),
      );
      out.push('');
    }
  }
  if (s.pose2simVideo) {
    const v = s.pose2simVideo;
    out.push(
      '**Pose2Sim static trial against its own videos** (each camera alone vs BlazePose image landmarks triangulated from all four calibrated views; PA-MPJPE mm, raw → solved)',
    );
    out.push('');
    out.push(`| ${v.cameras.map((c) => c.camera).join(' | ')} | mean |`);
    out.push(`|${v.cameras.map(() => '---:').join('|')}|---:|`);
    out.push(
      `| ${v.cameras.map((c) => `${fmt(c.raw)} → ${fmt(c.solved)}`).join(' | ')} | ${fmt(v.raw)} → ${fmt(v.solved)} |`,
    );
    out.push('');
    out.push(
      `Median reprojection of the triangulated landmarks per camera: ${v.reprojPx.map((x) => `${fmt(x)} px`).join(', ')} (1920 px tall frames; the calibration fits the videos). Upper arms from the trunk axis in this reference: ${fmt(v.cameras[0]?.armFromTrunk.reference)}°.`,
    );
    out.push('');
  }
  out.push('**By motion** (rendered; raw → solved)');
  out.push('');
  out.push('| motion | clips | PA-MPJPE mm | MPJPE mm | slide mm | RTE % | angle ° |');
  out.push('|---|---:|---:|---:|---:|---:|---:|');
  for (const [m, v] of Object.entries(s.byMotion)) {
    const pair = (k: MetricKey) => `${fmt(v.raw[k], k)} → ${fmt(v.solved[k], k)}`;
    out.push(
      `| ${m} | ${v.clips} | ${pair('paMpjpe')} | ${pair('mpjpe')} | ${pair('sliding')} | ${pair('rte')} | ${pair('angle')} |`,
    );
  }
  out.push('');
  out.push(
    '**By character** (rendered; detection = BlazePose coverage and 2D landmark error against the projected truth)',
  );
  out.push('');
  out.push('| character | clips | coverage % | 2D error px | PA-MPJPE mm raw → solved |');
  out.push('|---|---:|---:|---:|---:|');
  for (const [c, v] of Object.entries(s.byCharacter)) {
    out.push(
      `| ${c} | ${v.clips} | ${fmt(v.raw.coverage, 'coverage')} | ${fmt(v.detection2d)} | ${fmt(v.raw.paMpjpe)} → ${fmt(v.solved.paMpjpe)} |`,
    );
  }
  out.push('');
  out.push('**PA-MPJPE by joint** (rendered, mm; raw → solved)');
  out.push('');
  out.push(
    `| ${EVAL_JOINTS.filter((j) => j !== 'hips')
      .map((j) => JOINT_LABEL[j])
      .join(' | ')} |`,
  );
  out.push(
    `|${EVAL_JOINTS.filter((j) => j !== 'hips')
      .map(() => '---:')
      .join('|')}|`,
  );
  out.push(
    `| ${EVAL_JOINTS.filter((j) => j !== 'hips')
      .map((j) => `${s.perJoint.raw[j].toFixed(0)} → ${s.perJoint.solved[j].toFixed(0)}`)
      .join(' | ')} |`,
  );
  out.push('');
  out.push('**Targets** (solved rows, rendered clips)');
  out.push('');
  out.push(...targetLines(s));
  return out.join('\n');
}

/** Metrics that got worse by more than `tolerance` (relative) between two reports' summaries. */
export function compareSummaries(prev: Summary, cur: Summary, tolerance = 0.05): string[] {
  const worse: string[] = [];
  for (const group of ['rendered', 'real'] as const) {
    for (const side of ['raw', 'solved'] as const) {
      const a = prev[group]?.[side] ?? {};
      const b = cur[group][side];
      for (const key of Object.keys(METRICS) as MetricKey[]) {
        const x = a[key];
        const y = b[key];
        if (!fin(x) || !fin(y)) continue;
        const change = METRICS[key].higherIsBetter ? (x - y) / Math.abs(x || 1) : (y - x) / Math.abs(x || 1);
        if (change > tolerance) {
          worse.push(
            `${group} ${side} ${METRICS[key].label}: ${fmt(x, key)} → ${fmt(y, key)} (${(change * 100).toFixed(1)} % worse)`,
          );
        }
      }
    }
  }
  if (prev.pose2sim && cur.pose2sim && cur.pose2sim.solved > prev.pose2sim.solved * (1 + tolerance)) {
    worse.push(`Pose2Sim solved PA-MPJPE: ${fmt(prev.pose2sim.solved)} → ${fmt(cur.pose2sim.solved)}`);
  }
  return worse;
}

/** Old → new table of two reports' solved rows: rendered, per motion, real clips, Pose2Sim. */
export function compareMarkdown(prev: Summary, cur: Summary): string {
  const out: string[] = [];
  const rows = (label: string, a: MetricRow | undefined, b: MetricRow, keys: MetricKey[]) => {
    out.push(`| ${label} | ${keys.map((k) => `${fmt(a?.[k], k)} → ${fmt(b[k], k)}`).join(' | ')} |`);
  };
  out.push(`| rendered (solved) | ${GT_METRICS.map((k) => METRICS[k].label).join(' | ')} |`);
  out.push(`|---|${GT_METRICS.map(() => '---:').join('|')}|`);
  rows('all', prev.rendered.solved, cur.rendered.solved, GT_METRICS);
  for (const [m, v] of Object.entries(cur.byMotion)) rows(m, prev.byMotion[m]?.solved, v.solved, GT_METRICS);
  out.push('');
  out.push(`| real (solved) | ${NO_GT_METRICS.map((k) => METRICS[k].label).join(' | ')} |`);
  out.push(`|---|${NO_GT_METRICS.map(() => '---:').join('|')}|`);
  rows('all', prev.real.solved, cur.real.solved, NO_GT_METRICS);
  const pose2simTable = (title: string, a: Pose2SimSummary | undefined, b: Pose2SimSummary | undefined) => {
    if (!b) return;
    out.push('');
    out.push(`| ${title} | old | new |`);
    out.push('|---|---:|---:|');
    for (const c of b.cameras) {
      const o = a?.cameras.find((x) => x.camera === c.camera);
      out.push(`| ${c.camera} | ${fmt(o?.solved)} | ${fmt(c.solved)} |`);
    }
    out.push(`| mean | ${fmt(a?.solved)} | ${fmt(b.solved)} |`);
  };
  pose2simTable('Pose2Sim PA-MPJPE mm (solved)', prev.pose2sim, cur.pose2sim);
  pose2simTable(
    'Pose2Sim vs its videos triangulated, PA-MPJPE mm (solved)',
    prev.pose2simVideo,
    cur.pose2simVideo,
  );
  return out.join('\n');
}
