/**
 * Image → model-input tensors: a rotated square region sampled bilinearly into an NHWC float32 tensor.
 * Pixels outside the frame are zero (the "zero border" the pose models were trained with).
 */

export interface RgbImage {
  width: number;
  height: number;
  /** rgb24, row-major, tightly packed. */
  data: Uint8Array;
}

/** A rotated rectangle in image pixels. */
export interface Rect {
  cx: number;
  cy: number;
  width: number;
  height: number;
  /** Radians, counter-clockwise as the BlazePose ROI angle. */
  rotation: number;
}

export interface Normalization {
  /** value = pixel * scale + offset */
  scale: number;
  offset: number;
}

export const NORM_0_1: Normalization = { scale: 1 / 255, offset: 0 };
export const NORM_MINUS1_1: Normalization = { scale: 1 / 127.5, offset: -1 };

/**
 * Samples `rect` of `image` into a `size`×`size` tensor. Output pixel (i, j) centre maps to
 * u = (j + 0.5)/size - 0.5, v = (i + 0.5)/size - 0.5 in the rect, then to the image by
 * X = cx + (cos r·u − sin r·v)·w, Y = cy + (sin r·u + cos r·v)·h.
 * `mirror` flips the crop horizontally (used for the right eye).
 */
export function warpToTensor(
  image: RgbImage,
  rect: Rect,
  size: number,
  norm: Normalization,
  out: Float32Array = new Float32Array(size * size * 3),
  mirror = false,
): Float32Array {
  const { width: W, height: H, data } = image;
  const cos = Math.cos(rect.rotation);
  const sin = Math.sin(rect.rotation);
  const sx = mirror ? -1 : 1;
  const { scale, offset } = norm;
  const zero = offset; // an out-of-frame pixel has value 0 before normalisation
  // The sample position is affine in j: step along a row by (dxj, dyj).
  const du = sx / size;
  const dxj = cos * du * rect.width;
  const dyj = sin * du * rect.width;
  const u0 = sx * (0.5 / size - 0.5);
  const W3 = W * 3;
  let o = 0;
  for (let i = 0; i < size; i++) {
    const v = (i + 0.5) / size - 0.5;
    // Sample position of (i, 0) in pixel-centre coordinates.
    let X = rect.cx + (cos * u0 * rect.width - sin * v * rect.height) - 0.5;
    let Y = rect.cy + (sin * u0 * rect.width + cos * v * rect.height) - 0.5;
    for (let j = 0; j < size; j++, X += dxj, Y += dyj) {
      const x0 = Math.floor(X);
      const y0 = Math.floor(Y);
      const fx = X - x0;
      const fy = Y - y0;
      if (x0 >= 0 && y0 >= 0 && x0 + 1 < W && y0 + 1 < H) {
        const p = y0 * W3 + x0 * 3;
        const q = p + W3;
        const w00 = (1 - fx) * (1 - fy) * scale;
        const w01 = fx * (1 - fy) * scale;
        const w10 = (1 - fx) * fy * scale;
        const w11 = fx * fy * scale;
        out[o] = data[p] * w00 + data[p + 3] * w01 + data[q] * w10 + data[q + 3] * w11 + offset;
        out[o + 1] = data[p + 1] * w00 + data[p + 4] * w01 + data[q + 1] * w10 + data[q + 4] * w11 + offset;
        out[o + 2] = data[p + 2] * w00 + data[p + 5] * w01 + data[q + 2] * w10 + data[q + 5] * w11 + offset;
        o += 3;
      } else if (x0 + 1 < 0 || y0 + 1 < 0 || x0 >= W || y0 >= H) {
        out[o++] = zero;
        out[o++] = zero;
        out[o++] = zero;
      } else {
        // Border: outside samples are black.
        const in00 = x0 >= 0 && y0 >= 0;
        const in01 = x0 + 1 < W && y0 >= 0;
        const in10 = x0 >= 0 && y0 + 1 < H;
        const in11 = x0 + 1 < W && y0 + 1 < H;
        const p = y0 * W3 + x0 * 3;
        const q = p + W3;
        for (let c = 0; c < 3; c++) {
          const a = in00 ? data[p + c] : 0;
          const b = in01 ? data[p + 3 + c] : 0;
          const d = in10 ? data[q + c] : 0;
          const e = in11 ? data[q + 3 + c] : 0;
          const top = a + (b - a) * fx;
          const bot = d + (e - d) * fx;
          out[o++] = (top + (bot - top) * fy) * scale + offset;
        }
      }
    }
  }
  return out;
}

/** Maps a point in a crop of `rect` (crop pixels 0..size) back to image pixels. */
export function cropToImage(
  rect: Rect,
  size: number,
  x: number,
  y: number,
  mirror = false,
): [number, number] {
  const u = (mirror ? -1 : 1) * (x / size - 0.5);
  const v = y / size - 0.5;
  const cos = Math.cos(rect.rotation);
  const sin = Math.sin(rect.rotation);
  return [
    rect.cx + (cos * u * rect.width - sin * v * rect.height),
    rect.cy + (sin * u * rect.width + cos * v * rect.height),
  ];
}

/**
 * The letterbox square that contains the whole frame (black bars split evenly), as a Rect plus the
 * normalised padding that the detector's outputs must be corrected by.
 */
export function letterbox(
  width: number,
  height: number,
): { rect: Rect; pad: { left: number; top: number; right: number; bottom: number } } {
  const side = Math.max(width, height);
  const padX = (side - width) / 2 / side;
  const padY = (side - height) / 2 / side;
  return {
    rect: { cx: width / 2, cy: height / 2, width: side, height: side, rotation: 0 },
    pad: { left: padX, right: padX, top: padY, bottom: padY },
  };
}
