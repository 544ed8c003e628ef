/**
 * The product's target rigs (bone names, hierarchy, driving canonical joints, placement, axes, units, rest pose,
 * root-motion convention). Facts come from `shared/reference/rigs.md` and were checked against the real files in
 * `shared/testdata/formats` where one exists (Mixamo, UE4 mannequin, Roblox R15: `test/rigs.test.ts` compares the
 * skeletons). Per-rig notes (what is approximated, what differs between versions) are in each template.
 *
 * `buildRig(id, skeleton)` instantiates a rig on a clip's skeleton (see `build.ts`); `RIG_IDS` lists them.
 */

import type { Skeleton } from '../clip.ts';
import type { Vec3 } from '../math.ts';
import {
  type AxisConvention,
  type BoneTemplate,
  type Direction,
  instantiate,
  type RigTemplate,
} from './build.ts';
import type { Rig, SignedAxis } from './types.ts';

export type { AxisConvention, BoneTemplate, Direction, Placement, RigTemplate } from './build.ts';
export { axesBasis, canonicalToRig, instantiate, rigToCanonical } from './build.ts';

const SIDES = [
  { c: 'left', L: 'Left', l: 'l', B: 'L' },
  { c: 'right', L: 'Right', l: 'r', B: 'R' },
] as const;
const CANON_FINGERS = ['Thumb', 'Index', 'Middle', 'Ring', 'Pinky'] as const;
type Side = (typeof SIDES)[number];
/** The canonical joints of an arm and of a leg, body outwards. */
const ARM = ['Clavicle', 'UpperArm', 'Forearm', 'Hand'];
const LEG = ['Thigh', 'Shin', 'Foot', 'Toes'];

/** Canonical joint names of one side (`left` + `Thigh`...). */
const sided = (s: Side, joints: readonly string[]): string[] => joints.map((j) => `${s.c}${j}`);

/**
 * Bones `names[i]`, each the parent of the next (the first under `parent`), driven by the canonical joints
 * `sources[i]`; `aim`: where the last one aims.
 */
function chain(
  parent: string,
  names: readonly string[],
  sources: readonly string[],
  aim?: string,
): BoneTemplate[] {
  return names.map((name, i) => ({
    name,
    parent: i === 0 ? parent : names[i - 1],
    source: sources[i],
    ...(aim && i === names.length - 1 ? { aim } : {}),
  }));
}

/** The three links of the canonical finger `f` on side `s` under `parent`, link k (1..3) named `link(k)`. */
const finger = (s: Side, f: string, parent: string, link: (k: number) => string): BoneTemplate[] =>
  chain(
    parent,
    [1, 2, 3].map(link),
    [1, 2, 3].map((k) => `${s.c}${f}${k}`),
  );

/** A helper bone a fraction `t` of the way from the canonical joint `from` to `to`. */
const between = (name: string, parent: string, from: string, to: string, t: number): BoneTemplate => ({
  name,
  parent,
  at: { lerp: [from, to, t] },
  role: 'helper',
});

/** A leaf bone at the tip of the canonical joint `joint`. */
const tipEnd = (name: string, parent: string, joint: string): BoneTemplate => ({
  name,
  parent,
  at: { tip: joint },
  role: 'end',
});

// ------------------------------------------------------------------ Mixamo (and C4D, which uses its names)

function mixamoBones(prefix: string): BoneTemplate[] {
  const m = (s: string) => `${prefix}${s}`;
  const bones: BoneTemplate[] = [
    { name: m('Hips'), parent: null, source: 'hips', aim: m('Spine') },
    { name: m('Spine'), parent: m('Hips'), source: 'spine' },
    { name: m('Spine1'), parent: m('Spine'), source: 'spine1' },
    { name: m('Spine2'), parent: m('Spine1'), source: 'spine2', aim: m('Neck') },
    { name: m('Neck'), parent: m('Spine2'), source: 'neck' },
    { name: m('Head'), parent: m('Neck'), source: 'head' },
    { name: m('Head_end'), parent: m('Head'), at: { tip: 'head' }, role: 'end' },
  ];
  for (const s of SIDES) {
    const arm = ['Shoulder', 'Arm', 'ForeArm', 'Hand'].map((n) => m(`${s.L}${n}`));
    bones.push(...chain(m('Spine2'), arm, sided(s, ARM), m(`${s.L}HandMiddle1`)));
    for (const f of CANON_FINGERS) {
      const links = finger(s, f, m(`${s.L}Hand`), (k) => m(`${s.L}Hand${f}${k}`));
      bones.push(...links, tipEnd(m(`${s.L}Hand${f}3_end`), links[2].name, `${s.c}${f}3`));
    }
  }
  for (const s of SIDES) {
    const leg = ['UpLeg', 'Leg', 'Foot', 'ToeBase'].map((n) => m(`${s.L}${n}`));
    bones.push(...chain(m('Hips'), leg, sided(s, LEG)), tipEnd(m(`${s.L}ToeBase_end`), leg[3], `${s.c}Toes`));
  }
  return bones;
}

