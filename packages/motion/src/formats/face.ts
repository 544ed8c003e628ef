/**
 * Face outputs (OnlyFace): ARKit blendshape weights per frame as CSV and JSON, and the mapping from ARKit shapes
 * to the expression sets other tools use (VRM 1.0 expression presets for VRMA, MMD morphs for VMD).
 *
 * CSV (`writeCsv`): one header line `frame,time,<52 ARKit names in Apple's order>`, then one line per frame:
 * the frame index, its time in seconds (6 decimals), and 52 weights 0..1 (4 decimals). Comma separated, `\n`
 * line ends, no quoting needed (names are identifiers). This is the column layout of Live Link Face / ARKit
 * recorders (camelCase names, time column), which spreadsheet and DCC import scripts expect.
 *
 * JSON (`writeJson`): `{ format: "mocap-arkit-blendshapes", version: 1, fps, frameCount, names, supported,
 * frames: number[][] }` with one 52-weight array per frame (4 decimals).
 *
 * Limits: weights are written as the solver estimated them; shapes it does not estimate (see
 * `solver/face.ts`, `supported` in the file) are constant 0. A clip without face curves is an error.
 *
 * Viseme/expression mapping (`expressionCurves`), per frame, every value clamped to 0..1. ARKit names are the
 * subject's sides; `avg(x)` averages the Left and Right shapes:
 * - `aa` = jawOpen − ½(mouthFunnel + mouthPucker) − ½·avg(mouthStretch)   (open "a")
 * - `ih` = (avg(mouthStretch) + ½·avg(mouthSmile)) · (1 − jawOpen)        (spread, nearly closed "i")
 * - `ou` = mouthPucker                                                     (rounded, closed "u")
 * - `ee` = 2·avg(mouthStretch) · min(1, 2·jawOpen)                         (spread and half open "e")
 * - `oh` = mouthFunnel · min(1, 2·jawOpen + 0.3)                           (rounded and open "o")
 * - `blinkLeft`/`blinkRight` = eyeBlinkLeft/Right; `blink` = min of the two (both eyes closed) — a player uses
 *   either `blink` or the one-eye pair, never both, so `blinkLeft/Right` are written as the part above `blink`.
 * - `happy` = avg(mouthSmile); `sad` = avg(mouthFrown); `angry` = avg(browDown);
 *   `surprised` = min(browInnerUp, avg(eyeWide) + ½·jawOpen).
 */

import { ARKIT_BLENDSHAPES, type ArkitBlendshape, type BlendshapeCurves } from '../clip.ts';
import { DIGITS4, TextSink } from './bytes.ts';

/** A clip-like source of face curves. */
export interface FaceSource {
  readonly fps: number;
  readonly frameCount: number;
  readonly blendshapes?: BlendshapeCurves;
}

function curvesOf(src: FaceSource): BlendshapeCurves {
  const bs = src.blendshapes;
  if (!bs) throw new Error('the clip has no face blendshape curves (no face was tracked): nothing to export');
  if (bs.weights.length !== src.frameCount * bs.names.length)
    throw new Error('face curves: weights length does not match frameCount × names');
  return bs;
}

/** Column s of a K-column weight table into column k of a 52-column one, F rows. */
function copyColumn(src: Float32Array, K: number, s: number, out: Float32Array, k: number, F: number): void {
  for (let f = 0; f < F; f++) out[f * 52 + k] = src[f * K + s];
}

/** Weights in ARKit order, `[f * 52 + k]`, whatever order the source uses. */
export function arkitWeights(src: FaceSource): Float32Array {
  const bs = curvesOf(src);
  const K = bs.names.length;
  const out = new Float32Array(src.frameCount * 52);
  // A loop rather than forEach with a closure: the closure, new per call, was compiled afresh on every export.
  for (let k = 0; k < 52; k++) {
    const s = bs.names.indexOf(ARKIT_BLENDSHAPES[k]);
    if (s >= 0) copyColumn(bs.weights, K, s, out, k, src.frameCount);
  }
  return out;
}

const r4 = (v: number) => {
  const x = Math.round(Math.min(1, Math.max(0, v)) * 10000) / 10000;
  return x === 0 ? '0' : String(x);
};

const CSV_HEADER = new TextEncoder().encode(`frame,time,${ARKIT_BLENDSHAPES.join(',')}\n`);

/**
 * The CSV of `writeCsv` as UTF-8 bytes, written digit by digit (for zips): a weight rounded to 4 decimals is
 * `0`, `1` or `0.` and its digits without trailing zeros — exactly `String(x)` of the rounded value.
 */
