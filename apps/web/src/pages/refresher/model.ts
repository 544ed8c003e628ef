/**
 * The 2D repair editor's model (pure; no DOM): the tracks document it edits, the draft of edits (keyframes of
 * single points, left/right swaps over frame ranges), how a draft applies to the tracks (frames between two
 * keyframes of a point are interpolated; a moved point's depth keeps its bone length), and the analysis that
 * finds the weak frames (lost, low visibility, jumps, left/right swaps).
 *
 * Tracks are the `mocap-tracks` v1 document of `@mocap/vision` (image landmarks in pixels, x, y, z, visibility,
 * presence; world landmarks in metres, x right, y down, origin at the hip midpoint).
 */

import { POSE_LANDMARKS } from '@mocap/contracts';

export type ImagePoint = [number, number, number, number, number];
export type WorldPoint = [number, number, number];

export interface HandTrack {
  score: number;
  handedness: number;
  image: [number, number, number][];
  world: [number, number, number][];
}

export interface TrackFrame {
  index: number;
  time: number;
  state: 'detected' | 'tracked' | 'lost';
  score: number;
  roi?: { cx: number; cy: number; size: number; rotation: number };
  image?: ImagePoint[];
  world?: WorldPoint[];
  hands?: { left: HandTrack | null; right: HandTrack | null };
  face?: unknown;
}

export interface TracksDoc {
  format: 'mocap-tracks';
  version: number;
  video: { width: number; height: number; fps: number; frameCount: number; duration: number };
  frames: TrackFrame[];
  warnings?: string[];
  [key: string]: unknown;
}

/** MediaPipe's 33 pose landmarks in the tracks' order (the contract's). */
export const LANDMARK_NAMES = POSE_LANDMARKS;
export const NUM_POINTS = LANDMARK_NAMES.length;
export const lm = (name: (typeof LANDMARK_NAMES)[number]): number => LANDMARK_NAMES.indexOf(name);

/** Skeleton lines drawn between landmarks (MediaPipe's pose connections). */
export const BONES: [number, number][] = [
  [0, 1],
  [1, 2],
  [2, 3],
  [3, 7],
  [0, 4],
  [4, 5],
  [5, 6],
  [6, 8],
  [9, 10],
  [11, 12],
  [11, 13],
  [13, 15],
  [15, 17],
  [15, 19],
  [15, 21],
  [17, 19],
  [12, 14],
  [14, 16],
  [16, 18],
  [16, 20],
  [16, 22],
  [18, 20],
  [11, 23],
  [12, 24],
  [23, 24],
  [23, 25],
  [24, 26],
  [25, 27],
  [26, 28],
  [27, 29],
  [28, 30],
  [29, 31],
  [30, 32],
  [27, 31],
  [28, 32],
];

/** Hand skeleton lines (21 points). */
export const HAND_BONES: [number, number][] = [
  [0, 1],
  [1, 2],
  [2, 3],
  [3, 4],
  [0, 5],
  [5, 6],
  [6, 7],
  [7, 8],
  [5, 9],
  [9, 10],
  [10, 11],
  [11, 12],
  [9, 13],
  [13, 14],
  [14, 15],
  [15, 16],
  [13, 17],
  [0, 17],
  [17, 18],
  [18, 19],
  [19, 20],
];

/**
 * Hand landmarks are editable like the body's: in a draft they are points 33–53 (left hand) and 54–74 (right
 * hand), after the 33 body landmarks; hand point `i` of a side is `HAND_BASE[side] + i`.
 */
export const HAND_POINTS = 21;
export const HAND_BASE = { left: 33, right: 54 } as const;
export type HandSide = keyof typeof HAND_BASE;
export const TOTAL_POINTS = 33 + 2 * HAND_POINTS;
/** The hand and its landmark of a draft point, or null for a body landmark. */
export function handPointOf(j: number): { side: HandSide; i: number } | null {
  if (j >= HAND_BASE.right && j < HAND_BASE.right + HAND_POINTS)
    return { side: 'right', i: j - HAND_BASE.right };
  if (j >= HAND_BASE.left && j < HAND_BASE.left + HAND_POINTS) return { side: 'left', i: j - HAND_BASE.left };
  return null;
}
/** The hand landmark each hand landmark hangs from (the wrist for the knuckles; none for the wrist). */
export const HAND_PARENT = [-1, 0, 1, 2, 3, 0, 5, 6, 7, 0, 9, 10, 11, 0, 13, 14, 15, 0, 17, 18, 19] as const;
/** A hand drawn and editable on a frame: tracked there with a confident score. */
export const handShown = (f: TrackFrame | undefined, side: HandSide): HandTrack | null => {
  const h = f?.hands?.[side];
  return h && h.score >= 0.5 && h.image.length >= HAND_POINTS ? h : null;
};
/** Image place of a draft point on a frame (body or hand), or null when not there. */
export function pointAt(f: TrackFrame | undefined, j: number): [number, number] | null {
  const hp = handPointOf(j);
  if (!hp) return f?.image?.[j] ? [f.image[j][0], f.image[j][1]] : null;
  const h = handShown(f, hp.side);
  return h ? [h.image[hp.i][0], h.image[hp.i][1]] : null;
}

/** Which side a landmark is on (for colours): 'l', 'r' or 'c'. */
export const sideOf = (j: number): 'l' | 'r' | 'c' => {
  const hp = handPointOf(j);
  if (hp) return hp.side === 'left' ? 'l' : 'r';
  const n = LANDMARK_NAMES[j];
  return n.startsWith('left') ? 'l' : n.startsWith('right') ? 'r' : 'c';
};

/** The landmark's mirror partner (itself for the nose). */
export function mirrorOf(j: number): number {
  const n: string = LANDMARK_NAMES[j];
  if (n.startsWith('left')) return LANDMARK_NAMES.indexOf(`right${n.slice(4)}` as never);
  if (n.startsWith('right')) return LANDMARK_NAMES.indexOf(`left${n.slice(5)}` as never);
  if (n === 'mouth_left') return lm('mouth_right');
  if (n === 'mouth_right') return lm('mouth_left');
  return j;
}

