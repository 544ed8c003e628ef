/**
 * ARKit blendshape weights from the 468-point face mesh (+ optional iris points).
 *
 * Every measure is taken in a head-aligned frame (x: right eye outer corner → left eye outer corner,
 * y: chin → forehead, z out of the face; the mesh's pixel z is treated as depth at pixel scale), divided by
 * the distance between the outer eye corners (IOD), so head motion and distance to the camera cancel out.
 * Measures are calibrated per clip against the subject's neutral face, taken as the clip's median (the face is
 * assumed neutral most of the time), then mapped to 0..1 by a stated span, and lightly smoothed (10 Hz).
 * "Left" means the subject's left (ARKit convention); the mesh's sides are identified against the pose
 * landmarks, so a mirrored video is handled.
 *
 * Supported shapes (mesh indices, MediaPipe canonical face mesh, for the subject's left / right):
 * - eyeBlinkLeft/Right: eye opening (upper lid 386/159, 385/158, 387/160 to lower lid 374/145, 380/153,
 *   373/144) over eye width (corners 263–362 / 33–133); 1 when the opening falls to 25 % of the open eye
 *   (the clip's 90th percentile).
 * - eyeWideLeft/Right: opening above neutral; 1 at +40 %.
 * - eyeSquintLeft/Right: opening 15–60 % below neutral while not blinking (half-closed eyes).
 * - eyeLookUp/Down/In/Out Left/Right (iris points only): iris centre relative to the eye corners and lid
 *   midline; 1 at 25 % of the eye width sideways, 15 % up/down.
 * - jawOpen: chin (152) to nose tip (1) distance above its 10th percentile (mouth closed); 1 at +0.45 IOD.
 * - mouthClose: lips together (13–14 gap < 0.03 IOD) while the jaw is open: min(jawOpen, 1 - gap/0.15).
 * - mouthFunnel, mouthPucker: mouth width (corners 291–61) below neutral, 1 at -30 %; funnel when the lips
 *   are also apart, pucker when they are closed.
 * - mouthLeft/Right: mouth centre shifted sideways against the nose, 1 at 0.15 IOD.
 * - jawLeft/Right: chin shifted sideways against the nose, 1 at 0.15 IOD.
 * - mouthSmileLeft/Right: corner (291 / 61) raised against the lip centre, 1 at +0.12 IOD.
 * - mouthFrownLeft/Right: corner lowered, 1 at -0.1 IOD.
 * - mouthStretchLeft/Right: corner moved outwards without rising, 1 at +0.15 IOD.
 * - mouthUpperUpLeft/Right: upper lip (37 / 267 region: 0 and the corner side) raised towards the nose,
 *   1 at -0.08 IOD of lip-to-nose distance.
 * - mouthLowerDownLeft/Right: lower lip (84 / 314) pulled down from the lip line beyond the jaw opening.
 * - browInnerUp: inner brow points (107, 336) above the eye line, 1 at +0.12 IOD; browDownLeft/Right: inner
 *   brow lowered, 1 at -0.08 IOD; browOuterUpLeft/Right: outer brow (300 / 70) raised, 1 at +0.12 IOD.
 * Not supported (constant 0): jawForward, mouthRollLower/Upper, mouthShrugLower/Upper, mouthPressLeft/Right,
 * mouthDimpleLeft/Right, cheekPuff, cheekSquintLeft/Right, noseSneerLeft/Right, tongueOut — the mesh's
 * depth and lip-contour resolution from a single RGB camera do not separate them reliably.
 */

import type { Tracks } from '@mocap/contracts';
import { ARKIT_BLENDSHAPES, type ArkitBlendshape, type BlendshapeCurves } from '../clip.ts';
import { cross, dot, median, normalize, quantile, rejectFrom, sub, type Vec3 } from '../math.ts';
import { type LandmarkSeries, LM, NUM_LANDMARKS } from './input.ts';
import { smoothSignal } from './smooth.ts';

