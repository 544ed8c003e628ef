/**
 * Skeleton auto-mapping: which bone of an imported character plays each canonical joint.
 *
 * 1. **Names.** The VRM humanoid table when the file has one; otherwise the known naming schemes (Mixamo with any
 *    `mixamorigN:` namespace, Unreal UE4/UE5, Character Creator/iClone `CC_Base_`, 3ds Max Biped `Bip001`/`Bip01`,
 *    Roblox R15, Unity HumanBodyBones, MMD, VRoid `J_Bip_*`), taken from the product's own rig templates so export
 *    and import agree on them. The scheme that matches the most bones wins.
 * 2. **Topology and geometry** for whatever names did not settle (unknown naming, partial rigs): the hips are the
 *    branch point with two chains going down (legs) and one going up; the spine runs up to the branch with two
 *    sideways chains (arms) and one up (neck, head); along each limb the main chain (the child with the longest
 *    reach) gives thigh → shin → foot → toes and clavicle → upper arm → forearm → hand; fingers are the hand's
 *    chains ordered from the thumb (front-most, lowest) to the little finger. Left is +X in canonical space.
 *
 * 3. **Absent by design.** A canonical joint no bone plays is *absent* (not *missing*) when the rig has no bone where
 *    it would be: no unmapped bone (end markers aside) between the bones of its nearest mapped canonical ancestor
 *    and descendants (R15: the arms hang straight off UpperTorso, so no clavicles; the head sits on it, so no
 *    neck), or, for a joint with no mapped descendant, below its nearest mapped ancestor (a foot ending in an end
 *    marker has no toes; a mitten hand with a thumb and one fingers bone has no index, ring or little finger).
 *    Missing joints are the rest: bones may be there that neither names nor topology placed, for the user to map.
 *
 * Bones are given in canonical space (metres, Y up, facing +Z; see `character.ts`).
 */
import { VRM_BONES } from '../formats/vrma.ts';
import type { Vec3 } from '../math.ts';
import { RIG_TEMPLATES } from '../rigs/index.ts';
import { createSkeleton } from '../skeleton.ts';

export const CANONICAL_JOINTS: readonly string[] = createSkeleton(undefined, { fingers: true }).names;
export const BODY_JOINT_NAMES: readonly string[] = createSkeleton(undefined, { fingers: false }).names;

export type MappingMethod = 'vrm' | 'name' | 'topology' | 'user';

export interface JointMapping {
  /** Canonical joint → bone name (absent: not found). */
  bones: Record<string, string>;
  /** How each mapped joint was found. */
  method: Record<string, MappingMethod>;
  /** The naming scheme recognised (`mixamo`, `ue4`, `vrm`, … or `unknown`). */
  scheme: string;
  /** Canonical joints the rig has no bone for, by design (`absentJoints`); the others without a bone are missing. */
  absent?: string[];
}

export interface MappableBone {
  name: string;
  parent: number;
  /** Rest world position, canonical metres. */
  position: Vec3;
  /** False when no vertex is weighted to it (end markers usually are not). */
  weighted?: boolean;
}

/**
 * VRM humanoid bone → canonical joint: `VRM_BONES` (the VRMA writer's canonical → VRM 1.0 table) read backwards,
 * with the thumbs in their VRM 0.x meaning (proximal/intermediate/distal = Thumb1-3; `mapVrm` shifts them for 1.0).
 */
const VRM_TO_CANON: Record<string, string> = (() => {
  const m: Record<string, string> = Object.fromEntries(Object.entries(VRM_BONES).map(([c, v]) => [v, c]));
  for (const s of ['left', 'right']) {
    m[`${s}ThumbProximal`] = `${s}Thumb1`;
    m[`${s}ThumbIntermediate`] = `${s}Thumb2`;
  }
  return m;
})();