export type SwapPart = 'all' | 'legs' | 'arms';
/** A leg swap (BlazePose's usual mistake) exchanges knee to toe; the hips keep their sides. */
const LEG_POINTS = [25, 27, 29, 31];
/** An arm swap exchanges elbow to fingers; the shoulders keep their sides. */
const ARM_POINTS = [13, 15, 17, 19, 21];
/** Left-side landmarks whose pair a swap of `part` exchanges. */
export function swapPairs(part: SwapPart): [number, number][] {
  const left =
    part === 'legs'
      ? LEG_POINTS
      : part === 'arms'
        ? ARM_POINTS
        : LANDMARK_NAMES.map((_, j) => j).filter((j) => sideOf(j) === 'l' || j === 9);
  return left.map((j) => [j, mirrorOf(j)]);
}

/**
 * Depth of a moved point: the point it hangs from and the bone between them keep their length (the forearm of
 * a wrist, the shin of an ankle); points without one keep their depth.
 */
export const PARENT: Partial<Record<number, number>> = {
  13: 11,
  14: 12,
  15: 13,
  16: 14,
  17: 15,
  18: 16,
  19: 15,
  20: 16,
  21: 15,
  22: 16,
  25: 23,
  26: 24,
  27: 25,
  28: 26,
  29: 27,
  30: 28,
  31: 27,
  32: 28,
};

/** One edited point on one frame: its place in image pixels, or hidden (not seen on this frame). */
export interface PointKey {
  x: number;
  y: number;
  hidden?: boolean;
}

export interface SwapEdit {
  from: number;
  to: number;
  part: SwapPart;
}

/** The draft: keyframes per frame per landmark, and swaps over frame ranges (inclusive). */
export interface Draft {
  keys: Record<number, Record<number, PointKey>>;
  swaps: SwapEdit[];
  /** Frames replaced by a re-track from an edited frame (frame index → the new track frame). */
  replaced?: Record<number, TrackFrame>;
}

export const emptyDraft = (): Draft => ({ keys: {}, swaps: [] });

export const isEmptyDraft = (d: Draft): boolean =>
  d.swaps.length === 0 && Object.keys(d.keys).length === 0 && Object.keys(d.replaced ?? {}).length === 0;

/** Interpolation reaches at most this many frames between two keyframes of a point. */
export const MAX_SPAN_FRAMES = 120;

export function setKey(d: Draft, frame: number, j: number, key: PointKey | null): Draft {
  const keys = { ...d.keys };
  const at = { ...(keys[frame] ?? {}) };
  if (key) at[j] = key;
  else delete at[j];
  if (Object.keys(at).length > 0) keys[frame] = at;
  else delete keys[frame];
  return { ...d, keys };
}

export function addSwap(d: Draft, s: SwapEdit): Draft {
  const from = Math.min(s.from, s.to);
  const to = Math.max(s.from, s.to);
  // The same swap twice over the same range cancels out.
  const same = d.swaps.findIndex((x) => x.from === from && x.to === to && x.part === s.part);
  if (same >= 0) return { ...d, swaps: d.swaps.filter((_, i) => i !== same) };
  return { ...d, swaps: [...d.swaps, { from, to, part: s.part }] };
}

/** Keyframes of landmark j, ascending. */
export function keyFramesOf(d: Draft, j: number): number[] {
  return Object.keys(d.keys)
    .map(Number)
    .filter((f) => d.keys[f]?.[j])
    .sort((a, b) => a - b);
}

/** Every frame that holds a keyframe, ascending. */
export const keyFrames = (d: Draft): number[] =>
  Object.keys(d.keys)
    .map(Number)
    .sort((a, b) => a - b);

/**
 * The effective value of landmark j on every frame: keyframes, and between two keyframes of the same point
 * (at most `MAX_SPAN_FRAMES` apart) the linear interpolation of their places (hidden when both are hidden; when
 * only one is hidden the frames between keep the track). Returns frame → key, 'interp' flag.
 */
export function effectiveKeys(d: Draft, j: number): Map<number, PointKey & { interpolated: boolean }> {
  const out = new Map<number, PointKey & { interpolated: boolean }>();
  const ks = keyFramesOf(d, j);
  ks.forEach((f, i) => {
    const a = d.keys[f][j];
    out.set(f, { ...a, interpolated: false });
    const g = ks[i + 1];
    if (g === undefined || g - f > MAX_SPAN_FRAMES) return;
    const b = d.keys[g][j];
    if (!!a.hidden !== !!b.hidden) return;
    for (let k = f + 1; k < g; k++) {
      const u = (k - f) / (g - f);
      out.set(k, {
        x: a.x + (b.x - a.x) * u,
        y: a.y + (b.y - a.y) * u,
        ...(a.hidden ? { hidden: true } : {}),
        interpolated: true,
      });
    }
  });
  return out;
}

const round = (v: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};

/** Pixels per metre and the image place of the world origin on one frame (least squares over seen points). */
export function imageScale(
  image: ImagePoint[],
  world: WorldPoint[],
  skip: Set<number> = new Set(),
): { s: number; ox: number; oy: number } | null {
  const idx: number[] = [];
  for (let j = 0; j < Math.min(image.length, world.length); j++) {
    if (!skip.has(j) && Math.min(image[j][3], image[j][4]) >= 0.5) idx.push(j);
  }
  if (idx.length < 4) return null;
  const mean = (f: (j: number) => number) => idx.reduce((s, j) => s + f(j), 0) / idx.length;
  const mix = mean((j) => image[j][0]);
  const miy = mean((j) => image[j][1]);
  const mwx = mean((j) => world[j][0]);
  const mwy = mean((j) => world[j][1]);
  let num = 0;
  let den = 0;
  for (const j of idx) {
    num += (image[j][0] - mix) * (world[j][0] - mwx) + (image[j][1] - miy) * (world[j][1] - mwy);
    den += (world[j][0] - mwx) ** 2 + (world[j][1] - mwy) ** 2;
  }
  if (!(den > 1e-9) || !(num > 0)) return null;
  const s = num / den;
  return { s, ox: mix - s * mwx, oy: miy - s * mwy };
}