export const SUPPORTED_BLENDSHAPES: readonly ArkitBlendshape[] = [
  'eyeBlinkLeft',
  'eyeBlinkRight',
  'eyeWideLeft',
  'eyeWideRight',
  'eyeSquintLeft',
  'eyeSquintRight',
  'eyeLookUpLeft',
  'eyeLookUpRight',
  'eyeLookDownLeft',
  'eyeLookDownRight',
  'eyeLookInLeft',
  'eyeLookInRight',
  'eyeLookOutLeft',
  'eyeLookOutRight',
  'jawOpen',
  'jawLeft',
  'jawRight',
  'mouthClose',
  'mouthFunnel',
  'mouthPucker',
  'mouthLeft',
  'mouthRight',
  'mouthSmileLeft',
  'mouthSmileRight',
  'mouthFrownLeft',
  'mouthFrownRight',
  'mouthStretchLeft',
  'mouthStretchRight',
  'mouthUpperUpLeft',
  'mouthUpperUpRight',
  'mouthLowerDownLeft',
  'mouthLowerDownRight',
  'browInnerUp',
  'browDownLeft',
  'browDownRight',
  'browOuterUpLeft',
  'browOuterUpRight',
];

/** Mesh indices per side (subject's side when the mesh's "left" set really is the subject's left). */
const SIDE_IDX = {
  a: {
    outer: 263,
    inner: 362,
    upper: [386, 385, 387],
    lower: [374, 380, 373],
    corner: 291,
    browInner: 336,
    browOuter: 300,
    upperLip: 267,
    lowerLip: 314,
  },
  b: {
    outer: 33,
    inner: 133,
    upper: [159, 158, 160],
    lower: [145, 153, 144],
    corner: 61,
    browInner: 107,
    browOuter: 70,
    upperLip: 37,
    lowerLip: 84,
  },
};
type SideIdx = (typeof SIDE_IDX)['a'];

const clamp01 = (x: number) => (x < 0 ? 0 : x > 1 ? 1 : Number.isFinite(x) ? x : 0);

interface FaceMeasures {
  open: number;
  irisX: number;
  irisY: number;
  hasIris: boolean;
  cornerUp: number;
  cornerOut: number;
  browInner: number;
  browOuter: number;
  upperLip: number;
  lowerLip: number;
}

