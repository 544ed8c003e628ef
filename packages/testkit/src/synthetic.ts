/**
 * Synthetic tracks from motion capture, and accuracy metrics against the truth (bench and tests).
 *
 * `synthesize(bvh)` plays a BVH file through forward kinematics and produces what BlazePose would output
 * for it, plus the truth:
 * - 33 landmarks rigidly attached to the source skeleton's bones: hips, knees, ankles, shoulders, elbows,
 *   wrists at the joints; heel and foot index on the sole (placed at the frame where the foot is lowest);
 *   index, pinky and thumb knuckles on the hand (thumb side = the body's forward at the first frame);
 *   nose, eyes, ears and mouth on the head (placed in the first frame's head orientation). Marker sizes
 *   scale with the subject.
 * - a static virtual pinhole camera (1920×1080, 60° horizontal FOV by default, 1.2 m high (`cameraHeight`) with a 1.5° roll,
 *   looking at the middle of the motion from an azimuth chosen by the seed, far enough to keep the subject
 *   in view): image landmarks in pixels (z as BlazePose: relative depth in pixel scale), world landmarks in
 *   metres relative to the hip midpoint, camera axes (x right, y down, z away).
 * - noise (seeded, reproducible): white Gaussian, `noise3d` RMS in 3D (default 2 cm) on world landmarks and
 *   `noise2d` RMS in 2D (default 3 px) on image landmarks for a subject 700 px tall (about the height of a
 *   standing adult 4 m from this camera), proportional to the subject's height in the image since BlazePose
 *   works on a person-sized crop; visibility 0.90..0.999; dropouts: episodes of
 *   0.15–0.6 s (about 4 % of landmark-frames) where a landmark's visibility falls to 0.02..0.25 and its
 *   positions are off by ~8 cm / ~25 px; and short lost-tracking episodes (0.05–0.2 s, ~0.5 % of frames).
 * Frame rates above 60 fps are decimated to ≤ 60 fps (phone video rates).
 *
 * `evaluate(...)` compares a solved clip (through the solver's landmark model) and the noisy landmarks with
 * the truth: MPJPE (root-relative, one rotation alignment per clip), root trajectory error, segment
 * orientation error, bone-length standard deviation, foot sliding during true contacts, and jerk.
 */

import type { Tracks } from '@mocap/contracts';
import {
  type BodyModel,
  bvh,
  forwardKinematics,
  LM,
  type MotionClip,
  math,
  mulberry32,
  NUM_LANDMARKS,
  poseToWorld,
  predictLandmarks,
  type Quat,
  type Vec3,
  type WorldPose,
} from '@mocap/motion';

const {
  add,
  addScaled,
  bestFitRotation,
  cross,
  distance,
  dot,
  mid,
  normalize,
  qAngleBetween,
  qConj,
  qFromBasis,
  qFromUnitVectors,
  qMul,
  qRotate,
  readQuat,
  readVec3,
  rejectFrom,
  scale,
  sub,
} = math;
const { bvhWorld } = bvh;
type BvhDocument = bvh.BvhDocument;

// ---------------------------------------------------------------- source conventions

type Role =
  | 'hipL'
  | 'hipR'
  | 'kneeL'
  | 'kneeR'
  | 'ankleL'
  | 'ankleR'
  | 'toeL'
  | 'toeR'
  | 'shoulderL'
  | 'shoulderR'
  | 'elbowL'
  | 'elbowR'
  | 'wristL'
  | 'wristR'
  | 'head'
  | 'handDirL'
  | 'handDirR';

/**
 * Candidate joint names per role, for the CMU/CC, CMU (Xia) and Bandai Namco skeletons, Mixamo-like ones and our
 * own canonical skeleton (BVH written by `@mocap/motion`).
 */