export function writeCsvBytes(src: FaceSource): Uint8Array {
  const w = arkitWeights(src);
  const out = new TextSink(src.frameCount * 52 * 7 + 4096);
  out.raw(CSV_HEADER);
  for (let f = 0; f < src.frameCount; f++) {
    out
      .str(String(f))
      .byte(44)
      .str((f / src.fps).toFixed(6));
    for (let k = 0; k < 52; k++) weight4(out.byte(44), w[f * 52 + k], 'NaN');
    out.byte(10);
  }
  return out.bytes();
}

/**
 * A weight clamped to 0–1 and rounded to 4 decimals, as `String` (CSV) or `JSON.stringify` (JSON) writes it: `0`,
 * `1` or `0.` and the digits without trailing zeros; `nan` for a NaN weight.
 */
function weight4(out: TextSink, v: number, nan: string): void {
  const q = Math.round(Math.min(1, Math.max(0, v)) * 10000);
  if (q === 0) out.byte(48);
  else if (q >= 10000) out.byte(49);
  else if (!(q > 0)) out.str(nan);
  else {
    // "0." and q's four digits (zero-padded) without its trailing zeros, from the digit table.
    out.ensure(6);
    const buf = out.buf;
    let len = out.len;
    buf[len++] = 48;
    buf[len++] = 46;
    const o = 4 * q;
    const n = SIGNIFICANT4[q];
    for (let k = 0; k < n; k++) buf[len++] = DIGITS4[o + k];
    out.len = len;
  }
}

/** For 1–9999: how many of its four zero-padded digits remain without the trailing zeros. */
const SIGNIFICANT4 = (() => {
  const t = new Uint8Array(10000);
  for (let q = 1; q < 10000; q++) {
    let digits = 4;
    for (let r = q; r % 10 === 0; r /= 10) digits--;
    t[q] = digits;
  }
  return t;
})();

/** The face JSON document (its keys in this order). */
const jsonDoc = (src: FaceSource, frames: number[][]) => ({
  format: 'mocap-arkit-blendshapes',
  version: 1,
  fps: src.fps,
  frameCount: src.frameCount,
  names: ARKIT_BLENDSHAPES,
  supported: src.blendshapes?.supported ?? [],
  frames,
});

/** The JSON of `writeJson` as UTF-8 bytes, the frames written digit by digit (for zips). */
export function writeJsonBytes(src: FaceSource): Uint8Array {
  const w = arkitWeights(src);
  const head = JSON.stringify(jsonDoc(src, []));
  const out = new TextSink(src.frameCount * 52 * 7 + head.length + 64);
  out.str(head.slice(0, -2)); // up to "frames":[ (the empty list's "]}" dropped)
  for (let f = 0; f < src.frameCount; f++) {
    if (f > 0) out.byte(44);
    out.byte(91);
    for (let k = 0; k < 52; k++) {
      if (k > 0) out.byte(44);
      weight4(out, w[f * 52 + k], 'null');
    }
    out.byte(93);
  }
  out.byte(93).byte(125);
  return out.bytes();
}

/** ARKit weights as CSV text. */
export function writeCsv(src: FaceSource): string {
  const w = arkitWeights(src);
  const lines: string[] = [`frame,time,${ARKIT_BLENDSHAPES.join(',')}`];
  const row = new Array<string>(54);
  for (let f = 0; f < src.frameCount; f++) {
    row[0] = String(f);
    row[1] = (f / src.fps).toFixed(6);
    for (let k = 0; k < 52; k++) row[k + 2] = r4(w[f * 52 + k]);
    lines.push(row.join(','));
  }
  return `${lines.join('\n')}\n`;
}

/** ARKit weights as JSON text. */
export function writeJson(src: FaceSource): string {
  const w = arkitWeights(src);
  const frames: number[][] = [];
  for (let f = 0; f < src.frameCount; f++) {
    const a = new Array<number>(52);
    for (let k = 0; k < 52; k++) a[k] = Math.round(Math.min(1, Math.max(0, w[f * 52 + k])) * 10000) / 10000;
    frames.push(a);
  }
  return JSON.stringify(jsonDoc(src, frames));
}

/** Reads the CSV written by `writeCsv` (for tests and round trips). */
export function readCsv(text: string): { names: string[]; times: number[]; weights: Float32Array } {
  const lines = text.trim().split('\n');
  const header = lines[0].split(',');
  if (header[0] !== 'frame' || header[1] !== 'time') throw new Error('face CSV: bad header');
  const names = header.slice(2);
  const weights = new Float32Array((lines.length - 1) * names.length);
  const times: number[] = [];
  lines.slice(1).forEach((l, f) => {
    const cells = l.split(',');
    if (cells.length !== names.length + 2)
      throw new Error(`face CSV: line ${f + 2} has ${cells.length} cells`);
    times.push(Number(cells[1]));
    for (let k = 0; k < names.length; k++) weights[f * names.length + k] = Number(cells[k + 2]);
  });
  return { names, times, weights };
}