const yDownTheBone = () => ({ primary: '+Y' as SignedAxis, secondary: '+Z' as SignedAxis });

/**
 * Mixamo joint orients, as measured on mixamo.com downloads (rigs.test.ts compares them): +Y down every bone; +Z to
 * the front on the spine, neck, head and legs, but +Z down on the shoulders, arms, hands and fingers (both sides).
 */
const mixamoAxes = (b: BoneTemplate): ReturnType<Exclude<AxisConvention, 'identity'>> =>
  /(Shoulder|Arm|Hand)/.test(b.name)
    ? { primary: '+Y', secondary: '+Z', hint: 'down' }
    : { primary: '+Y', secondary: '+Z' };

export const MIXAMO: RigTemplate = {
  id: 'mixamo',
  displayName: 'Mixamo (mixamorig:)',
  unitsPerMetre: 100,
  axes: { up: '+Y', front: '+Z', handedness: 'right' },
  restPose: { kind: 'T', armDownDeg: 0 },
  rootMotion: 'hips',
  hipsBone: 'mixamorig:Hips',
  orient: mixamoAxes,
  bones: mixamoBones('mixamorig:'),
  notes: [
    '65 bones named and nested exactly like current mixamo.com FBX downloads (Standard Skeleton 65, mixamorig: prefix): fingers 1-3 plus a "<bone>_end" leaf (Head_end, LeftHandIndex3_end, LeftToeBase_end), as in the Jumping and Samba Dancing downloads. Older exports (FBX 7.4 era) called the same leaves HeadTop_End, LeftHandIndex4 and LeftToe_End.',
    'Bone-local +Y runs down each bone; +Z faces front on the spine and legs and down on the arms and hands, as in Mixamo files.',
  ],
};

export const C4D: RigTemplate = {
  ...MIXAMO,
  id: 'c4d',
  displayName: 'Cinema 4D (Mixamo Control Rig names)',
  notes: [
    'Cinema 4D has no single standard skeleton; its Character object offers a "Mixamo Control Rig" template that expects mixamorig: joint names, so C4D files use the Mixamo bone set.',
    'FBX 7.4, Y up, centimetres: C4D (left-handed) converts the right-handed FBX axes itself on import ("Flip Z Axis" is not needed).',
  ],
};

// ------------------------------------------------------------------ Unreal 4 mannequin

/**
 * Unreal mannequin bone axes, as measured on the UE4 SK_Mannequin (rigs.test.ts compares them): spine, neck and
 * head: +X up the chain, +Y back, +Z to the character's right. Left arm: +X down the bone, +Y back (hand and
 * fingers: +Z back). Left leg: −X down the bone, +Y back; the foot stays vertical like the calf (−X down) and the
 * ball points +X to the toes with +Y up. Right-side bones are the left ones mirrored and turned (−M · axes), which
 * flips the sign of every rule: −X down the right arm, +X down the right leg, "back" becomes "front".
 */
const ueAxes = (b: BoneTemplate): ReturnType<Exclude<AxisConvention, 'identity'>> => {
  const right = b.name.endsWith('_r');
  const n = b.name.replace(/_[lr]$/, '');
  const flip = (a: SignedAxis): SignedAxis => ((a[0] === '+' ? '-' : '+') + a[1]) as SignedAxis;
  const flipDir = (d: Direction): Direction =>
    (({ front: 'back', back: 'front', up: 'down', down: 'up', left: 'right', right: 'left' }) as const)[d];
  let conv: { primary: SignedAxis; secondary: SignedAxis; hint: Direction; aimDir?: Direction };
  if (!/_[lr]$/.test(b.name)) conv = { primary: '+X', secondary: '+Y', hint: 'back' };
  else if (/^(thigh|calf)/.test(n)) conv = { primary: '-X', secondary: '+Y', hint: 'back' };
  else if (n === 'foot') conv = { primary: '+X', secondary: '+Y', hint: 'back', aimDir: 'up' };
  else if (n === 'ball') conv = { primary: '+X', secondary: '+Y', hint: 'up' };
  else if (n.startsWith('thumb')) conv = { primary: '+X', secondary: '+Z', hint: 'left' };
  else if (/^(hand|index|middle|ring|pinky)/.test(n)) conv = { primary: '+X', secondary: '+Z', hint: 'back' };
  else conv = { primary: '+X', secondary: '+Y', hint: 'back' };
  if (!right) return conv;
  // Mirror: the primary direction is mirrored (the child is on the other side), every axis negated.
  return {
    // Aimed at the child: the child is mirrored, so the axis that points at it flips. Aimed along a fixed
    // direction: the axis keeps its sign and the direction flips (below).
    primary: conv.aimDir ? conv.primary : flip(conv.primary),
    secondary: conv.secondary,
    hint: flipDir(conv.hint === 'left' || conv.hint === 'right' ? flipDir(conv.hint) : conv.hint),
    ...(conv.aimDir ? { aimDir: flipDir(conv.aimDir) } : {}),
  };
};

