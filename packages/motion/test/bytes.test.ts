import { mulberry32 } from '@mocap/testkit';
import { describe, expect, it } from 'vitest';
import { ByteWriter, formatFixed, TextSink } from '../src/formats/bytes.ts';

describe('TextSink', () => {
  it('fixed(x, d) writes exactly formatFixed(x, d) (signs, zeros, rounding, large values, fallbacks)', () => {
    const rand = mulberry32(7);
    const xs = [0, -0, 1e-9, -1e-9, 0.5, -0.5, 5e-5, -5e-5, 0.99995, -4.9999e-5, 359.99999, 2147483647.5];
    xs.push(123456789.12345, -999999999.9, 1e9, -1e12, Number.NaN, Number.POSITIVE_INFINITY);
    for (let i = 0; i < 20000; i++) xs.push((rand() - 0.5) * 10 ** (rand() * 12 - 4));
    for (const x of xs)
      for (const d of [0, 1, 2, 4, 8, 9]) {
        const s = new TextSink(16);
        s.str('a').fixed(x, d).byte(32);
        expect(s.text(), `${x} ${d}`).toBe(`a${formatFixed(x, d)} `);
      }
  });

  it('fixedJoined writes the values exactly as fixed() each, separated, through fallbacks and growth', () => {
    const rand = mulberry32(11);
    const xs = [0, -0, 1e-9, -1e-9, 0.5, -0.5, 5e-5, -5e-5, 0.99995, -4.9999e-5, 9999.99994, 9999.99995];
    xs.push(
      -9999.99996,
      10000,
      10000.005,
      -48123.456789,
      99999999.99994,
      99999999.99995,
      123456789.12345,
      -999999999.9,
      1e9,
      -1e12,
      1e21,
      Number.NaN,
      -Infinity,
    );
    for (let i = 0; i < 20000; i++) xs.push((rand() - 0.5) * 10 ** (rand() * 12 - 4));
    for (let i = 0; i < 5000; i++) xs.push((rand() - 0.5) * 2e8);
    const a = Float64Array.from(xs);
    for (const [d, sep] of [
      [0, 32],
      [1, 32],
      [2, 9],
      [2, 32],
      [3, 9],
      [4, 32],
      [8, 9],
    ]) {
      // Rows of 1 to 40 values, into a sink that starts tiny (grows under rows, also right after a fallback).
      const s = new TextSink(1);
      let want = '';
      for (let from = 0, len = 1; from < a.length; from += len, len = (len % 40) + 1) {
        const to = Math.min(a.length, from + len);
        s.str('|').fixedJoined(a, from, to, d, sep);
        want += `|${Array.from(a.subarray(from, to), (x) => formatFixed(x, d)).join(String.fromCharCode(sep))}`;
      }
      expect(s.text() === want, `d = ${d}`).toBe(true);
    }
  });

  it('grows, keeps UTF-8 text, and ByteWriter.finish returns the written bytes', () => {
    const s = new TextSink(64);
    for (let i = 0; i < 1000; i++)
      s.str('センター ')
        .fixed(i / 3, 4)
        .byte(10);
    const lines = s.text().split('\n');
    expect(lines).toHaveLength(1001);
    expect(lines[999]).toBe('センター 333.0000');
    const w = new ByteWriter(8);
    for (let i = 0; i < 100; i++) w.u32(i);
    const b = w.finish();
    expect(b.length).toBe(400);
    expect(new DataView(b.buffer, b.byteOffset).getUint32(396, true)).toBe(99);
  });
});

describe('ByteWriter arrays', () => {
  it('f32s/f64s/i32s write a typed array of their type (copied as bytes) exactly as the same values one by one', () => {
    const rand = mulberry32(5);
    const vals = [
      0,
      -0,
      1,
      -1,
      1e-40,
      -3.4e38,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      0.1,
      2 ** 31 - 1,
    ];
    for (let i = 0; i < 1000; i++) vals.push((rand() - 0.5) * 10 ** (rand() * 20 - 10));
    const ints = vals.map((v) => Math.trunc(v) | 0);
    // Typed arrays at an odd offset into the writer (FBX arrays follow a 13-byte header), and views with a byteOffset.
    const f32 = new Float32Array(vals.length + 3).subarray(3);
    f32.set(vals);
    const f64 = new Float64Array(vals.length + 1).subarray(1);
    f64.set(vals);
    const i32 = Int32Array.from(ints);
    const typed = new ByteWriter(8);
    const plain = new ByteWriter(8);
    typed.u8(7);
    plain.u8(7);
    typed.f32s(f32);
    plain.f32s(Array.from(f32));
    typed.f64s(f64);
    plain.f64s(Array.from(f64));
    typed.i32s(i32);
    plain.i32s(ints);
    // A Float64Array into f32s is converted value by value (no byte copy).
    typed.f32s(f64);
    plain.f32s(vals);
    expect(typed.length).toBe(1 + vals.length * (4 + 8 + 4 + 4));
    expect(Buffer.from(typed.finish()).equals(Buffer.from(plain.finish()))).toBe(true);
  });
});
