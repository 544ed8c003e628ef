/**
 * Procedural characters: a stylised, textured, skinned person built in code for the character bone types
 * (BoyFBX, GirlFBX) and the texture sets (boy, girl, Roblox-style, UE4- and UE5-mannequin-style), plus a face
 * mesh with ARKit morph targets for OnlyFace.
 *
 * `makeCharacter(kind, rig?, skeleton?)` builds the body on a canonical skeleton (default: the default adult
 * skeleton; with a rig but no skeleton, the skeleton is read back from the rig's rest pose), so the mesh fits the
 * clip it is exported with. Parts are closed, lofted tubes along the skeleton (torso, neck, arms, palms, fingers,
 * legs, shoes) and ellipsoids (head, hair shell), with rounded caps; they overlap at the joints instead of being
 * welded (watertight per part, not one manifold). Skin weights: each ring of a tube follows its bone, blended
 * linearly over ±4 cm around a joint (thumb/palm/shoulder/hip areas blend into the parent), ≤ 4 influences,
 * normalised. The mesh is bound in the rig's rest pose: for A-pose rigs the arms are lowered by linear blend
 * skinning, exactly as the rig's rest is built (about the canonical Z axis through the shoulder joint). Joint
 * names are the rig's bone names (the bone whose `source` is the canonical joint; a joint the rig lacks falls back
 * to its nearest mapped ancestor), or canonical names without a rig.
 *
 * Textures: one base-colour atlas per kind (`texture.ts`; 1024² for boy/girl, 512² for the flat-coloured kinds),
 * cached per kind (painting + PNG encoding take about 0.1–0.3 s per kind the first time). Geometry: about 6.5 k
 * vertices / 12 k triangles (boy, girl; 5 k / 9 k without hair), built in about 50 ms.
 *
 * `makeFaceMesh()` is a head (and neck) with all 52 ARKit morph targets, named and ordered as ARKit names them:
 * the shapes slide the surface (eyelids close over the painted eyes, the jaw stretches the painted mouth open, lip
 * corners rise for a smile, cheeks puff out...), so they read well with the base-colour texture alone. There is no
 * tongue or eyeball geometry: `tongueOut` pushes the middle of the lower lip out, the `eyeLook*` shapes slide the
 * painted eye. Characters with `faceMorphs` (previews) carry the solver-supported shapes only.
 */

import { ARKIT_BLENDSHAPES, type MotionClip, restClip, restPositions, type Skeleton } from '../clip.ts';
import { write as writeGlb } from '../formats/gltf.ts';
import {
  cross,
  dot,
  length,
  type Quat,
  qFromAxisAngle,
  qMul,
  qRotate,
  sub,
  unit,
  type Vec3,
} from '../math.ts';
import { rotateQ64 } from '../quat64.ts';
import { rigToCanonical } from '../rigs/build.ts';
import type { Character, MorphTarget, Rig, SkinnedMesh } from '../rigs/types.ts';
import { createSkeleton, DEFAULT_PROPORTIONS } from '../skeleton.ts';
import { SUPPORTED_BLENDSHAPES } from '../solver/face.ts';
import { ellipsoid, type Influences, MeshBuilder, mergeInfluences, type Ring, tube } from './mesh.ts';
import { ATLAS, CHARACTER_KINDS, type CharacterKind, PALETTES, paintTexture } from './texture.ts';

export { CHARACTER_KINDS, type CharacterKind } from './texture.ts';

const FULL = createSkeleton(DEFAULT_PROPORTIONS, { fingers: true });
const JOINT = new Map(FULL.names.map((n, i) => [n, i]));
const ji = (name: string) => {
  const j = JOINT.get(name);
  if (j === undefined) throw new Error(`character: unknown joint ${name}`);
  return j;
};