/** VRM humanoid bones (node names) → canonical joints. VRM 1.0 thumbs shift by one (metacarpal = our Thumb1). */
export function mapVrm(humanBones: Record<string, string>, version: '0' | '1'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [role, bone] of Object.entries(humanBones)) {
    let c = VRM_TO_CANON[role];
    if (!c) continue;
    if (version === '1' && /Thumb(Proximal|Distal)$/.test(role))
      c = c.replace(/Thumb\d$/, role.endsWith('Proximal') ? 'Thumb2' : 'Thumb3');
    if (version === '0' && /ThumbMetacarpal$/.test(role)) continue;
    out[c] ??= bone;
  }
  // No upperChest: chest carries the clavicles and neck, so it is spine2.
  if (!humanBones.upperChest && humanBones.chest) {
    out.spine2 = humanBones.chest;
    delete out.spine1;
  }
  return out;
}

const norm = (s: string) =>
  s
    .replace(/^.*[:|]/, '')
    .replace(/^bip0*1/i, 'bip')
    .replace(/[\s_.-]+/g, '')
    .toLowerCase();

/** Name dictionaries per scheme: normalised bone name → canonical joint. */
const SCHEMES: { id: string; names: Map<string, string> }[] = (() => {
  const out: { id: string; names: Map<string, string> }[] = [];
  for (const [id, t] of Object.entries(RIG_TEMPLATES)) {
    const names = new Map<string, string>();
    for (const b of t.bones) if (b.source && !names.has(norm(b.name))) names.set(norm(b.name), b.source);
    out.push({ id, names });
  }
  // VRoid / VRM-style node names (J_Bip_C_Hips, J_Bip_L_UpperArm …).
  const vroid = new Map<string, string>();
  const vroidRoles: Record<string, string> = {
    C_Hips: 'hips',
    C_Spine: 'spine',
    C_Chest: 'spine1',
    C_UpperChest: 'spine2',
    C_Neck: 'neck',
    C_Head: 'head',
  };
  for (const [n, c] of Object.entries(vroidRoles)) vroid.set(norm(`J_Bip_${n}`), c);
  for (const [S, s] of [
    ['L', 'left'],
    ['R', 'right'],
  ]) {
    const parts: Record<string, string> = {
      Shoulder: 'Clavicle',
      UpperArm: 'UpperArm',
      LowerArm: 'Forearm',
      Hand: 'Hand',
      UpperLeg: 'Thigh',
      LowerLeg: 'Shin',
      Foot: 'Foot',
      ToeBase: 'Toes',
    };
    for (const [p, c] of Object.entries(parts)) vroid.set(norm(`J_Bip_${S}_${p}`), `${s}${c}`);
    for (const [p, c] of [
      ['Thumb', 'Thumb'],
      ['Index', 'Index'],
      ['Middle', 'Middle'],
      ['Ring', 'Ring'],
      ['Little', 'Pinky'],
    ])
      for (let k = 1; k <= 3; k++) vroid.set(norm(`J_Bip_${S}_${p}${k}`), `${s}${c}${k}`);
  }
  out.push({ id: 'vroid', names: vroid });
  return out;
})();

/** Auto-maps a skeleton. `vrmHumanBones`: VRM role → bone name, when the file is a VRM. */
export function autoMap(
  bones: readonly MappableBone[],
  vrm?: { version: '0' | '1'; humanBones: Record<string, string> },
): JointMapping {
  const bones2: Record<string, string> = {};
  const method: Record<string, MappingMethod> = {};
  let scheme = 'unknown';
  if (vrm && Object.keys(vrm.humanBones).length) {
    for (const [c, b] of Object.entries(mapVrm(vrm.humanBones, vrm.version))) {
      bones2[c] = b;
      method[c] = 'vrm';
    }
    scheme = `vrm${vrm.version}`;
  } else {
    let best = { id: 'unknown', hits: new Map<string, string>() };
    for (const s of SCHEMES) {
      const hits = new Map<string, string>();
      for (const b of bones) {
        const c = s.names.get(norm(b.name));
        if (c && !hits.has(c)) hits.set(c, b.name);
      }
      if (hits.size > best.hits.size) best = { id: s.id, hits };
    }
    // A scheme counts when it names the core of a body (at least the hips and 5 more joints).
    if (best.hits.size >= 6 && best.hits.has('hips')) {
      scheme = best.id;
      for (const [c, b] of best.hits) {
        bones2[c] = b;
        method[c] = 'name';
      }
    }
  }
  const topo = mapByTopology(bones);
  for (const c of CANONICAL_JOINTS) {
    if (bones2[c] || !topo[c]) continue;
    if (Object.values(bones2).includes(topo[c])) continue;
    bones2[c] = topo[c];
    method[c] = 'topology';
  }
  return { bones: bones2, method, scheme, absent: absentJoints(bones, bones2) };
}

