/**
 * Base-colour textures of the procedural characters, painted in code into an RGBA atlas (1024² or 512², layout in
 * `ATLAS`), then PNG-encoded. Each kind has a palette and a face style; painting works in each part's own
 * (u, v) coordinates (u around the part with the front at 0.5, v along it), so stripes, cuffs, soles and the
 * face land where the geometry puts them.
 */

import { encodePng } from '../formats/png.ts';
import type { Rect } from './mesh.ts';

export type CharacterKind = 'boy' | 'girl' | 'roblox' | 'ue4' | 'ue5';
export const CHARACTER_KINDS: readonly CharacterKind[] = ['boy', 'girl', 'roblox', 'ue4', 'ue5'];

/** Texture atlas rectangles per part (u0, v0, u1, v1; v down). */
export const ATLAS: Record<string, Rect> = {
  head: [0, 0, 0.5, 0.5],
  hair: [0.5, 0, 0.75, 0.25],
  skin: [0.75, 0, 1, 0.25],
  armL: [0.5, 0.25, 0.75, 0.5],
  armR: [0.75, 0.25, 1, 0.5],
  torso: [0, 0.5, 0.5, 1],
  legL: [0.5, 0.5, 0.75, 0.75],
  legR: [0.75, 0.5, 1, 0.75],
  shoe: [0.5, 0.75, 0.75, 1],
  hand: [0.75, 0.75, 1, 1],
};

type RGB = [number, number, number];
const hex = (h: string): RGB => [
  Number.parseInt(h.slice(1, 3), 16),
  Number.parseInt(h.slice(3, 5), 16),
  Number.parseInt(h.slice(5, 7), 16),
];

export interface Palette {
  skin: RGB;
  hair: RGB | null;
  shirt: RGB;
  shirtAccent: RGB;
  pants: RGB;
  sock: RGB;
  shoe: RGB;
  sole: RGB;
  /** Arms covered by sleeves down to this fraction of the arm (0 = bare). */
  sleeve: number;
  /** Pants cover the legs down to this fraction (1 = full length). */
  pantsLength: number;
  face: 'cartoon' | 'smile' | 'none';
  blush: boolean;
  /** Mannequin panel lines. */
  panels: RGB | null;
  /** Arms and hands painted in the skin colour (Roblox: the arm colour). */
  limbSkin?: RGB;
}

export const PALETTES: Record<CharacterKind, Palette> = {
  boy: {
    skin: hex('#f1c27d'),
    hair: hex('#4a3121'),
    shirt: hex('#2f6fb5'),
    shirtAccent: hex('#f5f5f5'),
    pants: hex('#34495e'),
    sock: hex('#f0f0f0'),
    shoe: hex('#c0392b'),
    sole: hex('#f4f4f4'),
    sleeve: 0.4,
    pantsLength: 0.97,
    face: 'cartoon',
    blush: false,
    panels: null,
  },
  girl: {
    skin: hex('#f6d0b1'),
    hair: hex('#6b3e26'),
    shirt: hex('#e0609a'),
    shirtAccent: hex('#ffffff'),
    pants: hex('#5b4a9e'),
    sock: hex('#ffffff'),
    shoe: hex('#7d3c98'),
    sole: hex('#f4f4f4'),
    sleeve: 0.3,
    pantsLength: 0.45,
    face: 'cartoon',
    blush: true,
    panels: null,
  },
  roblox: {
    skin: hex('#f5cd30'),
    hair: null,
    shirt: hex('#0d69ac'),
    shirtAccent: hex('#0a5286'),
    pants: hex('#a4bd47'),
    sock: hex('#a4bd47'),
    shoe: hex('#8a9f3c'),
    sole: hex('#7a8d35'),
    sleeve: 0,
    pantsLength: 1,
    face: 'smile',
    blush: false,
    panels: null,
    limbSkin: hex('#f5cd30'),
  },
  ue4: {
    skin: hex('#c9c9c9'),
    hair: null,
    shirt: hex('#c9c9c9'),
    shirtAccent: hex('#b5b5b5'),
    pants: hex('#c9c9c9'),
    sock: hex('#c9c9c9'),
    shoe: hex('#bdbdbd'),
    sole: hex('#9e9e9e'),
    sleeve: 0,
    pantsLength: 1,
    face: 'none',
    blush: false,
    panels: hex('#8c8c8c'),
  },
  ue5: {
    skin: hex('#3d4450'),
    hair: null,
    shirt: hex('#3d4450'),
    shirtAccent: hex('#e07a2e'),
    pants: hex('#353b46'),
    sock: hex('#353b46'),
    shoe: hex('#2b3039'),
    sole: hex('#e07a2e'),
    sleeve: 0,
    pantsLength: 1,
    face: 'none',
    blush: false,
    panels: hex('#e07a2e'),
  },
};

