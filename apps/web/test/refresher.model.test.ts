/**
 * The 2D repair editor's model on synthetic tracks: weak-frame analysis (a wrist displaced over 20 frames, a
 * leg swap over 20 frames, low visibility, lost frames), keyframes and their interpolation, swaps, hidden points,
 * the world place and depth of a moved point, hand points (keyframes, interpolation along the hand, finger
 * lengths kept, hiding a hand), the whole swapped run found for one fix.
 */
import { describe, expect, it } from 'vitest';
import {
  addSwap,
  analyse,
  applyDraft,
  effectiveKeys,
  emptyDraft,
  frameAt,
  HAND_BASE,
  HAND_PARENT,
  HAND_POINTS,
  type HandTrack,
  handPointOf,
  type ImagePoint,
  imageScale,
  isEmptyDraft,
  MAX_SPAN_FRAMES,
  nextProblem,
  setKey,
  swapPairs,
  swapRunAt,
  type TrackFrame,
  type TracksDoc,
  timeOf,
  type WorldPoint,
} from '../src/pages/refresher/model.ts';

const W = 960;
const H = 540;
const FPS = 30;
const S = 300; // px per metre
/** The hand points (pinky, index, thumb) with the wrist each hangs from: left, then right. */
const FINGERS = [
  [17, 15],
  [19, 15],
  [21, 15],
  [18, 16],
  [20, 16],
  [22, 16],
] as const;

/** The tracks document of `frames` (the W×H picture at FPS). */
const docOf = (frames: TracksDoc['frames']): TracksDoc => ({
  format: 'mocap-tracks',
  version: 1,
  createdAt: '2026-11-26T00:00:00Z',
  video: { width: W, height: H, fps: FPS, frameCount: frames.length, duration: frames.length / FPS },
  frames,
});

/** A person walking slowly across, arms and legs swinging; image = world · S + origin. */
function walk(n: number): TracksDoc {
  const frames: TrackFrame[] = [];
  for (let i = 0; i < n; i++) {
    const t = i / FPS;
    const ox = 300 + 40 * t;
    const oy = 300;
    const sw = 0.15 * Math.sin(2 * Math.PI * t);
    const w: WorldPoint[] = Array.from({ length: 33 }, () => [0, 0, 0] as WorldPoint);
    const set = (j: number, x: number, y: number, z = 0) => {
      w[j] = [x, y, z];
    };
    for (let j = 0; j <= 10; j++) set(j, (j % 2 ? 0.03 : -0.03) * (j > 0 ? 1 : 0), -0.6 + (j > 6 ? 0.02 : 0));
    set(11, 0.18, -0.45);
    set(12, -0.18, -0.45);
    // The arms swing against the legs (the left hand back as the left foot goes forward).
    set(13, 0.22, -0.2, -sw);
    set(14, -0.22, -0.2, sw);
    set(15, 0.24 - sw * 0.3, 0.05, -sw);
    set(16, -0.24 + sw * 0.3, 0.05, sw);
    for (const [j, p] of FINGERS) set(j, w[p][0] + (j % 2 ? 0.02 : -0.02), w[p][1] + 0.06, w[p][2]);
    set(23, 0.1, 0);
    set(24, -0.1, 0);
    // Seen from the front: the legs swing in depth and a little sideways, never crossing in the picture.
    set(25, 0.11 + sw * 0.2, 0.42, sw);
    set(26, -0.11 - sw * 0.2, 0.42, -sw);
    set(27, 0.12 + sw * 0.3, 0.85, sw);
    set(28, -0.12 - sw * 0.3, 0.85, -sw);
    set(29, w[27][0], 0.9, w[27][2]);
    set(30, w[28][0], 0.9, w[28][2]);
    set(31, w[27][0], 0.92, w[27][2] - 0.1);
    set(32, w[28][0], 0.92, w[28][2] - 0.1);
    const image = w.map(([x, y, z]) => [ox + x * S, oy + y * S, z * S, 0.99, 0.99] as ImagePoint);
    frames.push({ index: i, time: t, state: 'tracked', score: 1, image, world: w });
  }
  return docOf(frames);
}

