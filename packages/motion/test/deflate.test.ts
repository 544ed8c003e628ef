import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { mulberry32 } from '@mocap/testkit';
import { describe, expect, it } from 'vitest';
import { type DeflateHint, deflateWithHints } from '../src/formats/deflate.ts';

/** Text-like compressible bytes. */
function textBytes(n: number, rand: () => number): Uint8Array {
  const words = ['KeyTime', 'Model', 'Properties70', 'LimbNode', '0.000', 'mixamorig:', '\n', ' '];
  const out = new Uint8Array(n);
  let o = 0;
  while (o < n) {
    const w = new TextEncoder().encode(words[Math.floor(rand() * words.length)]);
    out.set(w.subarray(0, n - o), o);
    o += w.length;
  }
  return out;
}

describe('deflateWithHints', () => {
  it('inflates back to the input with stored, copied (every tail length) and zlib-compressed ranges', () => {
    const rand = mulberry32(3);
    for (const tail of [0, 1, 2, 3, 4, 255, 257, 258, 259, 260, 261]) {
      const parts: Uint8Array[] = [];
      const hints: DeflateHint[] = [];
      let len = 0;
      const push = (b: Uint8Array, hint?: Omit<DeflateHint, 'start' | 'end'>) => {
        if (hint) hints.push({ ...hint, start: len, end: len + b.length });
        parts.push(b);
        len += b.length;
      };
      const times = Uint8Array.from({ length: 2 * 258 + tail + 5 }, () => Math.floor(rand() * 256));
      let lastTimes = -1;
      for (let c = 0; c < 6; c++) {
        push(textBytes(c === 0 ? 5000 : 40 + c, rand));
        const at = len;
        push(times, lastTimes >= 0 ? { kind: 'copy', from: lastTimes } : undefined);
        lastTimes = at;
        push(
          Uint8Array.from({ length: 3000 }, () => Math.floor(rand() * 256)),
          { kind: 'store' },
        );
      }
      push(textBytes(70000, rand));
      // A stored range larger than one stored block.
      push(
        Uint8Array.from({ length: 70000 }, () => Math.floor(rand() * 256)),
        { kind: 'store' },
      );
      const data = new Uint8Array(len);
      let o = 0;
      for (const p of parts) {
        data.set(p, o);
        o += p.length;
      }
      const z = deflateWithHints(data, hints);
      expect(Buffer.from(inflateRawSync(z)).equals(Buffer.from(data)), `tail ${tail}`).toBe(true);
      // The five in-window repeats of the (incompressible) array cost next to nothing.
      const noCopies = deflateWithHints(
        data,
        hints.filter((h) => h.kind !== 'copy'),
      );
      expect(noCopies.length - z.length, `tail ${tail}`).toBeGreaterThan(5 * times.length - 200);
    }
  });

  it('with a repeat beyond the 32 KiB window (long clips) ignores the hints: plain zlib', () => {
    const rand = mulberry32(9);
    const times = Uint8Array.from({ length: 3000 }, () => Math.floor(rand() * 256));
    const data = new Uint8Array(3000 + 40000 + 3000);
    data.set(times, 0);
    for (let i = 3000; i < 43000; i++) data[i] = Math.floor(rand() * 256);
    data.set(times, 43000);
    const hints: DeflateHint[] = [
      { kind: 'store', start: 3000, end: 43000 },
      { kind: 'copy', start: 43000, end: 46000, from: 0 },
    ];
    const z = deflateWithHints(data, hints);
    expect(Buffer.from(inflateRawSync(z)).equals(Buffer.from(data))).toBe(true);
    expect(Buffer.from(z).equals(deflateRawSync(data, { level: 1 }))).toBe(true);
  });

  it('treats a wrong copy hint as plain data, and without hints is plain zlib', () => {
    const data = Uint8Array.from({ length: 9000 }, (_, i) => (i * 7) % 251);
    const z = deflateWithHints(data, [{ kind: 'copy', start: 5000, end: 6000, from: 100 }]);
    expect(Buffer.from(inflateRawSync(z)).equals(Buffer.from(data))).toBe(true);
    expect(Buffer.from(inflateRawSync(deflateWithHints(data, []))).equals(Buffer.from(data))).toBe(true);
    expect(() => deflateWithHints(data, [{ kind: 'store', start: 10, end: 9001 }])).toThrow(/hints/);
  });
});
