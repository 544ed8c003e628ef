/**
 * Mesh building blocks for the procedural characters: a growable skinned mesh, lofted tubes (rings of elliptical
 * cross-sections along an axis, closed with rounded caps), partial ellipsoid shells, smooth normals.
 *
 * Every part gets its own rectangle of the texture atlas: `u` runs around the part (the front, +Z or the part's
 * `front` axis, at the middle of the rectangle, the seam at the back), `v` along it. Vertices carry ≤ 4 joint
 * influences (canonical joint indices) with normalised weights.
 */

import { cross, unit, type Vec3 } from '../math.ts';

/** A texture atlas rectangle, u0 v0 (top-left) → u1 v1. */
export type Rect = readonly [number, number, number, number];

export type Influences = readonly (readonly [number, number])[];

const SCRATCH_J: number[] = [];
const SCRATCH_W: number[] = [];

/**
 * Merges influences into `J`/`W` (joint, summed weight), heaviest first, and returns how many: weights ≤ 1e-4
 * are dropped; with `presort` the influences are first ordered by weight (a joint's weights are then summed in
 * that order), otherwise summed in the given order. Orders are stable (equal weights keep their order), so the
 * result is that of sorting with `Array.prototype.sort` — without allocating per vertex.
 */
export function mergeInfluences(inf: Influences, presort: boolean, J: number[], W: number[]): number {
  const sj = PRE_J;
  const sw = PRE_W;
  let n = 0;
  for (let i = 0; i < inf.length; i++) {
    const w = inf[i][1];
    if (!(w > 1e-4)) continue;
    let t = n++;
    if (presort)
      while (t > 0 && sw[t - 1] < w) {
        sj[t] = sj[t - 1];
        sw[t] = sw[t - 1];
        t--;
      }
    sj[t] = inf[i][0];
    sw[t] = w;
  }
  let m = 0;
  for (let t = 0; t < n; t++) {
    let k = 0;
    while (k < m && J[k] !== sj[t]) k++;
    if (k < m) W[k] += sw[t];
    else {
      J[m] = sj[t];
      W[m] = sw[t];
      m++;
    }
  }
  for (let i = 1; i < m; i++) {
    const j = J[i];
    const w = W[i];
    let t = i;
    while (t > 0 && W[t - 1] < w) {
      J[t] = J[t - 1];
      W[t] = W[t - 1];
      t--;
    }
    J[t] = j;
    W[t] = w;
  }
  return m;
}
const PRE_J: number[] = [];
const PRE_W: number[] = [];

export class MeshBuilder {
  readonly pos: number[] = [];
  readonly uv: number[] = [];
  readonly idx: number[] = [];
  readonly joints: number[] = [];
  readonly weights: number[] = [];
  /** Part name per vertex (for morphs restricted to a part, e.g. the face). */
  readonly part: string[] = [];

  get vertexCount(): number {
    return this.pos.length / 3;
  }

  vertex(p: Vec3, u: number, v: number, inf: Influences, part: string): number {
    this.pos.push(p[0], p[1], p[2]);
    this.uv.push(u, v);
    // Heaviest first, duplicates merged, the 4 largest kept, normalised.
    const n = Math.min(4, mergeInfluences(inf, true, SCRATCH_J, SCRATCH_W));
    let sum = 0;
    for (let k = 0; k < n; k++) sum += SCRATCH_W[k];
    sum = sum || 1;
    for (let k = 0; k < 4; k++) {
      this.joints.push(k < n ? SCRATCH_J[k] : 0);
      this.weights.push(k < n ? SCRATCH_W[k] / sum : 0);
    }
    if (n === 0) this.weights[this.weights.length - 4] = 1;
    this.part.push(part);
    return this.vertexCount - 1;
  }

  tri(a: number, b: number, c: number): void {
    this.idx.push(a, b, c);
  }