const clone = (d: TracksDoc): TracksDoc => JSON.parse(JSON.stringify(d));

/** A repeatable jitter in [-1, 1] (a linear congruential sequence). */
function jitter(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return (x / 2 ** 32) * 2 - 1;
  };
}

/**
 * A person walking across the picture seen from the side (left side to the camera): the legs swing forward and
 * back and cross in the picture twice per stride (frames 0, 15, 30, …); in the world the left leg stays on the
 * near side (z −0.1), the right on the far side, which the picture's depth (z) and visibility say too (the far
 * leg less visible). `noise` px of jitter on the leg points in the picture (and as much in the world).
 */
function sideWalk(n: number, noise = 0): TracksDoc {
  const frames: TrackFrame[] = [];
  const rnd = jitter(7);
  for (let i = 0; i < n; i++) {
    const t = i / FPS;
    const ox = 200 + 60 * t;
    const oy = 260;
    const sw = Math.sin(2 * Math.PI * t);
    const w: WorldPoint[] = Array.from({ length: 33 }, () => [0, -0.6, 0] as WorldPoint);
    const set = (j: number, x: number, y: number, z: number) => {
      w[j] = [x, y, z];
    };
    set(11, 0, -0.45, -0.18);
    set(12, 0, -0.45, 0.18);
    set(13, -0.08 * sw, -0.2, -0.2);
    set(14, 0.08 * sw, -0.2, 0.2);
    set(15, -0.2 * sw, 0.05, -0.2);
    set(16, 0.2 * sw, 0.05, 0.2);
    for (const [j, p] of FINGERS) set(j, w[p][0] + 0.03, w[p][1] + 0.06, w[p][2]);
    set(23, 0, 0, -0.1);
    set(24, 0, 0, 0.1);
    for (const [j, k, y, dx] of [
      [25, 0.2, 0.42, 0],
      [27, 0.35, 0.85, 0],
      [29, 0.35, 0.9, -0.05],
      [31, 0.35, 0.92, 0.1],
    ] as const) {
      set(j, k * sw + dx + (noise * rnd()) / S, y + (noise * rnd()) / S, -0.1);
      set(j + 1, -k * sw + dx + (noise * rnd()) / S, y + (noise * rnd()) / S, 0.1);
    }
    const image = w.map(
      ([x, y, z], j) =>
        [ox + x * S, oy + y * S, z * S, j >= 25 && j % 2 === 0 ? 0.7 : 0.99, 0.99] as ImagePoint,
    );
    frames.push({ index: i, time: t, state: 'tracked', score: 1, image, world: w });
  }
  return docOf(frames);
}

/**
 * BlazePose's own leg swap (as on the rendered side-walk clip, measured: its picture depth and visibility kept the
 * near leg nearer and more visible on all 90 frames, its swapped frames too, and its world x/y agree with the
 * picture's labelling on every frame): the picture's places and the world's x/y exchanged, the depths and
 * visibility left with the labels.
 */
function trackerSwap(d: TracksDoc, from: number, to: number): void {
  for (let i = from; i <= to; i++) {
    const im = d.frames[i].image!;
    const w = d.frames[i].world!;
    for (const [l, r] of swapPairs('legs')) {
      [im[l], im[r]] = [
        [im[r][0], im[r][1], im[l][2], im[l][3], im[l][4]],
        [im[l][0], im[l][1], im[r][2], im[r][3], im[r][4]],
      ];
      [w[l], w[r]] = [
        [w[r][0], w[r][1], w[l][2]],
        [w[l][0], w[l][1], w[r][2]],
      ];
    }
  }
}

/**
 * The legs exchanged whole in the picture (depth and visibility with them), the world's x/y exchanged: not the
 * tracker's way, but the flags come from the picture's places alone, so they are the same.
 */