/** Median length of the bone j–PARENT[j] in world metres over the clip (tracked, visible frames). */
export function boneLengths(doc: TracksDoc): Map<number, number> {
  const out = new Map<number, number>();
  for (const [jk, p] of Object.entries(PARENT)) {
    const j = Number(jk);
    const ls: number[] = [];
    for (const f of doc.frames) {
      if (!f.world || !f.image) continue;
      if (Math.min(f.image[j][3], f.image[j][4], f.image[p!][3], f.image[p!][4]) < 0.7) continue;
      const a = f.world[j];
      const b = f.world[p!];
      ls.push(Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]));
    }
    if (ls.length > 0) {
      ls.sort((a, b) => a - b);
      out.set(j, ls[ls.length >> 1]);
    }
  }
  return out;
}

const clone = (f: TrackFrame): TrackFrame => ({
  ...f,
  ...(f.image ? { image: f.image.map((p) => [...p] as ImagePoint) } : {}),
  ...(f.world ? { world: f.world.map((p) => [...p] as WorldPoint) } : {}),
  ...(f.hands ? { hands: { left: f.hands.left, right: f.hands.right } } : {}),
});

/**
 * Exchanges the left and right points of `part` on a frame as BlazePose exchanges them when it takes one leg
 * (arm) for the other: the places in the picture and the world landmarks' x and y (which go with the picture's
 * labels: on the side-walk clips, rendered and real, the world's x/y agree with the picture's labelling on every
 * frame, the tracker's own swapped frames included), while the picture's depth, visibility and presence and the
 * world's depth stay with the labels. So the swap repairs exactly the swap it undoes, and twice is none. A
 * whole-body swap exchanges everything.
 */
function swapFrame(f: TrackFrame, part: SwapPart): void {
  const pairs = swapPairs(part);
  const w = f.world;
  const im = f.image;
  for (const [a, b] of pairs) {
    if (part === 'all') {
      if (im) [im[a], im[b]] = [im[b], im[a]];
      if (w) [w[a], w[b]] = [w[b], w[a]];
      continue;
    }
    if (im) {
      const A = im[a];
      const B = im[b];
      im[a] = [B[0], B[1], A[2], A[3], A[4]];
      im[b] = [A[0], A[1], B[2], B[3], B[4]];
    }
    if (w) {
      const A = w[a];
      const B = w[b];
      w[a] = [B[0], B[1], A[2]];
      w[b] = [A[0], A[1], B[2]];
    }
  }
  if (part !== 'legs' && f.hands) f.hands = { left: f.hands.right, right: f.hands.left };
}

/**
 * Chains of keyframes of landmark j: keyframes joined by interpolation (at most `MAX_SPAN_FRAMES` apart, both
 * hidden or both shown). A lone keyframe is a chain of one.
 */
export function keyChains(d: Draft, j: number): number[][] {
  const ks = keyFramesOf(d, j);
  const out: number[][] = [];
  for (const f of ks) {
    const last = out[out.length - 1];
    const prev = last?.[last.length - 1];
    if (
      last &&
      prev !== undefined &&
      f - prev <= MAX_SPAN_FRAMES &&
      !!d.keys[prev][j].hidden === !!d.keys[f][j].hidden
    )
      last.push(f);
    else out.push([f]);
  }
  return out;
}

type XY = [number, number];

/** Where a point hangs from in the picture: its parent point, or the hip centre (nothing for the hips). */
function anchorOf(image: ImagePoint[], j: number): XY {
  const p = PARENT[j];
  if (p !== undefined) return [image[p][0], image[p][1]];
  if (j === 23 || j === 24) return [0, 0];
  return [(image[23][0] + image[24][0]) / 2, (image[23][1] + image[24][1]) / 2];
}

/** Offset interpolation in polar form (angle along the shorter way, length linear): a limb turns, not shrinks. */
function lerpOffset(a: XY, b: XY, u: number): XY {
  const la = Math.hypot(a[0], a[1]);
  const lb = Math.hypot(b[0], b[1]);
  if (la < 1e-6 || lb < 1e-6) return [a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u];
  const ta = Math.atan2(a[1], a[0]);
  let dt = Math.atan2(b[1], b[0]) - ta;
  dt -= 2 * Math.PI * Math.round(dt / (2 * Math.PI));
  const t = ta + dt * u;
  const l = la + (lb - la) * u;
  return [l * Math.cos(t), l * Math.sin(t)];
}

/**
 * Applies a draft to the tracks: re-tracked frames first, then swaps (in the order made), then every point's
 * keyframes (parents before children). Between two keyframes of a chain a point keeps following the point it
 * hangs from: its offset from the parent (the hip centre for the head and trunk) is interpolated as an angle and a
 * length, so a repaired wrist moves with the tracked elbow. A moved point gets visibility and presence 1; its
 * world place follows the frame's image→world scale and, where it hangs from a parent, the depth that keeps the
 * bone's length — on the side its depth relative to the parent had just before and after the repaired stretch.
 * A hidden point gets visibility 0 (the solver then bridges it). Lost frames stay lost.
 */