function ueArm(s: Side, ue5: boolean, spineTop: string): BoneTemplate[] {
  const x = (n: string) => `${n}_${s.l}`;
  const arm = ['clavicle', 'upperarm', 'lowerarm', 'hand'].map(x);
  const bones = chain(spineTop, arm, sided(s, ARM), ue5 ? x('middle_metacarpal') : x('middle_01'));
  const order = ue5 ? CANON_FINGERS : (['Index', 'Middle', 'Pinky', 'Ring', 'Thumb'] as const);
  for (const f of order) {
    const uf = f.toLowerCase();
    let parent = x('hand');
    if (ue5 && f !== 'Thumb') {
      bones.push({ name: x(`${uf}_metacarpal`), parent, at: { lerp: [`${s.c}Hand`, `${s.c}${f}1`, 0.25] } });
      parent = x(`${uf}_metacarpal`);
    }
    bones.push(...finger(s, f, parent, (k) => x(`${uf}_0${k}`)));
  }
  const twists = ue5 ? [1, 2] : [1];
  for (const k of twists) {
    const t = ue5 ? (k === 1 ? 0.66 : 0.33) : 0.5;
    bones.push(between(x(`lowerarm_twist_0${k}`), x('lowerarm'), `${s.c}Forearm`, `${s.c}Hand`, t));
  }
  for (const k of twists) {
    const t = ue5 ? (k === 1 ? 0.02 : 0.5) : 0.02;
    bones.push(between(x(`upperarm_twist_0${k}`), x('upperarm'), `${s.c}UpperArm`, `${s.c}Forearm`, t));
  }
  return bones;
}

function ueLeg(s: Side, ue5: boolean): BoneTemplate[] {
  const x = (n: string) => `${n}_${s.l}`;
  const twists = ue5 ? [1, 2] : [1];
  return [
    ...chain('pelvis', [x('thigh'), x('calf')], sided(s, ['Thigh', 'Shin'])),
    ...twists.map((k) =>
      between(x(`calf_twist_0${k}`), x('calf'), `${s.c}Shin`, `${s.c}Foot`, k === 1 ? 0.5 : 0.25),
    ),
    ...chain(x('calf'), [x('foot'), x('ball')], sided(s, ['Foot', 'Toes'])),
    ...twists.map((k) =>
      between(x(`thigh_twist_0${k}`), x('thigh'), `${s.c}Thigh`, `${s.c}Shin`, k === 1 ? 0.25 : 0.5),
    ),
  ];
}

const UE_IK: BoneTemplate[] = [
  { name: 'ik_foot_root', parent: 'root', at: { origin: true }, role: 'helper' },
  { name: 'ik_foot_l', parent: 'ik_foot_root', role: 'ik', follows: 'foot_l' },
  { name: 'ik_foot_r', parent: 'ik_foot_root', role: 'ik', follows: 'foot_r' },
  { name: 'ik_hand_root', parent: 'root', at: { origin: true }, role: 'helper' },
  { name: 'ik_hand_gun', parent: 'ik_hand_root', role: 'ik', follows: 'hand_r' },
  { name: 'ik_hand_l', parent: 'ik_hand_gun', role: 'ik', follows: 'hand_l' },
  { name: 'ik_hand_r', parent: 'ik_hand_gun', role: 'ik', follows: 'hand_r' },
];

export const UE4: RigTemplate = {
  id: 'ue4',
  displayName: 'Unreal Engine 4 mannequin (SK_Mannequin)',
  unitsPerMetre: 100,
  // As in an FBX exported from UE4: Z up, the mannequin faces -Y, left on +X, right-handed (UE flips Y on import).
  axes: { up: '+Z', front: '-Y', handedness: 'right' },
  restPose: { kind: 'A', armDownDeg: 45 },
  rootMotion: 'groundRoot',
  hipsBone: 'pelvis',
  orient: ueAxes,
  bones: [
    { name: 'root', parent: null, at: { origin: true }, role: 'root' },
    { name: 'pelvis', parent: 'root', source: 'hips', aim: 'spine_01' },
    { name: 'spine_01', parent: 'pelvis', source: 'spine' },
    { name: 'spine_02', parent: 'spine_01', source: 'spine1' },
    { name: 'spine_03', parent: 'spine_02', source: 'spine2', aim: 'neck_01' },
    ...ueArm(SIDES[0], false, 'spine_03'),
    ...ueArm(SIDES[1], false, 'spine_03'),
    { name: 'neck_01', parent: 'spine_03', source: 'neck' },
    { name: 'head', parent: 'neck_01', source: 'head' },
    ...ueLeg(SIDES[0], false),
    ...ueLeg(SIDES[1], false),
    ...UE_IK,
  ],
  notes: [
    '68 bones named and nested like the UE4 mannequin SK_Mannequin (root, pelvis, spine_01..03, twist and ik_* bones).',
    'A-pose bind (arms 45° down), X down each bone (−X on the right side), centimetres, Z up.',
    'ik_foot_l/r and ik_hand_l/r/gun are keyed to follow the feet and hands; twist bones stay at rest.',
  ],
};