function wholePictureSwap(d: TracksDoc, from: number, to: number): void {
  for (let i = from; i <= to; i++) {
    const im = d.frames[i].image!;
    const w = d.frames[i].world!;
    for (const [l, r] of swapPairs('legs')) {
      [im[l], im[r]] = [im[r], im[l]];
      [w[l], w[r]] = [
        [w[r][0], w[r][1], w[l][2]],
        [w[l][0], w[l][1], w[r][2]],
      ];
    }
  }
}

/** The frames flagged as legs swapped. */
const legSwapFrames = (d: TracksDoc, tuning = {}): number[] =>
  analyse(d, tuning)
    .filter((p) => p.kind === 'swap' && p.points.includes(25))
    .flatMap((p) => Array.from({ length: p.to - p.from + 1 }, (_, k) => p.from + k));

describe('analysis of weak frames', () => {
  it('a clean walk has no problem', () => {
    expect(analyse(walk(90))).toEqual([]);
  });

  it('a wrist displaced over 20 frames is flagged over exactly those frames', () => {
    const d = clone(walk(90));
    for (let i = 30; i < 50; i++) {
      d.frames[i].image![15][0] += 110;
      d.frames[i].image![15][1] -= 90;
    }
    const p = analyse(d);
    expect(p).toEqual([{ kind: 'jump', from: 30, to: 49, points: [15] }]);
    expect(nextProblem(p, 0, 1)?.from).toBe(30);
    expect(nextProblem(p, 30, 1)).toBeNull();
    expect(nextProblem(p, 60, -1)?.from).toBe(30);
  });

  it('a left/right leg swap over 20 frames is flagged as a swap over those frames', () => {
    const d = clone(walk(90));
    // As the tracker swaps them: the places in the picture and the world's x/y, depth and visibility kept.
    trackerSwap(d, 60, 79);
    const swaps = analyse(d).filter((p) => p.kind === 'swap');
    expect(swaps).toHaveLength(1);
    expect([swaps[0].from, swaps[0].to]).toEqual([60, 79]);
    expect(swaps[0].points).toContain(25);
    expect(analyse(d).some((p) => p.kind === 'jump')).toBe(false);
  });

  it('a one-frame hole in a swapped stretch is bridged (one stretch to repair); a two-frame hole is not', () => {
    const one = clone(walk(90));
    trackerSwap(one, 60, 69);
    trackerSwap(one, 71, 79);
    const bridged = analyse(one).filter((p) => p.kind === 'swap');
    expect(bridged.map((p) => [p.from, p.to])).toEqual([[60, 79]]);
    expect(bridged[0].points).toContain(25);
    const two = clone(walk(90));
    trackerSwap(two, 60, 69);
    trackerSwap(two, 72, 79);
    expect(
      analyse(two)
        .filter((p) => p.kind === 'swap')
        .map((p) => [p.from, p.to]),
    ).toEqual([
      [60, 69],
      [72, 79],
    ]);
  });

  it('seen from the side, the tracker’s own leg swaps are flagged on their frames, not between the crossings around them', () => {
    const truth = sideWalk(60);
    expect(analyse(truth).filter((p) => p.kind === 'swap')).toEqual([]);
    // As on the rendered side walk: one frame after the legs crossed (15), one mid-stride, three up to the next
    // crossing (30). Exchanging the world points whole in the swapped labelling flagged 17–20 and 22–26 (the
    // frames the tracker got right).
    const d = clone(truth);
    for (const [a, b] of [
      [16, 16],
      [21, 21],
      [27, 29],
    ])
      trackerSwap(d, a, b);
    const swaps = analyse(d).filter((p) => p.kind === 'swap');
    expect(swaps.map((p) => [p.from, p.to])).toEqual([
      [16, 16],
      [21, 21],
      [27, 29],
    ]);
    expect(swapRunAt(analyse(d), 28)).toEqual({ from: 27, to: 29, parts: ['legs'] });
    // The editor's swap on those frames gives back the tracker's body exactly: the near leg stays near, its
    // depth and visibility stay with it.
    let fix = emptyDraft();
    for (const [a, b] of [
      [16, 16],
      [21, 21],
      [27, 29],
    ])
      fix = addSwap(fix, { from: a, to: b, part: 'legs' });
    const fixed = applyDraft(d, fix);
    expect(fixed.frames).toEqual(clone(truth).frames);
    expect(legSwapFrames(fixed)).toEqual([]);
  });

  it('seen from the side, legs whose places the tracker exchanges where they cross, up to the clip’s end, are flagged from the picture alone; a clean walk’s crossings are not', () => {
    // Six crossings (0, 15, …, 75), 2 px of jitter on the legs: nothing flagged.
    const truth = sideWalk(90, 2);
    expect(legSwapFrames(truth)).toEqual([]);
    // Exchanged from the crossing at 45 to the end (as the e2e does to the rendered side walk): the points overlap
    // there, so nothing jumps, and no boundary follows; but both turn on the spot to the other leg's velocity
    // (the swing leg forward, the stance leg back).
    const d = clone(truth);
    trackerSwap(d, 45, 89);
    const flagged = legSwapFrames(d);
    expect(flagged.filter((i) => i >= 45).length).toBeGreaterThanOrEqual(0.9 * 45);
    expect(flagged.filter((i) => i < 45)).toEqual([]);
    // The picture's places alone decide: the world landmarks left as they were (no swap in them), exchanged
    // whole, or gone, and the picture's depth and visibility exchanged with the places, flag the same frames.
    const xyOnly = clone(truth);
    for (let i = 45; i < 90; i++) {
      const im = xyOnly.frames[i].image!;
      for (const [l, r] of swapPairs('legs')) {
        [im[l], im[r]] = [
          [im[r][0], im[r][1], im[l][2], im[l][3], im[l][4]],
          [im[l][0], im[l][1], im[r][2], im[r][3], im[r][4]],
        ];
      }
    }
    const whole = clone(truth);
    wholePictureSwap(whole, 45, 89);
    const noWorld = clone(d);
    for (const f of noWorld.frames) delete f.world;
    for (const other of [xyOnly, whole, noWorld]) expect(legSwapFrames(other)).toEqual(flagged);
    const run = swapRunAt(analyse(d), 70)!;
    expect(run.to).toBe(89);
    // One fix over the run found gives back the walk (where the legs cross at 45 the flag may start a frame
    // later: the two sides lie together there), and no flag is left.
    expect(run.from).toBeLessThanOrEqual(46);
    const fixed = applyDraft(d, addSwap(emptyDraft(), { from: run.from, to: run.to, part: 'legs' }));
    for (let i = run.from; i < 90; i++) expect(fixed.frames[i]).toEqual(truth.frames[i]);
    expect(legSwapFrames(fixed)).toEqual([]);
  });

  it('seen from the side, a 30-frame stretch exchanged from one crossing to the next but one is flagged as a whole', () => {
    const truth = sideWalk(90, 2);
    const d = clone(truth);
    trackerSwap(d, 15, 44);
    const flagged = legSwapFrames(d);
    expect(flagged.filter((i) => i >= 15 && i <= 44).length).toBeGreaterThanOrEqual(27);
    expect(flagged.filter((i) => i < 15 || i > 44)).toEqual([]);
  });

  it('seen from the side, which side of a crossing is swapped is told by the arms swinging against the legs', () => {
    // Exchanged from the crossing at 30 to the end: 60 frames exchanged after it, 30 as labelled before it. The
    // legs' motion tells only that the labelling changes at 30; the tracker's labels being right more often
    // would put the flag on 0–29.
    const truth = sideWalk(90, 2);
    const d = clone(truth);
    trackerSwap(d, 30, 89);
    const blind = legSwapFrames(d, { gaitWeight: 0 });
    expect(blind.filter((i) => i < 30).length).toBeGreaterThanOrEqual(27);
    // The arms (not swapped) swing with the exchanged legs from 30 on: the flag goes there.
    const flagged = legSwapFrames(d);
    expect(flagged.filter((i) => i >= 30).length).toBeGreaterThanOrEqual(0.9 * 60);
    expect(flagged.filter((i) => i < 30)).toEqual([]);
  });

  it('seen from the side with 4 px of jitter, swaps at crossings are still found and the clean walk stays clean', () => {
    const truth = sideWalk(150, 4);
    expect(legSwapFrames(truth)).toEqual([]);
    for (const [a, b] of [
      [30, 59],
      [90, 149],
    ]) {
      const d = clone(truth);
      trackerSwap(d, a, b);
      const flagged = legSwapFrames(d);
      expect(flagged.filter((i) => i >= a && i <= b).length).toBeGreaterThanOrEqual(0.9 * (b - a + 1));
      expect(flagged.filter((i) => i < a || i > b)).toEqual([]);
    }
  });

  it('seen from the front, a single swapped frame is flagged on that frame only', () => {
    const d = clone(walk(90));
    trackerSwap(d, 50, 50);
    expect(legSwapFrames(d)).toEqual([50]);
  });

  it('low visibility and lost frames are flagged', () => {
    const d = clone(walk(60));
    for (let i = 10; i < 14; i++) d.frames[i].image![27][3] = 0.1;
    for (let i = 40; i < 45; i++) {
      d.frames[i] = { index: i, time: d.frames[i].time, state: 'lost', score: 0 };
    }
    const p = analyse(d);
    expect(p.find((x) => x.kind === 'hidden')).toEqual({ kind: 'hidden', from: 10, to: 13, points: [27] });
    expect(p.find((x) => x.kind === 'lost')).toEqual({ kind: 'lost', from: 40, to: 44, points: [] });
  });
});