export function applyDraft(doc: TracksDoc, d: Draft, bones = boneLengths(doc)): TracksDoc {
  const frames = doc.frames.map((f) => d.replaced?.[f.index] ?? f);
  const N = frames.length;
  const touched = new Set<number>();
  const own = (i: number) => {
    if (!touched.has(i)) {
      frames[i] = clone(frames[i]);
      touched.add(i);
    }
    return frames[i];
  };
  for (const s of d.swaps) {
    for (let i = Math.max(0, s.from); i <= Math.min(N - 1, s.to); i++) {
      if (frames[i].image) swapFrame(own(i), s.part);
    }
  }
  // Image→world scale per frame, fitted on the points no edit touches there.
  const editedAt = new Map<number, Set<number>>();
  const chains = new Map<number, number[][]>();
  for (let j = 0; j < NUM_POINTS; j++) {
    const cs = keyChains(d, j);
    if (cs.length === 0) continue;
    chains.set(j, cs);
    for (const c of cs) {
      for (let f = c[0]; f <= c[c.length - 1]; f++) {
        if (!editedAt.has(f)) editedAt.set(f, new Set());
        editedAt.get(f)!.add(j);
      }
    }
  }
  const scales = new Map<number, ReturnType<typeof imageScale>>();
  const scaleAt = (i: number) => {
    if (!scales.has(i)) {
      const f = frames[i];
      scales.set(i, f.image && f.world ? imageScale(f.image, f.world, editedAt.get(i)) : null);
    }
    return scales.get(i)!;
  };
  for (const i of editedAt.keys()) if (i >= 0 && i < N) scaleAt(i);
  const order = [...chains.keys()].sort((a, b) => depthOf(a) - depthOf(b));
  for (const j of order) {
    const p = PARENT[j];
    const len = bones.get(j);
    for (const chain of chains.get(j)!) {
      const s = chain[0];
      const e = chain[chain.length - 1];
      // Depth of the point relative to its parent just outside the stretch (the track there is trusted).
      const relZ = (i: number): number | null => {
        const f = frames[i];
        if (p === undefined || i < 0 || i >= N || !f?.world || !f.image) return null;
        return f.world[j][2] - f.world[p][2];
      };
      const before = relZ(s - 1);
      const after = relZ(e + 1);
      const place = (i: number, x: number, y: number, hidden: boolean) => {
        if (i < 0 || i >= N || !frames[i].image) return;
        const f = own(i);
        const image = f.image!;
        if (hidden) {
          image[j] = [image[j][0], image[j][1], image[j][2], 0, image[j][4]];
          return;
        }
        image[j] = [round(x, 2), round(y, 2), image[j][2], 1, 1];
        const world = f.world;
        const sc = scales.get(i) ?? null;
        if (!world || !sc) return;
        const wx = (x - sc.ox) / sc.s;
        const wy = (y - sc.oy) / sc.s;
        let wz = world[j][2];
        if (p !== undefined && len !== undefined) {
          const P = world[p];
          const dz = Math.sqrt(Math.max(0, len * len - (wx - P[0]) ** 2 - (wy - P[1]) ** 2));
          const u = e > s ? (i - s + 1) / (e - s + 2) : 0.5;
          const ref =
            before !== null && after !== null
              ? before + (after - before) * u
              : (before ?? after ?? world[j][2] - P[2]);
          wz = Math.abs(dz - ref) <= Math.abs(-dz - ref) ? P[2] + dz : P[2] - dz;
        }
        world[j] = [round(wx, 5), round(wy, 5), round(wz, 5)];
        image[j][2] = round(wz * sc.s, 2);
      };
      const offsets = chain.map((k) => {
        const im = frames[k].image;
        const key = d.keys[k][j];
        if (!im) return [0, 0] as XY;
        const a = anchorOf(im, j);
        return [key.x - a[0], key.y - a[1]] as XY;
      });
      chain.forEach((k, ci) => {
        const key = d.keys[k][j];
        place(k, key.x, key.y, !!key.hidden);
        const next = chain[ci + 1];
        if (next === undefined) return;
        for (let i = k + 1; i < next; i++) {
          if (!frames[i].image) continue;
          if (key.hidden) {
            place(i, 0, 0, true);
            continue;
          }
          const u = (i - k) / (next - k);
          const o = lerpOffset(offsets[ci], offsets[ci + 1], u);
          const a = anchorOf(frames[i].image!, j);
          place(i, a[0] + o[0], a[1] + o[1], false);
        }
      });
    }
  }
  applyHandKeys(frames, d, own);
  return { ...doc, frames };
}

/** Pixels per metre and the image place of the hand's world origin (least squares over the unedited points). */
function handScale(h: HandTrack, skip: Set<number>): { s: number; ox: number; oy: number } | null {
  const idx: number[] = [];
  for (let i = 0; i < Math.min(h.image.length, h.world.length); i++) if (!skip.has(i)) idx.push(i);
  if (idx.length < 4) return null;
  const mean = (f: (i: number) => number) => idx.reduce((a, i) => a + f(i), 0) / idx.length;
  const mix = mean((i) => h.image[i][0]);
  const miy = mean((i) => h.image[i][1]);
  const mwx = mean((i) => h.world[i][0]);
  const mwy = mean((i) => h.world[i][1]);
  let num = 0;
  let den = 0;
  for (const i of idx) {
    num += (h.image[i][0] - mix) * (h.world[i][0] - mwx) + (h.image[i][1] - miy) * (h.world[i][1] - mwy);
    den += (h.world[i][0] - mwx) ** 2 + (h.world[i][1] - mwy) ** 2;
  }
  if (!(den > 1e-12) || !(num > 0)) return null;
  const sc = num / den;
  return { s: sc, ox: mix - sc * mwx, oy: miy - sc * mwy };
}

const handDepth = (i: number): number => {
  let n = 0;
  for (let p: number = HAND_PARENT[i]; p >= 0; p = HAND_PARENT[p]) n++;
  return n;
};

/**
 * Hand keyframes (draft points 33–74), applied like the body's: between two keyframes of a chain a hand point
 * keeps its offset from the point it hangs from (the hand's wrist for the knuckles, the body's wrist for the
 * hand's wrist) interpolated as an angle and a length. Its world place (hand world landmarks, metres) follows
 * the frame's image→world scale of that hand, at the depth that keeps the finger segment's length. Hiding a hand
 * point hides the hand on that frame (score 0: the solver bridges it). Frames without that hand are left alone.
 */