// ------------------------------------------------------------------ Unreal 5 Manny (5.5 and 5.6)
//
// UE 5.5 vs 5.6 (researched for the Unreal5.5 / Unreal5.6 bone types): no change to the Manny/Quinn skeleton was
// found — both versions ship SK_Mannequin with the same bone names, hierarchy (89 core + ~70 corrective bones)
// and bind pose. What changed between them is the tooling: 5.6 rebuilt the IK Retargeter as modular retarget ops
// (third-party tools describe "monolithic retargeting (UE 5.4/5.5) and Modular Retarget Ops (UE 5.6+)") and moved
// further to the Interchange FBX import. Both bone types therefore use this one rig and write the same FBX; only
// the import steps in README.txt differ (docs/exporters.md has the details).

export const UE5: RigTemplate = {
  ...UE4,
  id: 'ue5',
  displayName: 'Unreal Engine 5 Manny/Quinn (SK_Mannequin, UE5)',
  bones: [
    { name: 'root', parent: null, at: { origin: true }, role: 'root' },
    { name: 'pelvis', parent: 'root', source: 'hips', aim: 'spine_01' },
    { name: 'spine_01', parent: 'pelvis', source: 'spine' },
    { name: 'spine_02', parent: 'spine_01', at: { lerp: ['spine', 'spine1', 0.5] } },
    { name: 'spine_03', parent: 'spine_02', source: 'spine1' },
    { name: 'spine_04', parent: 'spine_03', at: { lerp: ['spine1', 'spine2', 0.5] } },
    { name: 'spine_05', parent: 'spine_04', source: 'spine2', aim: 'neck_01' },
    { name: 'neck_01', parent: 'spine_05', source: 'neck' },
    { name: 'neck_02', parent: 'neck_01', at: { lerp: ['neck', 'head', 0.5] } },
    { name: 'head', parent: 'neck_02', source: 'head' },
    ...ueArm(SIDES[0], true, 'spine_05'),
    ...ueArm(SIDES[1], true, 'spine_05'),
    ...ueLeg(SIDES[0], true),
    ...ueLeg(SIDES[1], true),
    ...UE_IK,
    { name: 'interaction', parent: 'root', at: { origin: true }, role: 'helper' },
    { name: 'center_of_mass', parent: 'root', at: 'hips', role: 'helper' },
  ],
  notes: [
    '89 core bones of the UE5 Manny/Quinn skeleton (5 spine, 2 neck, finger metacarpals, 2 twist bones per segment, ik_*, interaction, center_of_mass). The ~70 RBF-driven corrective bones are not written: Unreal drives them from pose drivers and animations must not key them.',
    'UE 5.5 and 5.6 use the same SK_Mannequin skeleton (same bone names, hierarchy and bind pose): see docs/exporters.md for what differs between the two bone types (import preset, not skeleton).',
    'A-pose bind (arms 45° down), X down each bone (−X on the right side), centimetres, Z up.',
  ],
};

// ------------------------------------------------------------------ Character Creator / iClone