describe('draft', () => {
  it('keyframes interpolate the frames between them; a lone keyframe changes its frame only', () => {
    let d = setKey(emptyDraft(), 10, 15, { x: 100, y: 200 });
    d = setKey(d, 20, 15, { x: 200, y: 100 });
    d = setKey(d, 40, 16, { x: 50, y: 50 });
    const e = effectiveKeys(d, 15);
    expect(e.get(15)).toMatchObject({ x: 150, y: 150, interpolated: true });
    expect(e.get(10)?.interpolated).toBe(false);
    expect(e.has(9) || e.has(21)).toBe(false);
    expect([...effectiveKeys(d, 16).keys()]).toEqual([40]);
    // Too far apart: not interpolated.
    const far = setKey(setKey(emptyDraft(), 0, 15, { x: 1, y: 1 }), MAX_SPAN_FRAMES + 2, 15, { x: 2, y: 2 });
    expect(effectiveKeys(far, 15).size).toBe(2);
    // Removing a keyframe.
    expect(isEmptyDraft(setKey(setKey(emptyDraft(), 3, 1, { x: 0, y: 0 }), 3, 1, null))).toBe(true);
  });

  it('repairing a displaced wrist with two keyframes puts image and world back (depth from the forearm)', () => {
    const truth = walk(90);
    const d = clone(truth);
    for (let i = 30; i < 50; i++) {
      d.frames[i].image![15][0] += 110;
      d.frames[i].world![15][0] += 110 / S;
      d.frames[i].world![15][2] -= 0.2;
    }
    let draft = emptyDraft();
    for (const f of [30, 49]) {
      const p = truth.frames[f].image![15];
      draft = setKey(draft, f, 15, { x: p[0], y: p[1] });
    }
    const out = applyDraft(d, draft);
    let imgErr = 0;
    let worldErr = 0;
    for (let i = 30; i < 50; i++) {
      const a = out.frames[i].image![15];
      const b = truth.frames[i].image![15];
      imgErr = Math.max(imgErr, Math.hypot(a[0] - b[0], a[1] - b[1]));
      const wa = out.frames[i].world![15];
      const wb = truth.frames[i].world![15];
      worldErr = Math.max(worldErr, Math.hypot(wa[0] - wb[0], wa[1] - wb[1], wa[2] - wb[2]));
      expect(a[3]).toBe(1);
    }
    // The swing between the keyframes is not linear: up to 18 px / a few centimetres remain (against 140 px).
    expect(imgErr).toBeLessThan(20);
    expect(worldErr).toBeLessThan(0.08);
    expect(analyse(out)).toEqual([]);
    // The input document is not changed.
    expect(d.frames[35].image![15][0]).toBeCloseTo(truth.frames[35].image![15][0] + 110, 6);
  });

  it('swaps on a range undo a leg swap; the same swap twice cancels; hidden points get visibility 0', () => {
    const truth = walk(90);
    const d = clone(truth);
    trackerSwap(d, 60, 79);
    const fix = addSwap(emptyDraft(), { from: 79, to: 60, part: 'legs' });
    expect(fix.swaps).toEqual([{ from: 60, to: 79, part: 'legs' }]);
    expect(applyDraft(d, fix).frames).toEqual(clone(truth).frames);
    expect(addSwap(fix, { from: 60, to: 79, part: 'legs' }).swaps).toEqual([]);
    const hidden = applyDraft(truth, setKey(emptyDraft(), 5, 27, { x: 0, y: 0, hidden: true }));
    expect(hidden.frames[5].image![27][3]).toBe(0);
    expect(hidden.frames[5].image![27][0]).toBe(truth.frames[5].image![27][0]);
    expect(analyse(hidden).find((p) => p.kind === 'hidden')).toMatchObject({ from: 5, to: 5, points: [27] });
  });

  it('re-tracked frames replace the tracked ones', () => {
    const d = walk(10);
    const f = { ...d.frames[4], score: 0.5 };
    const out = applyDraft(d, { ...emptyDraft(), replaced: { 4: f } });
    expect(out.frames[4].score).toBe(0.5);
    expect(out.frames[3]).toBe(d.frames[3]);
  });
});

