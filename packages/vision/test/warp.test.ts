import { describe, expect, it } from 'vitest';
import { cropToImage, NORM_MINUS1_1, type Rect, type RgbImage, warpToTensor } from '../src/image/warp.ts';

/** The definition, written plainly: per output pixel, bilinear with black outside the frame. */
function referenceWarp(image: RgbImage, rect: Rect, size: number, mirror: boolean): Float32Array {
  const out = new Float32Array(size * size * 3);
  const px = (x: number, y: number, c: number) =>
    x >= 0 && y >= 0 && x < image.width && y < image.height ? image.data[(y * image.width + x) * 3 + c] : 0;
  for (let i = 0; i < size; i++)
    for (let j = 0; j < size; j++) {
      const [X, Y] = cropToImage(rect, size, j + 0.5, i + 0.5, mirror).map((v) => v - 0.5);
      const x0 = Math.floor(X);
      const y0 = Math.floor(Y);
      const fx = X - x0;
      const fy = Y - y0;
      for (let c = 0; c < 3; c++) {
        const top = px(x0, y0, c) * (1 - fx) + px(x0 + 1, y0, c) * fx;
        const bot = px(x0, y0 + 1, c) * (1 - fx) + px(x0 + 1, y0 + 1, c) * fx;
        out[(i * size + j) * 3 + c] = top * (1 - fy) + bot * fy;
      }
    }
  return out;
}

function randomImage(width: number, height: number, seed: number): RgbImage {
  const data = new Uint8Array(width * height * 3);
  let s = seed;
  for (let i = 0; i < data.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    data[i] = s >>> 24;
  }
  return { width, height, data };
}

describe('warpToTensor', () => {
  const image = randomImage(97, 61, 7);
  const cases: [string, Rect, boolean][] = [
    ['inside, rotated', { cx: 48, cy: 30, width: 40, height: 40, rotation: 0.7 }, false],
    ['crossing every border', { cx: 50, cy: 30, width: 140, height: 120, rotation: -2.1 }, false],
    ['mirrored', { cx: 20, cy: 15, width: 33, height: 21, rotation: 0.3 }, true],
    ['fully outside', { cx: -200, cy: 400, width: 30, height: 30, rotation: 1 }, false],
  ];
  for (const [name, rect, mirror] of cases) {
    it(`matches the plain definition: ${name}`, () => {
      const size = 37;
      const got = warpToTensor(image, rect, size, NORM_MINUS1_1, undefined, mirror);
      const want = referenceWarp(image, rect, size, mirror);
      let worst = 0;
      for (let k = 0; k < want.length; k++) {
        worst = Math.max(worst, Math.abs(got[k] - (want[k] / 127.5 - 1)));
      }
      expect(worst).toBeLessThan(1e-4);
    });
  }
});