function ccBones(): BoneTemplate[] {
  const c = (n: string) => `CC_Base_${n}`;
  /** Twist bones 01 and 02 of `limb` (x: the side's namer), a third and two thirds from `from` to `to`. */
  const twists = (x: (n: string) => string, limb: string, from: string, to: string): BoneTemplate[] => [
    between(x(`${limb}Twist01`), x(limb), from, to, 0.33),
    between(x(`${limb}Twist02`), x(`${limb}Twist01`), from, to, 0.66),
  ];
  /** A facial bone at `offset` (metres) from the head joint. */
  const face = (name: string, parent: string, offset: Vec3, role: 'helper' | 'end'): BoneTemplate => ({
    name: c(name),
    parent: c(parent),
    at: { joint: 'head', offset },
    role,
  });
  const bones: BoneTemplate[] = [
    { name: c('BoneRoot'), parent: null, at: { origin: true }, role: 'root' },
    { name: c('Hip'), parent: c('BoneRoot'), source: 'hips', aim: c('Waist') },
    { name: c('Pelvis'), parent: c('Hip'), at: 'hips', aim: c('Waist') },
  ];
  for (const s of SIDES) {
    const x = (n: string) => c(`${s.B}_${n}`);
    bones.push(...chain(c('Pelvis'), ['Thigh', 'Calf', 'Foot', 'ToeBase'].map(x), sided(s, LEG)));
    for (const t of ['BigToe1', 'IndexToe1', 'MidToe1', 'RingToe1', 'PinkyToe1'])
      bones.push(tipEnd(x(t), x('ToeBase'), `${s.c}Toes`));
    bones.push(
      { name: x('ToeBaseShareBone'), parent: x('Foot'), at: `${s.c}Toes`, role: 'helper' },
      ...twists(x, 'Calf', `${s.c}Shin`, `${s.c}Foot`),
      { name: x('KneeShareBone'), parent: x('Calf'), at: `${s.c}Shin`, role: 'helper' },
      ...twists(x, 'Thigh', `${s.c}Thigh`, `${s.c}Shin`),
    );
  }
  bones.push(
    ...chain(
      c('Hip'),
      ['Waist', 'Spine01', 'Spine02'].map(c),
      ['spine', 'spine1', 'spine2'],
      c('NeckTwist01'),
    ),
    { name: c('NeckTwist01'), parent: c('Spine02'), source: 'neck' },
    { name: c('NeckTwist02'), parent: c('NeckTwist01'), at: { lerp: ['neck', 'head', 0.5] } },
    { name: c('Head'), parent: c('NeckTwist02'), source: 'head' },
    { name: c('FacialBone'), parent: c('Head'), at: { lerp: ['head', 'tip:head', 0.3] }, role: 'helper' },
    face('JawRoot', 'FacialBone', [0, 0.01, 0.03], 'helper'),
    face('Tongue01', 'JawRoot', [0, 0.0, 0.05], 'helper'),
    face('Tongue02', 'Tongue01', [0, 0.0, 0.065], 'helper'),
    face('Tongue03', 'Tongue02', [0, 0.0, 0.08], 'end'),
    face('Teeth02', 'JawRoot', [0, 0.0, 0.085], 'end'),
    face('L_Eye', 'FacialBone', [0.032, 0.07, 0.08], 'end'),
    face('R_Eye', 'FacialBone', [-0.032, 0.07, 0.08], 'end'),
    face('UpperJaw', 'FacialBone', [0, 0.03, 0.07], 'helper'),
    face('Teeth01', 'UpperJaw', [0, 0.03, 0.085], 'end'),
  );
  for (const s of SIDES) {
    const x = (n: string) => c(`${s.B}_${n}`);
    bones.push(
      ...chain(c('Spine02'), ['Clavicle', 'Upperarm', 'Forearm', 'Hand'].map(x), sided(s, ARM), x('Mid1')),
    );
    for (const f of CANON_FINGERS)
      bones.push(...finger(s, f, x('Hand'), (k) => x(`${f === 'Middle' ? 'Mid' : f}${k}`)));
    const side = s.c === 'left' ? 1 : -1;
    bones.push(
      ...twists(x, 'Forearm', `${s.c}Forearm`, `${s.c}Hand`),
      { name: x('ElbowShareBone'), parent: x('Forearm'), at: `${s.c}Forearm`, role: 'helper' },
      ...twists(x, 'Upperarm', `${s.c}UpperArm`, `${s.c}Forearm`),
      {
        name: x('RibsTwist'),
        parent: c('Spine02'),
        at: { joint: 'spine2', offset: [side * 0.08, 0.02, 0.05] },
        role: 'helper',
      },
      {
        name: x('Breast'),
        parent: x('RibsTwist'),
        at: { joint: 'spine2', offset: [side * 0.09, 0.02, 0.1] },
        role: 'end',
      },
    );
  }
  return bones;
}

export const CC: RigTemplate = {
  id: 'cc',
  displayName: 'Character Creator / iClone (CC_Base_)',
  unitsPerMetre: 100,
  axes: { up: '+Z', front: '-Y', handedness: 'right' },
  restPose: { kind: 'A', armDownDeg: 40 },
  rootMotion: 'groundRoot',
  hipsBone: 'CC_Base_Hip',
  orient: yDownTheBone,
  bones: ccBones(),
  notes: [
    'CC3+/iClone CC_Base_ skeleton: BoneRoot, Hip (root motion), Pelvis, Waist, Spine01/02, NeckTwist01/02, Head, facial, twist and share bones; fingers named Thumb/Index/Mid/Ring/Pinky 1-3.',
    'A-pose bind (arms 40° down), +Y down each bone, centimetres, Z up (iClone / 3DXchange convention). The roll of each bone (+Z toward the front) is our choice: no CC file was available to measure it, so retarget in iClone by characterization (3DXchange profile) rather than by raw local rotations.',
  ],
};