describe('frames and time', () => {
  it('maps media time to frames and back', () => {
    const d = walk(30);
    for (const i of [0, 1, 14, 29]) expect(frameAt(d, timeOf(d, i))).toBe(i);
    expect(frameAt(d, 100)).toBe(29);
  });

  it('fits the image scale of a frame', () => {
    const d = walk(2);
    const s = imageScale(d.frames[0].image!, d.frames[0].world!)!;
    expect(s.s).toBeCloseTo(S, 3);
    expect(s.ox).toBeCloseTo(300, 3);
  });
});

/** The walk with a left hand: a flat open hand hanging from the left wrist (image = world · S + origin). */
function withHands(doc: TracksDoc): TracksDoc {
  const frames = doc.frames.map((f) => {
    const im = f.image!;
    const wrist = im[15];
    const world: [number, number, number][] = [];
    for (let i = 0; i < HAND_POINTS; i++) {
      // Fingers fan downwards from the wrist, 4 cm per segment; the thumb to the side.
      const finger = i === 0 ? -1 : Math.floor((i - 1) / 4);
      const seg = i === 0 ? 0 : ((i - 1) % 4) + 1;
      const dx = finger < 0 ? 0 : (finger - 2) * 0.02;
      world.push([dx, seg * 0.04, 0]);
    }
    const image = world.map(
      ([x, y, z]) => [wrist[0] + x * S, wrist[1] + y * S, z * S] as [number, number, number],
    );
    const hand: HandTrack = { score: 0.95, handedness: 0.9, image, world };
    return { ...f, hands: { left: hand, right: null } };
  });
  return { ...doc, frames };
}