export const EXPRESSIONS = [
  'aa',
  'ih',
  'ou',
  'ee',
  'oh',
  'blink',
  'blinkLeft',
  'blinkRight',
  'happy',
  'sad',
  'angry',
  'surprised',
] as const;
export type Expression = (typeof EXPRESSIONS)[number];

const c01 = (v: number) => Math.min(1, Math.max(0, v));

/** Expression curves (VRM preset names) per frame, from the ARKit curves (formulas in the file header). */
/**
 * The per-frame loop of `expressionCurves` (a module-level function on typed arrays: V8 keeps its optimised code
 * from clip to clip). `ix`: jawOpen, mouthFunnel, mouthPucker, eyeBlinkLeft/Right, browInnerUp, then the
 * left/right pairs of mouthStretch, mouthSmile, mouthFrown, browDown, eyeWide.
 */
function expressionFrames(
  w: Float32Array,
  ix: Int32Array,
  F: number,
  out: Record<Expression, Float32Array>,
): void {
  const { aa, ih, ou, ee, oh, blink, blinkLeft, blinkRight, happy, sad, angry, surprised } = out;
  for (let f = 0; f < F; f++) {
    const o = f * 52;
    const jaw = w[o + ix[0]];
    const funnel = w[o + ix[1]];
    const pucker = w[o + ix[2]];
    const stretch = 0.5 * (w[o + ix[6]] + w[o + ix[7]]);
    const smile = 0.5 * (w[o + ix[8]] + w[o + ix[9]]);
    aa[f] = c01(jaw - 0.5 * (funnel + pucker) - 0.5 * stretch);
    ih[f] = c01((stretch + 0.5 * smile) * (1 - jaw));
    ou[f] = c01(pucker);
    ee[f] = c01(2 * stretch * Math.min(1, 2 * jaw));
    oh[f] = c01(funnel * Math.min(1, 2 * jaw + 0.3));
    const bl = c01(w[o + ix[3]]);
    const br = c01(w[o + ix[4]]);
    const both = Math.min(bl, br);
    blink[f] = both;
    blinkLeft[f] = bl - both;
    blinkRight[f] = br - both;
    happy[f] = c01(smile);
    sad[f] = c01(0.5 * (w[o + ix[10]] + w[o + ix[11]]));
    angry[f] = c01(0.5 * (w[o + ix[12]] + w[o + ix[13]]));
    surprised[f] = c01(Math.min(w[o + ix[5]], 0.5 * (w[o + ix[14]] + w[o + ix[15]]) + 0.5 * jaw));
  }
}

export function expressionCurves(src: FaceSource): Record<Expression, Float32Array> {
  const w = arkitWeights(src);
  const F = src.frameCount;
  // Shape indices looked up once (not per frame).
  const at = (n: ArkitBlendshape) => ARKIT_BLENDSHAPES.indexOf(n);
  const pair = (base: string) =>
    [at(`${base}Left` as ArkitBlendshape), at(`${base}Right` as ArkitBlendshape)] as const;
  const I = {
    jawOpen: at('jawOpen'),
    mouthFunnel: at('mouthFunnel'),
    mouthPucker: at('mouthPucker'),
    eyeBlinkLeft: at('eyeBlinkLeft'),
    eyeBlinkRight: at('eyeBlinkRight'),
    browInnerUp: at('browInnerUp'),
  };
  const P = {
    mouthStretch: pair('mouthStretch'),
    mouthSmile: pair('mouthSmile'),
    mouthFrown: pair('mouthFrown'),
    browDown: pair('browDown'),
    eyeWide: pair('eyeWide'),
  };
  const out = Object.fromEntries(EXPRESSIONS.map((e) => [e, new Float32Array(F)])) as Record<
    Expression,
    Float32Array
  >;
  const ix = Int32Array.of(
    I.jawOpen,
    I.mouthFunnel,
    I.mouthPucker,
    I.eyeBlinkLeft,
    I.eyeBlinkRight,
    I.browInnerUp,
    ...P.mouthStretch,
    ...P.mouthSmile,
    ...P.mouthFrown,
    ...P.browDown,
    ...P.eyeWide,
  );
  expressionFrames(w, ix, F, out);
  return out;
}