const add = (a: Vec3, b: Vec3, s = 1): Vec3 => [a[0] + b[0] * s, a[1] + b[1] * s, a[2] + b[2] * s];
const smooth = (e0: number, e1: number, x: number) => {
  const t = Math.min(1, Math.max(0, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
};

// ------------------------------------------------------------------ joint positions (T-pose, canonical)

type Joints = Map<string, Vec3>;

/**
 * Joint positions per skeleton: the bone types of one capture build up to six meshes (five characters and the
 * face) on the same skeleton; its joints are computed once. Never modified after `complete`.
 */
const JOINTS_CACHE = new WeakMap<Skeleton, Joints>();

/** T-pose joint positions (and tips) of a canonical skeleton, completed with the default skeleton's fingers. */
function jointsOf(skeleton: Skeleton): Joints {
  let j = JOINTS_CACHE.get(skeleton);
  if (!j) {
    j = computeJoints(skeleton);
    JOINTS_CACHE.set(skeleton, j);
  }
  return j;
}

function computeJoints(skeleton: Skeleton): Joints {
  const out: Joints = new Map();
  const rp = restPositions(skeleton);
  skeleton.names.forEach((n, j) => {
    out.set(n, [rp[3 * j], rp[3 * j + 1], rp[3 * j + 2]]);
    const t: Vec3 = [skeleton.tips[3 * j], skeleton.tips[3 * j + 1], skeleton.tips[3 * j + 2]];
    if (length(t) > 1e-9) out.set(`tip:${n}`, add(out.get(n) as Vec3, t));
  });
  return complete(out);
}

/** Adds joints missing from `j` (fingers, tips) from the default skeleton, scaled by the body height ratio. */
function complete(j: Joints): Joints {
  const rp = restPositions(FULL);
  const ref = (n: string): Vec3 => {
    const i = ji(n);
    return [rp[3 * i], rp[3 * i + 1], rp[3 * i + 2]];
  };
  const k = (j.get('head')?.[1] ?? ref('head')[1]) / ref('head')[1];
  FULL.names.forEach((n, i) => {
    if (!j.has(n)) {
      let a = FULL.parents[i];
      while (a >= 0 && !j.has(FULL.names[a])) a = FULL.parents[a];
      const base = a >= 0 ? (j.get(FULL.names[a]) as Vec3) : [0, 0, 0];
      const rel = a >= 0 ? sub(ref(n), ref(FULL.names[a])) : ref(n);
      j.set(n, add(base as Vec3, rel, k));
    }
    const t: Vec3 = [FULL.tips[3 * i], FULL.tips[3 * i + 1], FULL.tips[3 * i + 2]];
    if (!j.has(`tip:${n}`) && length(t) > 1e-9) j.set(`tip:${n}`, add(j.get(n) as Vec3, t, k));
  });
  return j;
}

/** The canonical T-pose joints a rig was built on, read back from its rest pose (arms raised for A-pose rigs). */
function jointsFromRig(rig: Rig): Joints {
  const n = rig.bones.length;
  const idx = new Map(rig.bones.map((b, i) => [b.name, i]));
  const P: Vec3[] = [];
  const Q: Quat[] = [];
  for (let b = 0; b < n; b++) {
    const bone = rig.bones[b];
    const p = bone.parent === null ? -1 : (idx.get(bone.parent) ?? -1);
    if (p < 0) {
      P.push([...bone.restTranslation] as Vec3);
      Q.push([...bone.restRotation] as Quat);
    } else {
      P.push(add(P[p], qRotate(Q[p], bone.restTranslation)));
      Q.push(qMul(Q[p], bone.restRotation));
    }
  }
  const out: Joints = new Map();
  rig.bones.forEach((b, i) => {
    if (b.source && !out.has(b.source)) out.set(b.source, rigToCanonical(rig, P[i]));
  });
  if (rig.restPose.kind !== 'T' && rig.restPose.armDownDeg !== 0) {
    const down = (rig.restPose.armDownDeg * Math.PI) / 180;
    for (const side of ['left', 'right'] as const) {
      const s = side === 'left' ? 1 : -1;
      const c = out.get(`${side}UpperArm`);
      if (!c) continue;
      const undo = qFromAxisAngle([0, 0, 1], s * down);
      for (const [name, p] of out)
        if (isArmJoint(name, side)) out.set(name, add(c, qRotate(undo, sub(p, c))));
    }
  }
  return complete(out);
}

const ARM_PARTS = ['UpperArm', 'Forearm', 'Hand', 'Thumb', 'Index', 'Middle', 'Ring', 'Pinky'];
function isArmJoint(name: string, side: 'left' | 'right'): boolean {
  const n = name.startsWith('tip:') ? name.slice(4) : name;
  return n.startsWith(side) && ARM_PARTS.some((p) => n.slice(side.length).startsWith(p));
}

// ------------------------------------------------------------------ influences

/** What `chainInf` needs of a chain, computed once per chain (not per vertex): points, segments, arc lengths. */
interface ChainPrep {
  J: Joints;
  h: number;
  before: string | undefined;
  after: string | undefined;
  /** Joint positions (3 per point), segment vectors (3 per segment), segment lengths, arc length at each joint. */
  P: Float64Array;
  D: Float64Array;
  L: Float64Array;
  S: number[];
}

/** Chain preparations by chain array: call sites keep one array per chain, so a mesh part's vertices share it. */
const CHAIN_PREP = new WeakMap<readonly string[], ChainPrep>();

function chainPrep(
  J: Joints,
  chain: readonly string[],
  h: number,
  before?: string,
  after?: string,
): ChainPrep {
  const hit = CHAIN_PREP.get(chain);
  if (hit && hit.J === J && hit.h === h && hit.before === before && hit.after === after) return hit;
  const pts = chain.map((n) => J.get(n) as Vec3);
  const n = pts.length;
  const P = new Float64Array(3 * n);
  const D = new Float64Array(3 * Math.max(0, n - 1));
  const L = new Float64Array(Math.max(0, n - 1));
  const S: number[] = [0];
  let acc = 0;
  for (let i = 0; i < n; i++) P.set(pts[i], 3 * i);
  for (let i = 0; i + 1 < n; i++) {
    const d = sub(pts[i + 1], pts[i]);
    D.set(d, 3 * i);
    L[i] = length(d);
    acc += L[i];
    S.push(acc);
  }
  const prep = { J, h, before, after, P, D, L, S };
  CHAIN_PREP.set(chain, prep);
  return prep;
}

/** Joint `i` of a chain, `before` it below 0, `after` it past its end. (Module level: a closure made per vertex
 *  costs more than the arithmetic, tsx's keepNames adds a defineProperty to each.) */
function chainJoint(
  chain: readonly string[],
  i: number,
  before?: string,
  after?: string,
): string | undefined {
  return i < 0 ? before : i >= chain.length ? after : chain[i];
}

/** Influences along a chain of joints for a point: its bone, blended ±h around interior joints. */
function chainInf(
  J: Joints,
  chain: readonly string[],
  p: Vec3,
  h = 0.04,
  before?: string,
  after?: string,
): Influences {
  const { P, D, L, S } = chainPrep(J, chain, h, before, after);
  const n = chain.length;
  const p0 = p[0];
  const p1 = p[1];
  const p2 = p[2];
  // Arc position of the projection of p on the polyline (the same arithmetic as with Vec3 helpers).
  let best = Number.POSITIVE_INFINITY;
  let s = 0;
  for (let i = 0; i + 1 < n; i++) {
    const ax = P[3 * i];
    const ay = P[3 * i + 1];
    const az = P[3 * i + 2];
    const dx = D[3 * i];
    const dy = D[3 * i + 1];
    const dz = D[3 * i + 2];
    const l = L[i];
    const t = Math.min(1.5, Math.max(-0.5, ((p0 - ax) * dx + (p1 - ay) * dy + (p2 - az) * dz) / (l * l)));
    const tc = Math.min(1, Math.max(0, t));
    const dist = Math.hypot(p0 - (ax + dx * tc), p1 - (ay + dy * tc), p2 - (az + dz * tc));
    if (dist < best - 1e-9) {
      best = dist;
      s = S[i] + t * l;
    }
  }
  // Segment index i: bone chain[i] runs from S[i] to S[i+1]; the last joint owns everything beyond.
  const infl: [number, number][] = [];
  let seg = 0;
  while (seg + 1 < S.length && s > S[seg + 1]) seg++;
  if (seg >= S.length - 1 && n > 1) seg = S.length - 1;
  const owner = Math.min(seg, chain.length - 1);
  infl.push([ji(chain[owner]), 1]);
  // Blend with the neighbour across the nearest joint.
  for (let k = owner; k <= owner + 1; k++) {
    const sj = S[k];
    if (sj === undefined) continue;
    const d = s - sj;
    if (Math.abs(d) < h) {
      const t = smooth(-h, h, d);
      const lower = chainJoint(chain, k - 1, before, after);
      const upper = chainJoint(chain, k, before, after);
      if (!lower || !upper) continue;
      infl.length = 0;
      infl.push([ji(lower), 1 - t], [ji(upper), t]);
    }
  }
  return infl;
}

/** The hair's influences: the head joint alone (one function for every build). */
function headOnly(): Influences {
  return [[ji('head'), 1]];
}

const mixInf = (a: Influences, b: Influences, t: number): Influences => [
  ...a.map(([j, w]) => [j, w * (1 - t)] as const),
  ...b.map(([j, w]) => [j, w * t] as const),
];

// ------------------------------------------------------------------ body

interface Shape {
  /** Girth scale of the torso parts. */
  chest: number;
  waist: number;
  hips: number;
  limbs: number;
  head: number;
  hair: 'short' | 'long' | 'none';
}

const SHAPES: Record<CharacterKind, Shape> = {
  boy: { chest: 1, waist: 1, hips: 1, limbs: 1, head: 1.1, hair: 'short' },
  girl: { chest: 0.95, waist: 0.84, hips: 1.08, limbs: 0.88, head: 1.1, hair: 'long' },
  roblox: { chest: 1.08, waist: 1.05, hips: 1.05, limbs: 1.1, head: 1.12, hair: 'none' },
  ue4: { chest: 1.05, waist: 0.95, hips: 1, limbs: 1, head: 0.98, hair: 'none' },
  ue5: { chest: 1.08, waist: 0.95, hips: 1, limbs: 1.02, head: 0.98, hair: 'none' },
};

/** Ring helper: centre, tangent, front reference, radius toward the side (a) and the front (b). */
function ring(c: Vec3, tangent: Vec3, front: Vec3, ra: number, rb: number, inf: Influences): Ring {
  const t = unit(tangent);
  const f = unit(sub(front, [t[0] * dot(front, t), t[1] * dot(front, t), t[2] * dot(front, t)]));
  const side = unit(cross(f, t));
  return { c, a: [side[0] * ra, side[1] * ra, side[2] * ra], b: [f[0] * rb, f[1] * rb, f[2] * rb], inf };
}

interface HeadGeom {
  c: Vec3;
  r: Vec3;
}

function headGeom(J: Joints, shape: Shape): HeadGeom {
  const head = J.get('head') as Vec3;
  const top = J.get('tip:head') ?? add(head, [0, 0.155, 0]);
  const k = ((top[1] - head[1]) / 0.155) * shape.head;
  return { c: add(head, [0, 0.032 * k, 0.012 * k]), r: [0.088 * k, 0.116 * k, 0.102 * k] };
}

// Per-vertex skin weights of the body parts: module-level functions of the vertex and a context object (the part's
// joints and sizes), not closures made on every build — V8 optimised each new closure again (tens of TurboFan
// compiles per character), while these are compiled once per process.

interface TorsoCtx {
  J: Joints;
  chain: readonly string[];
  hips: Vec3;
  spine2: Vec3;
  yN: number;
  sw: number;
  hw: number;
}
function torsoInf(p: Vec3, c: TorsoCtx): Influences {
  let inf = chainInf(c.J, c.chain, p, 0.05);
  // Shoulders follow the clavicles; the pelvis sides follow the thighs a little.
  const hips = c.hips;
  const ax = Math.abs(p[0] - hips[0]);
  const side = p[0] > hips[0] ? 'left' : 'right';
  const wc = smooth(c.spine2[1] + 0.02, c.yN - 0.02, p[1]) * smooth(0.3 * c.sw, 0.75 * c.sw, ax);
  if (wc > 0) inf = mixInf(inf, [[ji(`${side}Clavicle`), 1]], wc * 0.85);
  const wt = smooth(hips[1] - 0.01, hips[1] - 0.11, p[1]) * smooth(0.2 * c.hw, c.hw, ax) * 0.6;
  if (wt > 0) inf = mixInf(inf, [[ji(`${side}Thigh`), 1]], wt);
  return inf;
}

interface NeckCtx {
  J: Joints;
  chain: readonly string[];
  yN: number;
}
function bodyNeckInf(p: Vec3, c: NeckCtx): Influences {
  const inf = chainInf(c.J, c.chain, p, 0.03, 'spine2');
  const yN = c.yN;
  return p[1] < yN ? mixInf(inf, [[ji('spine2'), 1]], smooth(yN, yN - 0.03, p[1])) : inf;
}
function faceNeckInf(p: Vec3, c: { J: Joints; chain: readonly string[] }): Influences {
  return chainInf(c.J, c.chain, p, 0.03);
}

function headInf(p: Vec3, head: HeadGeom): Influences {
  const w = smooth(head.c[1] - head.r[1] * 0.55, head.c[1] - head.r[1] * 1.05, p[1]) * 0.5;
  return w > 0 ? mixInf([[ji('head'), 1]], [[ji('neck'), 1]], w) : [[ji('head'), 1]];
}

/** How far down the hair shell reaches at longitude θ (0 at the back, 1 at the front in f). */
function shortHairPhi(th: number): number {
  const f = (1 - Math.cos(th)) / 2;
  return Math.PI * (0.6 - 0.25 * f ** 1.5);
}
function longHairPhi(th: number): number {
  const f = (1 - Math.cos(th)) / 2;
  return Math.PI * (0.72 - 0.4 * f ** 1.5);
}

interface HairCtx {
  headY: number;
  neckY: number;
}
function hairInf(p: Vec3, c: HairCtx): Influences {
  const t = smooth(c.headY, c.neckY - 0.05, p[1]);
  return mixInf([[ji('head'), 1]], [[ji('neck'), 1]], t * 0.7);
}

interface ArmCtx {
  J: Joints;
  chain: readonly string[];
  k: number;
  sh: Vec3;
  s: number;
  clavicle: number;
}
function armInf(p: Vec3, c: ArmCtx): Influences {
  let inf = chainInf(c.J, c.chain, p, 0.035 * c.k);
  const d = (p[0] - c.sh[0]) * c.s;
  const wc = 1 - smooth(-0.04 * c.k, 0.06 * c.k, d);
  if (wc > 0) inf = mixInf(inf, [[c.clavicle, 1]], wc * 0.6);
  return inf;
}

interface PalmCtx {
  wr: Vec3;
  s: number;
  k: number;
  hand: number;
  forearm: number;
}
function palmInf(p: Vec3, c: PalmCtx): Influences {
  const d = (p[0] - c.wr[0]) * c.s;
  const w = 1 - smooth(-0.01 * c.k, 0.03 * c.k, d);
  return w > 0 ? mixInf([[c.hand, 1]], [[c.forearm, 1]], w * 0.5) : [[c.hand, 1]];
}

interface FingerCtx {
  J: Joints;
  chain: readonly string[];
  h: number;
  before: string;
}
function fingerInf(p: Vec3, c: FingerCtx): Influences {
  return chainInf(c.J, c.chain, p, c.h, c.before);
}

interface LegCtx {
  J: Joints;
  chain: readonly string[];
  k: number;
  th: Vec3;
}
function legInf(p: Vec3, c: LegCtx): Influences {
  let inf = chainInf(c.J, c.chain, p, 0.045 * c.k);
  const w = smooth(c.th[1] - 0.05 * c.k, c.th[1] + 0.06 * c.k, p[1]);
  if (w > 0) inf = mixInf(inf, [[ji('hips'), 1]], w * 0.6);
  return inf;
}

interface FootCtx {
  J: Joints;
  chain: readonly string[];
  ax: number;
  toesY: number;
  k: number;
}
function footInf(p: Vec3, c: FootCtx): Influences {
  return chainInf(c.J, c.chain, [c.ax, c.toesY, p[2]], 0.02 * c.k);
}

function buildBody(J: Joints, kind: CharacterKind): { m: MeshBuilder; head: HeadGeom } {
  const m = new MeshBuilder();
  const shape = SHAPES[kind];
  const g = (n: string) => J.get(n) as Vec3;
  const hips = g('hips');
  const k = (g('neck')[1] - g('leftFoot')[1]) / (1.52 - 0.075); // body size vs the default adult
  const Y: Vec3 = [0, 1, 0];
  const Z: Vec3 = [0, 0, 1];

  // Torso: crotch → neck base.
  const hw = Math.abs(g('leftThigh')[0] - hips[0]);
  const sw = Math.abs(g('leftUpperArm')[0] - g('spine2')[0]);
  const yN = g('neck')[1];
  const torso: TorsoCtx = {
    J,
    chain: ['hips', 'spine', 'spine1', 'spine2'],
    hips,
    spine2: g('spine2'),
    yN,
    sw,
    hw,
  };
  const tr = (y: number, a: number, b: number, dz = 0) => {
    const c: Vec3 = [hips[0], y, hips[2] + dz];
    return ring(c, Y, Z, a, b, torsoInf(c, torso));
  };
  const torsoRings = [
    tr(hips[1] - 0.085 * k, (hw + 0.035 * k) * shape.hips, 0.08 * k * shape.hips, -0.005),
    tr(hips[1] - 0.03 * k, (hw + 0.072 * k) * shape.hips, 0.1 * k * shape.hips),
    tr(hips[1] + 0.045 * k, (hw + 0.068 * k) * (0.5 + 0.5 * shape.hips), 0.1 * k),
    tr(g('spine1')[1], 0.135 * k * shape.waist, 0.09 * k * (0.6 + 0.4 * shape.waist)),
    tr(g('spine2')[1], sw * 0.8 * shape.chest, 0.1 * k * shape.chest, 0.005),
    tr(yN - 0.045 * k, sw * 0.9 * shape.chest, 0.085 * k * shape.chest, -0.005),
    tr(yN + 0.02 * k, sw * 0.45, 0.065 * k, -0.01),
  ];
  // Vertex influences are per ring in `tube`; refine per vertex afterwards for the torso (clavicles/thighs).
  const torsoStart = m.vertexCount;
  tube(m, torsoRings, ATLAS.torso, 'torso', { around: 32, capSteps: [3, 2], capDepth: [0.6, 0.3] });
  reweigh(m, torsoStart, torsoInf, torso);

  // Neck.
  const neckStart = m.vertexCount;
  const head = headGeom(J, shape);
  const neck: NeckCtx = { J, chain: ['neck', 'head'], yN };
  tube(
    m,
    [
      ring([g('neck')[0], yN - 0.03 * k, g('neck')[2] - 0.005], Y, Z, 0.058 * k, 0.056 * k, []),
      ring([g('head')[0], g('head')[1] - 0.01, g('head')[2] - 0.01], Y, Z, 0.05 * k, 0.052 * k, []),
    ],
    ATLAS.skin,
    'neck',
    { around: 16, capSteps: [1, 1], capDepth: [0.2, 0.2] },
  );
  reweigh(m, neckStart, bodyNeckInf, neck);

  // Head.
  ellipsoid(m, head.c, head.r, ATLAS.head, 'head', headInf, {
    lon: 48,
    lat: 40,
    phiDensity: HEAD_DENSITY,
    infCtx: head,
  });

  // Hair.
  if (shape.hair !== 'none') {
    const hr: Vec3 = [head.r[0] + 0.011 * k, head.r[1] + 0.012 * k, head.r[2] + 0.012 * k];
    const hc = add(head.c, [0, 0.004 * k, -0.004 * k]);
    const long = shape.hair === 'long';
    ellipsoid(m, hc, hr, ATLAS.hair, 'hair', headOnly, {
      lon: 40,
      lat: 16,
      shell: 0.008 * k,
      phiMax: long ? longHairPhi : shortHairPhi,
    });
    if (long) {
      // Long hair down the back: a flattened tube from the back of the head to the shoulder blades.
      const bz = head.c[2] - head.r[2] * 0.55;
      const hair: HairCtx = { headY: g('head')[1], neckY: g('neck')[1] };
      const rings = [
        [head.c[1] + 0.02 * k, 0.088, 0.05],
        [g('head')[1], 0.095, 0.045],
        [yN, 0.1, 0.035],
        [yN - 0.1 * k, 0.085, 0.028],
      ].map(([y, a, b], i) => {
        const c: Vec3 = [head.c[0], y, bz - 0.02 * k * i];
        return ring(c, [0, -1, 0], [0, 0, -1], a * k, b * k, hairInf(c, hair));
      });
      const hs = m.vertexCount;
      tube(m, rings, ATLAS.hair, 'hair', { around: 20, capSteps: [2, 3], capDepth: [0.5, 0.6] });
      reweigh(m, hs, hairInf, hair);
    }
  }

  // Arms, hands, fingers.
  for (const side of ['left', 'right'] as const) {
    const s = side === 'left' ? 1 : -1;
    const A = (n: string) => g(`${side}${n}`);
    const sh = A('UpperArm');
    const el = A('Forearm');
    const wr = A('Hand');
    const dir: Vec3 = [s, 0, 0];
    const L = shape.limbs * k;
    const arm: ArmCtx = {
      J,
      chain: [`${side}UpperArm`, `${side}Forearm`, `${side}Hand`],
      k,
      sh,
      s,
      clavicle: ji(`${side}Clavicle`),
    };
    const ar = (c: Vec3, ra: number, rb: number) => ring(c, dir, Z, ra * L, rb * L, armInf(c, arm));
    const at = (a: Vec3, b: Vec3, t: number): Vec3 => add(a, sub(b, a), t);
    const armStart = m.vertexCount;
    tube(
      m,
      [
        ar(add(sh, [-s * 0.035 * k, 0, 0]), 0.05, 0.052),
        ar(add(sh, [s * 0.04 * k, 0, 0]), 0.05, 0.05),
        ar(at(sh, el, 0.6), 0.042, 0.043),
        ar(el, 0.036, 0.038),
        ar(at(el, wr, 0.3), 0.04, 0.042),
        ar(at(el, wr, 0.92), 0.028, 0.033),
      ],
      side === 'left' ? ATLAS.armL : ATLAS.armR,
      side === 'left' ? 'armL' : 'armR',
      { around: 20, capSteps: [3, 2], capDepth: [0.8, 0.4] },
    );
    reweigh(m, armStart, armInf, arm);

    // Palm: wrist → knuckles, flat (thin in Y, wide in Z).
    const knuckle = A('Middle1');
    const zc = (A('Index1')[2] + A('Pinky1')[2]) / 2;
    const palm: PalmCtx = { wr, s, k, hand: ji(`${side}Hand`), forearm: ji(`${side}Forearm`) };
    const pw = Math.abs(A('Index1')[2] - A('Pinky1')[2]) / 2 + 0.011 * k;
    const pr = (x: Vec3, ra: number, rb: number) =>
      ring([x[0], x[1] - 0.002 * k, zc], dir, Z, ra * L, rb, palmInf(x, palm));
    const palmStart = m.vertexCount;
    tube(
      m,
      [
        pr(add(wr, [-s * 0.01 * k, 0, 0]), 0.02, pw * 0.75),
        pr(at(wr, knuckle, 0.5), 0.021, pw * 1.0),
        pr(add(knuckle, [-s * 0.008 * k, 0, 0]), 0.017, pw),
      ],
      ATLAS.hand,
      'hand',
      { around: 16, capSteps: [2, 3], capDepth: [0.5, 0.6] },
    );
    reweigh(m, palmStart, palmInf, palm);
    for (const f of ['Thumb', 'Index', 'Middle', 'Ring', 'Pinky']) {
      const chain = [1, 2, 3].map((i) => `${side}${f}${i}`);
      const pts = [...chain.map((n) => g(n)), J.get(`tip:${side}${f}3`) as Vec3];
      const r0 = (f === 'Thumb' ? 0.011 : f === 'Pinky' ? 0.0075 : 0.0088) * L * 1.05;
      const finger: FingerCtx = { J, chain, h: 0.008 * k, before: `${side}Hand` };
      const rings: Ring[] = pts.map((c, i) => {
        const t = i < pts.length - 1 ? sub(pts[i + 1], c) : sub(c, pts[i - 1]);
        const r = r0 * (1 - 0.12 * i);
        return ring(c, t, [0, 1, 0], r, r * 0.9, fingerInf(c, finger));
      });
      const fs = m.vertexCount;
      tube(m, rings, ATLAS.hand, 'hand', { around: 10, capSteps: [2, 2], capDepth: [0.6, 0.9] });
      reweigh(m, fs, fingerInf, finger);
    }
  }

  // Legs and shoes.
  for (const side of ['left', 'right'] as const) {
    const A = (n: string) => g(`${side}${n}`);
    const th = A('Thigh');
    const kn = A('Shin');
    const an = A('Foot');
    const L = shape.limbs * k;
    const leg: LegCtx = { J, chain: [`${side}Thigh`, `${side}Shin`, `${side}Foot`], k, th };
    const lr = (c: Vec3, ra: number, rb: number) => ring(c, [0, -1, 0], Z, ra * L, rb * L, legInf(c, leg));
    const at = (a: Vec3, b: Vec3, t: number): Vec3 => add(a, sub(b, a), t);
    const girlThigh = kind === 'girl' ? 1.06 : 1;
    const ls = m.vertexCount;
    tube(
      m,
      [
        lr(add(th, [0, 0.06 * k, -0.005]), 0.082 * girlThigh, 0.085 * girlThigh),
        lr(th, 0.086 * girlThigh, 0.09 * girlThigh),
        lr(at(th, kn, 0.35), 0.074 * girlThigh, 0.078 * girlThigh),
        lr(at(th, kn, 0.85), 0.056, 0.058),
        lr(kn, 0.051, 0.055),
        lr(add(at(kn, an, 0.3), [0, 0, -0.008 * k]), 0.053, 0.06),
        lr(at(kn, an, 0.82), 0.037, 0.04),
        lr(add(an, [0, 0.01 * k, 0]), 0.034, 0.036),
      ],
      side === 'left' ? ATLAS.legL : ATLAS.legR,
      side === 'left' ? 'legL' : 'legR',
      { around: 20, capSteps: [3, 2], capDepth: [0.6, 0.5] },
    );
    reweigh(m, ls, legInf, leg);

    const toes = A('Toes');
    const tip = J.get(`tip:${side}Toes`) ?? add(toes, [0, 0, 0.06]);
    const footLen = tip[2] - an[2];
    const heelZ = an[2] - 0.32 * footLen;
    const foot: FootCtx = { J, chain: [`${side}Foot`, `${side}Toes`], ax: an[0], toesY: toes[1], k };
    const sr = (z: number, y: number, ra: number, rb: number) => {
      const c: Vec3 = [an[0] + (side === 'left' ? 0.004 : -0.004) * k, y * k, z];
      return ring(c, Z, Y, ra * L, rb * k, footInf(c, foot));
    };
    const ss = m.vertexCount;
    tube(
      m,
      [
        sr(heelZ, 0.042, 0.038, 0.037),
        sr(heelZ + 0.25 * (tip[2] - heelZ), 0.05, 0.044, 0.048),
        sr(heelZ + 0.5 * (tip[2] - heelZ), 0.043, 0.047, 0.04),
        sr(heelZ + 0.75 * (tip[2] - heelZ), 0.033, 0.049, 0.031),
        sr(tip[2] - 0.02 * k, 0.028, 0.044, 0.026),
      ],
      ATLAS.shoe,
      'shoe',
      { around: 20, capSteps: [3, 3], capDepth: [0.6, 0.8] },
    );
    reweigh(m, ss, footInf, foot);
  }
  return { m, head };
}

/** Recomputes the influences of vertices from `start` on with a per-vertex function (and its context). */
function reweigh<C>(m: MeshBuilder, start: number, f: (p: Vec3, ctx: C) => Influences, ctx: C): void {
  const J: number[] = [];
  const W: number[] = [];
  for (let v = start; v < m.vertexCount; v++) {
    const p: Vec3 = [m.pos[3 * v], m.pos[3 * v + 1], m.pos[3 * v + 2]];
    const n = Math.min(4, mergeInfluences(f(p, ctx), false, J, W));
    let sum = 0;
    for (let k = 0; k < n; k++) sum += W[k];
    sum = sum || 1;
    for (let k = 0; k < 4; k++) {
      m.joints[4 * v + k] = k < n ? J[k] : 0;
      m.weights[4 * v + k] = k < n ? W[k] / sum : k === 0 ? 1 : 0;
    }
  }
}

// ------------------------------------------------------------------ face morphs

const MOUTH_Y = -0.33;
const LID_Y = -0.075;
/** The painted mouth line (texture.ts): it curves up towards the corners. */
const mouthLine = (x: number) => MOUTH_Y + 0.05 * Math.min(1, (x / 0.19) ** 2);

/** Head row density: ~4× around the mouth line and 2× over the eyes, so the shapes have vertices to move. */
const HEAD_DENSITY = (phi: number) => {
  const y = Math.PI / 2 - phi;
  return 1 + 3 * Math.exp(-(((y - MOUTH_Y) / 0.07) ** 2)) + 1.5 * Math.exp(-(((y + 0.0) / 0.14) ** 2));
};

type Shift = (x: number, y: number) => [number, number, number?];
const gauss = (x: number, y: number, x0: number, y0: number, sx: number, sy: number) =>
  Math.exp(-(((x - x0) / sx) ** 2) - ((y - y0) / sy) ** 2);

let FACE_SHIFTS: Partial<Record<string, Shift>> | undefined;

/** Surface shifts (radians of longitude x, latitude y; optional depth in head radii) per ARKit shape. */
function faceShifts(): Partial<Record<string, Shift>> {
  const out: Partial<Record<string, Shift>> = {};
  for (const [side, sx] of [
    ['Left', 1],
    ['Right', -1],
  ] as const) {
    const ex = 0.25 * sx;
    const eyeW = (x: number) => 1 - smooth(0.1, 0.17, Math.abs(x - ex));
    out[`eyeBlink${side}`] = (x, y) => {
      if (y <= LID_Y) return [0, 0];
      const up = 1 - smooth(0.09, 0.15, y);
      return [0, -(y - LID_Y) * 0.97 * eyeW(x) * up];
    };
    out[`eyeWide${side}`] = (x, y) => [0, 0.035 * gauss(x, y, ex, 0.07, 0.12, 0.07)];
    out[`eyeSquint${side}`] = (x, y) => [0, 0.04 * gauss(x, y, ex, -0.1, 0.12, 0.05)];
    const look =
      (dx: number, dy: number): Shift =>
      (x, y) => {
        const w = gauss(x, y, ex, -0.02, 0.07, 0.07);
        return [dx * w, dy * w];
      };
    out[`eyeLookUp${side}`] = look(0, 0.035);
    out[`eyeLookDown${side}`] = look(0, -0.035);
    out[`eyeLookIn${side}`] = look(-0.04 * sx, 0);
    out[`eyeLookOut${side}`] = look(0.04 * sx, 0);
    const cx = 0.19 * sx;
    out[`mouthSmile${side}`] = (x, y) => {
      const w = gauss(x, y, cx, MOUTH_Y + 0.01, 0.09, 0.07);
      return [0.035 * sx * w, 0.06 * w];
    };
    out[`mouthFrown${side}`] = (x, y) => {
      const w = gauss(x, y, cx, MOUTH_Y, 0.09, 0.07);
      return [0.01 * sx * w, -0.055 * w];
    };
    out[`mouthStretch${side}`] = (x, y) => {
      const w = gauss(x, y, cx, MOUTH_Y, 0.09, 0.07);
      return [0.06 * sx * w, -0.015 * w];
    };
    out[`mouthUpperUp${side}`] = (x, y) => [0, 0.035 * gauss(x, y, 0.07 * sx, MOUTH_Y + 0.035, 0.08, 0.04)];
    out[`mouthLowerDown${side}`] = (x, y) => [
      0,
      -0.045 * gauss(x, y, 0.07 * sx, MOUTH_Y - 0.035, 0.08, 0.04),
    ];
    out[`browDown${side}`] = (x, y) => {
      const w = gauss(x, y, 0.25 * sx, 0.15, 0.14, 0.07);
      return [-0.02 * sx * w, -0.045 * w];
    };
    out[`browOuterUp${side}`] = (x, y) => [0, 0.05 * gauss(x, y, 0.36 * sx, 0.15, 0.08, 0.06)];
    // The corner tucks back and out.
    out[`mouthDimple${side}`] = (x, y) => {
      const w = gauss(x, y, cx, MOUTH_Y, 0.06, 0.05);
      return [0.03 * sx * w, 0, -0.03 * w];
    };
    // Lips pressed together on one side: both lips pulled towards the mouth line.
    out[`mouthPress${side}`] = (x, y) => {
      const w = gauss(x, y, 0.09 * sx, MOUTH_Y, 0.09, 0.05);
      return [0, -0.45 * (y - mouthLine(x)) * w, -0.01 * w];
    };
    out[`cheekSquint${side}`] = (x, y) => {
      const w = gauss(x, y, 0.27 * sx, -0.15, 0.1, 0.06);
      return [0, 0.03 * w, 0.01 * w];
    };
    out[`noseSneer${side}`] = (x, y) => [0, 0.03 * gauss(x, y, 0.07 * sx, -0.17, 0.05, 0.06)];
  }
  const jawW = (x: number, y: number) =>
    (1 - smooth(0.28, 0.6, Math.abs(x))) *
    smooth(mouthLine(x) + 0.004, mouthLine(x) - 0.012, y) *
    (1 - smooth(-0.95, -1.35, y));
  out.jawOpen = (x, y) => {
    const w = jawW(x, y);
    // The mouth interior band deepens a little as it opens.
    const inner = gauss(x, y, 0, MOUTH_Y - 0.02, 0.14, 0.04);
    return [0, -0.1 * w, -0.04 * inner];
  };
  out.jawLeft = (x, y) => [0.08 * jawW(x, y), 0];
  out.jawRight = (x, y) => [-0.08 * jawW(x, y), 0];
  out.mouthClose = (x, y) => [0, 0.06 * gauss(x, y, 0, MOUTH_Y - 0.04, 0.18, 0.045)];
  out.mouthFunnel = (x, y) => {
    const w = gauss(x, y, 0, MOUTH_Y, 0.2, 0.08);
    return [-0.3 * x * w, 0.35 * (y - MOUTH_Y) * w, 0.05 * w];
  };
  out.mouthPucker = (x, y) => {
    const w = gauss(x, y, 0, MOUTH_Y, 0.2, 0.07);
    return [-0.45 * x * w, -0.1 * (y - MOUTH_Y) * w, 0.07 * w];
  };
  out.mouthLeft = (x, y) => [0.07 * gauss(x, y, 0, MOUTH_Y, 0.22, 0.09), 0];
  out.mouthRight = (x, y) => [-0.07 * gauss(x, y, 0, MOUTH_Y, 0.22, 0.09), 0];
  out.jawForward = (x, y) => [0, 0, 0.05 * jawW(x, y)];
  out.mouthRollLower = (x, y) => {
    const w = gauss(x, y, 0, MOUTH_Y - 0.03, 0.16, 0.03);
    return [0, 0.025 * w, -0.03 * w];
  };
  out.mouthRollUpper = (x, y) => {
    const w = gauss(x, y, 0, MOUTH_Y + 0.03, 0.16, 0.03);
    return [0, -0.025 * w, -0.03 * w];
  };
  out.mouthShrugLower = (x, y) => {
    const w = gauss(x, y, 0, MOUTH_Y - 0.07, 0.18, 0.06);
    return [0, 0.035 * w, 0.01 * w];
  };
  out.mouthShrugUpper = (x, y) => {
    const w = gauss(x, y, 0, MOUTH_Y + 0.04, 0.18, 0.04);
    return [0, 0.025 * w, 0.01 * w];
  };
  out.cheekPuff = (x, y) => [
    0,
    0,
    0.08 * (gauss(x, y, 0.22, -0.27, 0.1, 0.09) + gauss(x, y, -0.22, -0.27, 0.1, 0.09)),
  ];
  // No tongue geometry: the middle of the lower lip pushes out and down where the tongue would show.
  out.tongueOut = (x, y) => {
    const w = gauss(x, y, 0, MOUTH_Y - 0.025, 0.07, 0.03);
    return [0, -0.02 * w, 0.12 * w];
  };
  out.browInnerUp = (x, y) => [
    0,
    0.05 * (gauss(x, y, 0.12, 0.15, 0.08, 0.06) + gauss(x, y, -0.12, 0.15, 0.08, 0.06)),
  ];
  return out;
}

/** Morph targets (one per ARKit shape of `names` that has a shift) for the vertices of the `head` part. */
function faceMorphs(m: MeshBuilder, head: HeadGeom, names: readonly string[]): MorphTarget[] {
  // Made once per process: closures created anew on every call would each run unoptimised again (V8 re-optimises
  // them per instance), which made the face mesh 3–4× slower in a process exporting many clips.
  FACE_SHIFTS ??= faceShifts();
  const shifts = FACE_SHIFTS;
  const V = m.vertexCount;
  // Each head vertex's place on the head's (x, y) map, computed once for all the shapes.
  const verts: number[] = [];
  const xs: number[] = [];
  const ys: number[] = [];
  for (let v = 0; v < V; v++) {
    if (m.part[v] !== 'head') continue;
    const q: Vec3 = [
      (m.pos[3 * v] - head.c[0]) / head.r[0],
      (m.pos[3 * v + 1] - head.c[1]) / head.r[1],
      (m.pos[3 * v + 2] - head.c[2]) / head.r[2],
    ];
    const phi = Math.acos(Math.max(-1, Math.min(1, q[1])));
    let theta = Math.atan2(-q[0], -q[2]);
    if (theta < 0) theta += 2 * Math.PI;
    const x = theta - Math.PI;
    if (Math.abs(x) > 1.2) continue;
    verts.push(v);
    xs.push(x);
    ys.push(Math.PI / 2 - phi);
  }
  // The angles of an unshifted coordinate are the same for every shape (x + 0 + π is x + π, π/2 − (y + 0) is
  // π/2 − y, exactly): their sines and cosines are computed once per vertex.
  const nv = verts.length;
  const sinTh0 = new Float64Array(nv);
  const cosTh0 = new Float64Array(nv);
  const sinPh0 = new Float64Array(nv);
  const cosPh0 = new Float64Array(nv);
  for (let i = 0; i < nv; i++) {
    const th = xs[i] + Math.PI;
    const ph = Math.PI / 2 - ys[i];
    sinTh0[i] = Math.sin(th);
    cosTh0[i] = Math.cos(th);
    sinPh0[i] = Math.sin(ph);
    cosPh0[i] = Math.cos(ph);
  }
  const targets: MorphTarget[] = [];
  for (const name of names) {
    const f = shifts[name];
    if (!f) continue;
    const d = new Float32Array(3 * V);
    for (let i = 0; i < verts.length; i++) {
      const v = verts[i];
      const x = xs[i];
      const y = ys[i];
      // Indexed, not destructured: array destructuring runs the iterator protocol (an iterator and a result object
      // per element: ~20 MB of garbage per face mesh).
      const shift = f(x, y);
      const dx = shift[0];
      const dy = shift[1];
      const dr = shift[2] === undefined ? 0 : shift[2];
      if (dx === 0 && dy === 0 && dr === 0) continue;
      const th2 = x + dx + Math.PI;
      const ph2 = Math.PI / 2 - (y + dy);
      const sc = 1 + dr;
      const sinTh = dx === 0 ? sinTh0[i] : Math.sin(th2);
      const cosTh = dx === 0 ? cosTh0[i] : Math.cos(th2);
      const sinPh = dy === 0 ? sinPh0[i] : Math.sin(ph2);
      const cosPh = dy === 0 ? cosPh0[i] : Math.cos(ph2);
      d[3 * v] = head.c[0] + head.r[0] * -sinTh * sinPh * sc - m.pos[3 * v];
      d[3 * v + 1] = head.c[1] + head.r[1] * cosPh * sc - m.pos[3 * v + 1];
      d[3 * v + 2] = head.c[2] + head.r[2] * -cosTh * sinPh * sc - m.pos[3 * v + 2];
    }
    targets.push({ name, positions: d });
  }
  return targets;
}

// ------------------------------------------------------------------ assembly

const TEXTURE_CACHE = new Map<CharacterKind, Uint8Array>();

/** The base-colour PNG of a kind (cached). */
export function characterTexture(kind: CharacterKind): Uint8Array {
  let t = TEXTURE_CACHE.get(kind);
  if (!t) {
    t = paintTexture(kind);
    TEXTURE_CACHE.set(kind, t);
  }
  return t;
}

/** Bind the builder's mesh: A-pose arms for A-pose rigs, rig joint names, typed arrays. */
function finish(
  m: MeshBuilder,
  J: Joints,
  kind: CharacterKind,
  name: string,
  rig: Rig | undefined,
  morphs: MorphTarget[] | undefined,
): SkinnedMesh {
  const V = m.vertexCount;
  const positions = new Float32Array(m.pos);
  let normals = m.normals();
  // A-pose: rotate the arm joints about the shoulders (LBS), like the rig's rest.
  if (rig && rig.restPose.kind !== 'T' && rig.restPose.armDownDeg !== 0) {
    const down = (rig.restPose.armDownDeg * Math.PI) / 180;
    // Per canonical joint: 0 (not an arm joint), 1 (left arm), 2 (right arm); the rotation and centre per side.
    const sideOf = new Uint8Array(FULL.names.length);
    const R = new Float64Array(8); // quaternion per side (x, y, z, w)
    const C = new Float64Array(6); // shoulder centre per side
    for (const side of ['left', 'right'] as const) {
      const s = side === 'left' ? 1 : -1;
      const q = qFromAxisAngle([0, 0, 1], -s * down);
      const c = J.get(`${side}UpperArm`) as Vec3;
      const k = side === 'left' ? 0 : 1;
      R.set(q, 4 * k);
      C.set(c, 3 * k);
      FULL.names.forEach((n, j) => {
        if (isArmJoint(n, side)) sideOf[j] = k + 1;
      });
    }
    const nrm = new Float32Array(normals.length);
    const rp = new Float64Array(3);
    const rn = new Float64Array(3);
    const o = new Float64Array(3); // skinned position
    const mv = new Float64Array(3); // skinned normal (before normalising)
    for (let v = 0; v < V; v++) {
      const i = 3 * v;
      o.fill(0);
      mv.fill(0);
      for (let k = 0; k < 4; k++) {
        const w = m.weights[4 * v + k];
        if (w === 0) continue;
        const sd = sideOf[m.joints[4 * v + k]];
        if (sd === 0) {
          for (let e = 0; e < 3; e++) {
            o[e] += w * positions[i + e];
            mv[e] += w * normals[i + e];
          }
          continue;
        }
        const r = 4 * (sd - 1);
        const c = 3 * (sd - 1);
        rotateQ64(rp, R, r, positions[i] - C[c], positions[i + 1] - C[c + 1], positions[i + 2] - C[c + 2]);
        rotateQ64(rn, R, r, normals[i], normals[i + 1], normals[i + 2]);
        for (let e = 0; e < 3; e++) {
          o[e] += w * (C[c + e] + rp[e]);
          mv[e] += w * rn[e];
        }
      }
      positions.set(o, i);
      const l = Math.hypot(mv[0], mv[1], mv[2]) || 1;
      for (let e = 0; e < 3; e++) nrm[i + e] = mv[e] / l;
    }
    normals = nrm;
  }
  // Joint names: the rig's bone for each canonical joint used (nearest mapped ancestor otherwise).
  const used = [...new Set(m.joints.filter((_, i) => m.weights[i] > 0))].sort((a, b) => a - b);
  const boneFor = (j: number): string => {
    if (!rig) return FULL.names[j];
    for (let a = j; a >= 0; a = FULL.parents[a]) {
      const b = rig.bones.find(
        (x) => x.source === FULL.names[a] && (x.role === 'joint' || x.role === undefined),
      );
      if (b) return b.name;
    }
    return rig.bones[0].name;
  };
  const names: string[] = [];
  const remap = new Map<number, number>();
  for (const j of used) {
    const bn = boneFor(j);
    let i = names.indexOf(bn);
    if (i < 0) {
      names.push(bn);
      i = names.length - 1;
    }
    remap.set(j, i);
  }
  const joints = new Uint16Array(4 * V);
  const weights = new Float32Array(4 * V);
  // Influences mapped to rig bones, merged when two joints map to the same bone (first-seen order kept).
  const accJ = [0, 0, 0, 0];
  const accW = [0, 0, 0, 0];
  for (let v = 0; v < V; v++) {
    let n = 0;
    for (let k = 0; k < 4; k++) {
      const w = m.weights[4 * v + k];
      if (w > 0) {
        const r = remap.get(m.joints[4 * v + k]) as number;
        let t = 0;
        while (t < n && accJ[t] !== r) t++;
        if (t < n) accW[t] += w;
        else {
          accJ[n] = r;
          accW[n] = w;
          n++;
        }
      }
    }
    for (let k = 0; k < n; k++) {
      joints[4 * v + k] = accJ[k];
      weights[4 * v + k] = accW[k];
    }
  }
  const fileName = `${kind}_basecolor.png`;
  const png = characterTexture(kind);
  return {
    name,
    positions,
    normals,
    uvs: new Float32Array(m.uv),
    indices: new Uint32Array(m.idx),
    joints,
    weights,
    jointNames: names,
    materials: [{ name: `${kind}_material`, baseColor: [1, 1, 1, 1], texture: { fileName, png } }],
    groups: [{ start: 0, count: m.idx.length, material: 0 }],
    ...(morphs?.length ? { morphTargets: morphs } : {}),
  };
}

export interface CharacterOptions {
  /** Add the face's ARKit morph targets to the head (default false: +~3 MB per character). */
  faceMorphs?: boolean;
}

/**
 * A character of `kind`, skinned to `rig` (canonical joint names without one), fitted to `skeleton` (default: the
 * rig's own rest pose, or the default adult skeleton).
 */
export function makeCharacter(
  kind: CharacterKind,
  rig?: Rig,
  skeleton?: Skeleton,
  options: CharacterOptions = {},
): Character {
  if (!CHARACTER_KINDS.includes(kind))
    throw new Error(`unknown character kind "${kind}" (${CHARACTER_KINDS.join(', ')})`);
  const J = skeleton ? jointsOf(skeleton) : rig ? jointsFromRig(rig) : jointsOf(FULL);
  const { m, head } = buildBody(J, kind);
  const morphs =
    options.faceMorphs && PALETTES[kind].face === 'cartoon'
      ? faceMorphs(m, head, SUPPORTED_BLENDSHAPES)
      : undefined;
  const mesh = finish(m, J, kind, `${kind}_body`, rig, morphs);
  const texture = mesh.materials[0].texture;
  return { meshes: [mesh], textures: texture ? [texture] : [] };
}

/** The texture set of a kind (what goes into a zip next to the files). */
export function characterTextures(kind: CharacterKind) {
  return [{ fileName: `${kind}_basecolor.png`, png: characterTexture(kind) }];
}

/**
 * A face (head + neck, boy texture by default) with the 52 ARKit morph targets (ARKit names and order), skinned to
 * the head (and neck) joint, placed at the skeleton's head.
 */
export function makeFaceMesh(
  options: { kind?: 'boy' | 'girl'; rig?: Rig; skeleton?: Skeleton } = {},
): SkinnedMesh {
  const kind = options.kind ?? 'boy';
  const J = options.skeleton
    ? jointsOf(options.skeleton)
    : options.rig
      ? jointsFromRig(options.rig)
      : jointsOf(FULL);
  const shape = SHAPES[kind];
  const m = new MeshBuilder();
  const head = headGeom(J, shape);
  ellipsoid(m, head.c, head.r, ATLAS.head, 'head', headInf, {
    lon: 96,
    lat: 72,
    phiDensity: HEAD_DENSITY,
    infCtx: head,
  });
  const g = (n: string) => J.get(n) as Vec3;
  const neckStart = m.vertexCount;
  tube(
    m,
    [
      ring([g('neck')[0], g('neck')[1] + 0.02, g('neck')[2] - 0.005], [0, 1, 0], [0, 0, 1], 0.05, 0.05, []),
      ring([g('head')[0], g('head')[1] - 0.01, g('head')[2] - 0.01], [0, 1, 0], [0, 0, 1], 0.045, 0.047, []),
    ],
    ATLAS.skin,
    'neck',
    { around: 24, capSteps: [1, 1], capDepth: [0.2, 0.2] },
  );
  reweigh(m, neckStart, faceNeckInf, { J, chain: ['neck', 'head'] });
  if (shape.hair !== 'none') {
    const hr: Vec3 = [head.r[0] + 0.011, head.r[1] + 0.012, head.r[2] + 0.012];
    ellipsoid(m, add(head.c, [0, 0.004, -0.004]), hr, ATLAS.hair, 'hair', headOnly, {
      lon: 48,
      lat: 16,
      shell: 0.008,
      phiMax: shortHairPhi,
    });
  }
  return finish(m, J, kind, `${kind}_face`, options.rig, faceMorphs(m, head, ARKIT_BLENDSHAPES));
}

/**
 * A character as a self-contained GLB (skinned mesh, embedded texture, canonical joint names), for previews
 * (three.js GLTFLoader in the web app): animated by `clip` (fitted to its skeleton, face curves driving the
 * head's ARKit morph targets for boy/girl) or, without a clip, in the rest pose of the default skeleton.
 */
export function makeCharacterGlb(kind: CharacterKind, clip?: MotionClip): Uint8Array {
  const skeleton = clip?.skeleton ?? FULL;
  const faceMorphs = !!clip?.blendshapes && PALETTES[kind].face === 'cartoon';
  const mesh = makeCharacter(kind, undefined, skeleton, { faceMorphs }).meshes[0];
  if (!clip) return writeGlb(restClip(skeleton, 1, 30), { mesh, noAnimation: true, animationName: kind });
  return writeGlb(clip, {
    mesh,
    animationName: clip.metadata.source?.replace(/\.[^.]*$/, '') ?? 'Take 001',
    ...(faceMorphs && clip.blendshapes ? { morphCurves: clip.blendshapes } : {}),
  });
}