describe('hand points', () => {
  it('are numbered after the body and hang from their parents', () => {
    expect(handPointOf(10)).toBeNull();
    expect(handPointOf(HAND_BASE.left)).toEqual({ side: 'left', i: 0 });
    expect(handPointOf(HAND_BASE.right + 20)).toEqual({ side: 'right', i: 20 });
    expect(handPointOf(HAND_BASE.right + 21)).toBeNull();
    expect(HAND_PARENT[8]).toBe(7);
    expect(HAND_PARENT[5]).toBe(0);
  });

  it('a dragged fingertip moves on its keyframes, frames between follow the hand, the finger keeps its length', () => {
    const doc = withHands(walk(40));
    const tip = HAND_BASE.left + 8; // index tip
    // Bend the index tip sideways by 2 cm and up by 1 cm on frames 10 and 20 (it turns out of the picture plane).
    let d = emptyDraft();
    for (const f of [10, 20]) {
      const h = doc.frames[f].hands!.left!;
      d = setKey(d, f, tip, { x: h.image[8][0] + 0.02 * S, y: h.image[8][1] - 0.01 * S });
    }
    const snapshot = JSON.stringify(doc);
    const out = applyDraft(doc, d);
    for (const f of [10, 15, 20]) {
      const before = doc.frames[f].hands!.left!;
      const after = out.frames[f].hands!.left!;
      // Moved in the picture by the offset given, also on the interpolated frame 15 (relative to its parent).
      const off = [after.image[8][0] - after.image[7][0], after.image[8][1] - after.image[7][1]];
      const orig = [before.image[8][0] - before.image[7][0], before.image[8][1] - before.image[7][1]];
      expect(Math.hypot(off[0] - orig[0] - 0.02 * S, off[1] - orig[1] + 0.01 * S)).toBeLessThan(1);
      // World: x/y follow the picture, the segment keeps its 4 cm length.
      expect(after.world[8][0]).toBeCloseTo(before.world[8][0] + 0.02, 3);
      const seg = Math.hypot(
        ...([0, 1, 2].map((k) => after.world[8][k] - after.world[7][k]) as [number, number, number]),
      );
      expect(seg).toBeCloseTo(0.04, 3);
      // Other points of the hand are untouched.
      expect(after.image[12]).toEqual(before.image[12]);
    }
    // Outside the keyframes, the hand is as tracked (the same object, not a copy).
    expect(out.frames[25].hands!.left).toBe(doc.frames[25].hands!.left);
    // The input document is not changed.
    expect(JSON.stringify(doc)).toBe(snapshot);
  });

  it('hiding a hand point hides the hand on that frame, between two hidden keys too', () => {
    const doc = withHands(walk(20));
    let d = setKey(emptyDraft(), 5, HAND_BASE.left + 4, { x: 0, y: 0, hidden: true });
    d = setKey(d, 8, HAND_BASE.left + 4, { x: 0, y: 0, hidden: true });
    const out = applyDraft(doc, d);
    expect([4, 5, 6, 7, 8, 9].map((f) => out.frames[f].hands!.left!.score)).toEqual([0.95, 0, 0, 0, 0, 0.95]);
  });

  it('an arm swap exchanges the hands, and keys of hand points apply after it', () => {
    const doc = withHands(walk(10));
    const d = addSwap(emptyDraft(), { from: 3, to: 3, part: 'arms' });
    const out = applyDraft(doc, d);
    expect(out.frames[3].hands!.right).toBe(doc.frames[3].hands!.left);
    expect(out.frames[3].hands!.left).toBeNull();
  });
});

describe('the swapped run', () => {
  it('is found around a frame inside it, with the part swapped', () => {
    const doc = walk(90);
    trackerSwap(doc, 44, 63);
    const problems = analyse(doc);
    const run = swapRunAt(problems, 50);
    expect(run).not.toBeNull();
    expect(run!.parts).toEqual(['legs']);
    expect(Math.abs(run!.from - 44)).toBeLessThanOrEqual(1);
    expect(Math.abs(run!.to - 63)).toBeLessThanOrEqual(1);
    expect(swapRunAt(problems, 10)).toBeNull();
    // One fix over the run found: no swap left, the walk given back.
    const fixed = applyDraft(doc, addSwap(emptyDraft(), { from: run!.from, to: run!.to, part: 'legs' }));
    expect(analyse(fixed).filter((p) => p.kind === 'swap')).toEqual([]);
    expect(fixed.frames).toEqual(walk(90).frames);
  });
});