function applyHandKeys(frames: TrackFrame[], d: Draft, own: (i: number) => TrackFrame): void {
  const N = frames.length;
  for (const side of ['left', 'right'] as const) {
    const base = HAND_BASE[side];
    const chains = new Map<number, number[][]>();
    const editedAt = new Map<number, Set<number>>();
    for (let i = 0; i < HAND_POINTS; i++) {
      const cs = keyChains(d, base + i);
      if (cs.length === 0) continue;
      chains.set(i, cs);
      for (const c of cs) {
        for (let f = c[0]; f <= c[c.length - 1]; f++) {
          if (!editedAt.has(f)) editedAt.set(f, new Set());
          editedAt.get(f)!.add(i);
        }
      }
    }
    if (chains.size === 0) continue;
    // Segment lengths (medians over the clip) and the per-frame scale, from the hand as it is before the edits.
    const lens = new Map<number, number>();
    for (const i of chains.keys()) {
      const p = HAND_PARENT[i];
      if (p < 0) continue;
      const ls: number[] = [];
      for (const f of frames) {
        const h = handShown(f, side);
        if (h?.world?.[i] && h.world[p]) {
          ls.push(
            Math.hypot(...([0, 1, 2].map((k) => h.world[i][k] - h.world[p][k]) as [number, number, number])),
          );
        }
      }
      if (ls.length > 0) lens.set(i, ls.sort((a, b) => a - b)[ls.length >> 1]);
    }
    const scales = new Map<number, ReturnType<typeof handScale>>();
    for (const [f, set] of editedAt) {
      const h = f >= 0 && f < N ? handShown(frames[f], side) : null;
      if (h) scales.set(f, handScale(h, set));
    }
    const owned = new Set<number>();
    const ownHand = (f: number): HandTrack | null => {
      if (!frames[f].hands?.[side]) return null;
      const fr = own(f);
      const h = fr.hands![side]!;
      if (owned.has(f)) return h;
      owned.add(f);
      const c: HandTrack = {
        ...h,
        image: h.image.map((q) => [...q] as [number, number, number]),
        world: h.world.map((q) => [...q] as [number, number, number]),
      };
      fr.hands = { left: fr.hands!.left, right: fr.hands!.right, [side]: c };
      return c;
    };
    const anchor = (f: number, i: number): XY | null => {
      const p = HAND_PARENT[i];
      if (p >= 0) {
        const h = handShown(frames[f], side);
        return h ? [h.image[p][0], h.image[p][1]] : null;
      }
      const im = frames[f].image;
      const w = side === 'left' ? 15 : 16;
      return im ? [im[w][0], im[w][1]] : null;
    };
    const order = [...chains.keys()].sort((a, b) => handDepth(a) - handDepth(b));
    for (const i of order) {
      const p = HAND_PARENT[i];
      const len = lens.get(i);
      for (const chain of chains.get(i)!) {
        const s0 = chain[0];
        const e0 = chain[chain.length - 1];
        const relZ = (f: number): number | null => {
          const h = f >= 0 && f < N ? handShown(frames[f], side) : null;
          return p >= 0 && h ? h.world[i][2] - h.world[p][2] : null;
        };
        const before = relZ(s0 - 1);
        const after = relZ(e0 + 1);
        const place = (f: number, x: number, y: number, hidden: boolean) => {
          if (f < 0 || f >= N || !handShown(frames[f], side)) return;
          const h = ownHand(f)!;
          if (hidden) {
            h.score = 0;
            return;
          }
          h.image[i] = [round(x, 2), round(y, 2), h.image[i][2]];
          const sc = scales.get(f) ?? null;
          if (!sc) return;
          const wx = (x - sc.ox) / sc.s;
          const wy = (y - sc.oy) / sc.s;
          let wz = h.world[i][2];
          if (p >= 0 && len !== undefined) {
            const P = h.world[p];
            const dz = Math.sqrt(Math.max(0, len * len - (wx - P[0]) ** 2 - (wy - P[1]) ** 2));
            const u = e0 > s0 ? (f - s0 + 1) / (e0 - s0 + 2) : 0.5;
            const ref =
              before !== null && after !== null
                ? before + (after - before) * u
                : (before ?? after ?? h.world[i][2] - P[2]);
            wz = Math.abs(dz - ref) <= Math.abs(-dz - ref) ? P[2] + dz : P[2] - dz;
          }
          h.world[i] = [round(wx, 5), round(wy, 5), round(wz, 5)];
        };
        const offsets = chain.map((k) => {
          const key = d.keys[k][base + i];
          const a = anchor(k, i);
          return a ? ([key.x - a[0], key.y - a[1]] as XY) : null;
        });
        chain.forEach((k, ci) => {
          const key = d.keys[k][base + i];
          place(k, key.x, key.y, !!key.hidden);
          const next = chain[ci + 1];
          if (next === undefined) return;
          for (let f = k + 1; f < next; f++) {
            if (key.hidden) {
              place(f, 0, 0, true);
              continue;
            }
            const a = anchor(f, i);
            const oa = offsets[ci];
            const ob = offsets[ci + 1];
            if (!a || !oa || !ob) continue;
            const o = lerpOffset(oa, ob, (f - k) / (next - k));
            place(f, a[0] + o[0], a[1] + o[1], false);
          }
        });
      }
    }
  }
}

function depthOf(j: number): number {
  let n = 0;
  let p = PARENT[j];
  while (p !== undefined) {
    n++;
    p = PARENT[p];
  }
  return n;
}

// ---------------------------------------------------------------- analysis

export type ProblemKind = 'lost' | 'hidden' | 'jump' | 'swap';
export const PROBLEM_KINDS: readonly ProblemKind[] = ['lost', 'hidden', 'jump', 'swap'];