const CANONICAL_SKELETON = createSkeleton(undefined, { fingers: true });

/** A leaf end marker (Mixamo `*_End`, Biped `*Nub`, an unweighted tip). */
function isEndMarker(bones: readonly MappableBone[], kids: readonly number[][], i: number): boolean {
  return (
    kids[i].length === 0 &&
    (bones[i].weighted === false || /(end|nub|tip|top)$/i.test(bones[i].name.replace(/[^a-z]/gi, '')))
  );
}

/**
 * Canonical joints without a bone that the rig does not have (see the header, 3.): no unmapped bone other than an
 * end marker lies between the bones of the joint's nearest mapped canonical ancestor and its nearest mapped
 * canonical descendants, or, when none of its descendants is mapped, below that ancestor. A joint whose
 * neighbourhood cannot be told (its ancestor unmapped, a descendant's bone not under the ancestor's) is not
 * absent: it is missing.
 */
export function absentJoints(bones: readonly MappableBone[], map: Record<string, string>): string[] {
  const idx = new Map(bones.map((b, i) => [b.name, i]));
  const kids: number[][] = bones.map(() => []);
  bones.forEach((b, i) => {
    if (b.parent >= 0) kids[b.parent].push(i);
  });
  const mapped = new Set<number>();
  for (const b of Object.values(map)) {
    const i = idx.get(b);
    if (i !== undefined) mapped.add(i);
  }
  const free = (i: number) => !mapped.has(i) && !isEndMarker(bones, kids, i);
  const { names, parents } = CANONICAL_SKELETON;
  const boneOf = (j: number) => idx.get(map[names[j]] ?? '');
  const cKids: number[][] = names.map(() => []);
  parents.forEach((p, j) => {
    if (p >= 0) cKids[p].push(j);
  });
  const out: string[] = [];
  for (let j = 1; j < names.length; j++) {
    if (boneOf(j) !== undefined) continue;
    let pa = parents[j];
    while (pa >= 0 && boneOf(pa) === undefined) pa = parents[pa];
    if (pa < 0) continue;
    const A = boneOf(pa) as number;
    // Nearest mapped canonical descendants.
    const D: number[] = [];
    const stack = [...cKids[j]];
    while (stack.length) {
      const c = stack.pop() as number;
      const b = boneOf(c);
      if (b !== undefined) D.push(b);
      else stack.push(...cKids[c]);
    }
    let absent = true;
    if (D.length) {
      for (const d of D) {
        let p = bones[d].parent;
        while (p >= 0 && p !== A) {
          if (free(p)) absent = false;
          p = bones[p].parent;
        }
        if (p !== A) absent = false;
      }
    } else {
      const below = [...kids[A]];
      while (below.length && absent) {
        const b = below.pop() as number;
        if (free(b)) absent = false;
        below.push(...kids[b]);
      }
    }
    if (absent) out.push(names[j]);
  }
  return out;
}

// ------------------------------------------------------------------ topology and geometry