  /** Smooth vertex normals (area-weighted face normals; seam duplicates averaged by position). */
  normals(): Float32Array {
    const n = new Float32Array(this.pos.length);
    const p = this.pos;
    for (let t = 0; t < this.idx.length; t += 3) {
      const a = this.idx[t] * 3;
      const b = this.idx[t + 1] * 3;
      const c = this.idx[t + 2] * 3;
      const ux = p[b] - p[a];
      const uy = p[b + 1] - p[a + 1];
      const uz = p[b + 2] - p[a + 2];
      const vx = p[c] - p[a];
      const vy = p[c + 1] - p[a + 1];
      const vz = p[c + 2] - p[a + 2];
      const nx = uy * vz - uz * vy;
      const ny = uz * vx - ux * vz;
      const nz = ux * vy - uy * vx;
      n[a] += nx;
      n[a + 1] += ny;
      n[a + 2] += nz;
      n[b] += nx;
      n[b + 1] += ny;
      n[b + 2] += nz;
      n[c] += nx;
      n[c + 1] += ny;
      n[c + 2] += nz;
    }
    // Average vertices sharing a position (to 0.01 mm) within the same part (UV seams, pole fans): a hash table
    // of (part, quantised position) with chains; each vertex points at the first vertex of its group, and sums
    // run in vertex order.
    const V = this.vertexCount;
    const partIds = new Map<string, number>();
    const pid = new Int32Array(V);
    const q = new Int32Array(3 * V);
    for (let i = 0; i < V; i++) {
      let id = partIds.get(this.part[i]);
      if (id === undefined) {
        id = partIds.size;
        partIds.set(this.part[i], id);
      }
      pid[i] = id;
      for (let k = 0; k < 3; k++) q[3 * i + k] = Math.round(p[3 * i + k] * 1e5);
    }
    let size = 1;
    while (size < 2 * V) size <<= 1;
    const head = new Int32Array(size).fill(-1);
    const next = new Int32Array(V);
    const rep = new Int32Array(V);
    const count = new Int32Array(V);
    for (let i = 0; i < V; i++) {
      const h =
        (Math.imul(q[3 * i], 73856093) ^
          Math.imul(q[3 * i + 1], 19349663) ^
          Math.imul(q[3 * i + 2], 83492791) ^
          Math.imul(pid[i], 2654435761)) &
        (size - 1);
      let j = head[h];
      while (
        j >= 0 &&
        !(
          pid[j] === pid[i] &&
          q[3 * j] === q[3 * i] &&
          q[3 * j + 1] === q[3 * i + 1] &&
          q[3 * j + 2] === q[3 * i + 2]
        )
      )
        j = next[j];
      if (j < 0) {
        rep[i] = i;
        next[i] = head[h];
        head[h] = i;
      } else rep[i] = j;
      count[rep[i]]++;
    }
    const sum = new Float64Array(3 * V);
    for (let i = 0; i < V; i++) {
      const r = rep[i];
      if (count[r] < 2) continue;
      sum[3 * r] += n[3 * i];
      sum[3 * r + 1] += n[3 * i + 1];
      sum[3 * r + 2] += n[3 * i + 2];
    }
    for (let i = 0; i < V; i++) {
      const r = rep[i];
      if (count[r] < 2) continue;
      n[3 * i] = sum[3 * r];
      n[3 * i + 1] = sum[3 * r + 1];
      n[3 * i + 2] = sum[3 * r + 2];
    }
    for (let i = 0; i < n.length; i += 3) {
      const l = Math.hypot(n[i], n[i + 1], n[i + 2]) || 1;
      n[i] /= l;
      n[i + 1] /= l;
      n[i + 2] /= l;
    }
    return n;
  }
}

/** One cross-section of a tube: centre, two half-axes (side and front directions scaled by the radii). */
export interface Ring {
  c: Vec3;
  /** Half-axis toward the part's side (u = 0.25 / 0.75). */
  a: Vec3;
  /** Half-axis toward the part's front (u = 0.5). */
  b: Vec3;
  /** Influences of the ring's vertices. */
  inf: Influences;
}

