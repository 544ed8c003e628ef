/**
 * Server-side pictures of a character (the card thumbnails): a small software rasteriser, no GPU or browser.
 * Orthographic views of the meshes in their rest pose (or posed vertex arrays), z-buffered triangles, per-vertex
 * normals interpolated, Lambert shading with a key light from the upper front and a fill light, the material's
 * base colour (times its PNG texture, sampled nearest, when it has one), 2× supersampled, transparent background,
 * PNG out. `front` looks at the face; `threeQuarter` from 35° to the character's left.
 */
import { decodePng, encodePng } from '../formats/png.ts';
import type { SkinnedMesh } from '../rigs/types.ts';

export type CharacterView = 'front' | 'threeQuarter';

export interface RenderOptions {
  width?: number;
  height?: number;
  /** Yaw of the camera around the character, degrees (front 0, three-quarter 35). */
  yawDeg?: number;
}

const srgb = (c: number) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);

export function renderCharacter(
  meshes: readonly SkinnedMesh[],
  view: CharacterView = 'front',
  options: RenderOptions = {},
): Uint8Array {
  const W = options.width ?? 256;
  const H = options.height ?? 320;
  const SS = 2;
  const w = W * SS;
  const h = H * SS;
  const yaw = ((options.yawDeg ?? (view === 'front' ? 0 : 35)) * Math.PI) / 180;
  const cy = Math.cos(yaw);
  const sy = Math.sin(yaw);
  // Camera frame: rotate the model by -yaw about Y so the camera stays on +Z.
  const tx = (x: number, z: number) => cy * x - sy * z;
  const tz = (x: number, z: number) => sy * x + cy * z;
  let minX = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (const m of meshes)
    for (let i = 0; i < m.positions.length; i += 3) {
      const x = tx(m.positions[i], m.positions[i + 2]);
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, m.positions[i + 1]);
      maxY = Math.max(maxY, m.positions[i + 1]);
    }
  if (!Number.isFinite(minX)) return encodePng(W, H, new Uint8Array(W * H * 4));
  const margin = 0.06;
  const scale = Math.min(
    (w * (1 - 2 * margin)) / Math.max(1e-6, maxX - minX),
    (h * (1 - 2 * margin)) / Math.max(1e-6, maxY - minY),
  );
  const ox = w / 2 - ((minX + maxX) / 2) * scale;
  const oy = h / 2 + ((minY + maxY) / 2) * scale;
  const depth = new Float32Array(w * h).fill(Number.NEGATIVE_INFINITY);
  const color = new Float32Array(w * h * 3);
  const alpha = new Uint8Array(w * h);
  const key = norm([0.35, 0.55, 0.75]);
  const fill = norm([-0.6, 0.2, 0.4]);
  const textures = new Map<Uint8Array, { width: number; height: number; pixels: Uint8Array } | null>();
  const tex = (png: Uint8Array) => {
    if (!textures.has(png)) {
      try {
        textures.set(png, decodePng(png));
      } catch {
        textures.set(png, null);
      }
    }
    return textures.get(png) ?? null;
  };
  for (const m of meshes) {
    const P = m.positions;
    const N = m.normals;
    const nv = P.length / 3;
    const sx = new Float32Array(nv);
    const syy = new Float32Array(nv);
    const sz = new Float32Array(nv);
    const nx = new Float32Array(nv);
    const ny = new Float32Array(nv);
    const nz = new Float32Array(nv);
    for (let v = 0; v < nv; v++) {
      const x = P[3 * v];
      const z = P[3 * v + 2];
      sx[v] = ox + tx(x, z) * scale;
      syy[v] = oy - P[3 * v + 1] * scale;
      sz[v] = tz(x, z);
      nx[v] = tx(N[3 * v], N[3 * v + 2]);
      ny[v] = N[3 * v + 1];
      nz[v] = tz(N[3 * v], N[3 * v + 2]);
    }
    const groups = m.groups.length ? m.groups : [{ start: 0, count: m.indices.length, material: 0 }];
    for (const g of groups) {
      const mat = m.materials[g.material] ?? m.materials[0];
      const base = mat?.baseColor ?? [0.8, 0.8, 0.8, 1];
      const t = mat?.texture ? tex(mat.texture.png) : null;
      for (let k = g.start; k < g.start + g.count; k += 3) {
        const a = m.indices[k];
        const b = m.indices[k + 1];
        const c = m.indices[k + 2];
        const x0 = sx[a];
        const y0 = syy[a];
        const x1 = sx[b];
        const y1 = syy[b];
        const x2 = sx[c];
        const y2 = syy[c];
        const area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
        if (Math.abs(area) < 1e-9) continue;
        const bx0 = Math.max(0, Math.floor(Math.min(x0, x1, x2)));
        const bx1 = Math.min(w - 1, Math.ceil(Math.max(x0, x1, x2)));
        const by0 = Math.max(0, Math.floor(Math.min(y0, y1, y2)));
        const by1 = Math.min(h - 1, Math.ceil(Math.max(y0, y1, y2)));
        for (let py = by0; py <= by1; py++)
          for (let px = bx0; px <= bx1; px++) {
            const qx = px + 0.5;
            const qy = py + 0.5;
            const w0 = ((x1 - qx) * (y2 - qy) - (x2 - qx) * (y1 - qy)) / area;
            const w1 = ((x2 - qx) * (y0 - qy) - (x0 - qx) * (y2 - qy)) / area;
            const w2 = 1 - w0 - w1;
            if (w0 < 0 || w1 < 0 || w2 < 0) continue;
            const z = w0 * sz[a] + w1 * sz[b] + w2 * sz[c];
            const o = py * w + px;
            if (z <= depth[o]) continue;
            depth[o] = z;
            let n0 = w0 * nx[a] + w1 * nx[b] + w2 * nx[c];
            let n1 = w0 * ny[a] + w1 * ny[b] + w2 * ny[c];
            let n2 = w0 * nz[a] + w1 * nz[b] + w2 * nz[c];
            const l = Math.hypot(n0, n1, n2) || 1;
            n0 /= l;
            n1 /= l;
            n2 /= l;
            // Two-sided: a normal facing away is flipped (inner faces of open meshes).
            if (n2 < 0) {
              n0 = -n0;
              n1 = -n1;
              n2 = -n2;
            }
            const light =
              0.32 +
              0.68 * Math.max(0, n0 * key[0] + n1 * key[1] + n2 * key[2]) +
              0.22 * Math.max(0, n0 * fill[0] + n1 * fill[1] + n2 * fill[2]);
            let r = base[0];
            let gg = base[1];
            let bb = base[2];
            if (t) {
              const u = w0 * m.uvs[2 * a] + w1 * m.uvs[2 * b] + w2 * m.uvs[2 * c];
              const vv = w0 * m.uvs[2 * a + 1] + w1 * m.uvs[2 * b + 1] + w2 * m.uvs[2 * c + 1];
              const ix = Math.min(t.width - 1, Math.max(0, Math.floor((u - Math.floor(u)) * t.width)));
              const iy = Math.min(t.height - 1, Math.max(0, Math.floor((vv - Math.floor(vv)) * t.height)));
              const to = (iy * t.width + ix) * 4;
              // Texture bytes are sRGB: to linear before the light.
              r *= (t.pixels[to] / 255) ** 2.2;
              gg *= (t.pixels[to + 1] / 255) ** 2.2;
              bb *= (t.pixels[to + 2] / 255) ** 2.2;
            }
            color[3 * o] = r * light;
            color[3 * o + 1] = gg * light;
            color[3 * o + 2] = bb * light;
            alpha[o] = 255;
          }
      }
    }
  }
  // Downsample 2×2 → 1 and encode.
  const out = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let dy = 0; dy < SS; dy++)
        for (let dx = 0; dx < SS; dx++) {
          const o = (y * SS + dy) * w + x * SS + dx;
          if (!alpha[o]) continue;
          r += color[3 * o];
          g += color[3 * o + 1];
          b += color[3 * o + 2];
          a++;
        }
      const o = (y * W + x) * 4;
      if (!a) continue;
      out[o] = Math.round(255 * Math.min(1, srgb(r / a)));
      out[o + 1] = Math.round(255 * Math.min(1, srgb(g / a)));
      out[o + 2] = Math.round(255 * Math.min(1, srgb(b / a)));
      out[o + 3] = Math.round((255 * a) / (SS * SS));
    }
  return encodePng(W, H, out);
}

function norm(v: [number, number, number]): [number, number, number] {
  const l = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / l, v[1] / l, v[2] / l];
}
