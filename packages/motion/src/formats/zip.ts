/**
 * Zip archive writer (PKWARE APPNOTE 6.3): local headers, data, central directory, end record.
 *
 * - Each entry is deflated (node:zlib raw deflate, level 1 by default) unless that does not make it smaller (then stored),
 *   or `store: true` (PNG textures, already compressed). An entry with `hints` (FBX) is deflated by
 *   `deflateWithHints`: its float arrays stored, its repeated arrays copied, the rest through zlib.
 * - Names are UTF-8 (general-purpose flag bit 11) and use `/` separators; the writer rejects absolute paths,
 *   `..` segments, backslashes and duplicates, so an archive extracts only inside its folder.
 * - Timestamps: one MS-DOS date/time for all entries (default 1980-01-01 00:00, so the same input gives the
 *   same bytes).
 *
 * Limits: no ZIP64 (each entry and the whole archive must stay under 4 GiB, at most 65 535 entries), no
 * encryption, no extra fields, no comments, no directories entries (folders are implied by names).
 */

import * as zlib from 'node:zlib';
import { ByteWriter, crc32, encodeUtf8 } from './bytes.ts';
import { type DeflateHint, deflateWithHints } from './deflate.ts';

export interface ZipEntry {
  /** Path inside the archive, `/`-separated, relative. */
  name: string;
  data: Uint8Array | string;
  /** Store without compression (already-compressed data such as PNG). */
  store?: boolean;
  /** What the data's writer knows about it (stored and repeated ranges, `deflate.ts`): faster deflate. */
  hints?: readonly DeflateHint[];
}

export interface ZipOptions {
  /** Deflate level 1..9 (default 1: fastest, the server streams these on demand). */
  level?: number;
  /** Modification time of every entry (default 1980-01-01T00:00:00, local MS-DOS time). */
  date?: Date;
}

function dosDateTime(d: Date | undefined): { date: number; time: number } {
  if (!d) return { date: (0 << 9) | (1 << 5) | 1, time: 0 };
  const year = Math.min(2107, Math.max(1980, d.getFullYear()));
  return {
    date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1),
  };
}

function checkName(name: string): void {
  if (!name || name.startsWith('/') || name.includes('\\') || /^[A-Za-z]:/.test(name))
    throw new Error(`zip: bad entry name ${JSON.stringify(name)}`);
  if (name.split('/').some((s) => s === '..' || s === ''))
    throw new Error(`zip: bad entry name ${JSON.stringify(name)}`);
}

/** Compressed bodies of byte arrays already zipped (the same FBX/BVH/PNG goes into several bone types' zips). */
const BODY_CACHE = new WeakMap<Uint8Array, { key: string; crc: number; method: number; body: Uint8Array }>();

/** The fields a local header and its central-directory record share: version needed … file name length. */
function entryFields(
  w: ByteWriter,
  p: { name: Uint8Array; raw: Uint8Array; body: Uint8Array; crc: number; method: number },
  time: number,
  date: number,
): void {
  w.u16(20); // version needed
  w.u16(0x0800); // UTF-8 names
  w.u16(p.method);
  w.u16(time);
  w.u16(date);
  w.u32(p.crc);
  w.u32(p.body.length);
  w.u32(p.raw.length);
  w.u16(p.name.length);
}

/** Builds a zip archive from entries. */
export function zip(entries: readonly ZipEntry[], options: ZipOptions = {}): Uint8Array {
  if (entries.length > 0xffff) throw new Error('zip: more than 65535 entries (ZIP64 not supported)');
  const seen = new Set<string>();
  const { date, time } = dosDateTime(options.date);
  const parts = entries.map((e) => {
    checkName(e.name);
    if (seen.has(e.name)) throw new Error(`zip: duplicate entry ${e.name}`);
    seen.add(e.name);
    const raw = typeof e.data === 'string' ? encodeUtf8(e.data) : e.data;
    const key = `${e.store === true}|${options.level ?? 1}|${e.hints ? e.hints.length : -1}`;
    const hit = typeof e.data === 'string' ? undefined : BODY_CACHE.get(raw);
    let crc: number;
    let method = 0;
    let body = raw;
    if (hit && hit.key === key) {
      crc = hit.crc;
      method = hit.method;
      body = hit.body;
    } else {
      crc = crc32(raw);
      if (!e.store && raw.length > 64) {
        const d = e.hints?.length
          ? deflateWithHints(raw, e.hints, options.level ?? 1)
          : zlib.deflateRawSync(raw, { level: options.level ?? 1 });
        if (d.length < raw.length) {
          method = 8;
          body = new Uint8Array(d.buffer, d.byteOffset, d.length);
        }
      }
      if (typeof e.data !== 'string' && raw.length > 4096) BODY_CACHE.set(raw, { key, crc, method, body });
    }
    if (raw.length >= 0xffffffff || body.length >= 0xffffffff)
      throw new Error(`zip: ${e.name} is 4 GiB or more`);
    return { name: encodeUtf8(e.name), raw, body, crc, method };
  });
  const total = parts.reduce((s, p) => s + 30 + p.name.length + p.body.length + 46 + p.name.length, 22);
  if (total >= 0xffffffff) throw new Error('zip: archive is 4 GiB or more (ZIP64 not supported)');
  // Sized exactly and written whole (checked below), so not zeroed first.
  const w = new ByteWriter(total, true);
  const offsets: number[] = [];
  for (const p of parts) {
    offsets.push(w.length);
    w.u32(0x04034b50);
    entryFields(w, p, time, date);
    w.u16(0);
    w.bytes(p.name);
    w.bytes(p.body);
  }
  const cdStart = w.length;
  parts.forEach((p, i) => {
    w.u32(0x02014b50);
    w.u16(0x031e); // made by: UNIX, spec 3.0
    entryFields(w, p, time, date);
    w.u16(0); // extra
    w.u16(0); // comment
    w.u16(0); // disk
    w.u16(0); // internal attrs
    w.u32((0o100644 << 16) >>> 0); // external attrs: regular file rw-r--r--
    w.u32(offsets[i]);
    w.bytes(p.name);
  });
  const cdSize = w.length - cdStart;
  w.u32(0x06054b50);
  w.u16(0);
  w.u16(0);
  w.u16(parts.length);
  w.u16(parts.length);
  w.u32(cdSize);
  w.u32(cdStart);
  w.u16(0);
  if (w.length !== total) throw new Error(`zip: wrote ${w.length} bytes, sized ${total}`);
  return w.finish();
}