/** Atlas size per kind: 1024² for the faces and fabrics of boy/girl, 512² for the flat-coloured kinds. */
export const TEXTURE_SIZE: Record<CharacterKind, number> = {
  boy: 1024,
  girl: 1024,
  roblox: 512,
  ue4: 512,
  ue5: 512,
};

const clamp255 = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));
const mix = (a: RGB, b: RGB, t: number): RGB => [
  a[0] + (b[0] - a[0]) * t,
  a[1] + (b[1] - a[1]) * t,
  a[2] + (b[2] - a[2]) * t,
];
const shade = (a: RGB, s: number): RGB => [a[0] * s, a[1] * s, a[2] * s];
const smooth = (e0: number, e1: number, x: number) => {
  const t = Math.min(1, Math.max(0, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
};
/** Cheap value noise for fabric/hair grain. */
const hash = (x: number, y: number) => {
  const s = Math.sin(x * 127.1 + y * 311.7) * 43758.5453;
  return s - Math.floor(s);
};

/** Head painting in the head's (θ, φ) terms: θ from the back (0) to the front (π) and round, φ from the top. */
function paintHead(p: Palette, theta: number, phi: number): RGB {
  let c = p.skin;
  // Ears: slightly darker discs at the sides.
  const side = Math.min(Math.abs(theta - Math.PI / 2), Math.abs(theta - 1.5 * Math.PI));
  if (p.face !== 'none' && Math.hypot(side / 0.18, (phi - 1.62) / 0.22) < 1) c = shade(p.skin, 0.9);
  if (p.face === 'none') {
    if (p.panels) {
      // A mannequin's seam lines: a vertical line over the head and a jaw line.
      const d = Math.abs(theta - Math.PI);
      if (d < 0.012 || Math.abs(phi - 2.05) < 0.012) c = mix(c, p.panels, 0.8);
    }
    return c;
  }
  // Face coordinates: x to the character's left of the face centre (radians of longitude), y up (latitude).
  const x = theta - Math.PI;
  const y = Math.PI / 2 - phi;
  if (p.face === 'smile') {
    // Roblox-style: two black oval eyes and a smile arc.
    for (const ex of [-0.23, 0.23])
      if (((x - ex) / 0.055) ** 2 + ((y - 0.02) / 0.1) ** 2 < 1) c = [20, 20, 20];
    const r = Math.hypot(x / 1.0, (y + 0.02) / 0.75);
    if (Math.abs(r - 0.36) < 0.025 && y < -0.15) c = [20, 20, 20];
    return c;
  }
  // Cartoon face.
  if (p.blush)
    for (const bx of [-0.36, 0.36])
      c = mix(
        c,
        [240, 130, 140],
        0.45 * (1 - smooth(0, 1, ((x - bx) / 0.12) ** 2 + ((y + 0.18) / 0.07) ** 2)),
      );
  for (const ex of [-0.25, 0.25]) {
    const dx = (x - ex) / 0.13;
    const dy = (y + 0.02) / 0.115;
    const e = dx * dx + dy * dy;
    if (e < 1) {
      c = [250, 250, 250];
      const ix = (x - ex) / 0.075;
      const iy = (y + 0.03) / 0.095;
      const ie = ix * ix + iy * iy;
      if (ie < 1)
        c = mix([70, 120, 60].map((v) => (p.blush ? v * 0.9 : v)) as RGB, [40, 70, 130], p.blush ? 0.2 : 0.6);
      if (ie < 0.35) c = [20, 20, 25];
      if (((x - ex + 0.025) / 0.022) ** 2 + ((y + 0.0) / 0.022) ** 2 < 1) c = [255, 255, 255];
    }
    // Outline and lashes.
    if (e >= 1 && e < 1.35 && y > -0.06) c = [35, 25, 20];
    // Brows.
    const by = 0.14 + 0.02 * Math.cos(((x - ex) / 0.14) * 1.5);
    if (Math.abs(x - ex) < 0.13 && Math.abs(y - by) < 0.016) c = p.hair ? shade(p.hair, 0.8) : [60, 40, 30];
  }
  // Nose: a soft shadow.
  c = mix(c, shade(p.skin, 0.8), 0.5 * (1 - smooth(0, 1, (x / 0.035) ** 2 + ((y + 0.17) / 0.03) ** 2)));
  // Mouth: a dark interior band between the lips (an opened jaw stretches it), lips around it.
  const mouthW = 0.19;
  const my = -0.33 + 0.05 * (x / mouthW) ** 2;
  if (Math.abs(x) < mouthW) {
    const d = y - my;
    const h = 0.014 * (1 - (x / mouthW) ** 2) ** 0.5;
    if (Math.abs(d) < h) c = [120, 30, 40];
    else if (Math.abs(d) < h + 0.016) c = mix(c, p.blush ? [215, 95, 110] : [200, 110, 100], 0.7);
  }
  return c;
}

function paintTorso(p: Palette, u: number, v: number): RGB {
  // v: 0 at the bottom (crotch), 1 at the neck top. u: 0.5 = front.
  const waist = 0.3;
  let c: RGB = v < waist ? p.pants : p.shirt;
  if (p.panels) {
    if (Math.abs(u - 0.5) < 0.004 || Math.abs(v - waist) < 0.006 || Math.abs(v - 0.72) < 0.004)
      c = mix(c, p.panels, 0.85);
    return c;
  }
  if (p.limbSkin) return c;
  if (v >= waist) {
    // Chest stripe and collar.
    if (Math.abs(v - 0.68) < 0.035) c = p.shirtAccent;
    if (v > 0.93) c = p.skin;
    if (v > 0.9 && v <= 0.93) c = p.shirtAccent;
    // Hem.
    if (v < waist + 0.025) c = shade(p.shirt, 0.85);
  } else {
    // Belt (boy) / skirt hem.
    if (v > waist - 0.04) c = p.pants === PALETTES.boy.pants ? [60, 45, 35] : shade(p.pants, 0.85);
    // Fly seam at the front.
    if (Math.abs(u - 0.5) < 0.003 && v > 0.12) c = shade(c, 0.75);
  }
  const g = 0.96 + 0.04 * hash(Math.floor(u * 400), Math.floor(v * 400));
  return shade(c, g);
}

function paintArm(p: Palette, _u: number, v: number): RGB {
  // v: 0 at the shoulder, 1 at the wrist.
  let c = p.limbSkin ?? p.skin;
  if (v < p.sleeve) c = p.shirt;
  if (p.sleeve > 0 && Math.abs(v - p.sleeve) < 0.012) c = p.shirtAccent;
  if (p.panels && (Math.abs(v - 0.5) < 0.01 || Math.abs(_u - 0.5) < 0.004)) c = mix(c, p.panels, 0.8);
  return c;
}

function paintLeg(p: Palette, u: number, v: number): RGB {
  // v: 0 at the hip, 1 at the ankle.
  let c = v < p.pantsLength ? p.pants : v > 0.8 ? p.sock : p.skin;
  if (!p.panels && !p.limbSkin && v < p.pantsLength) {
    if (Math.abs(u - 0.25) < 0.004 || Math.abs(u - 0.75) < 0.004) c = shade(c, 0.8); // side seams
    if (p.pantsLength < 0.9 && v > p.pantsLength - 0.03) c = shade(c, 0.85); // hem
    c = shade(c, 0.95 + 0.05 * hash(Math.floor(u * 300), Math.floor(v * 300)));
  }
  if (p.panels && (Math.abs(v - 0.52) < 0.01 || Math.abs(u - 0.5) < 0.004)) c = mix(c, p.panels, 0.8);
  return c;
}

function paintShoe(p: Palette, u: number, v: number): RGB {
  // v: 0 at the heel, 1 at the toe tip; u: 0.5 = top (the part's "front" is up).
  const top = Math.cos((u - 0.5) * 2 * Math.PI); // 1 on top, -1 under the sole
  if (top < -0.35) return p.sole;
  if (top < -0.2) return shade(p.sole, 0.9);
  let c = p.shoe;
  if (!p.panels && !p.limbSkin && top > 0.8 && v > 0.35 && v < 0.7 && Math.floor(v * 40) % 2 === 0)
    c = [245, 245, 245]; // laces
  if (v > 0.85 && !p.panels) c = mix(c, p.sole, 0.5); // toe cap
  return c;
}

function paintHair(p: Palette, u: number, v: number): RGB {
  const h = p.hair ?? [40, 30, 20];
  const strand = 0.85 + 0.15 * hash(Math.floor(u * 220), 3) + 0.05 * Math.sin(v * 60);
  return shade(h, strand);
}

/** Paints and encodes the base-colour atlas of a kind. */
export function paintTexture(kind: CharacterKind): Uint8Array {
  const p = PALETTES[kind];
  const N = TEXTURE_SIZE[kind];
  const px = new Uint8Array(N * N * 4);
  const put = (x: number, y: number, c: RGB) => {
    const i = (y * N + x) * 4;
    px[i] = clamp255(c[0]);
    px[i + 1] = clamp255(c[1]);
    px[i + 2] = clamp255(c[2]);
    px[i + 3] = 255;
  };
  const region = (r: Rect, f: (u: number, v: number) => RGB) => {
    const x0 = Math.round(r[0] * N);
    const x1 = Math.round(r[2] * N);
    const y0 = Math.round(r[1] * N);
    const y1 = Math.round(r[3] * N);
    for (let y = y0; y < y1; y++)
      for (let x = x0; x < x1; x++) put(x, y, f((x + 0.5 - x0) / (x1 - x0), (y + 0.5 - y0) / (y1 - y0)));
  };
  region(ATLAS.head, (u, v) => paintHead(p, u * 2 * Math.PI, v * Math.PI));
  region(ATLAS.hair, (u, v) => paintHair(p, u, v));
  region(ATLAS.skin, () => p.skin);
  region(ATLAS.armL, (u, v) => paintArm(p, u, v));
  region(ATLAS.armR, (u, v) => paintArm(p, u, v));
  // Torso v runs bottom → top in the mesh (rings from the crotch up): the atlas v grows with the ring index.
  region(ATLAS.torso, (u, v) => paintTorso(p, u, v));
  region(ATLAS.legL, (u, v) => paintLeg(p, u, v));
  region(ATLAS.legR, (u, v) => paintLeg(p, u, v));
  region(ATLAS.shoe, (u, v) => paintShoe(p, u, v));
  region(ATLAS.hand, () => p.limbSkin ?? p.skin);
  return encodePng(N, N, px, 4);
}