const add = (p: Vec3, q: Vec3, s = 1): Vec3 => [p[0] + q[0] * s, p[1] + q[1] * s, p[2] + q[2] * s];

/**
 * A closed tube through `rings` (at least 2), with rounded caps (`capSteps` rings shrinking over a half
 * ellipsoid of depth `capDepth` × the end radius; 0 = flat). `around` vertices per ring (+1 for the seam).
 * The surface faces outward when the rings go along `a × b`... either way: orientation is fixed up after
 * building by checking against the ring centre.
 */
export function tube(
  m: MeshBuilder,
  rings: Ring[],
  rect: Rect,
  part: string,
  opts: { around?: number; capSteps?: [number, number]; capDepth?: [number, number] } = {},
): void {
  const S = opts.around ?? 16;
  const [capA, capB] = opts.capSteps ?? [3, 3];
  const [depA, depB] = opts.capDepth ?? [1, 1];
  // Extend with cap rings.
  const axis = (i: number, j: number) =>
    unit([rings[j].c[0] - rings[i].c[0], rings[j].c[1] - rings[i].c[1], rings[j].c[2] - rings[i].c[2]]);
  const all: Ring[] = [];
  const capRings = (r: Ring, dir: Vec3, steps: number, depth: number, reverse: boolean) => {
    const out: Ring[] = [];
    const rad = (Math.hypot(...r.a) + Math.hypot(...r.b)) / 2;
    for (let k = 1; k <= steps; k++) {
      const phi = (k / (steps + 0.0001)) * (Math.PI / 2);
      const s = Math.cos(phi);
      const d = Math.sin(phi) * rad * depth;
      out.push({
        c: add(r.c, dir, d),
        a: [r.a[0] * s, r.a[1] * s, r.a[2] * s],
        b: [r.b[0] * s, r.b[1] * s, r.b[2] * s],
        inf: r.inf,
      });
    }
    return reverse ? out.reverse() : out;
  };
  const d0 = axis(1, 0);
  const d1 = axis(rings.length - 2, rings.length - 1);
  all.push(
    ...capRings(rings[0], d0, capA, depA, true),
    ...rings,
    ...capRings(rings[rings.length - 1], d1, capB, depB, false),
  );
  // Arc length for v.
  const len: number[] = [0];
  for (let i = 1; i < all.length; i++) {
    const a = all[i - 1].c;
    const b = all[i].c;
    len.push(len[i - 1] + Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]) + 1e-6);
  }
  const total = len[len.length - 1];
  const [u0, v0, u1, v1] = rect;
  const base = m.vertexCount;
  for (let i = 0; i < all.length; i++) {
    const r = all[i];
    for (let k = 0; k <= S; k++) {
      // θ = 0 at the back (seam), π at the front.
      const th = (k / S) * 2 * Math.PI;
      const ca = -Math.sin(th);
      const cb = -Math.cos(th);
      const p: Vec3 = [
        r.c[0] + r.a[0] * ca + r.b[0] * cb,
        r.c[1] + r.a[1] * ca + r.b[1] * cb,
        r.c[2] + r.a[2] * ca + r.b[2] * cb,
      ];
      m.vertex(p, u0 + (u1 - u0) * (k / S), v0 + (v1 - v0) * (len[i] / total), r.inf, part);
    }
  }
  // Poles: a vertex at each end.
  const first = all[0];
  const last = all[all.length - 1];
  const poleA = m.vertex(add(first.c, d0, 0), u0 + (u1 - u0) * 0.5, v0, first.inf, part);
  const poleB = m.vertex(add(last.c, d1, 0), u0 + (u1 - u0) * 0.5, v1, last.inf, part);
  // Orientation: outward when (ring i+1 − ring i) · ((p_k+1 − p_k) × radial) works out; test one quad.
  const W = S + 1;
  const vi = (i: number, k: number) => base + i * W + k;
  const P = (i: number) => [m.pos[3 * i], m.pos[3 * i + 1], m.pos[3 * i + 2]] as Vec3;
  const mid = Math.floor(all.length / 2);
  const pa = P(vi(mid, 0));
  const pb = P(vi(mid + 1 < all.length ? mid + 1 : mid - 1, 0));
  const pc = P(vi(mid, 1));
  const nrm = cross(
    [pc[0] - pa[0], pc[1] - pa[1], pc[2] - pa[2]],
    [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]],
  );
  const radial: Vec3 = [pa[0] - all[mid].c[0], pa[1] - all[mid].c[1], pa[2] - all[mid].c[2]];
  let flip = nrm[0] * radial[0] + nrm[1] * radial[1] + nrm[2] * radial[2] < 0;
  if (mid + 1 >= all.length) flip = !flip;
  const quad = (a: number, b: number, c: number, d: number) => {
    if (flip) {
      m.tri(a, c, b);
      m.tri(b, c, d);
    } else {
      m.tri(a, b, c);
      m.tri(b, d, c);
    }
  };
  for (let i = 0; i + 1 < all.length; i++)
    for (let k = 0; k < S; k++) quad(vi(i, k), vi(i, k + 1), vi(i + 1, k), vi(i + 1, k + 1));
  for (let k = 0; k < S; k++) {
    if (flip) {
      m.tri(poleA, vi(0, k), vi(0, k + 1));
      m.tri(poleB, vi(all.length - 1, k + 1), vi(all.length - 1, k));
    } else {
      m.tri(poleA, vi(0, k + 1), vi(0, k));
      m.tri(poleB, vi(all.length - 1, k), vi(all.length - 1, k + 1));
    }
  }
  // Pole positions: the cap's tip.
  const setP = (i: number, p: Vec3) => {
    m.pos[3 * i] = p[0];
    m.pos[3 * i + 1] = p[1];
    m.pos[3 * i + 2] = p[2];
  };
  const tipA =
    capA > 0
      ? add(rings[0].c, d0, ((Math.hypot(...rings[0].a) + Math.hypot(...rings[0].b)) / 2) * depA)
      : first.c;
  const rl = rings[rings.length - 1];
  const tipB = capB > 0 ? add(rl.c, d1, ((Math.hypot(...rl.a) + Math.hypot(...rl.b)) / 2) * depB) : last.c;
  setP(poleA, tipA);
  setP(poleB, tipB);
}

