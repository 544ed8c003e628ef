/**
 * Raw deflate (RFC 1951) guided by the writer that produced the bytes: a binary writer knows which ranges of its
 * output are incompressible (FBX key values: float32 samples, which zlib shrinks by under 10% at its slowest
 * speed) and which repeat a range written shortly before (the key-time array every FBX curve carries). Given
 * those `DeflateHint`s, `deflateWithHints` writes
 * - `store` ranges as stored blocks (a memory copy),
 * - `copy` ranges as back-references to their earlier copy (fixed-Huffman blocks of 258-byte matches: a 14 KB
 *   array costs ~0.2 KB and no search),
 * - everything else through zlib (`level`), each run compressed on its own (ending on a sync flush, so runs
 *   concatenate into one stream).
 * The result is a standard raw deflate stream (any inflater reads it); without hints it is plain zlib output.
 * When a `copy` source lies more than 32 KiB back (the deflate window: long clips), the hints are ignored and the
 * data is compressed whole by zlib (storing the float arrays would then only cost size). A `copy` whose bytes
 * differ from its source is compressed normally.
 */

import * as zlib from 'node:zlib';
import { grown } from './bytes.ts';

export interface DeflateHint {
  /** First byte of the range. */
  start: number;
  /** One past its last byte. */
  end: number;
  /** `store`: write as is. `copy`: the same bytes as at `from` (an earlier offset). */
  kind: 'store' | 'copy';
  from?: number;
}

const WINDOW = 32768;
/** Runs shorter than this between hinted ranges are stored, not passed to zlib (a zlib call costs more). */
const MIN_ZLIB_RUN = 2048;

const LENGTH_BASE = [
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195,
  227, 258,
];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
  6145, 8193, 12289, 16385, 24577,
];
const DIST_EXTRA = [
  0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
];

/** Bit-reversal of the low `n` bits (Huffman codes are sent most significant bit first). */
function reverse(code: number, n: number): number {
  let r = 0;
  for (let i = 0; i < n; i++) {
    r = (r << 1) | (code & 1);
    code >>= 1;
  }
  return r;
}

/** Index of the largest base ≤ v. */
function codeIndex(base: readonly number[], v: number): number {
  let i = base.length - 1;
  while (base[i] > v) i--;
  return i;
}

/** The writers' buffer, kept from stream to stream (`deflateWithHints` returns a copy of the bytes written). */
let SCRATCH: Uint8Array = new Uint8Array(0);

class BitWriter {
  buf: Uint8Array;
  len = 0;
  private acc = 0;
  private nbits = 0;
  constructor(capacity: number) {
    if (SCRATCH.length < capacity) SCRATCH = new Uint8Array(Math.max(64, capacity));
    this.buf = SCRATCH;
  }
  private ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    this.buf = grown(this.buf, this.len, n);
    SCRATCH = this.buf;
  }
  /** Appends the low `n` (≤ 16) bits of `v`, least significant first. */
  bits(v: number, n: number): void {
    this.acc |= v << this.nbits;
    this.nbits += n;
    this.ensure(4);
    while (this.nbits >= 8) {
      this.buf[this.len++] = this.acc & 0xff;
      this.acc >>>= 8;
      this.nbits -= 8;
    }
  }
  get aligned(): boolean {
    return this.nbits === 0;
  }
  /** Pads with zero bits to the next byte. */
  align(): void {
    if (this.nbits > 0) this.bits(0, 8 - this.nbits);
  }
  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }
  u16(v: number): void {
    this.ensure(2);
    this.buf[this.len++] = v & 0xff;
    this.buf[this.len++] = (v >>> 8) & 0xff;
  }
}

/** Non-final stored blocks holding `data`. */
function stored(w: BitWriter, data: Uint8Array): void {
  for (let o = 0; o < data.length || o === 0; o += 0xffff) {
    const n = Math.min(0xffff, data.length - o);
    w.bits(0, 3); // BFINAL 0, BTYPE 00
    w.align();
    w.u16(n);
    w.u16(~n & 0xffff);
    w.bytes(data.subarray(o, o + n));
    if (data.length === 0) break;
  }
}

