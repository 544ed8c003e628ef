/** Draws one frame's 2D landmarks (body skeleton, hands when tracked) over the video, in canvas pixels. */
import {
  BONES,
  HAND_BASE,
  HAND_BONES,
  HAND_POINTS,
  handShown,
  type ImagePoint,
  NUM_POINTS,
  sideOf,
  type TrackFrame,
} from './model.ts';

export interface DrawState {
  selected: number | null;
  /** Landmarks holding a keyframe on this frame, and those interpolated. */
  keyed: Set<number>;
  interpolated: Set<number>;
  /** Landmarks a problem on this frame concerns. */
  flagged: Set<number>;
  /** A point being dragged: where it is now (image pixels). */
  drag?: { j: number; x: number; y: number } | null;
  radius: number;
  /** Canvas pixels per screen (CSS) pixel: line widths and dots keep their size on screen at any zoom. */
  pxPerCss: number;
}

const COLOURS = { l: '#3fb6ff', r: '#ff8a3d', c: '#e8e8f0' } as const;

/** A ring of `radius` around (x, y): `colour`, `width` wide, dashed by `dash` (solid when empty). */
function ring(
  ctx: CanvasRenderingContext2D,
  x: number,
  y: number,
  radius: number,
  colour: string,
  width: number,
  dash: number[] = [],
): void {
  ctx.beginPath();
  ctx.arc(x, y, radius, 0, Math.PI * 2);
  ctx.strokeStyle = colour;
  ctx.lineWidth = width;
  ctx.setLineDash(dash);
  ctx.stroke();
  ctx.setLineDash([]);
}

export function drawFrame(
  ctx: CanvasRenderingContext2D,
  frame: TrackFrame | undefined,
  videoW: number,
  videoH: number,
  st: DrawState,
): void {
  const W = ctx.canvas.width;
  const H = ctx.canvas.height;
  ctx.clearRect(0, 0, W, H);
  if (!frame?.image) return;
  const sx = W / videoW;
  const sy = H / videoH;
  const pt = (j: number): [number, number] => {
    if (st.drag && st.drag.j === j) return [st.drag.x * sx, st.drag.y * sy];
    const p = frame.image![j];
    return [p[0] * sx, p[1] * sy];
  };
  const seen = (p: ImagePoint) => Math.min(p[3], p[4]) >= 0.5;
  const dpr = st.pxPerCss;
  ctx.lineCap = 'round';
  /** The key ring (solid: a keyframe, dashed: interpolated) and the selection ring of point j at (x, y). */
  const marks = (j: number, x: number, y: number, keyR: number, selectR: number, width: number) => {
    if (st.keyed.has(j) || st.interpolated.has(j)) {
      const keyed = st.keyed.has(j);
      ring(
        ctx,
        x,
        y,
        keyR,
        keyed ? '#ffd23f' : 'rgba(255,210,63,0.55)',
        width,
        keyed ? [] : [3 * dpr, 3 * dpr],
      );
    }
    if (j === st.selected) ring(ctx, x, y, selectR, '#ffffff', width);
  };
  // Hands first (under the body): lines here, their points after the body's.
  const handPt = (side: 'left' | 'right', i: number): [number, number] => {
    const j = HAND_BASE[side] + i;
    if (st.drag && st.drag.j === j) return [st.drag.x * sx, st.drag.y * sy];
    const q = frame.hands![side]!.image[i];
    return [q[0] * sx, q[1] * sy];
  };
  for (const side of ['left', 'right'] as const) {
    if (!handShown(frame, side)) continue;
    ctx.strokeStyle = side === 'left' ? 'rgba(63,182,255,0.8)' : 'rgba(255,138,61,0.8)';
    ctx.lineWidth = 1.5 * dpr;
    ctx.beginPath();
    for (const [a, b] of HAND_BONES) {
      const [ax, ay] = handPt(side, a);
      const [bx, by] = handPt(side, b);
      ctx.moveTo(ax, ay);
      ctx.lineTo(bx, by);
    }
    ctx.stroke();
  }
  for (const [a, b] of BONES) {
    const A = frame.image[a];
    const B = frame.image[b];
    const side = sideOf(a) === sideOf(b) ? sideOf(a) : 'c';
    ctx.strokeStyle = COLOURS[side];
    ctx.globalAlpha = seen(A) && seen(B) ? 0.9 : 0.35;
    ctx.lineWidth = 2.5 * dpr;
    ctx.setLineDash(seen(A) && seen(B) ? [] : [4 * dpr, 4 * dpr]);
    const [ax, ay] = pt(a);
    const [bx, by] = pt(b);
    ctx.beginPath();
    ctx.moveTo(ax, ay);
    ctx.lineTo(bx, by);
    ctx.stroke();
  }
  ctx.setLineDash([]);
  ctx.globalAlpha = 1;
  const r = st.radius * dpr;
  for (let j = 0; j < NUM_POINTS; j++) {
    const p = frame.image[j];
    const [x, y] = pt(j);
    const hidden = !seen(p);
    ctx.beginPath();
    ctx.arc(x, y, j === st.selected ? r * 1.5 : r, 0, Math.PI * 2);
    if (hidden) {
      ctx.strokeStyle = 'rgba(200,200,210,0.8)';
      ctx.lineWidth = 1.5 * dpr;
      ctx.stroke();
    } else {
      ctx.fillStyle = COLOURS[sideOf(j)];
      ctx.fill();
    }
    if (st.flagged.has(j)) ring(ctx, x, y, r * 1.9, 'rgba(255,77,106,0.85)', 1.5 * dpr);
    marks(j, x, y, r * 1.9, r * 2.8, 2 * dpr);
  }
  // Hand points: smaller dots (21 per hand sit close together), with the same key and selection rings.
  const hr = r * 0.6;
  for (const side of ['left', 'right'] as const) {
    if (!handShown(frame, side)) continue;
    for (let i = 0; i < HAND_POINTS; i++) {
      const j = HAND_BASE[side] + i;
      const [x, y] = handPt(side, i);
      ctx.beginPath();
      ctx.arc(x, y, j === st.selected ? hr * 1.5 : hr, 0, Math.PI * 2);
      ctx.fillStyle = COLOURS[sideOf(j)];
      ctx.fill();
      marks(j, x, y, hr * 2.2, hr * 3.2, 1.5 * dpr);
    }
  }
}

/**
 * The landmark nearest to (x, y) image pixels within `maxPx` image pixels, or null: body landmarks 0–32, and the
 * points of a shown hand (33–53 left, 54–74 right).
 */
export function pickPoint(frame: TrackFrame | undefined, x: number, y: number, maxPx: number): number | null {
  if (!frame?.image) return null;
  let best: number | null = null;
  let bestD = maxPx;
  // A hand point must be clearly nearer than a body one (the hand's wrist lies on the body's wrist).
  const consider = (j: number, px: number, py: number, weight = 1) => {
    const d = Math.hypot(px - x, py - y) * weight;
    if (d < bestD) {
      bestD = d;
      best = j;
    }
  };
  for (let j = 0; j < NUM_POINTS; j++) consider(j, frame.image[j][0], frame.image[j][1]);
  for (const side of ['left', 'right'] as const) {
    const h = handShown(frame, side);
    if (!h) continue;
    for (let i = 0; i < HAND_POINTS; i++) consider(HAND_BASE[side] + i, h.image[i][0], h.image[i][1], 1.3);
  }
  return best;
}