/**
 * An ellipsoid (or a part of one) around `c` with radii `r` (x side, y up, z front), longitude θ from the back
 * through the side to the front, latitude φ from the top (0) to `phiMax(θ)` (≤ π). A closed ellipsoid when
 * phiMax ≡ π. `shell` > 0 makes a closed thick shell of that thickness (inner surface + rim) for partial ones.
 * Influences per vertex from `inf(p, opts.infCtx)`.
 */
export function ellipsoid(
  m: MeshBuilder,
  c: Vec3,
  r: Vec3,
  rect: Rect,
  part: string,
  // biome-ignore lint/suspicious/noExplicitAny: the context is the influence function's own (see `infCtx`)
  inf: (p: Vec3, ctx: any) => Influences,
  opts: {
    lon?: number;
    lat?: number;
    phiMax?: (theta: number) => number;
    shell?: number;
    shape?: (p: Vec3, theta: number, phi: number) => Vec3;
    /** Relative row density over φ (closed ellipsoids): rows are placed at equal steps of its integral. */
    phiDensity?: (phi: number) => number;
    /** Second argument of `inf` (its data: a module-level function with a context is compiled once per process). */
    infCtx?: unknown;
  } = {},
): void {
  const L = opts.lon ?? 32;
  const T = opts.lat ?? 24;
  const phiMax = opts.phiMax ?? WHOLE;
  const closed = !opts.phiMax;
  // Row latitudes: uniform, or at equal steps of the integral of `phiDensity`.
  const rowPhi = new Float64Array(T + 1);
  if (closed && opts.phiDensity) {
    const M = 2048;
    const cdf = new Float64Array(M + 1);
    for (let i = 1; i <= M; i++) cdf[i] = cdf[i - 1] + opts.phiDensity(((i - 0.5) / M) * Math.PI);
    let j = 0;
    for (let i = 0; i <= T; i++) {
      const target = (i / T) * cdf[M];
      while (j < M - 1 && cdf[j + 1] < target) j++;
      const f = cdf[j + 1] > cdf[j] ? (target - cdf[j]) / (cdf[j + 1] - cdf[j]) : 0;
      rowPhi[i] = ((j + Math.min(1, Math.max(0, f))) / M) * Math.PI;
    }
    rowPhi[0] = 0;
    rowPhi[T] = Math.PI;
  } else for (let i = 0; i <= T; i++) rowPhi[i] = (i / T) * Math.PI;
  const g: SurfaceGrid = {
    m,
    c,
    r,
    L,
    T,
    closed,
    rowPhi,
    phiMax,
    shape: opts.shape,
    rect,
    part,
    inf,
    infCtx: opts.infCtx,
  };
  const outer = ellipsoidSurface(g, 1, false);
  if (!closed && opts.shell && opts.shell > 0) {
    const rin = 1 - opts.shell / Math.max(r[0], r[1], r[2]);
    const inner = ellipsoidSurface(g, rin, true);
    const W = L + 1;
    // Rim between the last rows.
    for (let k = 0; k < L; k++) {
      const a = outer + T * W + k;
      const b = a + 1;
      const cc = inner + T * W + k;
      const d = cc + 1;
      m.tri(a, b, cc);
      m.tri(b, d, cc);
    }
  }
}