// ------------------------------------------------------------------ Roblox R15

export const R15: RigTemplate = {
  id: 'r15',
  displayName: 'Roblox R15',
  unitsPerMetre: 100 / 28,
  axes: { up: '+Y', front: '+Z', handedness: 'right' },
  restPose: { kind: 'I', armDownDeg: 90 },
  rootMotion: 'inPlace',
  hipsBone: 'LowerTorso',
  orient: 'identity',
  bones: [
    { name: 'Root', parent: null, at: { origin: true }, role: 'root' },
    { name: 'HumanoidRootNode', parent: 'Root', at: { joint: 'hips', offset: [0, 0, 0] }, role: 'helper' },
    { name: 'LowerTorso', parent: 'HumanoidRootNode', source: 'hips' },
    { name: 'UpperTorso', parent: 'LowerTorso', source: 'spine1', at: 'spine' },
    { name: 'Head', parent: 'UpperTorso', source: 'head', at: 'neck' },
    ...SIDES.flatMap((s) =>
      chain('UpperTorso', [`${s.L}UpperArm`, `${s.L}LowerArm`, `${s.L}Hand`], sided(s, ARM.slice(1))),
    ),
    ...SIDES.flatMap((s) =>
      chain('LowerTorso', [`${s.L}UpperLeg`, `${s.L}LowerLeg`, `${s.L}Foot`], sided(s, LEG.slice(0, 3))),
    ),
  ],
  notes: [
    '17 nodes named and nested like the official R15 rigs (Root, HumanoidRootNode, LowerTorso, UpperTorso, Head, arms, legs).',
    'Root translation muted: the character animates in place (Roblox moves the Humanoid itself); the vertical hip motion is kept on LowerTorso. Bones have identity orientation, the bind pose has the arms hanging down like the R15 rigs; units are studs (1 stud = 28 cm).',
    'R15 has one torso joint (Waist) and one neck joint: the canonical spine bend is folded into UpperTorso (driven by the chest) and the neck into Head; no fingers and no toes.',
  ],
};

// ------------------------------------------------------------------ 3ds Max Biped
//
// Used by the BIP bone type (FBX + BVH with Biped names: .bip itself is a closed format) and, as markers rather
// than bones, by CS: Character Studio's documented marker file (.csm, see formats/csm.ts for why CS means it).

function bipedBones(): BoneTemplate[] {
  const p = (n: string) => `Bip001 ${n}`;
  const bones: BoneTemplate[] = [
    { name: 'Bip001', parent: null, at: 'hips', aim: p('Spine') },
    { name: p('Pelvis'), parent: 'Bip001', source: 'hips', aim: p('Spine1') },
    { name: p('Spine'), parent: p('Pelvis'), source: 'spine' },
  ];
  for (const s of SIDES) {
    const leg = ['Thigh', 'Calf', 'Foot', 'Toe0'].map((n) => p(`${s.B} ${n}`));
    bones.push(...chain(p('Spine'), leg, sided(s, LEG)), tipEnd(p(`${s.B} Toe0Nub`), leg[3], `${s.c}Toes`));
  }
  bones.push(
    { name: p('Spine1'), parent: p('Spine'), source: 'spine1' },
    { name: p('Spine2'), parent: p('Spine1'), source: 'spine2', aim: p('Neck') },
    { name: p('Neck'), parent: p('Spine2'), source: 'neck', aim: p('Head') },
    { name: p('Head'), parent: p('Neck'), source: 'head' },
    { name: p('HeadNub'), parent: p('Head'), at: { tip: 'head' }, role: 'end' },
  );
  for (const s of SIDES) {
    const arm = ['Clavicle', 'UpperArm', 'Forearm', 'Hand'].map((n) => p(`${s.B} ${n}`));
    bones.push(...chain(p('Neck'), arm, sided(s, ARM), p(`${s.B} Finger2`)));
    CANON_FINGERS.forEach((f, i) => {
      // Finger<i>, Finger<i>1, Finger<i>2, then the Nub.
      const links = finger(s, f, arm[3], (k) => p(`${s.B} Finger${i}${k === 1 ? '' : k - 1}`));
      bones.push(...links, tipEnd(p(`${s.B} Finger${i}Nub`), links[2].name, `${s.c}${f}3`));
    });
  }
  return bones;
}