export interface Problem {
  kind: ProblemKind;
  /** Inclusive frame range. */
  from: number;
  to: number;
  /** Landmarks concerned (empty for a lost body). */
  points: number[];
}

/** Landmarks that matter to the solve (shoulders … feet), where weak tracking is reported. */
export const MAIN_POINTS = [11, 12, 13, 14, 15, 16, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32];

/** Below this min(visibility, presence) a point is weak; below 0.2 the solver ignores it (weight 0). */
export const WEAK_VISIBILITY = 0.5;
/** A jump: a point moves more than this share of the torso length in one frame, against its neighbours. */
export const JUMP_TORSO = 0.35;
/**
 * The left/right labelling's costs, in mean point acceleration per torso length: `prior` per frame labelled as
 * exchanged, `switchCost` per change of labelling between two frames; one point's acceleration counts at most
 * `cap` (a point the tracker loses for a frame does not outweigh the others).
 */
export interface SwapTuning {
  prior: number;
  switchCost: number;
  cap: number;
  /** A stretch labelled exchanged is flagged only where the two sides' points lie this far apart (torso lengths). */
  minApart: number;
  /** Cost of legs swinging with the arms (per torso length squared), where the run shows a walk. */
  gaitWeight: number;
  /** A run shows a walk where its legs' and arms' swings lie along one line: mean |cos| of their angle. */
  gaitAlign: number;
}
export const SWAP_TUNING: SwapTuning = {
  prior: 0.002,
  switchCost: 0.15,
  cap: 0.5,
  minApart: 0.1,
  gaitWeight: 0.2,
  gaitAlign: 0.7,
};
/** Legs (arms) count as apart in the gait test from this swing on (torso lengths). */
const GAIT_APART = 0.3;
/** A run shows a walk only with at least this many frames of legs and arms apart. */
const GAIT_FRAMES = 10;
/** Seen from the side: hips less than this far apart in the picture (torso lengths). */
const GAIT_SIDE = 0.2;
/** Runs of displaced frames bracketed by two jumps, at most this long, are flagged whole. */
const MAX_RUN = 60;

function torsoPx(f: TrackFrame): number {
  const im = f.image!;
  const mx = (a: number, b: number, c: number) => (im[a][c] + im[b][c]) / 2;
  return Math.max(8, Math.hypot(mx(11, 12, 0) - mx(23, 24, 0), mx(11, 12, 1) - mx(23, 24, 1)));
}

function runs(flags: boolean[]): [number, number][] {
  const out: [number, number][] = [];
  let s = -1;
  flags.forEach((v, i) => {
    if (v && s < 0) s = i;
    if (!v && s >= 0) {
      out.push([s, i - 1]);
      s = -1;
    }
  });
  if (s >= 0) out.push([s, flags.length - 1]);
  return out;
}

/** Adds point `j` to the points flagged on frame `i`. */
function flagPoint(pts: Map<number, Set<number>>, i: number, j: number): void {
  const s = pts.get(i) ?? new Set<number>();
  s.add(j);
  pts.set(i, s);
}

/** One problem of `kind` per run of `flags`, naming the points flagged on any of its frames (ascending). */
function problemsOf(kind: ProblemKind, flags: boolean[], pts: Map<number, Set<number>>): Problem[] {
  return runs(flags).map(([a, b]) => {
    const all = new Set<number>();
    for (let i = a; i <= b; i++) for (const j of pts.get(i) ?? []) all.add(j);
    return { kind, from: a, to: b, points: [...all].sort((x, y) => x - y) };
  });
}

/**
 * Finds the weak frames of a track: lost bodies (the solver bridges them), main points below
 * `WEAK_VISIBILITY`, jumps (a point leaves its path by more than `JUMP_TORSO` torso lengths in one frame; when it
 * jumps back within `MAX_RUN` frames the whole run between is flagged) and left/right swaps (the arms' or legs'
 * points move on more smoothly in the picture exchanged; frames until the swap is undone are flagged).
 */
