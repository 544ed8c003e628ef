/**
 * MD5 of a file in the browser, chunk by chunk (Web Crypto has no MD5; the server keys duplicate uploads by the
 * file's MD5, so the upload page checks it before the confirm step, issue 15.5). RFC 1321.
 */

const S = [
  7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9,
  14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15,
  21, 6, 10, 15, 21,
];
const K = Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) >>> 0);

/** Incremental MD5: `update` with bytes as they come, then `digest` (hex). */
export class Md5 {
  private h = new Uint32Array([0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476]);
  private buf = new Uint8Array(64);
  private bufLen = 0;
  private total = 0;
  private w = new Uint32Array(16);

  update(data: Uint8Array): this {
    this.total += data.length;
    let i = 0;
    if (this.bufLen > 0) {
      const take = Math.min(64 - this.bufLen, data.length);
      this.buf.set(data.subarray(0, take), this.bufLen);
      this.bufLen += take;
      i = take;
      if (this.bufLen === 64) {
        this.block(this.buf, 0);
        this.bufLen = 0;
      }
    }
    for (; i + 64 <= data.length; i += 64) this.block(data, i);
    if (i < data.length) {
      this.buf.set(data.subarray(i), 0);
      this.bufLen = data.length - i;
    }
    return this;
  }

  digest(): string {
    const bits = this.total * 8;
    const pad = new Uint8Array((this.bufLen < 56 ? 56 : 120) - this.bufLen + 8);
    pad[0] = 0x80;
    const view = new DataView(pad.buffer);
    view.setUint32(pad.length - 8, bits >>> 0, true);
    view.setUint32(pad.length - 4, Math.floor(bits / 2 ** 32), true);
    this.total -= pad.length; // padding is not message
    this.update(pad);
    let out = '';
    for (const v of this.h)
      for (let b = 0; b < 4; b++) out += ((v >>> (8 * b)) & 0xff).toString(16).padStart(2, '0');
    return out;
  }

  private block(d: Uint8Array, o: number): void {
    const w = this.w;
    for (let j = 0; j < 16; j++)
      w[j] = d[o + 4 * j]! | (d[o + 4 * j + 1]! << 8) | (d[o + 4 * j + 2]! << 16) | (d[o + 4 * j + 3]! << 24);
    let a = this.h[0]!;
    let b = this.h[1]!;
    let c = this.h[2]!;
    let dd = this.h[3]!;
    for (let j = 0; j < 64; j++) {
      let f: number;
      let g: number;
      if (j < 16) {
        f = (b & c) | (~b & dd);
        g = j;
      } else if (j < 32) {
        f = (dd & b) | (~dd & c);
        g = (5 * j + 1) % 16;
      } else if (j < 48) {
        f = b ^ c ^ dd;
        g = (3 * j + 5) % 16;
      } else {
        f = c ^ (b | ~dd);
        g = (7 * j) % 16;
      }
      const tmp = dd;
      dd = c;
      c = b;
      const x = (a + f + K[j]! + w[g]!) >>> 0;
      b = (b + ((x << S[j]!) | (x >>> (32 - S[j]!)))) >>> 0;
      a = tmp;
    }
    this.h[0] = (this.h[0]! + a) >>> 0;
    this.h[1] = (this.h[1]! + b) >>> 0;
    this.h[2] = (this.h[2]! + c) >>> 0;
    this.h[3] = (this.h[3]! + dd) >>> 0;
  }
}

/** MD5 (hex) of a Blob, read 4 MiB at a time; `onProgress(0..1)`. */
export async function md5OfBlob(blob: Blob, onProgress?: (f: number) => void): Promise<string> {
  const h = new Md5();
  const step = 4 * 1024 * 1024;
  for (let at = 0; at < blob.size; at += step) {
    h.update(new Uint8Array(await blob.slice(at, at + step).arrayBuffer()));
    onProgress?.(Math.min(1, (at + step) / blob.size));
  }
  return h.digest();
}
