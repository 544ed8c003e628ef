/**
 * A small little-endian byte writer over a growable buffer (doubling), shared by the binary writers (FBX, zip).
 * Everything is written in place: no per-value allocations. `patchU32`/`patchU64` fill in sizes and offsets
 * known only after a nested block is written.
 */

import * as zlib from 'node:zlib';

const utf8 = new TextEncoder();

/**
 * `buf` itself when `n` more bytes fit after its first `len`, else a copy of those `len` bytes in a buffer of
 * double the size (doubled again until they fit): the growable writers' one growth rule.
 */
export function grown(buf: Uint8Array, len: number, n: number): Uint8Array {
  if (len + n <= buf.length) return buf;
  let size = buf.length * 2;
  while (size < len + n) size *= 2;
  const b = new Uint8Array(size);
  b.set(buf.subarray(0, len));
  return b;
}

/** `parts` one after another in one new array, made by `make` for their total length. */
export function concatArrays<T extends Uint8Array | Float64Array>(
  parts: readonly ArrayLike<number>[],
  make: (length: number) => T,
): T {
  const out = make(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

const nativeCrc = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

/** CRC-32 (IEEE 802.3), as used by zip and PNG (node:zlib's native crc32 when available). */
export function crc32(data: Uint8Array, seed = 0): number {
  if (nativeCrc) return nativeCrc(data, seed) >>> 0;
  let c = (seed ^ 0xffffffff) >>> 0;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Typed arrays hold their values in the machine's byte order: little-endian on x86 and ARM. */
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
const asBytes = (v: Float32Array | Float64Array | Int32Array) =>
  new Uint8Array(v.buffer, v.byteOffset, v.byteLength);

export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  /** Bytes written so far (the current offset). */
  length = 0;

  /**
   * `exact`: the caller writes exactly `initialCapacity` bytes (and checks it): the buffer is then not zeroed
   * first, since every byte is overwritten (the zip writer's archive, whose size is known up front).
   */
  constructor(initialCapacity = 1 << 16, exact = false) {
    this.buf =
      exact && initialCapacity >= 16
        ? new Uint8Array(Buffer.allocUnsafeSlow(initialCapacity).buffer, 0, initialCapacity)
        : new Uint8Array(Math.max(16, initialCapacity));
    this.view = new DataView(this.buf.buffer);
  }

  /** Makes room for `n` more bytes. */
  ensure(n: number): void {
    if (this.length + n <= this.buf.length) return;
    this.buf = grown(this.buf, this.length, n);
    this.view = new DataView(this.buf.buffer);
  }

  u8(v: number): void {
    this.ensure(1);
    this.buf[this.length++] = v;
  }
  i16(v: number): void {
    this.ensure(2);
    this.view.setInt16(this.length, v, true);
    this.length += 2;
  }
  u16(v: number): void {
    this.ensure(2);
    this.view.setUint16(this.length, v, true);
    this.length += 2;
  }
  u32(v: number): void {
    this.ensure(4);
    this.view.setUint32(this.length, v, true);
    this.length += 4;
  }
  i32(v: number): void {
    this.ensure(4);
    this.view.setInt32(this.length, v, true);
    this.length += 4;
  }
  /** 64-bit signed integer from a number (exact up to 2^53) or a bigint. */
  i64(v: number | bigint): void {
    this.ensure(8);
    this.view.setBigInt64(this.length, typeof v === 'bigint' ? v : BigInt(Math.round(v)), true);
    this.length += 8;
  }
  u64(v: number | bigint): void {
    this.ensure(8);
    this.view.setBigUint64(this.length, typeof v === 'bigint' ? v : BigInt(Math.round(v)), true);
    this.length += 8;
  }
  f32(v: number): void {
    this.ensure(4);
    this.view.setFloat32(this.length, v, true);
    this.length += 4;
  }
  f64(v: number): void {
    this.ensure(8);
    this.view.setFloat64(this.length, v, true);
    this.length += 8;
  }
  /** Numbers as little-endian float32 / float64 / int32 values (converted as a typed array would). */
  // An array of another type is converted to one of the written type first (the same conversion as a DataView
  // write); the typed array is then copied as its bytes (one memcpy instead of a DataView call per value: FBX
  // key curves, meshes), the same bytes as writing it value by value, NaN payloads aside.
  f32s(v: ArrayLike<number>): void {
    this.typed(v instanceof Float32Array ? v : Float32Array.from(v));
  }
  f64s(v: ArrayLike<number>): void {
    this.typed(v instanceof Float64Array ? v : Float64Array.from(v));
  }
  i32s(v: ArrayLike<number>): void {
    this.typed(v instanceof Int32Array ? v : Int32Array.from(v));
  }
  /** A typed array's values, little-endian: its bytes (byte-swapped per value on a big-endian machine). */
  private typed(v: Float32Array | Float64Array | Int32Array): void {
    const at = this.length;
    this.bytes(asBytes(v));
    const k = v.BYTES_PER_ELEMENT;
    if (!LITTLE_ENDIAN) for (let o = at; o < this.length; o += k) this.buf.subarray(o, o + k).reverse();
  }
  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  /** Writes `n` zero bytes. */
  zeros(n: number): void {
    this.ensure(n);
    this.buf.fill(0, this.length, this.length + n);
    this.length += n;
  }
  /** UTF-8 bytes of a string (no length prefix, no terminator); returns the byte count. */
  utf8(s: string): number {
    const b = utf8.encode(s);
    this.bytes(b);
    return b.length;
  }
  patchU32(offset: number, v: number): void {
    this.view.setUint32(offset, v, true);
  }
  patchU64(offset: number, v: number): void {
    this.view.setBigUint64(offset, BigInt(v), true);
  }
  /** A view of the bytes written so far (shares memory with the writer until the next write). */
  view8(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
  /** A copy of the bytes written so far. */
  toBytes(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
  /**
   * The bytes written, for a writer that is done: the buffer itself when (nearly) full, else a copy. Saves
   * copying multi-megabyte files whose size was estimated up front.
   */
  finish(): Uint8Array {
    if (this.buf.length - this.length <= this.length >> 3) return this.buf.subarray(0, this.length);
    return this.toBytes();
  }
}

/** ASCII digits of 0000–9999, four bytes each (zero-padded). Shared, never modified. */
export const DIGITS4 = (() => {
  const t = new Uint8Array(40000);
  for (let i = 0; i < 10000; i++) {
    t[4 * i] = 48 + Math.floor(i / 1000);
    t[4 * i + 1] = 48 + (Math.floor(i / 100) % 10);
    t[4 * i + 2] = 48 + (Math.floor(i / 10) % 10);
    t[4 * i + 3] = 48 + (i % 10);
  }
  return t;
})();

const UTF8_CACHE = new Map<string, Uint8Array>();

/**
 * UTF-8 bytes of a short string that recurs (FBX node and property names), memoised; the result is shared and
 * must not be modified.
 */
export function encodeUtf8Cached(s: string): Uint8Array {
  let b = UTF8_CACHE.get(s);
  if (!b) {
    b = utf8.encode(s);
    if (s.length <= 64) {
      if (UTF8_CACHE.size >= 4096) UTF8_CACHE.clear();
      UTF8_CACHE.set(s, b);
    }
  }
  return b;
}

/** UTF-8 encoding of a string. */
export const encodeUtf8 = (s: string): Uint8Array => utf8.encode(s);

const POW10 = [1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000];
const ZEROS = ['', '0', '00', '000', '0000', '00000', '000000', '0000000', '00000000'];

/**
 * `x.toFixed(d)` without "-0.0000", through integer arithmetic (several times faster than toFixed on the hot
 * path; halves round away from zero). Falls back to toFixed for d > 8 or huge values.
 */
export const formatFixed = (x: number, d: number): string => {
  if (d > 8 || !(Math.abs(x) < 1e9)) {
    const s = x.toFixed(d);
    return s.charCodeAt(0) === 45 && +s === 0 ? s.slice(1) : s;
  }
  const p = POW10[d];
  let v = Math.round(Math.abs(x) * p);
  if (v === 0) return d === 0 ? '0' : `0.${ZEROS[d]}`;
  const neg = x < 0;
  const int = Math.floor(v / p);
  v -= int * p;
  if (d === 0) return neg ? `-${int}` : `${int}`;
  const frac = `${v}`;
  const body = `${int}.${ZEROS[d - frac.length]}${frac}`;
  return neg ? `-${body}` : body;
};

/**
 * A growing buffer of ASCII/UTF-8 text: long number tables (BVH frames, CSM markers) are written here as bytes,
 * not as millions of small strings joined at the end. `fixed(x, d)` writes exactly what `formatFixed(x, d)`
 * returns.
 */
export class TextSink {
  buf: Uint8Array;
  len = 0;
  protected readonly digits = new Uint8Array(24);
  protected readonly scratch = new Float64Array(1);

  constructor(initialCapacity = 1 << 16) {
    this.buf = new Uint8Array(Math.max(64, initialCapacity));
  }

  ensure(n: number): void {
    if (this.len + n > this.buf.length) this.buf = grown(this.buf, this.len, n);
  }

  /** Appends a string (UTF-8). */
  str(s: string): this {
    this.ensure(s.length * 3);
    const buf = this.buf;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 128) buf[this.len++] = c;
      else {
        this.len += utf8.encodeInto(s.slice(i), buf.subarray(this.len)).written;
        break;
      }
    }
    return this;
  }

  /** Appends one byte (an ASCII character code). */
  byte(c: number): this {
    this.ensure(1);
    this.buf[this.len++] = c;
    return this;
  }

  /** Appends bytes. */
  raw(b: Uint8Array): this {
    this.ensure(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
    return this;
  }

  /** Appends `formatFixed(x, d)`. */
  fixed(x: number, d: number): this {
    // Small enough to be inlined at its call sites: the value travels through a scratch array, not as an
    // argument of the large function below (a double argument is boxed on every call).
    this.scratch[0] = x;
    return this.fixedAt(this.scratch, 0, d);
  }

  /** Appends `formatFixed(a[i], d)`. */
  fixedAt(a: Float64Array | Float32Array, i: number, d: number): this {
    const x = a[i];
    if (d > 8 || !(Math.abs(x) < 1e9)) return this.str(formatFixed(x, d));
    this.ensure(24);
    const buf = this.buf;
    const p = POW10[d];
    const v = Math.round(Math.abs(x) * p);
    if (v !== 0 && x < 0) buf[this.len++] = 45;
    let int = Math.floor(v / p);
    let frac = v - int * p; // < 10^8: small-integer arithmetic below
    if (int < 10000 && (d === 4 || d === 2)) {
      // The common cases (BVH angles and lengths, CSM millimetres): digits from a table of 4-digit groups.
      let o = 4 * int;
      const nInt = int < 10 ? 1 : int < 100 ? 2 : int < 1000 ? 3 : 4;
      for (let k = 4 - nInt; k < 4; k++) buf[this.len++] = DIGITS4[o + k];
      buf[this.len++] = 46;
      o = 4 * frac + 4 - d;
      for (let k = 0; k < d; k++) buf[this.len++] = DIGITS4[o + k];
      return this;
    }
    const digits = this.digits;
    let n = 0;
    if (int < 0x7fffffff) {
      do {
        const q = (int / 10) | 0;
        digits[n++] = 48 + int - 10 * q;
        int = q;
      } while (int > 0);
    } else {
      do {
        const q = Math.floor(int / 10);
        digits[n++] = 48 + int - 10 * q;
        int = q;
      } while (int > 0);
    }
    while (n > 0) buf[this.len++] = digits[--n];
    if (d > 0) {
      buf[this.len++] = 46;
      for (let k = this.len + d - 1; k >= this.len; k--) {
        const q = (frac / 10) | 0;
        buf[k] = 48 + frac - 10 * q;
        frac = q;
      }
      this.len += d;
    }
    return this;
  }

  /**
   * Appends `formatFixed(a[i], d)` for i in [from, to), separated by the byte `sep` (default a space): a row of a
   * number table (BVH frames, CSM markers). The same bytes as `fixed` per value; with 4 or 2 decimals, values
   * under 10^8 (every value of those tables in practice) are written here in one loop from the digit table,
   * without a call per value; others (large, huge, not finite) through `fixedAt`.
   */
  fixedJoined(a: Float64Array, from: number, to: number, d: number, sep = 32): this {
    if (d !== 4 && d !== 2) {
      for (let i = from; i < to; i++) {
        if (i > from) this.byte(sep);
        this.fixedAt(a, i, d);
      }
      return this;
    }
    const p = POW10[d];
    const skip = 4 - d;
    this.ensure(16 * (to - from));
    const buf = this.buf;
    let len = this.len;
    for (let i = from; i < to; i++) {
      if (i > from) buf[len++] = sep;
      const x = a[i];
      const v = Math.round(Math.abs(x) * p);
      let int = Math.floor(v / p);
      if (!(int < 1e8) || !(Math.abs(x) < 1e9)) {
        // The general path; the room reserved for the rest is re-checked after it.
        this.len = len;
        this.fixedAt(a, i, d);
        return this.fixedJoinedRest(a, i + 1, to, d, sep);
      }
      if (v !== 0 && x < 0) buf[len++] = 45;
      let o: number;
      if (int >= 10000) {
        // Eight digits at most: the high group without leading zeros, the low group with them.
        const hi = Math.floor(int / 10000);
        int -= hi * 10000;
        o = 4 * hi;
        if (hi >= 1000) buf[len++] = DIGITS4[o];
        if (hi >= 100) buf[len++] = DIGITS4[o + 1];
        if (hi >= 10) buf[len++] = DIGITS4[o + 2];
        buf[len++] = DIGITS4[o + 3];
        o = 4 * int;
        buf[len++] = DIGITS4[o];
        buf[len++] = DIGITS4[o + 1];
        buf[len++] = DIGITS4[o + 2];
        buf[len++] = DIGITS4[o + 3];
      } else {
        o = 4 * int;
        if (int >= 1000) buf[len++] = DIGITS4[o];
        if (int >= 100) buf[len++] = DIGITS4[o + 1];
        if (int >= 10) buf[len++] = DIGITS4[o + 2];
        buf[len++] = DIGITS4[o + 3];
      }
      buf[len++] = 46;
      o = 4 * (v - Math.floor(v / p) * p) + skip;
      buf[len++] = DIGITS4[o];
      buf[len++] = DIGITS4[o + 1];
      if (d === 4) {
        buf[len++] = DIGITS4[o + 2];
        buf[len++] = DIGITS4[o + 3];
      }
    }
    this.len = len;
    return this;
  }

  /** The rest of a `fixedJoined` row after a value written by the general path (values from `from` on). */
  private fixedJoinedRest(a: Float64Array, from: number, to: number, d: number, sep: number): this {
    if (from >= to) return this;
    this.byte(sep);
    return this.fixedJoined(a, from, to, d, sep);
  }

  /** The bytes written (a view: shares memory with the sink until the next write). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }

  /** The text written. */
  text(): string {
    return Buffer.from(this.buf.buffer, this.buf.byteOffset, this.len).toString('utf8');
  }
}