export function analyse(doc: TracksDoc, tuning: Partial<SwapTuning> = {}): Problem[] {
  const tune = { ...SWAP_TUNING, ...tuning };
  const N = doc.frames.length;
  const out: Problem[] = [];
  const fr = doc.frames;
  const has = (i: number) => i >= 0 && i < N && !!fr[i].image;
  for (const [a, b] of runs(fr.map((f) => !f.image))) out.push({ kind: 'lost', from: a, to: b, points: [] });

  // Low visibility per point.
  const weakPts = new Map<number, Set<number>>();
  const weak = fr.map((f, i) => {
    if (!f.image) return false;
    let any = false;
    for (const j of MAIN_POINTS) {
      if (Math.min(f.image[j][3], f.image[j][4]) < WEAK_VISIBILITY) {
        any = true;
        flagPoint(weakPts, i, j);
      }
    }
    return any;
  });
  out.push(...problemsOf('hidden', weak, weakPts));

  // Left/right swaps, from the picture alone (BlazePose's own swaps exchange the picture's places only: depth and
  // visibility stay with the labels, and its world landmarks go with the picture, so neither tells a swap). Per
  // run of tracked frames, a Viterbi pass over the labelling of each frame (as labelled / exchanged) whose cost
  // is each point's acceleration in the picture (relative to the hip centre, per torso length): a track carries
  // its velocity through a crossing, so where the tracker takes one leg for the other both points turn on the
  // spot to the other leg's velocity (seen from the side the swing leg moves forward as the stance leg moves
  // back) and apart from a crossing they jump to the other side's places. `switchCost` per change of labelling
  // and `prior` per exchanged frame (the tracker's labels are right more often than not) keep the labelling from
  // following the noise.
  const swapFlags: boolean[] = new Array(N).fill(false);
  const swapPts = new Map<number, Set<number>>();
  for (const part of ['legs', 'arms'] as const) {
    const pairs = swapPairs(part);
    const pts = pairs.flat();
    /** Point j of frame i (as labelled or exchanged) relative to the frame's hip centre, pixels. */
    const rel = (i: number, j: number, swapped: boolean): XY => {
      const im = fr[i].image!;
      const p = im[swapped ? mirrorOf(j) : j];
      return [p[0] - (im[23][0] + im[24][0]) / 2, p[1] - (im[23][1] + im[24][1]) / 2];
    };
    const torso = fr.map((f) => (f.image ? torsoPx(f) : 1));
    /** Mean speed of the points from frame i−1 (labelling a) to i (b), torso lengths per frame. */
    const vel = (i: number, a: boolean, b: boolean): number => {
      let s = 0;
      for (const j of pts) {
        const p = rel(i - 1, j, a);
        const q = rel(i, j, b);
        s += Math.min(tune.cap, Math.hypot(q[0] - p[0], q[1] - p[1]) / torso[i]);
      }
      return s / pts.length;
    };
    /** Mean acceleration of the points over frames i−2, i−1, i (labellings a, b, c), torso lengths per frame². */
    const acc = (i: number, a: boolean, b: boolean, c: boolean): number => {
      let s = 0;
      for (const j of pts) {
        const p = rel(i - 2, j, a);
        const q = rel(i - 1, j, b);
        const r = rel(i, j, c);
        s += Math.min(tune.cap, Math.hypot(r[0] - 2 * q[0] + p[0], r[1] - 2 * q[1] + p[1]) / torso[i]);
      }
      return s / pts.length;
    };
    // Walking, the arms swing against the legs: the left foot forward of its hip goes with the left hand back of
    // its shoulder. Counted on frames seen from the side (the hips together in the picture, less than
    // `GAIT_SIDE` torso lengths apart: from the front the swing is in depth and the feet's and hands' widths
    // would count as one), as offsets from the own hip (shoulder). Over a run that shows a walk whichever the
    // labels (at least `GAIT_FRAMES` such frames with legs and arms both apart, and on those the two swings along
    // one line: mean |cos| at least `gaitAlign`), a labelling whose legs swing with the arms costs `gaitWeight`
    // times the product of the two swings; elsewhere (dance, sport, a body seen from the front) nothing.
    const swing = (i: number, swapped: boolean): [XY, XY] => {
      const im = fr[i].image!;
      const t = torso[i];
      const leg: XY = [0, 0];
      for (const j of [27, 29, 31]) {
        const L = im[swapped ? mirrorOf(j) : j];
        const R = im[swapped ? j : mirrorOf(j)];
        for (const c of [0, 1]) leg[c] += (L[c] - im[23][c] - (R[c] - im[24][c])) / (3 * t);
      }
      const arm: XY = [0, 1].map((c) => (im[15][c] - im[11][c] - (im[16][c] - im[12][c])) / t) as XY;
      return [leg, arm];
    };
    /** Seen from the side: the hips lie together in the picture (their width would not cancel otherwise). */
    const sideOn = fr.map((f) => {
      const im = f.image;
      return !!im && Math.hypot(im[23][0] - im[24][0], im[23][1] - im[24][1]) < GAIT_SIDE * torsoPx(f);
    });
    const inPhase = (i: number, swapped: boolean): number => {
      if (!sideOn[i]) return 0;
      const [l, a] = swing(i, swapped);
      return l[0] * a[0] + l[1] * a[1];
    };
    const gaitOf = (f: number, e: number): boolean => {
      if (part !== 'legs') return false;
      let n = 0;
      let align = 0;
      for (let i = f; i <= e; i++) {
        if (!sideOn[i]) continue;
        const [l, a] = swing(i, false);
        const ll = Math.hypot(l[0], l[1]);
        const la = Math.hypot(a[0], a[1]);
        if (ll < GAIT_APART || la < GAIT_APART) continue;
        n++;
        align += Math.abs(l[0] * a[0] + l[1] * a[1]) / (ll * la);
      }
      return n >= GAIT_FRAMES && align >= tune.gaitAlign * n;
    };
    for (const [f, e] of runs(fr.map((x) => !!x.image))) {
      const len = e - f + 1;
      const gait = gaitOf(f, e);
      const unary = (i: number, st: number, prev: number) =>
        tune.prior * st +
        (st !== prev ? tune.switchCost : 0) +
        (gait ? tune.gaitWeight * Math.max(0, inPhase(i, st === 1)) : 0);
      const states = new Uint8Array(len);
      if (len >= 2) {
        // State (b, c): the labellings of the frame before and of this frame, index 2b + c.
        let cost = [0, 1, 2, 3].map((s) => {
          const a = s >> 1;
          const b = s & 1;
          return unary(f, a, a) + unary(f + 1, b, a) + vel(f + 1, !!a, !!b);
        });
        const back = new Uint8Array(len * 4);
        for (let k = 2; k < len; k++) {
          const g = f + k;
          const next = [0, 0, 0, 0];
          for (let s = 0; s < 4; s++) {
            const b = s >> 1;
            const c = s & 1;
            let best = Number.POSITIVE_INFINITY;
            for (const a of [0, 1]) {
              const v = cost[2 * a + b] + acc(g, !!a, !!b, !!c);
              if (v < best) {
                best = v;
                back[k * 4 + s] = a;
              }
            }
            next[s] = best + unary(g, c, b);
          }
          cost = next;
        }
        let s = cost.indexOf(Math.min(...cost));
        for (let k = len - 1; k >= 1; k--) {
          states[k] = s & 1;
          states[k - 1] = s >> 1;
          if (k >= 2) s = 2 * back[k * 4 + s] + (s >> 1);
        }
      }
      // A stretch labelled exchanged where the two sides' points lie together on every frame (a crossing, where
      // the tracker's jitter alone picks the labelling) changes nothing when exchanged: not a swap to repair.
      const apart = (i: number) => {
        let s = 0;
        for (const [l, r] of pairs) {
          const L = rel(i, l, false);
          const R = rel(i, r, false);
          s += Math.hypot(L[0] - R[0], L[1] - R[1]) / torso[i];
        }
        return s / pairs.length;
      };
      // Its ends are trimmed alike to the first and last frame where the sides stand apart (where the legs cross
      // at a swap's onset, either labelling is the picture).
      for (let [a, b] of runs(Array.from(states, (x) => x === 1))) {
        while (a <= b && apart(f + a) < tune.minApart) a++;
        while (b >= a && apart(f + b) < tune.minApart) b--;
        for (let k = a; k <= b; k++) {
          const i = f + k;
          swapFlags[i] = true;
          for (const j of pts) flagPoint(swapPts, i, j);
        }
      }
    }
  }
  // One frame the pass did not flag between two flagged ones is taken as swapped too (its points those of the
  // frame before): a swapped stretch with a one-frame hole is one stretch to the person repairing it, and the
  // whole-stretch fix would otherwise stop at the hole (seen on a side walk: 96–102 and 104–119).
  for (let i = 1; i + 1 < N; i++) {
    if (swapFlags[i] || !swapFlags[i - 1] || !swapFlags[i + 1]) continue;
    swapFlags[i] = true;
    for (const j of swapPts.get(i - 1) ?? []) flagPoint(swapPts, i, j);
  }
  out.push(...problemsOf('swap', swapFlags, swapPts));

  // Jumps per point (swapped frames excluded: a swap moves both sides).
  const jumpFlags: boolean[] = new Array(N).fill(false);
  const jumpPts = new Map<number, Set<number>>();
  const mark = (i: number, j: number) => {
    jumpFlags[i] = true;
    flagPoint(jumpPts, i, j);
  };
  for (const j of MAIN_POINTS) {
    const step = (i: number): number => {
      if (!has(i) || !has(i - 1)) return 0;
      const a = fr[i - 1].image![j];
      const b = fr[i].image![j];
      return Math.hypot(b[0] - a[0], b[1] - a[1]) / torsoPx(fr[i]);
    };
    const cand: number[] = [];
    const swapped = (i: number) => swapPts.get(i)?.has(j) ?? false;
    for (let i = 1; i < N; i++) if (step(i) > JUMP_TORSO && !swapped(i) && !swapped(i - 1)) cand.push(i);
    const used = new Set<number>();
    for (let c = 0; c < cand.length; c++) {
      const a = cand[c];
      if (used.has(a)) continue;
      let closed = false;
      for (let e = c + 1; e < cand.length && cand[e] - a <= MAX_RUN; e++) {
        const b = cand[e];
        const p0 = fr[a - 1].image![j];
        const p1 = has(b) ? fr[b].image![j] : p0;
        const bridge = Math.hypot(p1[0] - p0[0], p1[1] - p0[1]) / torsoPx(fr[b]);
        // Back on its path: the point after the run is near where it was before it, or it jumps back by about
        // the jump that took it away.
        const pa = fr[a].image![j];
        const pb = fr[b - 1].image![j];
        const back =
          Math.hypot(pa[0] - p0[0] + p1[0] - pb[0], pa[1] - p0[1] + p1[1] - pb[1]) / torsoPx(fr[b]);
        if (bridge < 0.6 * Math.max(step(a), step(b)) || back < 0.4 * Math.min(step(a), step(b))) {
          for (let i = a; i < b; i++) if (has(i)) mark(i, j);
          used.add(b);
          closed = true;
          break;
        }
      }
      if (!closed) mark(a, j);
    }
  }
  out.push(...problemsOf('jump', jumpFlags, jumpPts));
  return out.sort((x, y) => x.from - y.from || x.to - y.to);
}