export function mapByTopology(bones: readonly MappableBone[]): Record<string, string> {
  const n = bones.length;
  const out: Record<string, string> = {};
  if (!n) return out;
  const kids: number[][] = bones.map(() => []);
  bones.forEach((b, i) => {
    if (b.parent >= 0) kids[b.parent].push(i);
  });
  const P = bones.map((b) => b.position);
  let minY = Number.POSITIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (const p of P) {
    minY = Math.min(minY, p[1]);
    maxY = Math.max(maxY, p[1]);
  }
  const H = Math.max(1e-6, maxY - minY);
  // Subtree extremes.
  const lo = P.map((p) => p[1]);
  const hi = P.map((p) => p[1]);
  const reachX = P.map((p) => Math.abs(p[0]));
  const size = new Int32Array(n).fill(1);
  const visit = (i: number): void => {
    for (const c of kids[i]) {
      visit(c);
      lo[i] = Math.min(lo[i], lo[c]);
      hi[i] = Math.max(hi[i], hi[c]);
      reachX[i] = Math.max(reachX[i], reachX[c]);
      size[i] += size[c];
    }
  };
  bones.forEach((b, i) => {
    if (b.parent < 0) visit(i);
  });
  const dist = (a: number, b: number) => Math.hypot(P[a][0] - P[b][0], P[a][1] - P[b][1], P[a][2] - P[b][2]);
  // Hips: a bone with two child subtrees reaching well below it and one reaching well above.
  let hips = -1;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const down = kids[i].filter((c) => lo[c] < P[i][1] - 0.25 * H && hi[c] < P[i][1] + 0.1 * H);
    const up = kids[i].filter((c) => hi[c] > P[i][1] + 0.25 * H);
    if (down.length >= 2 && up.length >= 1) {
      const score = -Math.abs(P[i][0]) - 0.01 * size[i];
      if (score > bestScore) {
        bestScore = score;
        hips = i;
      }
    }
  }
  let legParent = hips;
  if (hips < 0) {
    // Legs beside the pelvis rather than under it (Quaternius modular women: Root at the floor carries the Hips
    // chain and both thighs): a bone with two children that start at hip height and reach the floor, and one
    // that reaches the head; the up child is the hips.
    for (let i = 0; i < n && hips < 0; i++) {
      const legs = kids[i].filter(
        (c) => P[c][1] > minY + 0.35 * H && lo[c] < minY + 0.12 * H && hi[c] < P[c][1] + 0.1 * H,
      );
      const up = kids[i].filter((c) => !legs.includes(c) && hi[c] > minY + 0.8 * H);
      if (legs.length >= 2 && up.length >= 1) {
        hips = up[0];
        legParent = i;
      }
    }
    if (hips < 0) return out;
  }
  out.hips = bones[hips].name;
  /** The main chain from `start`: repeatedly the child whose subtree reaches farthest by `key`. */
  const mainChain = (start: number, key: (c: number) => number): number[] => {
    const chain = [start];
    let cur = start;
    while (kids[cur].length) {
      let best = -1;
      let bv = Number.NEGATIVE_INFINITY;
      for (const c of kids[cur]) {
        const v = key(c);
        if (v > bv) {
          bv = v;
          best = c;
        }
      }
      cur = best;
      chain.push(cur);
    }
    return chain;
  };
  /** Drops bones sitting (almost) on their predecessor: zero-length helpers. */
  const distinct = (chain: number[], eps: number): number[] => {
    const o: number[] = [];
    for (const b of chain) if (!o.length || dist(o[o.length - 1], b) > eps) o.push(b);
    return o;
  };
  /** A leaf end marker (Mixamo `*_End`, Biped `*Nub`, an unweighted tip). */
  const isEnd = (i: number) =>
    kids[i].length === 0 &&
    (bones[i].weighted === false || /(end|nub|tip|top)$/i.test(bones[i].name.replace(/[^a-z]/gi, '')));
  const side = (i: number) => (P[i][0] >= 0 ? 'left' : 'right');
  // Legs.
  const legRoots = kids[legParent].filter(
    (c) => lo[c] < P[hips][1] - 0.25 * H && hi[c] < P[hips][1] + 0.1 * H && P[c][1] > minY + 0.3 * H,
  );
  legRoots.sort((a, b) => lo[a] - lo[b]);
  for (const root of legRoots.slice(0, 2)) {
    const chain = distinct(
      mainChain(root, (c) => -lo[c] + 0.001 * size[c]),
      0.01 * H,
    );
    // Foot: the first chain bone near the floor (ankle height); the one before it is the shin (knee).
    let foot = chain.findIndex((b) => P[b][1] < minY + 0.12 * H);
    if (foot < 0) foot = chain.length - 1;
    if (foot < 2) foot = Math.min(2, chain.length - 1);
    const s = side(chain[0]);
    if (out[`${s}Thigh`]) continue;
    out[`${s}Thigh`] = bones[chain[0]].name;
    if (foot >= 2) out[`${s}Shin`] = bones[chain[foot - 1]].name;
    let footBone = chain[foot];
    if (isEnd(footBone)) {
      // IK-footed game rigs (Quaternius): the leg ends in a marker at the ankle and the skinned foot bone hangs
      // elsewhere (under an IK root): the weighted bone at the same place is the foot.
      const at = P[footBone];
      let best = -1;
      let bd = 0.03 * H;
      for (let i = 0; i < n; i++) {
        if (i === footBone || bones[i].weighted === false || chain.includes(i)) continue;
        const d = Math.hypot(P[i][0] - at[0], P[i][1] - at[1], P[i][2] - at[2]);
        if (d < bd) {
          bd = d;
          best = i;
        }
      }
      if (best >= 0) footBone = best;
      else if (foot >= 1) footBone = -1;
    }
    if (footBone >= 0) out[`${s}Foot`] = bones[footBone].name;
    if (footBone !== chain[foot]) {
      // Toes of a detached foot: its main child chain.
      const tc = footBone >= 0 ? kids[footBone].filter((c) => !isEnd(c)) : [];
      if (tc.length === 1) out[`${s}Toes`] = bones[tc[0]].name;
      continue;
    }
    const toe = chain[foot + 1];
    // Toes: forward of the ankle, and not an end marker (a leaf) when the chain goes on.
    if (toe !== undefined && !isEnd(toe)) out[`${s}Toes`] = bones[toe].name;
  }
  // Spine: from the up child of the hips to the branch with two sideways chains.
  const upRoot = kids[hips].filter((c) => hi[c] > P[hips][1] + 0.25 * H).sort((a, b) => hi[b] - hi[a])[0];
  if (upRoot === undefined) return out;
  // Arms: sideways subtrees (even hanging arms reach out past the shoulders) that do not hold the head top.
  const armChildren = (i: number) =>
    kids[i].filter((c) => reachX[c] > Math.abs(P[i][0]) + 0.08 * H && hi[c] < maxY - 0.05 * H);
  const spine: number[] = [];
  let cur = upRoot;
  let chest = -1;
  for (let guard = 0; guard < 64 && cur >= 0; guard++) {
    const arms = armChildren(cur);
    const sides = new Set(arms.map((a) => side(a)));
    if (arms.length >= 2 && sides.size === 2) {
      chest = cur;
      break;
    }
    spine.push(cur);
    const up = kids[cur].filter((c) => hi[c] >= hi[cur] - 1e-9);
    cur = up.sort((a, b) => size[b] - size[a])[0] ?? -1;
  }
  if (chest < 0) return out;
  // Canonical spine, spine1, spine2: spine2 = the chest (arms branch); below it the bottom and middle links.
  out.spine2 = bones[chest].name;
  if (spine.length >= 1) out.spine = bones[spine[0]].name;
  if (spine.length >= 2) out.spine1 = bones[spine[Math.max(1, Math.round(spine.length / 2))]].name;
  // Neck and head.
  const neckRoot = kids[chest].filter((c) => hi[c] >= maxY - 0.02 * H)[0];
  if (neckRoot !== undefined) {
    const chain = distinct(
      mainChain(neckRoot, (c) => hi[c] + 0.001 * size[c]),
      0.005 * H,
    );
    // The last bone is an end marker when it is a leaf near the top of the head.
    const body = chain.length >= 2 && isEnd(chain[chain.length - 1]) ? chain.slice(0, -1) : chain;
    out.neck = bones[body[0]].name;
    if (body.length >= 2) out.head = bones[body[body.length - 1]].name;
    else if (chain.length >= 2) out.head = bones[chain[1]].name;
  }
  // Arms. The hand is the first branching bone (fingers) past the upper arm; both sides take the same link
  // (a rig may hang the thumb off a different bone on one side).
  const arms = armChildren(chest)
    .map((root) => ({
      s: side(root),
      chain: distinct(
        mainChain(root, (c) => reachX[c] + 0.001 * size[c]),
        0.01 * H,
      ),
    }))
    .filter((a, k, all) => all.findIndex((b) => b.s === a.s) === k);
  const handAt = arms.map(({ chain }) => {
    const h = chain.findIndex((b, k) => k >= 2 && kids[b].filter((c) => !isEnd(c)).length >= 2);
    return h >= 0 ? h : isEnd(chain[chain.length - 1]) ? chain.length - 2 : chain.length - 1;
  });
  const commonHand = Math.min(...handAt);
  for (const { s, chain } of arms) {
    const hand =
      handAt.length === 2 && arms[0].chain.length === arms[1].chain.length
        ? commonHand
        : handAt[arms.findIndex((a) => a.s === s)];
    if (hand < 2) continue;
    out[`${s}Hand`] = bones[chain[hand]].name;
    out[`${s}Forearm`] = bones[chain[hand - 1]].name;
    out[`${s}UpperArm`] = bones[chain[hand - 2]].name;
    if (hand >= 3) out[`${s}Clavicle`] = bones[chain[hand - 3]].name;
    // Fingers: the hand's child chains that reach out, thumb first (front-most), then by front-to-back.
    const h = chain[hand];
    const fingerChain = (c: number) =>
      distinct(
        mainChain(c, (x) => reachX[x] + 0.001 * size[x]),
        0.0005 * H,
      );
    let fingers = kids[h].map(fingerChain).filter((fc) => fc.length >= 2);
    // One child that branches (a palm or a finger base carrying the other fingers; the Quaternius mitten's right
    // hand hangs its thumb off the middle finger's base): the branch reaching furthest from the hand continues the
    // base, the others are fingers of their own.
    const roots = kids[h].filter((c) => !isEnd(c));
    if (fingers.length < 2 && roots.length === 1) {
      const base = roots[0];
      const subs = kids[base].filter((c) => !isEnd(c)).map(fingerChain);
      if (subs.length >= 2) {
        const reach = (fc: number[]) => {
          const e = P[fc[fc.length - 1]];
          return Math.hypot(e[0] - P[h][0], e[1] - P[h][1], e[2] - P[h][2]);
        };
        const far = subs.reduce((best, fc, k) => (reach(fc) > reach(subs[best]) ? k : best), 0);
        fingers = subs.map((fc, k) => (k === far ? [base, ...fc] : fc)).filter((fc) => fc.length >= 2);
      }
    }
    if (fingers.length >= 2) {
      const z = (fc: number[]) => P[fc[fc.length - 1]][2] - 0.5 * P[fc[fc.length - 1]][1];
      fingers.sort((a, b) => z(b) - z(a));
      const names = ['Thumb', 'Index', 'Middle', 'Ring', 'Pinky'];
      // Mitten hands: two chains are a thumb and the fingers as one (the middle finger's place).
      const order =
        fingers.length >= 5
          ? names
          : fingers.length === 2
            ? ['Thumb', 'Middle']
            : fingers.length === 3
              ? ['Thumb', 'Index', 'Middle']
              : ['Thumb', 'Index', 'Middle', 'Ring'];
      fingers.slice(0, 5).forEach((fc, k) => {
        // Drop an end marker; a 4-link chain starts with a metacarpal (except the thumb's first link).
        let links = isEnd(fc[fc.length - 1]) ? fc.slice(0, -1) : fc;
        if (links.length >= 4) links = links.slice(links.length - 3);
        links.slice(0, 3).forEach((b, j) => {
          out[`${s}${order[k]}${j + 1}`] = bones[b].name;
        });
      });
    }
  }
  return out;
}