/** Computes blendshape curves for a solved clip's frames (see the file header). */
export function solveFace(tracks: Tracks, series: LandmarkSeries, fps: number): BlendshapeCurves | undefined {
  const N = series.N;
  // Which mesh side is the subject's left: compare mesh eye corners with the pose's left eye.
  let votesA = 0;
  let votesB = 0;
  for (let f = 0; f < N; f++) {
    const fr = tracks.frames[series.nearest[f]];
    const face = fr?.face;
    if (!face || face.image.length < 468 || !series.tracked[f]) continue;
    const le = LM.leftEye;
    const px = series.image[(f * NUM_LANDMARKS + le) * 2];
    const py = series.image[(f * NUM_LANDMARKS + le) * 2 + 1];
    const da = Math.hypot(face.image[263][0] - px, face.image[263][1] - py);
    const db = Math.hypot(face.image[33][0] - px, face.image[33][1] - py);
    if (da < db) votesA++;
    else votesB++;
  }
  const left: SideIdx = votesA >= votesB ? SIDE_IDX.a : SIDE_IDX.b;
  const right: SideIdx = votesA >= votesB ? SIDE_IDX.b : SIDE_IDX.a;

  type Frame = {
    L: FaceMeasures;
    R: FaceMeasures;
    jaw: number;
    gap: number;
    width: number;
    mouthX: number;
    chinX: number;
  };
  const frames: (Frame | null)[] = new Array(N).fill(null);
  for (let f = 0; f < N; f++) {
    const face = tracks.frames[series.nearest[f]]?.face;
    if (!face || face.score < 0.5 || face.image.length < 468) continue;
    const P = (i: number): Vec3 => [face.image[i][0], -face.image[i][1], -face.image[i][2]];
    const iod = Math.hypot(...sub(P(left.outer), P(right.outer)));
    if (!(iod > 1)) continue;
    const x = normalize(sub(P(left.outer), P(right.outer)));
    const y = normalize(rejectFrom(sub(P(10), P(152)), x));
    const z = cross(x, y);
    const nose = P(1);
    const L = (i: number): Vec3 => {
      const d = sub(P(i), nose);
      return [dot(d, x) / iod, dot(d, y) / iod, dot(d, z) / iod];
    };
    const lipC = L(13);
    const lipC2 = L(14);
    const lipMidY = (lipC[1] + lipC2[1]) / 2;
    // Iris: 10 points (5 + 5, centre first); assign each 5-set to the nearer eye.
    let irisL: Vec3 | null = null;
    let irisR: Vec3 | null = null;
    if (face.iris && face.iris.length >= 10) {
      const c1: Vec3 = [face.iris[0][0], -face.iris[0][1], -face.iris[0][2]];
      const c2: Vec3 = [face.iris[5][0], -face.iris[5][1], -face.iris[5][2]];
      const eyeL = P(left.outer);
      const d1 = Math.hypot(...sub(c1, eyeL));
      const d2 = Math.hypot(...sub(c2, eyeL));
      const toL = (c: Vec3): Vec3 => {
        const d = sub(c, nose);
        return [dot(d, x) / iod, dot(d, y) / iod, dot(d, z) / iod];
      };
      irisL = toL(d1 < d2 ? c1 : c2);
      irisR = toL(d1 < d2 ? c2 : c1);
    }
    const measures = (s: SideIdx, iris: Vec3 | null, sign: number): FaceMeasures => {
      const outer = L(s.outer);
      const inner = L(s.inner);
      const width = Math.hypot(outer[0] - inner[0], outer[1] - inner[1]);
      let open = 0;
      for (let k = 0; k < 3; k++) open += Math.hypot(...sub(L(s.upper[k]), L(s.lower[k])));
      open /= 3 * Math.max(1e-6, width);
      const eyeLineY = (outer[1] + inner[1]) / 2;
      const eyeMidX = (outer[0] + inner[0]) / 2;
      let lidMidY = 0;
      for (let k = 0; k < 3; k++) lidMidY += (L(s.upper[k])[1] + L(s.lower[k])[1]) / 6;
      const corner = L(s.corner);
      const mouthCx = (lipC[0] + lipC2[0]) / 2;
      return {
        open,
        // Sideways: positive towards the subject's own side (outwards).
        irisX: iris ? (sign * (iris[0] - eyeMidX)) / Math.max(1e-6, width) : 0,
        irisY: iris ? (iris[1] - lidMidY) / Math.max(1e-6, width) : 0,
        hasIris: !!iris,
        cornerUp: corner[1] - lipMidY,
        cornerOut: sign * (corner[0] - mouthCx),
        browInner: L(s.browInner)[1] - eyeLineY,
        browOuter: L(s.browOuter)[1] - eyeLineY,
        upperLip: L(s.upperLip)[1],
        lowerLip: lipMidY - L(s.lowerLip)[1],
      };
    };
    const chin = L(152);
    frames[f] = {
      L: measures(left, irisL, 1),
      R: measures(right, irisR, -1),
      jaw: Math.hypot(chin[0], chin[1], chin[2]),
      gap: Math.hypot(...sub(lipC, lipC2)),
      width: Math.hypot(...sub(L(left.corner), L(right.corner))),
      mouthX: (L(left.corner)[0] + L(right.corner)[0]) / 2,
      chinX: chin[0],
    };
  }
  const valid = frames.filter((f): f is Frame => f !== null);
  if (valid.length === 0) return undefined;
  const base = (g: (f: Frame) => number) => median(valid.map(g));
  const openMax = {
    L: quantile(
      valid.map((f) => f.L.open),
      0.9,
    ),
    R: quantile(
      valid.map((f) => f.R.open),
      0.9,
    ),
  };
  const neutral = {
    Lopen: base((f) => f.L.open),
    Ropen: base((f) => f.R.open),
    jaw: quantile(
      valid.map((f) => f.jaw),
      0.1,
    ),
    width: base((f) => f.width),
    mouthX: base((f) => f.mouthX),
    chinX: base((f) => f.chinX),
    LcornerUp: base((f) => f.L.cornerUp),
    RcornerUp: base((f) => f.R.cornerUp),
    LcornerOut: base((f) => f.L.cornerOut),
    RcornerOut: base((f) => f.R.cornerOut),
    LbrowIn: base((f) => f.L.browInner),
    RbrowIn: base((f) => f.R.browInner),
    LbrowOut: base((f) => f.L.browOuter),
    RbrowOut: base((f) => f.R.browOuter),
    LupperLip: base((f) => f.L.upperLip),
    RupperLip: base((f) => f.R.upperLip),
    LlowerLip: base((f) => f.L.lowerLip),
    RlowerLip: base((f) => f.R.lowerLip),
    LirisX: base((f) => f.L.irisX),
    RirisX: base((f) => f.R.irisX),
    LirisY: base((f) => f.L.irisY),
    RirisY: base((f) => f.R.irisY),
  };
  const K = ARKIT_BLENDSHAPES.length;
  const raw = new Float64Array(N * K);
  const w = new Float64Array(N);
  const col = (name: ArkitBlendshape) => ARKIT_BLENDSHAPES.indexOf(name);
  for (let f = 0; f < N; f++) {
    const m = frames[f];
    if (!m) continue;
    w[f] = 1;
    const set = (name: ArkitBlendshape, v: number) => {
      raw[f * K + col(name)] = clamp01(v);
    };
    for (const side of ['Left', 'Right'] as const) {
      const s = side === 'Left' ? m.L : m.R;
      const pre = side === 'Left' ? 'L' : 'R';
      const nOpen = side === 'Left' ? neutral.Lopen : neutral.Ropen;
      const oMax = side === 'Left' ? openMax.L : openMax.R;
      const blink = (oMax - s.open) / (0.75 * oMax);
      set(`eyeBlink${side}`, blink);
      set(`eyeWide${side}`, (s.open - nOpen) / (0.4 * nOpen));
      const sq = (nOpen - s.open) / nOpen;
      set(`eyeSquint${side}`, blink < 0.8 ? (sq - 0.15) / 0.45 : 0);
      if (s.hasIris) {
        const dx = s.irisX - neutral[`${pre}irisX`];
        const dy = s.irisY - neutral[`${pre}irisY`];
        set(`eyeLookOut${side}`, dx / 0.25);
        set(`eyeLookIn${side}`, -dx / 0.25);
        set(`eyeLookUp${side}`, dy / 0.15);
        set(`eyeLookDown${side}`, -dy / 0.15);
      }
      const up = s.cornerUp - neutral[`${pre}cornerUp`];
      set(`mouthSmile${side}`, up / 0.12);
      set(`mouthFrown${side}`, -up / 0.1);
      const out = s.cornerOut - neutral[`${pre}cornerOut`];
      set(`mouthStretch${side}`, up < 0.03 ? out / 0.15 : 0);
      set(`mouthUpperUp${side}`, (s.upperLip - neutral[`${pre}upperLip`]) / 0.08);
      const jawDrop = m.jaw - neutral.jaw;
      set(`mouthLowerDown${side}`, (s.lowerLip - neutral[`${pre}lowerLip`] - 0.5 * jawDrop) / 0.1);
      set(`browDown${side}`, -(s.browInner - neutral[`${pre}browIn`]) / 0.08);
      set(`browOuterUp${side}`, (s.browOuter - neutral[`${pre}browOut`]) / 0.12);
    }
    const jawOpen = (m.jaw - neutral.jaw) / 0.45;
    set('jawOpen', jawOpen);
    set('mouthClose', Math.min(clamp01(jawOpen), 1 - m.gap / 0.15));
    const narrow = (neutral.width - m.width) / (0.3 * neutral.width);
    set('mouthFunnel', m.gap > 0.05 ? narrow : 0);
    set('mouthPucker', m.gap <= 0.05 ? narrow : 0);
    const mx = m.mouthX - neutral.mouthX;
    set('mouthLeft', mx / 0.15);
    set('mouthRight', -mx / 0.15);
    const cx = m.chinX - neutral.chinX;
    set('jawLeft', cx / 0.15);
    set('jawRight', -cx / 0.15);
    set('browInnerUp', (m.L.browInner - neutral.LbrowIn + m.R.browInner - neutral.RbrowIn) / 2 / 0.12);
  }
  const smoothed = smoothSignal(raw, N, K, w, { cutoffHz: 10, fps, order: 2, robustIterations: 0 });
  const weights = new Float32Array(N * K);
  const supported = new Set(SUPPORTED_BLENDSHAPES);
  for (let f = 0; f < N; f++) {
    for (let k = 0; k < K; k++) {
      weights[f * K + k] = supported.has(ARKIT_BLENDSHAPES[k]) ? clamp01(smoothed[f * K + k]) : 0;
    }
  }
  // Without iris points, gaze shapes are not estimated.
  const anyIris = valid.some((f) => f.L.hasIris);
  return {
    names: ARKIT_BLENDSHAPES,
    weights,
    supported: SUPPORTED_BLENDSHAPES.filter((s) => anyIris || !s.startsWith('eyeLook')),
  };
}