/**
 * The run of frames flagged as left/right swapped that holds `frame`, with the parts it concerns (legs, arms or
 * both): the stretch the tracker swapped, which one fix repairs whole.
 */
export function swapRunAt(
  problems: Problem[],
  frame: number,
): { from: number; to: number; parts: ('legs' | 'arms')[] } | null {
  const p = problems.find((q) => q.kind === 'swap' && q.from <= frame && frame <= q.to);
  if (!p) return null;
  const parts: ('legs' | 'arms')[] = [];
  if (p.points.some((j) => LEG_POINTS.includes(j) || LEG_POINTS.includes(mirrorOf(j)))) parts.push('legs');
  if (p.points.some((j) => ARM_POINTS.includes(j) || ARM_POINTS.includes(mirrorOf(j)))) parts.push('arms');
  return parts.length > 0 ? { from: p.from, to: p.to, parts } : null;
}

/** The first problem starting after `frame` (dir 1) or the last one starting before it (dir -1). */
export function nextProblem(problems: Problem[], frame: number, dir: 1 | -1): Problem | null {
  if (dir > 0) return problems.find((p) => p.from > frame) ?? null;
  for (let i = problems.length - 1; i >= 0; i--) {
    if (problems[i].from < frame) return problems[i];
  }
  return null;
}

/** The frame shown at a media time (the last frame that starts at or before it). */
export function frameAt(doc: TracksDoc, time: number): number {
  const fr = doc.frames;
  let lo = 0;
  let hi = fr.length - 1;
  if (hi < 0) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (fr[mid].time <= time + 1e-4) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A media time inside frame i (its start plus a quarter frame, so a seek lands on that frame). */
export function timeOf(doc: TracksDoc, i: number): number {
  const fr = doc.frames;
  const f = fr[Math.max(0, Math.min(fr.length - 1, i))];
  const fps = doc.video.fps > 0 ? doc.video.fps : 30;
  return (f?.time ?? 0) + 0.25 / fps;
}

/** Draft identity check: a draft belongs to the tracks it was made on. */
export const draftBaseOf = (doc: TracksDoc): string =>
  `${String(doc.createdAt ?? '')}|${doc.frames.length}|${doc.video.width}x${doc.video.height}`;