export const BIPED: RigTemplate = {
  id: 'biped',
  displayName: '3ds Max Biped (Bip001)',
  unitsPerMetre: 100,
  axes: { up: '+Z', front: '-Y', handedness: 'right' },
  restPose: { kind: 'T', armDownDeg: 0 },
  rootMotion: 'hips',
  hipsBone: 'Bip001',
  orient: () => ({ primary: '+X', secondary: '+Y' }),
  bones: bipedBones(),
  notes: [
    'Character Studio Biped naming with the default Bip001 prefix: Bip001 (centre of mass, carries the travel), Pelvis, Spine, Spine1, Spine2, Neck, Head; thighs are children of the first spine link and clavicles children of the neck, as in Biped; fingers Finger0 (thumb) to Finger4 with 3 links and a Nub; Toe0 with a Nub.',
    'Z up, the figure faces -Y, X down each bone, centimetres (set the 3ds Max system unit to centimetres). Bone rolls are our choice (no Biped export was available to measure); Biped itself re-fits the figure when it loads BVH or CSM.',
  ],
};

// ------------------------------------------------------------------ MMD standard bones (Tda-style model)

function mmdBones(): BoneTemplate[] {
  const bones: BoneTemplate[] = [
    { name: '全ての親', parent: null, at: { origin: true }, role: 'root' },
    { name: 'センター', parent: '全ての親', at: 'hips' },
    { name: 'グルーブ', parent: 'センター', at: 'hips' },
    { name: '腰', parent: 'グルーブ', at: 'hips' },
    { name: '上半身', parent: '腰', source: 'spine1', at: 'spine' },
    { name: '上半身2', parent: '上半身', source: 'spine2' },
    { name: '首', parent: '上半身2', source: 'neck' },
    { name: '頭', parent: '首', source: 'head' },
    { name: '両目', parent: '頭', at: { joint: 'head', offset: [0, 0.07, 0.08] }, role: 'helper' },
    { name: '左目', parent: '頭', at: { joint: 'head', offset: [0.032, 0.07, 0.08] }, role: 'helper' },
    { name: '右目', parent: '頭', at: { joint: 'head', offset: [-0.032, 0.07, 0.08] }, role: 'helper' },
    { name: '下半身', parent: '腰', source: 'hips' },
  ];
  const fw = ['０', '１', '２', '３'];
  const fingers: [string, string, number][] = [
    ['親指', 'Thumb', 0],
    ['人指', 'Index', 1],
    ['中指', 'Middle', 1],
    ['薬指', 'Ring', 1],
    ['小指', 'Pinky', 1],
  ];
  const kanji = (s: Side) => (s.c === 'left' ? '左' : '右');
  for (const s of SIDES) {
    const k = kanji(s);
    bones.push(
      ...chain('上半身2', [`${k}肩`, `${k}腕`], sided(s, ['Clavicle', 'UpperArm'])),
      between(`${k}腕捩`, `${k}腕`, `${s.c}UpperArm`, `${s.c}Forearm`, 0.6),
      { name: `${k}ひじ`, parent: `${k}腕`, source: `${s.c}Forearm` },
      between(`${k}手捩`, `${k}ひじ`, `${s.c}Forearm`, `${s.c}Hand`, 0.6),
      { name: `${k}手首`, parent: `${k}ひじ`, source: `${s.c}Hand` },
    );
    for (const [jp, f, first] of fingers)
      bones.push(...finger(s, f, `${k}手首`, (i) => `${k}${jp}${fw[first + i - 1]}`));
  }
  for (const s of SIDES)
    bones.push(
      ...chain(
        '下半身',
        ['足', 'ひざ', '足首', 'つま先'].map((n) => `${kanji(s)}${n}`),
        sided(s, LEG),
      ),
    );
  for (const s of SIDES) {
    const k = kanji(s);
    bones.push(
      { name: `${k}足IK親`, parent: '全ての親', at: { origin: true }, role: 'helper' },
      { name: `${k}足ＩＫ`, parent: `${k}足IK親`, role: 'ik', follows: `${k}足首` },
      { name: `${k}つま先ＩＫ`, parent: `${k}足ＩＫ`, role: 'ik', follows: `${k}つま先` },
    );
  }
  return bones;
}

export const MMD: RigTemplate = {
  id: 'mmd',
  displayName: 'MMD standard bones (Tda-style model)',
  unitsPerMetre: 12.5,
  axes: { up: '+Y', front: '-Z', handedness: 'left' },
  restPose: { kind: 'A', armDownDeg: 37 },
  rootMotion: 'hips',
  hipsBone: 'センター',
  orient: 'identity',
  bones: mmdBones(),
  notes: [
    'MMD standard and semi-standard bones as used by Tda-style models: 全ての親, センター (travel), グルーブ, 腰, 上半身/上半身2, 首, 頭, 肩/腕/ひじ/手首 with twist bones, fingers (親指０-２, 人指１-３...), 下半身, 足/ひざ/足首/つま先 and the leg IK bones 足ＩＫ/つま先ＩＫ.',
    'Left-handed, Y up, the model faces -Z, 1 unit = 8 cm; bones have no rest orientation (rotations about model axes), A-pose bind with the arms about 37° down (Tda proportions).',
  ],
};