const ROLE_NAMES: Record<Role, string[]> = {
  hipL: ['CC_Base_L_Thigh', 'LeftUpLeg', 'UpperLeg_L', 'LeftThigh', 'leftThigh'],
  hipR: ['CC_Base_R_Thigh', 'RightUpLeg', 'UpperLeg_R', 'RightThigh', 'rightThigh'],
  kneeL: ['CC_Base_L_Calf', 'LeftLeg', 'LowerLeg_L', 'LeftShin', 'leftShin'],
  kneeR: ['CC_Base_R_Calf', 'RightLeg', 'LowerLeg_R', 'RightShin', 'rightShin'],
  ankleL: ['CC_Base_L_Foot', 'LeftFoot', 'Foot_L', 'leftFoot'],
  ankleR: ['CC_Base_R_Foot', 'RightFoot', 'Foot_R', 'rightFoot'],
  toeL: ['CC_Base_L_ToeBase', 'LeftToeBase', 'Toes_L', 'LeftToe', 'leftToes'],
  toeR: ['CC_Base_R_ToeBase', 'RightToeBase', 'Toes_R', 'RightToe', 'rightToes'],
  shoulderL: ['CC_Base_L_Upperarm', 'LeftArm', 'UpperArm_L', 'leftUpperArm'],
  shoulderR: ['CC_Base_R_Upperarm', 'RightArm', 'UpperArm_R', 'rightUpperArm'],
  elbowL: ['CC_Base_L_Forearm', 'LeftForeArm', 'LowerArm_L', 'leftForearm'],
  elbowR: ['CC_Base_R_Forearm', 'RightForeArm', 'LowerArm_R', 'rightForearm'],
  wristL: ['CC_Base_L_Hand', 'LeftHand', 'Hand_L', 'leftHand'],
  wristR: ['CC_Base_R_Hand', 'RightHand', 'Hand_R', 'rightHand'],
  head: ['CC_Base_Head', 'Head', 'head'],
  handDirL: ['CC_Base_L_Mid1', 'LeftHandIndex1'],
  handDirR: ['CC_Base_R_Mid1', 'RightHandIndex1'],
};

/** Metres per file unit, by skeleton convention. */
export function unitScaleOf(doc: BvhDocument): number {
  const names = new Set(doc.joints.map((j) => j.name));
  if (names.has('LHipJoint')) return 0.056444; // CMU units: 1/0.45 inch
  return 0.01; // centimetres (CC/iClone, Bandai Namco, Mixamo)
}

export function conventionOf(doc: BvhDocument): 'cmu-cc' | 'cmu-xia' | 'bandai' | 'other' {
  const names = new Set(doc.joints.map((j) => j.name));
  if (names.has('CC_Base_Hip')) return 'cmu-cc';
  if (names.has('LHipJoint')) return 'cmu-xia';
  if (names.has('joint_Root')) return 'bandai';
  return 'other';
}

// ---------------------------------------------------------------- random numbers

export { mulberry32 };