const WHOLE = () => Math.PI;

interface SurfaceGrid {
  m: MeshBuilder;
  c: Vec3;
  r: Vec3;
  L: number;
  T: number;
  closed: boolean;
  rowPhi: Float64Array;
  phiMax: (theta: number) => number;
  shape: ((p: Vec3, theta: number, phi: number) => Vec3) | undefined;
  rect: Rect;
  part: string;
  // biome-ignore lint/suspicious/noExplicitAny: see `ellipsoid`
  inf: (p: Vec3, ctx: any) => Influences;
  infCtx: unknown;
}

/**
 * One surface of an ellipsoid (outer, or inner of a shell): vertices and triangles. A module-level function, not a
 * closure made per call: V8 would compile a fresh closure's hot loop again on every character.
 */
function ellipsoidSurface(g: SurfaceGrid, scale: number, inward: boolean): number {
  const { m, c, r, L, T, closed, rowPhi, phiMax, rect, part, inf, infCtx } = g;
  const [u0, v0, u1, v1] = rect;
  const base = m.vertexCount;
  for (let i = 0; i <= T; i++) {
    for (let k = 0; k <= L; k++) {
      const th = (k / L) * 2 * Math.PI;
      const pm = phiMax(th);
      const phi = closed ? rowPhi[i] : (i / T) * pm;
      const sx = -Math.sin(th) * Math.sin(phi);
      const sz = -Math.cos(th) * Math.sin(phi);
      const sy = Math.cos(phi);
      let p: Vec3 = [c[0] + r[0] * sx * scale, c[1] + r[1] * sy * scale, c[2] + r[2] * sz * scale];
      if (g.shape) p = g.shape(p, th, phi);
      const v = phi / Math.PI;
      m.vertex(p, u0 + (u1 - u0) * (k / L), v0 + (v1 - v0) * v, inf(p, infCtx), part);
    }
  }
  const W = L + 1;
  for (let i = 0; i < T; i++)
    for (let k = 0; k < L; k++) {
      const a = base + i * W + k;
      const b = a + 1;
      const cc = a + W;
      const d = cc + 1;
      // Outward for the outer surface: θ grows clockwise seen from above the top pole.
      if (!inward) {
        m.tri(a, cc, b);
        m.tri(b, cc, d);
      } else {
        m.tri(a, b, cc);
        m.tri(b, d, cc);
      }
    }
  return base;
}