/** Fixed-Huffman literal/length symbol. */
function fixedSymbol(w: BitWriter, s: number): void {
  if (s < 144) w.bits(reverse(0x30 + s, 8), 8);
  else if (s < 256) w.bits(reverse(0x190 + s - 144, 9), 9);
  else if (s < 280) w.bits(reverse(s - 256, 7), 7);
  else w.bits(reverse(0xc0 + s - 280, 8), 8);
}

/** A non-final fixed-Huffman block: `data[start, end)` as matches `dist` back (literals for a 1–2 byte tail). */
function copyBlock(w: BitWriter, data: Uint8Array, start: number, end: number, dist: number): void {
  w.bits(0, 1); // BFINAL 0
  w.bits(1, 2); // BTYPE 01
  const d = codeIndex(DIST_BASE, dist);
  const dCode = reverse(d, 5);
  let o = start;
  let left = end - start;
  while (left >= 3) {
    const m = left > 258 ? (left - 258 < 3 ? left - 3 : 258) : left;
    const li = codeIndex(LENGTH_BASE, m);
    fixedSymbol(w, 257 + li);
    if (LENGTH_EXTRA[li]) w.bits(m - LENGTH_BASE[li], LENGTH_EXTRA[li]);
    w.bits(dCode, 5);
    if (DIST_EXTRA[d]) w.bits(dist - DIST_BASE[d], DIST_EXTRA[d]);
    o += m;
    left -= m;
  }
  for (; o < end; o++) fixedSymbol(w, data[o]);
  fixedSymbol(w, 256);
}

/** zlib's raw deflate of a run, ending on a sync flush (byte-aligned, not final). */
function zlibRun(w: BitWriter, data: Uint8Array, level: number): void {
  if (!w.aligned) stored(w, new Uint8Array(0));
  const z = zlib.deflateRawSync(data, { level, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  w.bytes(new Uint8Array(z.buffer, z.byteOffset, z.length));
}

function sameBytes(data: Uint8Array, a: number, b: number, n: number): boolean {
  const x = Buffer.from(data.buffer, data.byteOffset + a, n);
  const y = Buffer.from(data.buffer, data.byteOffset + b, n);
  return x.equals(y);
}

/** The unhinted bytes `data[pos, end)`: through zlib, or stored when too short for a zlib call to pay. */
function plain(w: BitWriter, data: Uint8Array, pos: number, end: number, level: number): void {
  if (end <= pos) return;
  const run = data.subarray(pos, end);
  if (run.length >= MIN_ZLIB_RUN) zlibRun(w, run, level);
  else stored(w, run);
}

/** Raw deflate of `data` following `hints` (sorted by start, non-overlapping; see the file header). */
export function deflateWithHints(data: Uint8Array, hints: readonly DeflateHint[], level = 1): Uint8Array {
  // Repeats beyond the window (long clips) cannot be copied: storing their neighbours would then only cost size,
  // so such data goes through zlib whole, as without hints.
  const unreachable = hints.some(
    (h) => h.kind === 'copy' && (h.from === undefined || h.start - h.from > WINDOW),
  );
  if (hints.length === 0 || unreachable) {
    const z = zlib.deflateRawSync(data, { level });
    return new Uint8Array(z.buffer, z.byteOffset, z.length);
  }
  const w = new BitWriter((data.length >> 1) + 1024);
  let pos = 0;
  for (const h of hints) {
    if (h.start < pos || h.end > data.length || h.end < h.start)
      throw new Error('deflate: hints must be sorted, inside the data and not overlap');
    if (h.kind === 'copy') {
      const from = h.from ?? -1;
      const dist = h.start - from;
      // Out of reach, or not the same bytes after all: compressed with its surroundings.
      if (from < 0 || dist < 1 || dist > WINDOW || !sameBytes(data, from, h.start, h.end - h.start)) continue;
      plain(w, data, pos, h.start, level);
      copyBlock(w, data, h.start, h.end, dist);
    } else {
      plain(w, data, pos, h.start, level);
      stored(w, data.subarray(h.start, h.end));
    }
    pos = h.end;
  }
  plain(w, data, pos, data.length, level);
  // Final empty fixed block.
  w.bits(1, 1);
  w.bits(1, 2);
  fixedSymbol(w, 256);
  w.align();
  return w.buf.slice(0, w.len);
}