function gaussian(rand: () => number): number {
  const u = Math.max(1e-12, rand());
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

// ---------------------------------------------------------------- synthesis

export interface SyntheticOptions {
  seed?: number;
  width?: number;
  height?: number;
  fovDeg?: number;
  /** RMS 3D error of world landmarks, metres (default 0.02). */
  noise3d?: number;
  /** RMS 2D error of image landmarks, pixels (default 3). */
  noise2d?: number;
  /** Dropout episodes (default true) and lost-tracking episodes (default true). */
  dropouts?: boolean;
  lost?: boolean;
  /** Use at most this many (output) frames, from `startFrame` (default 0). */
  maxFrames?: number;
  startFrame?: number;
  /** Highest output frame rate (default 60): higher rates are decimated. */
  maxFps?: number;
  /** Camera azimuth in radians (default: from the seed). */
  azimuth?: number;
  /** Camera height above the floor, metres for a 1.75 m subject (scaled with it; default 1.2). */
  cameraHeight?: number;
  file?: string;
}

export interface Truth {
  N: number;
  fps: number;
  /** World landmarks `[N × 33 × 3]`, metres, Y up (floor at `floorY`). */
  landmarks: Float64Array;
  floorY: number;
  /** Per foot (0 left, 1 right): per frame, planted marker (1 heel, 2 toe, 0 none). */
  planted: [Uint8Array, Uint8Array];
  /** Standing height estimate, metres. */
  height: number;
}

export interface SyntheticClip {
  tracks: Tracks;
  truth: Truth;
  camera: { f: number; width: number; height: number; position: Vec3; rotation: Quat };
}

/** Synthesises tracks and truth from a BVH document (see the file header). */
export function synthesize(doc: BvhDocument, opts: SyntheticOptions = {}): SyntheticClip {
  const rand = mulberry32(opts.seed ?? 1);
  const width = opts.width ?? 1920;
  const height = opts.height ?? 1080;
  const fov = opts.fovDeg ?? 60;
  const noise3d = opts.noise3d ?? 0.02;
  const noise2d = opts.noise2d ?? 3;
  const unit = unitScaleOf(doc);
  const srcFps = 1 / doc.frameTime;
  const step = Math.max(1, Math.round(srcFps / (opts.maxFps ?? 60)));
  const fps = srcFps / step;
  const start = opts.startFrame ?? 0;
  const total = Math.floor((doc.frameCount - start) / step);
  const N = Math.max(0, Math.min(total, opts.maxFrames ?? total));
  if (N < 2) throw new Error('synthesize: not enough frames');
  const idx = (role: Role): number => {
    for (const name of ROLE_NAMES[role]) {
      const i = doc.joints.findIndex((j) => j.name === name);
      if (i >= 0) return i;
    }
    return -1;
  };
  const J = Object.fromEntries((Object.keys(ROLE_NAMES) as Role[]).map((r) => [r, idx(r)])) as Record<
    Role,
    number
  >;
  for (const r of Object.keys(J) as Role[]) {
    if (J[r] < 0 && !r.startsWith('handDir')) throw new Error(`synthesize: no joint for ${r}`);
  }
  // World transforms per frame, Y up, metres.
  const pos: Vec3[][] = [];
  const rot: Quat[][] = [];
  let upFix: Quat = [0, 0, 0, 1];
  for (let k = 0; k < N; k++) {
    const w = bvhWorld(doc, start + k * step);
    const P: Vec3[] = [];
    const R: Quat[] = [];
    for (let j = 0; j < doc.joints.length; j++) {
      P.push(scale(readVec3(w.positions, j), unit));
      R.push(readQuat(w.rotations, j));
    }
    if (k === 0) {
      const v = sub(P[J.head], mid(P[J.ankleL], P[J.ankleR]));
      const a = [0, 1, 2].reduce((best, i) => (Math.abs(v[i]) > Math.abs(v[best]) ? i : best), 0);
      const axis: Vec3 = [0, 0, 0];
      axis[a] = Math.sign(v[a]);
      upFix = qFromUnitVectors(axis, [0, 1, 0]);
    }
    pos.push(P.map((p) => qRotate(upFix, p)));
    rot.push(R.map((q) => qMul(upFix, q)));
  }
  const legLen = distance(pos[0][J.hipL], pos[0][J.kneeL]) + distance(pos[0][J.kneeL], pos[0][J.ankleL]);
  const s = legLen / 0.86;
  const bodyHeight = 1.75 * s;
  // Floor: the toe joints' lowest point, minus the ball-of-foot height.
  let minToe = Number.POSITIVE_INFINITY;
  for (let k = 0; k < N; k++) minToe = Math.min(minToe, pos[k][J.toeL][1], pos[k][J.toeR][1]);
  const floorY = minToe - 0.02 * s;
  // Rigid markers: joint + local offset.
  type Marker = { joint: number; local: Vec3 };
  const attach = (joint: number, ref: number, world: Vec3): Marker => ({
    joint,
    local: qRotate(qConj(rot[ref][joint]), sub(world, pos[ref][joint])),
  });
  const markers: Marker[] = new Array(NUM_LANDMARKS);
  const at = (lm: number, joint: number) => {
    markers[lm] = { joint, local: [0, 0, 0] };
  };
  for (const j of ['hip', 'knee', 'ankle', 'shoulder', 'elbow', 'wrist'] as const) {
    const name = (j[0].toUpperCase() + j.slice(1)) as Capitalize<typeof j>;
    at(LM[`left${name}`], J[`${j}L`]);
    at(LM[`right${name}`], J[`${j}R`]);
  }
  // Body frame at frame 0.
  const up: Vec3 = [0, 1, 0];
  const lr0 = sub(pos[0][J.hipL], pos[0][J.hipR]);
  const fwd0 = normalize(cross(lr0, up), [0, 0, 1]);
  const left0 = normalize(cross(up, fwd0));
  // Face.
  const face: [number, Vec3][] = [
    [LM.nose, [0, 0.065, 0.105]],
    [LM.leftEyeInner, [0.016, 0.095, 0.085]],
    [LM.leftEye, [0.031, 0.095, 0.082]],
    [LM.leftEyeOuter, [0.046, 0.095, 0.075]],
    [LM.rightEyeInner, [-0.016, 0.095, 0.085]],
    [LM.rightEye, [-0.031, 0.095, 0.082]],
    [LM.rightEyeOuter, [-0.046, 0.095, 0.075]],
    [LM.leftEar, [0.072, 0.06, -0.01]],
    [LM.rightEar, [-0.072, 0.06, -0.01]],
    [LM.mouthLeft, [0.025, 0.015, 0.088]],
    [LM.mouthRight, [-0.025, 0.015, 0.088]],
  ];
  for (const [lm, o] of face) {
    const w = add(
      pos[0][J.head],
      add(add(scale(left0, o[0] * s), scale(up, o[1] * s)), scale(fwd0, o[2] * s)),
    );
    markers[lm] = attach(J.head, 0, w);
  }
  // Hands.
  for (const side of ['L', 'R'] as const) {
    const wr = side === 'L' ? J.wristL : J.wristR;
    const el = side === 'L' ? J.elbowL : J.elbowR;
    const hd = side === 'L' ? J.handDirL : J.handDirR;
    let d = normalize(sub(pos[0][wr], pos[0][el]));
    if (hd >= 0 && distance(pos[0][hd], pos[0][wr]) > 0.02) d = normalize(sub(pos[0][hd], pos[0][wr]));
    const t = normalize(rejectFrom(fwd0, d), [0, 0, 1]);
    const w0 = pos[0][wr];
    const mk = (a: number, b: number): Vec3 => add(w0, add(scale(d, a * s), scale(t, b * s)));
    markers[side === 'L' ? LM.leftIndex : LM.rightIndex] = attach(wr, 0, mk(0.085, 0.022));
    markers[side === 'L' ? LM.leftPinky : LM.rightPinky] = attach(wr, 0, mk(0.075, -0.032));
    markers[side === 'L' ? LM.leftThumb : LM.rightThumb] = attach(wr, 0, mk(0.05, 0.045));
  }
  // Feet: at the frame where the ankle is lowest.
  for (const side of ['L', 'R'] as const) {
    const an = side === 'L' ? J.ankleL : J.ankleR;
    const to = side === 'L' ? J.toeL : J.toeR;
    // Reference frame: the foot flat on the floor: among frames with the ball of the foot down, the lowest
    // ankle (a raised heel lifts the ankle).
    let toeMin = Number.POSITIVE_INFINITY;
    for (let k = 0; k < N; k++) toeMin = Math.min(toeMin, pos[k][to][1]);
    let ref = -1;
    for (let k = 0; k < N; k++) {
      if (pos[k][to][1] > toeMin + 0.01 * s) continue;
      if (ref < 0 || pos[k][an][1] < pos[ref][an][1]) ref = k;
    }
    const a = pos[ref][an];
    const tj = pos[ref][to];
    const f = normalize([tj[0] - a[0], 0, tj[2] - a[2]], fwd0);
    const heel: Vec3 = [a[0] - 0.055 * s * f[0], floorY, a[2] - 0.055 * s * f[2]];
    const toe: Vec3 = [tj[0] + 0.05 * s * f[0], floorY, tj[2] + 0.05 * s * f[2]];
    markers[side === 'L' ? LM.leftHeel : LM.rightHeel] = attach(an, ref, heel);
    markers[side === 'L' ? LM.leftFootIndex : LM.rightFootIndex] = attach(an, ref, toe);
  }
  const landmarks = new Float64Array(N * NUM_LANDMARKS * 3);
  for (let k = 0; k < N; k++) {
    for (let i = 0; i < NUM_LANDMARKS; i++) {
      const m = markers[i];
      const p = add(pos[k][m.joint], qRotate(rot[k][m.joint], m.local));
      landmarks.set(p, (k * NUM_LANDMARKS + i) * 3);
    }
  }
  const L = (k: number, i: number): Vec3 => readVec3(landmarks, k * NUM_LANDMARKS + i);
  // Truth contacts.
  const planted: [Uint8Array, Uint8Array] = [new Uint8Array(N), new Uint8Array(N)];
  for (let side = 0; side < 2; side++) {
    const hI = side === 0 ? LM.leftHeel : LM.rightHeel;
    const tI = side === 0 ? LM.leftFootIndex : LM.rightFootIndex;
    for (let k = 0; k < N; k++) {
      const h = L(k, hI);
      const t = L(k, tI);
      const useHeel = h[1] <= t[1];
      const pI = useHeel ? hI : tI;
      const a = L(Math.max(0, k - 1), pI);
      const b = L(Math.min(N - 1, k + 1), pI);
      const dt = (Math.min(N - 1, k + 1) - Math.max(0, k - 1)) / fps;
      const v = Math.hypot(b[0] - a[0], b[2] - a[2]) / dt;
      if (Math.min(h[1], t[1]) - floorY < 0.03 * s && v < 0.25 * s) planted[side][k] = useHeel ? 1 : 2;
    }
  }
  // Camera.
  let cx = 0;
  let cz = 0;
  let hy = 0;
  for (let k = 0; k < N; k++) {
    const h = mid(L(k, LM.leftHip), L(k, LM.rightHip));
    cx += h[0] / N;
    cz += h[2] / N;
    hy += h[1] / N;
  }
  let R = 0;
  for (let k = 0; k < N; k++) {
    const h = mid(L(k, LM.leftHip), L(k, LM.rightHip));
    R = Math.max(R, Math.hypot(h[0] - cx, h[2] - cz));
  }
  const az = opts.azimuth ?? rand() * 2 * Math.PI;
  const tanH = Math.tan(((fov / 2) * Math.PI) / 180);
  const tanV = (tanH * height) / width;
  const dist = Math.max(4, (R + 0.6 * s) / (0.8 * tanH) + R, (1.1 * bodyHeight) / (2 * 0.8 * tanV) + R);
  const camPos: Vec3 = [
    cx + dist * Math.sin(az),
    floorY + (opts.cameraHeight ?? 1.2) * s,
    cz + dist * Math.cos(az),
  ];
  const target: Vec3 = [cx, hy - 0.05, cz];
  const zc = normalize(sub(target, camPos));
  let xc = normalize(cross(zc, up));
  let yc = cross(zc, xc);
  const roll = (1.5 * Math.PI) / 180;
  const xr = add(scale(xc, Math.cos(roll)), scale(yc, Math.sin(roll)));
  const yr = add(scale(xc, -Math.sin(roll)), scale(yc, Math.cos(roll)));
  xc = xr;
  yc = yr;
  const f = width / 2 / tanH;
  const toCam = (p: Vec3): Vec3 => {
    const d = sub(p, camPos);
    return [dot(d, xc), dot(d, yc), dot(d, zc)];
  };
  // Noise and dropouts.
  const s3 = noise3d / Math.sqrt(3);
  const s2 = noise2d / Math.SQRT2;
  const dropLeft = new Int32Array(NUM_LANDMARKS);
  const dropOff: { w: Vec3; px: [number, number]; vis: number }[] = Array.from(
    { length: NUM_LANDMARKS },
    () => ({
      w: [0, 0, 0],
      px: [0, 0],
      vis: 0,
    }),
  );
  let lostLeft = 0;
  const frames: Tracks['frames'] = [];
  for (let k = 0; k < N; k++) {
    const time = k / fps;
    if (opts.lost !== false && k > 0) {
      if (lostLeft === 0 && rand() < 0.0015 * (30 / fps)) {
        lostLeft = Math.max(1, Math.round((0.05 + 0.15 * rand()) * fps));
      }
      if (lostLeft > 0) {
        lostLeft--;
        frames.push({ index: k, time, state: 'lost', score: 0 });
        continue;
      }
    }
    const hipW = mid(L(k, LM.leftHip), L(k, LM.rightHip));
    const hipC = toCam(hipW);
    // 2D noise scales with the subject's size in the image (BlazePose works on a person-sized crop):
    // `noise2d` is the RMS for a subject 700 px tall.
    const sizeK = (f * bodyHeight) / hipC[2] / 700;
    const image: Tracks['frames'][number]['image'] = [];
    const world: [number, number, number][] = [];
    for (let i = 0; i < NUM_LANDMARKS; i++) {
      const c = toCam(L(k, i));
      let vis = 0.9 + 0.099 * rand();
      let wx = c[0] - hipC[0] + gaussian(rand) * s3;
      let wy = c[1] - hipC[1] + gaussian(rand) * s3;
      let wz = c[2] - hipC[2] + gaussian(rand) * s3;
      let u = cx0(f, c, width) + gaussian(rand) * s2 * sizeK;
      let v = cy0(f, c, height) + gaussian(rand) * s2 * sizeK;
      if (opts.dropouts !== false) {
        if (dropLeft[i] === 0 && rand() < 0.0025 * (30 / fps)) {
          dropLeft[i] = Math.max(1, Math.round((0.15 + 0.45 * rand()) * fps));
          dropOff[i] = {
            w: [gaussian(rand) * 0.08, gaussian(rand) * 0.08, gaussian(rand) * 0.08],
            px: [gaussian(rand) * 25, gaussian(rand) * 25],
            vis: 0.02 + 0.23 * rand(),
          };
        }
        if (dropLeft[i] > 0) {
          dropLeft[i]--;
          const d = dropOff[i];
          wx += d.w[0];
          wy += d.w[1];
          wz += d.w[2];
          u += d.px[0];
          v += d.px[1];
          vis = d.vis;
        }
      }
      const zrel = ((c[2] - hipC[2]) * f) / hipC[2];
      image.push([u, v, zrel, vis, 0.99]);
      world.push([wx, wy, wz]);
    }
    frames.push({ index: k, time, state: 'tracked', score: 0.99, image, world });
  }
  const model = { name: 'synthetic', source: '@mocap/motion synthesize', sha256: '' };
  const tracks: Tracks = {
    format: 'mocap-tracks',
    version: 1,
    createdAt: '1970-01-01T00:00:00.000Z',
    video: {
      file: opts.file ?? 'synthetic.mp4',
      width,
      height,
      rotation: 0,
      duration: N / fps,
      fps,
      vfr: false,
      frameCount: N,
      codec: 'synthetic',
    },
    backend: 'ort',
    models: { detector: model, pose: model },
    inferenceWidth: width,
    frames,
    warnings: [],
  };
  return {
    tracks,
    truth: { N, fps, landmarks, floorY, planted, height: bodyHeight },
    camera: { f, width, height, position: camPos, rotation: qFromBasis(xc, yc, zc) },
  };
}

const cx0 = (f: number, c: Vec3, width: number) => width / 2 + (f * c[0]) / c[2];
const cy0 = (f: number, c: Vec3, height: number) => height / 2 + (f * c[1]) / c[2];

// ---------------------------------------------------------------- metrics

/** World landmarks `[N × 33 × 3]` predicted by the solver's model for a solved clip. */
export function clipLandmarks(clip: MotionClip, model: BodyModel): Float64Array {
  const n = clip.skeleton.names.length;
  const out = new Float64Array(clip.frameCount * NUM_LANDMARKS * 3);
  const pose: WorldPose = { positions: new Float64Array(n * 3), rotations: new Float64Array(n * 4) };
  const buf = new Float64Array(NUM_LANDMARKS * 3);
  for (let f = 0; f < clip.frameCount; f++) {
    poseToWorld(clip.skeleton, clip.rotations, f * n * 4, readVec3(clip.rootPositions, f), pose);
    predictLandmarks(model, pose, buf);
    out.set(buf, f * NUM_LANDMARKS * 3);
  }
  return out;
}

/** Noisy world landmarks of synthetic tracks as Y-up arrays (lost frames: NaN). */
export function noisyLandmarks(tracks: Tracks): Float64Array {
  const out = new Float64Array(tracks.frames.length * NUM_LANDMARKS * 3).fill(Number.NaN);
  tracks.frames.forEach((fr, k) => {
    if (!fr.world) return;
    fr.world.forEach((p, i) => {
      out.set([p[0], -p[1], -p[2]], (k * NUM_LANDMARKS + i) * 3);
    });
  });
  return out;
}

export interface Metrics {
  frames: number;
  /** Mean per-landmark position error, root-relative, one rotation alignment per clip, mm. */
  mpjpe: number;
  /** Mean error of the hip-midpoint trajectory after one rigid alignment per clip, mm (NaN: not applicable). */
  rootError: number;
  /** Mean orientation error of body segments (limb bone directions; hand, foot, head frames), degrees. */
  angleError: number;
  /** Bone-length standard deviation over time, mm (max over bones for a clip, mean over limb pairs for landmarks). */
  boneStd: number;
  /** Mean horizontal motion of the planted foot point per frame during true contacts, mm. */
  footSliding: number;
  /** Number of contact frame pairs the sliding figure averages. */
  contactFrames: number;
  /** Mean jerk magnitude over landmarks, m/s³. */
  jerk: number;
}

const BONES: [number, number][] = [
  [LM.leftShoulder, LM.leftElbow],
  [LM.rightShoulder, LM.rightElbow],
  [LM.leftElbow, LM.leftWrist],
  [LM.rightElbow, LM.rightWrist],
  [LM.leftHip, LM.leftKnee],
  [LM.rightHip, LM.rightKnee],
  [LM.leftKnee, LM.leftAnkle],
  [LM.rightKnee, LM.rightAnkle],
  [LM.rightShoulder, LM.leftShoulder],
  [LM.rightHip, LM.leftHip],
];
const FRAMES3: [number, number, number][] = [
  [LM.leftWrist, LM.leftIndex, LM.leftPinky],
  [LM.rightWrist, LM.rightIndex, LM.rightPinky],
  [LM.leftAnkle, LM.leftFootIndex, LM.leftHeel],
  [LM.rightAnkle, LM.rightFootIndex, LM.rightHeel],
  [LM.rightEar, LM.leftEar, LM.nose],
];

function frameOf(a: Vec3, b: Vec3, c: Vec3): Quat {
  const x = normalize(sub(b, a));
  const z = normalize(cross(x, sub(c, a)));
  return qFromBasis(x, cross(z, x), z);
}

const lmAt = (arr: ArrayLike<number>, k: number, i: number): Vec3 => readVec3(arr, k * NUM_LANDMARKS + i);
const hipAt = (arr: ArrayLike<number>, k: number): Vec3 =>
  mid(lmAt(arr, k, LM.leftHip), lmAt(arr, k, LM.rightHip));

/**
 * Metrics of estimated landmarks `est` (`[N × 33 × 3]`, Y up; NaN frames skipped) against the truth.
 * `global` says whether `est` carries a real global trajectory (solved clips) or is root-relative (noisy
 * landmarks: they are placed on the true root trajectory for the sliding and jerk figures).
 * `boneStd` must be supplied for clips (from the skeleton's FK).
 */
export function landmarkMetrics(est: Float64Array, truth: Truth, global: boolean, boneStd?: number): Metrics {
  const N = truth.N;
  const ok = (k: number) => Number.isFinite(est[k * NUM_LANDMARKS * 3]);
  // Rotation alignment on root-relative points (every 2nd landmark and frame for speed is not needed).
  const A: Vec3[] = [];
  const B: Vec3[] = [];
  for (let k = 0; k < N; k++) {
    if (!ok(k)) continue;
    const he = hipAt(est, k);
    const ht = hipAt(truth.landmarks, k);
    for (let i = 0; i < NUM_LANDMARKS; i++) {
      A.push(sub(lmAt(est, k, i), he));
      B.push(sub(lmAt(truth.landmarks, k, i), ht));
    }
  }
  const R = bestFitRotation(A, B, undefined, false);
  let mp = 0;
  let mpN = 0;
  for (let k = 0; k < A.length; k++) {
    mp += distance(qRotate(R, A[k]), B[k]);
    mpN++;
  }
  // Global alignment of the root trajectory (rotation + translation) for clips.
  let rootError = Number.NaN;
  let aligned: (k: number, i: number) => Vec3;
  if (global) {
    const ra: Vec3[] = [];
    const rb: Vec3[] = [];
    for (let k = 0; k < N; k++) {
      for (const i of [
        LM.leftHip,
        LM.rightHip,
        LM.leftAnkle,
        LM.rightAnkle,
        LM.leftShoulder,
        LM.rightShoulder,
      ]) {
        ra.push(lmAt(est, k, i));
        rb.push(lmAt(truth.landmarks, k, i));
      }
    }
    const G = bestFitRotation(ra, rb);
    let ca: Vec3 = [0, 0, 0];
    let cb: Vec3 = [0, 0, 0];
    for (let k = 0; k < ra.length; k++) {
      ca = addScaled(ca, ra[k], 1 / ra.length);
      cb = addScaled(cb, rb[k], 1 / rb.length);
    }
    const t = sub(cb, qRotate(G, ca));
    aligned = (k, i) => add(qRotate(G, lmAt(est, k, i)), t);
    let re = 0;
    for (let k = 0; k < N; k++) {
      const a = mid(aligned(k, LM.leftHip), aligned(k, LM.rightHip));
      re += distance(a, hipAt(truth.landmarks, k));
    }
    rootError = (re / N) * 1000;
  } else {
    aligned = (k, i) =>
      ok(k)
        ? add(qRotate(R, sub(lmAt(est, k, i), hipAt(est, k))), hipAt(truth.landmarks, k))
        : [Number.NaN, Number.NaN, Number.NaN];
  }
  // Segment orientations (after the root-relative rotation alignment).
  let ang = 0;
  let angN = 0;
  for (let k = 0; k < N; k++) {
    if (!ok(k)) continue;
    for (const [a, b] of BONES) {
      const de = qRotate(R, sub(lmAt(est, k, b), lmAt(est, k, a)));
      const dt = sub(lmAt(truth.landmarks, k, b), lmAt(truth.landmarks, k, a));
      ang += Math.acos(Math.max(-1, Math.min(1, dot(normalize(de), normalize(dt)))));
      angN++;
    }
    for (const [a, b, c] of FRAMES3) {
      const qe = qMul(R, frameOf(lmAt(est, k, a), lmAt(est, k, b), lmAt(est, k, c)));
      const qt = frameOf(
        lmAt(truth.landmarks, k, a),
        lmAt(truth.landmarks, k, b),
        lmAt(truth.landmarks, k, c),
      );
      ang += qAngleBetween(qe, qt);
      angN++;
    }
  }
  // Bone-length std for landmark sets.
  let bstd = boneStd ?? 0;
  if (boneStd === undefined) {
    let acc = 0;
    for (const [a, b] of BONES) {
      const ls: number[] = [];
      for (let k = 0; k < N; k++) if (ok(k)) ls.push(distance(lmAt(est, k, a), lmAt(est, k, b)));
      const m = ls.reduce((x, y) => x + y, 0) / ls.length;
      acc += Math.sqrt(ls.reduce((x, y) => x + (y - m) ** 2, 0) / ls.length);
    }
    bstd = (acc / BONES.length) * 1000;
  }
  // Foot sliding during true contacts.
  let slide = 0;
  let slideN = 0;
  for (let side = 0; side < 2; side++) {
    for (let k = 1; k < N; k++) {
      const p = truth.planted[side][k];
      if (!p || truth.planted[side][k - 1] !== p || !ok(k) || !ok(k - 1)) continue;
      const i =
        side === 0 ? (p === 1 ? LM.leftHeel : LM.leftFootIndex) : p === 1 ? LM.rightHeel : LM.rightFootIndex;
      const a = aligned(k - 1, i);
      const b = aligned(k, i);
      slide += Math.hypot(b[0] - a[0], b[2] - a[2]);
      slideN++;
    }
  }
  // Jerk.
  let jerk = 0;
  let jerkN = 0;
  const f3 = truth.fps ** 3;
  for (let k = 3; k < N; k++) {
    if (!ok(k) || !ok(k - 1) || !ok(k - 2) || !ok(k - 3)) continue;
    for (let i = 0; i < NUM_LANDMARKS; i++) {
      const p0 = aligned(k - 3, i);
      const p1 = aligned(k - 2, i);
      const p2 = aligned(k - 1, i);
      const p3 = aligned(k, i);
      const j: Vec3 = [
        p3[0] - 3 * p2[0] + 3 * p1[0] - p0[0],
        p3[1] - 3 * p2[1] + 3 * p1[1] - p0[1],
        p3[2] - 3 * p2[2] + 3 * p1[2] - p0[2],
      ];
      jerk += Math.hypot(j[0], j[1], j[2]) * f3;
      jerkN++;
    }
  }
  return {
    frames: N,
    mpjpe: (mp / Math.max(1, mpN)) * 1000,
    rootError,
    angleError: ((ang / Math.max(1, angN)) * 180) / Math.PI,
    boneStd: bstd,
    footSliding: slideN ? (slide / slideN) * 1000 : 0,
    contactFrames: slideN,
    jerk: jerkN ? jerk / jerkN : 0,
  };
}

/** Largest standard deviation of a bone length over a clip (FK), mm. */
export function clipBoneStd(clip: MotionClip): number {
  const n = clip.skeleton.names.length;
  const { positions } = forwardKinematics(clip);
  let worst = 0;
  for (let j = 1; j < n; j++) {
    const p = clip.skeleton.parents[j];
    let s = 0;
    let s2 = 0;
    for (let f = 0; f < clip.frameCount; f++) {
      const l = distance(readVec3(positions, f * n + j), readVec3(positions, f * n + p));
      s += l;
      s2 += l * l;
    }
    const m = s / clip.frameCount;
    worst = Math.max(worst, Math.sqrt(Math.max(0, s2 / clip.frameCount - m * m)));
  }
  return worst * 1000;
}

/** Truth metrics against itself (jerk and sliding of the reference motion). */
export function truthMetrics(truth: Truth): Metrics {
  return landmarkMetrics(truth.landmarks, truth, true, 0);
}
