/**
 * Minimal PNG encoder/decoder over node:zlib: 8-bit RGBA (colour type 6) or RGB (2), no interlace.
 *
 * The encoder filters every row with "Up" (the first with "Sub"), then deflates at level 6 (level 9 costs 5× the time on noisy textures for ~2 % smaller files). The decoder reads what this encoder writes (and any
 * non-interlaced 8-bit RGB/RGBA PNG); it exists for tests and texture checks.
 *
 * Limits: no palette, grey, 16-bit or interlaced images; no ancillary chunks besides what is needed.
 */

import { deflateSync, inflateSync } from 'node:zlib';
import { concatArrays, crc32 } from './bytes.ts';

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  dv.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

const paeth = (a: number, b: number, c: number) => {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
};

/** Encodes `pixels` (`width × height × channels` bytes, rows top to bottom) as PNG. */
export function encodePng(
  width: number,
  height: number,
  pixels: Uint8Array,
  channels: 3 | 4 = 4,
): Uint8Array {
  if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0))
    throw new Error('PNG: width and height must be positive integers');
  if (pixels.length !== width * height * channels) throw new Error('PNG: pixel buffer size mismatch');
  const stride = width * channels;
  const raw = new Uint8Array(height * (stride + 1));
  // Filter per row: "Up" (2), except the first row: "Sub" (1). Flat-shaded textures turn into long zero runs,
  // and one fixed filter keeps encoding a 1024² RGBA texture around 0.1 s.
  for (let y = 0; y < height; y++) {
    const row = y * stride;
    const o = y * (stride + 1);
    if (y === 0) {
      raw[o] = 1;
      for (let i = 0; i < stride; i++)
        raw[o + 1 + i] = (pixels[i] - (i >= channels ? pixels[i - channels] : 0)) & 0xff;
    } else {
      raw[o] = 2;
      for (let i = 0; i < stride; i++) raw[o + 1 + i] = (pixels[row + i] - pixels[row - stride + i]) & 0xff;
    }
  }
  const ihdr = new Uint8Array(13);
  const dv = new DataView(ihdr.buffer);
  dv.setUint32(0, width);
  dv.setUint32(4, height);
  ihdr[8] = 8;
  ihdr[9] = channels === 4 ? 6 : 2;
  const sig = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);
  const parts = [
    sig,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 6 })),
    chunk('IEND', new Uint8Array(0)),
  ];
  return concatArrays(parts, (n) => new Uint8Array(n));
}

/** Decodes an 8-bit RGB/RGBA non-interlaced PNG to RGBA. */
export function decodePng(png: Uint8Array): { width: number; height: number; pixels: Uint8Array } {
  const sig = [137, 80, 78, 71, 13, 10, 26, 10];
  for (let i = 0; i < 8; i++) if (png[i] !== sig[i]) throw new Error('PNG: bad signature');
  const dv = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let o = 8;
  let width = 0;
  let height = 0;
  let channels = 4;
  const idat: Uint8Array[] = [];
  while (o < png.length) {
    const len = dv.getUint32(o);
    const type = String.fromCharCode(...png.subarray(o + 4, o + 8));
    const data = png.subarray(o + 8, o + 8 + len);
    if (crc32(png.subarray(o + 4, o + 8 + len)) !== dv.getUint32(o + 8 + len))
      throw new Error(`PNG: bad CRC in ${type}`);
    if (type === 'IHDR') {
      const h = new DataView(data.buffer, data.byteOffset, data.byteLength);
      width = h.getUint32(0);
      height = h.getUint32(4);
      if (data[8] !== 8 || (data[9] !== 6 && data[9] !== 2) || data[12] !== 0)
        throw new Error('PNG: only 8-bit RGB/RGBA non-interlaced images are supported');
      channels = data[9] === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    o += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const px = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i];
      const a = i >= channels ? px[y * stride + i - channels] : 0;
      const b = y > 0 ? px[(y - 1) * stride + i] : 0;
      const c = i >= channels && y > 0 ? px[(y - 1) * stride + i - channels] : 0;
      const v =
        f === 0 ? x : f === 1 ? x + a : f === 2 ? x + b : f === 3 ? x + ((a + b) >> 1) : x + paeth(a, b, c);
      px[y * stride + i] = v & 0xff;
    }
  }
  if (channels === 4) return { width, height, pixels: px };
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    rgba[4 * i] = px[3 * i];
    rgba[4 * i + 1] = px[3 * i + 1];
    rgba[4 * i + 2] = px[3 * i + 2];
    rgba[4 * i + 3] = 255;
  }
  return { width, height, pixels: rgba };
}