// ------------------------------------------------------------------ Unity Humanoid naming

function unityBones(): BoneTemplate[] {
  const bones: BoneTemplate[] = [
    { name: 'Hips', parent: null, source: 'hips', aim: 'Spine' },
    { name: 'Spine', parent: 'Hips', source: 'spine' },
    { name: 'Chest', parent: 'Spine', source: 'spine1' },
    { name: 'UpperChest', parent: 'Chest', source: 'spine2', aim: 'Neck' },
    { name: 'Neck', parent: 'UpperChest', source: 'neck' },
    { name: 'Head', parent: 'Neck', source: 'head' },
  ];
  const seg = ['Proximal', 'Intermediate', 'Distal'];
  for (const s of SIDES) {
    const arm = ['Shoulder', 'UpperArm', 'LowerArm', 'Hand'].map((n) => `${s.L}${n}`);
    bones.push(...chain('UpperChest', arm, sided(s, ARM)));
    for (const f of CANON_FINGERS)
      bones.push(...finger(s, f, arm[3], (k) => `${s.L}${f === 'Pinky' ? 'Little' : f}${seg[k - 1]}`));
  }
  for (const s of SIDES)
    bones.push(
      ...chain(
        'Hips',
        ['UpperLeg', 'LowerLeg', 'Foot', 'Toes'].map((n) => `${s.L}${n}`),
        sided(s, LEG),
      ),
    );
  return bones;
}

export const UNITY: RigTemplate = {
  id: 'unity',
  displayName: 'Unity Humanoid (HumanBodyBones names)',
  unitsPerMetre: 1,
  axes: { up: '+Y', front: '+Z', handedness: 'left' },
  restPose: { kind: 'T', armDownDeg: 0 },
  rootMotion: 'hips',
  hipsBone: 'Hips',
  orient: 'identity',
  bones: unityBones(),
  notes: [
    'Bones named after Unity HumanBodyBones roles (Hips, Spine, Chest, UpperChest, Neck, Head, shoulders, arms, fingers Proximal/Intermediate/Distal, legs, Toes) so the Avatar maps them automatically.',
    'Unity axes: Y up, left-handed (the character faces +Z, its right on +X), metres, T-pose with identity bone orientation.',
  ],
};

/** Template of the canonical skeleton itself (names as in the MotionClip; used by the `bvh` bone type). */
function canonicalTemplate(skeleton: Skeleton): RigTemplate {
  return {
    id: 'canonical',
    displayName: 'mocap canonical skeleton',
    unitsPerMetre: 100,
    axes: { up: '+Y', front: '+Z', handedness: 'right' },
    restPose: { kind: 'T', armDownDeg: 0 },
    rootMotion: 'hips',
    hipsBone: skeleton.names[0],
    orient: 'identity',
    bones: skeleton.names.map((name, j) => ({
      name,
      parent: j === 0 ? null : skeleton.names[skeleton.parents[j]],
      source: name,
    })),
  };
}

export const RIG_TEMPLATES = {
  mixamo: MIXAMO,
  c4d: C4D,
  ue4: UE4,
  ue5: UE5,
  cc: CC,
  r15: R15,
  biped: BIPED,
  mmd: MMD,
  unity: UNITY,
} as const;

export type RigId = keyof typeof RIG_TEMPLATES | 'canonical';
export const RIG_IDS = [
  ...(Object.keys(RIG_TEMPLATES) as (keyof typeof RIG_TEMPLATES)[]),
  'canonical',
] as RigId[];

const RIG_CACHE = new WeakMap<Skeleton, Map<RigId, Rig>>();
let defaultSkeleton: Skeleton | undefined;

/**
 * A rig instantiated on a skeleton (default: the default canonical skeleton with fingers). Cached per skeleton
 * object, so building the same rig for the same clip twice is free.
 */
export function buildRig(id: RigId, skeleton?: Skeleton): Rig {
  if (!skeleton) {
    defaultSkeleton ??= canonicalDefault();
    skeleton = defaultSkeleton;
  }
  let m = RIG_CACHE.get(skeleton);
  if (!m) {
    m = new Map();
    RIG_CACHE.set(skeleton, m);
  }
  const hit = m.get(id);
  if (hit) return hit;
  const t = id === 'canonical' ? canonicalTemplate(skeleton) : RIG_TEMPLATES[id];
  if (!t) throw new Error(`unknown rig ${String(id)} (known: ${RIG_IDS.join(', ')})`);
  const rig = instantiate(t, skeleton);
  m.set(id, rig);
  return rig;
}

import { createSkeleton, DEFAULT_PROPORTIONS } from '../skeleton.ts';

function canonicalDefault(): Skeleton {
  return createSkeleton(DEFAULT_PROPORTIONS, { fingers: true });
}
