/**
 * The product's target rigs (bone names, hierarchy, driving canonical joints, placement, axes, units, rest pose,
 * root-motion convention). Facts come from `shared/reference/rigs.md` and were checked against the real files in
 * `shared/testdata/formats` where one exists (Mixamo, UE4 mannequin, Roblox R15: `test/rigs.test.ts` compares the
 * skeletons). Per-rig notes (what is approximated, what differs between versions) are in each template.
 *
 * `buildRig(id, skeleton)` instantiates a rig on a clip's skeleton (see `build.ts`); `RIG_IDS` lists them.
 */

import type { Skeleton } from '../clip.ts';
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
    bones.push(
      { name: m(`${s.L}Shoulder`), parent: m('Spine2'), source: `${s.c}Clavicle` },
      { name: m(`${s.L}Arm`), parent: m(`${s.L}Shoulder`), source: `${s.c}UpperArm` },
      { name: m(`${s.L}ForeArm`), parent: m(`${s.L}Arm`), source: `${s.c}Forearm` },
      {
        name: m(`${s.L}Hand`),
        parent: m(`${s.L}ForeArm`),
        source: `${s.c}Hand`,
        aim: m(`${s.L}HandMiddle1`),
      },
    );
    for (const f of CANON_FINGERS) {
      const mf = f === 'Pinky' ? 'Pinky' : f;
      let parent = m(`${s.L}Hand`);
      for (let k = 1; k <= 3; k++) {
        const name = m(`${s.L}Hand${mf}${k}`);
        bones.push({ name, parent, source: `${s.c}${f}${k}` });
        parent = name;
      }
      bones.push({ name: m(`${s.L}Hand${mf}3_end`), parent, at: { tip: `${s.c}${f}3` }, role: 'end' });
    }
  }
  for (const s of SIDES) {
    bones.push(
      { name: m(`${s.L}UpLeg`), parent: m('Hips'), source: `${s.c}Thigh` },
      { name: m(`${s.L}Leg`), parent: m(`${s.L}UpLeg`), source: `${s.c}Shin` },
      { name: m(`${s.L}Foot`), parent: m(`${s.L}Leg`), source: `${s.c}Foot` },
      { name: m(`${s.L}ToeBase`), parent: m(`${s.L}Foot`), source: `${s.c}Toes` },
      { name: m(`${s.L}ToeBase_end`), parent: m(`${s.L}ToeBase`), at: { tip: `${s.c}Toes` }, role: 'end' },
    );
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

function ueArm(s: (typeof SIDES)[number], ue5: boolean, spineTop: string): BoneTemplate[] {
  const x = (n: string) => `${n}_${s.l}`;
  const bones: BoneTemplate[] = [
    { name: x('clavicle'), parent: spineTop, source: `${s.c}Clavicle` },
    { name: x('upperarm'), parent: x('clavicle'), source: `${s.c}UpperArm` },
    { name: x('lowerarm'), parent: x('upperarm'), source: `${s.c}Forearm` },
    {
      name: x('hand'),
      parent: x('lowerarm'),
      source: `${s.c}Hand`,
      aim: ue5 ? x('middle_metacarpal') : x('middle_01'),
    },
  ];
  const ueFinger: Record<string, string> = {
    Thumb: 'thumb',
    Index: 'index',
    Middle: 'middle',
    Ring: 'ring',
    Pinky: 'pinky',
  };
  const order = ue5
    ? ['Thumb', 'Index', 'Middle', 'Ring', 'Pinky']
    : ['Index', 'Middle', 'Pinky', 'Ring', 'Thumb'];
  for (const f of order) {
    const uf = ueFinger[f];
    let parent = x('hand');
    if (ue5 && f !== 'Thumb') {
      bones.push({ name: x(`${uf}_metacarpal`), parent, at: { lerp: [`${s.c}Hand`, `${s.c}${f}1`, 0.25] } });
      parent = x(`${uf}_metacarpal`);
    }
    for (let k = 1; k <= 3; k++) {
      const name = x(`${uf}_0${k}`);
      bones.push({ name, parent, source: `${s.c}${f}${k}` });
      parent = name;
    }
  }
  const twists = ue5 ? [1, 2] : [1];
  for (const k of twists)
    bones.push({
      name: x(`lowerarm_twist_0${k}`),
      parent: x('lowerarm'),
      at: { lerp: [`${s.c}Forearm`, `${s.c}Hand`, ue5 ? (k === 1 ? 0.66 : 0.33) : 0.5] },
      role: 'helper',
    });
  for (const k of twists)
    bones.push({
      name: x(`upperarm_twist_0${k}`),
      parent: x('upperarm'),
      at: { lerp: [`${s.c}UpperArm`, `${s.c}Forearm`, ue5 ? (k === 1 ? 0.02 : 0.5) : 0.02] },
      role: 'helper',
    });
  return bones;
}

function ueLeg(s: (typeof SIDES)[number], ue5: boolean): BoneTemplate[] {
  const x = (n: string) => `${n}_${s.l}`;
  const twists = ue5 ? [1, 2] : [1];
  return [
    { name: x('thigh'), parent: 'pelvis', source: `${s.c}Thigh` },
    { name: x('calf'), parent: x('thigh'), source: `${s.c}Shin` },
    ...twists.map(
      (k): BoneTemplate => ({
        name: x(`calf_twist_0${k}`),
        parent: x('calf'),
        at: { lerp: [`${s.c}Shin`, `${s.c}Foot`, k === 1 ? 0.5 : 0.25] },
        role: 'helper',
      }),
    ),
    { name: x('foot'), parent: x('calf'), source: `${s.c}Foot` },
    { name: x('ball'), parent: x('foot'), source: `${s.c}Toes` },
    ...twists.map(
      (k): BoneTemplate => ({
        name: x(`thigh_twist_0${k}`),
        parent: x('thigh'),
        at: { lerp: [`${s.c}Thigh`, `${s.c}Shin`, k === 1 ? 0.25 : 0.5] },
        role: 'helper',
      }),
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
  const bones: BoneTemplate[] = [
    { name: c('BoneRoot'), parent: null, at: { origin: true }, role: 'root' },
    { name: c('Hip'), parent: c('BoneRoot'), source: 'hips', aim: c('Waist') },
    { name: c('Pelvis'), parent: c('Hip'), at: 'hips', aim: c('Waist') },
  ];
  for (const s of SIDES) {
    const x = (n: string) => c(`${s.B}_${n}`);
    bones.push(
      { name: x('Thigh'), parent: c('Pelvis'), source: `${s.c}Thigh` },
      { name: x('Calf'), parent: x('Thigh'), source: `${s.c}Shin` },
      { name: x('Foot'), parent: x('Calf'), source: `${s.c}Foot` },
      { name: x('ToeBase'), parent: x('Foot'), source: `${s.c}Toes` },
    );
    for (const t of ['BigToe1', 'IndexToe1', 'MidToe1', 'RingToe1', 'PinkyToe1'])
      bones.push({ name: x(t), parent: x('ToeBase'), at: { tip: `${s.c}Toes` }, role: 'end' });
    bones.push(
      { name: x('ToeBaseShareBone'), parent: x('Foot'), at: `${s.c}Toes`, role: 'helper' },
      {
        name: x('CalfTwist01'),
        parent: x('Calf'),
        at: { lerp: [`${s.c}Shin`, `${s.c}Foot`, 0.33] },
        role: 'helper',
      },
      {
        name: x('CalfTwist02'),
        parent: x('CalfTwist01'),
        at: { lerp: [`${s.c}Shin`, `${s.c}Foot`, 0.66] },
        role: 'helper',
      },
      { name: x('KneeShareBone'), parent: x('Calf'), at: `${s.c}Shin`, role: 'helper' },
      {
        name: x('ThighTwist01'),
        parent: x('Thigh'),
        at: { lerp: [`${s.c}Thigh`, `${s.c}Shin`, 0.33] },
        role: 'helper',
      },
      {
        name: x('ThighTwist02'),
        parent: x('ThighTwist01'),
        at: { lerp: [`${s.c}Thigh`, `${s.c}Shin`, 0.66] },
        role: 'helper',
      },
    );
  }
  bones.push(
    { name: c('Waist'), parent: c('Hip'), source: 'spine' },
    { name: c('Spine01'), parent: c('Waist'), source: 'spine1' },
    { name: c('Spine02'), parent: c('Spine01'), source: 'spine2', aim: c('NeckTwist01') },
    { name: c('NeckTwist01'), parent: c('Spine02'), source: 'neck' },
    { name: c('NeckTwist02'), parent: c('NeckTwist01'), at: { lerp: ['neck', 'head', 0.5] } },
    { name: c('Head'), parent: c('NeckTwist02'), source: 'head' },
    { name: c('FacialBone'), parent: c('Head'), at: { lerp: ['head', 'tip:head', 0.3] }, role: 'helper' },
    {
      name: c('JawRoot'),
      parent: c('FacialBone'),
      at: { joint: 'head', offset: [0, 0.01, 0.03] },
      role: 'helper',
    },
    {
      name: c('Tongue01'),
      parent: c('JawRoot'),
      at: { joint: 'head', offset: [0, 0.0, 0.05] },
      role: 'helper',
    },
    {
      name: c('Tongue02'),
      parent: c('Tongue01'),
      at: { joint: 'head', offset: [0, 0.0, 0.065] },
      role: 'helper',
    },
    {
      name: c('Tongue03'),
      parent: c('Tongue02'),
      at: { joint: 'head', offset: [0, 0.0, 0.08] },
      role: 'end',
    },
    { name: c('Teeth02'), parent: c('JawRoot'), at: { joint: 'head', offset: [0, 0.0, 0.085] }, role: 'end' },
    {
      name: c('L_Eye'),
      parent: c('FacialBone'),
      at: { joint: 'head', offset: [0.032, 0.07, 0.08] },
      role: 'end',
    },
    {
      name: c('R_Eye'),
      parent: c('FacialBone'),
      at: { joint: 'head', offset: [-0.032, 0.07, 0.08] },
      role: 'end',
    },
    {
      name: c('UpperJaw'),
      parent: c('FacialBone'),
      at: { joint: 'head', offset: [0, 0.03, 0.07] },
      role: 'helper',
    },
    {
      name: c('Teeth01'),
      parent: c('UpperJaw'),
      at: { joint: 'head', offset: [0, 0.03, 0.085] },
      role: 'end',
    },
  );
  const ccFinger: Record<string, string> = {
    Thumb: 'Thumb',
    Index: 'Index',
    Middle: 'Mid',
    Ring: 'Ring',
    Pinky: 'Pinky',
  };
  for (const s of SIDES) {
    const x = (n: string) => c(`${s.B}_${n}`);
    bones.push(
      { name: x('Clavicle'), parent: c('Spine02'), source: `${s.c}Clavicle` },
      { name: x('Upperarm'), parent: x('Clavicle'), source: `${s.c}UpperArm` },
      { name: x('Forearm'), parent: x('Upperarm'), source: `${s.c}Forearm` },
      { name: x('Hand'), parent: x('Forearm'), source: `${s.c}Hand`, aim: x('Mid1') },
    );
    for (const f of CANON_FINGERS) {
      let parent = x('Hand');
      for (let k = 1; k <= 3; k++) {
        const name = x(`${ccFinger[f]}${k}`);
        bones.push({ name, parent, source: `${s.c}${f}${k}` });
        parent = name;
      }
    }
    bones.push(
      {
        name: x('ForearmTwist01'),
        parent: x('Forearm'),
        at: { lerp: [`${s.c}Forearm`, `${s.c}Hand`, 0.33] },
        role: 'helper',
      },
      {
        name: x('ForearmTwist02'),
        parent: x('ForearmTwist01'),
        at: { lerp: [`${s.c}Forearm`, `${s.c}Hand`, 0.66] },
        role: 'helper',
      },
      { name: x('ElbowShareBone'), parent: x('Forearm'), at: `${s.c}Forearm`, role: 'helper' },
      {
        name: x('UpperarmTwist01'),
        parent: x('Upperarm'),
        at: { lerp: [`${s.c}UpperArm`, `${s.c}Forearm`, 0.33] },
        role: 'helper',
      },
      {
        name: x('UpperarmTwist02'),
        parent: x('UpperarmTwist01'),
        at: { lerp: [`${s.c}UpperArm`, `${s.c}Forearm`, 0.66] },
        role: 'helper',
      },
      {
        name: x('RibsTwist'),
        parent: c('Spine02'),
        at: { joint: 'spine2', offset: [s.c === 'left' ? 0.08 : -0.08, 0.02, 0.05] },
        role: 'helper',
      },
      {
        name: x('Breast'),
        parent: x('RibsTwist'),
        at: { joint: 'spine2', offset: [s.c === 'left' ? 0.09 : -0.09, 0.02, 0.1] },
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
    { name: 'LeftUpperArm', parent: 'UpperTorso', source: 'leftUpperArm' },
    { name: 'LeftLowerArm', parent: 'LeftUpperArm', source: 'leftForearm' },
    { name: 'LeftHand', parent: 'LeftLowerArm', source: 'leftHand' },
    { name: 'RightUpperArm', parent: 'UpperTorso', source: 'rightUpperArm' },
    { name: 'RightLowerArm', parent: 'RightUpperArm', source: 'rightForearm' },
    { name: 'RightHand', parent: 'RightLowerArm', source: 'rightHand' },
    { name: 'LeftUpperLeg', parent: 'LowerTorso', source: 'leftThigh' },
    { name: 'LeftLowerLeg', parent: 'LeftUpperLeg', source: 'leftShin' },
    { name: 'LeftFoot', parent: 'LeftLowerLeg', source: 'leftFoot' },
    { name: 'RightUpperLeg', parent: 'LowerTorso', source: 'rightThigh' },
    { name: 'RightLowerLeg', parent: 'RightUpperLeg', source: 'rightShin' },
    { name: 'RightFoot', parent: 'RightLowerLeg', source: 'rightFoot' },
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
    bones.push(
      { name: p(`${s.B} Thigh`), parent: p('Spine'), source: `${s.c}Thigh` },
      { name: p(`${s.B} Calf`), parent: p(`${s.B} Thigh`), source: `${s.c}Shin` },
      { name: p(`${s.B} Foot`), parent: p(`${s.B} Calf`), source: `${s.c}Foot` },
      { name: p(`${s.B} Toe0`), parent: p(`${s.B} Foot`), source: `${s.c}Toes` },
      { name: p(`${s.B} Toe0Nub`), parent: p(`${s.B} Toe0`), at: { tip: `${s.c}Toes` }, role: 'end' },
    );
  }
  bones.push(
    { name: p('Spine1'), parent: p('Spine'), source: 'spine1' },
    { name: p('Spine2'), parent: p('Spine1'), source: 'spine2', aim: p('Neck') },
    { name: p('Neck'), parent: p('Spine2'), source: 'neck', aim: p('Head') },
    { name: p('Head'), parent: p('Neck'), source: 'head' },
    { name: p('HeadNub'), parent: p('Head'), at: { tip: 'head' }, role: 'end' },
  );
  for (const s of SIDES) {
    bones.push(
      { name: p(`${s.B} Clavicle`), parent: p('Neck'), source: `${s.c}Clavicle` },
      { name: p(`${s.B} UpperArm`), parent: p(`${s.B} Clavicle`), source: `${s.c}UpperArm` },
      { name: p(`${s.B} Forearm`), parent: p(`${s.B} UpperArm`), source: `${s.c}Forearm` },
      { name: p(`${s.B} Hand`), parent: p(`${s.B} Forearm`), source: `${s.c}Hand`, aim: p(`${s.B} Finger2`) },
    );
    CANON_FINGERS.forEach((f, i) => {
      const names = [p(`${s.B} Finger${i}`), p(`${s.B} Finger${i}1`), p(`${s.B} Finger${i}2`)];
      let parent = p(`${s.B} Hand`);
      names.forEach((name, k) => {
        bones.push({ name, parent, source: `${s.c}${f}${k + 1}` });
        parent = name;
      });
      bones.push({ name: p(`${s.B} Finger${i}Nub`), parent, at: { tip: `${s.c}${f}3` }, role: 'end' });
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
  for (const s of SIDES) {
    const k = s.c === 'left' ? '左' : '右';
    bones.push(
      { name: `${k}肩`, parent: '上半身2', source: `${s.c}Clavicle` },
      { name: `${k}腕`, parent: `${k}肩`, source: `${s.c}UpperArm` },
      {
        name: `${k}腕捩`,
        parent: `${k}腕`,
        at: { lerp: [`${s.c}UpperArm`, `${s.c}Forearm`, 0.6] },
        role: 'helper',
      },
      { name: `${k}ひじ`, parent: `${k}腕`, source: `${s.c}Forearm` },
      {
        name: `${k}手捩`,
        parent: `${k}ひじ`,
        at: { lerp: [`${s.c}Forearm`, `${s.c}Hand`, 0.6] },
        role: 'helper',
      },
      { name: `${k}手首`, parent: `${k}ひじ`, source: `${s.c}Hand` },
    );
    const fingers: [string, string, number][] = [
      ['親指', 'Thumb', 0],
      ['人指', 'Index', 1],
      ['中指', 'Middle', 1],
      ['薬指', 'Ring', 1],
      ['小指', 'Pinky', 1],
    ];
    for (const [jp, f, first] of fingers) {
      let parent = `${k}手首`;
      for (let i = 0; i < 3; i++) {
        const name = `${k}${jp}${fw[first + i]}`;
        bones.push({ name, parent, source: `${s.c}${f}${i + 1}` });
        parent = name;
      }
    }
  }
  for (const s of SIDES) {
    const k = s.c === 'left' ? '左' : '右';
    bones.push(
      { name: `${k}足`, parent: '下半身', source: `${s.c}Thigh` },
      { name: `${k}ひざ`, parent: `${k}足`, source: `${s.c}Shin` },
      { name: `${k}足首`, parent: `${k}ひざ`, source: `${s.c}Foot` },
      { name: `${k}つま先`, parent: `${k}足首`, source: `${s.c}Toes` },
    );
  }
  for (const s of SIDES) {
    const k = s.c === 'left' ? '左' : '右';
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
  const uf: Record<string, string> = {
    Thumb: 'Thumb',
    Index: 'Index',
    Middle: 'Middle',
    Ring: 'Ring',
    Pinky: 'Little',
  };
  const seg = ['Proximal', 'Intermediate', 'Distal'];
  for (const s of SIDES) {
    bones.push(
      { name: `${s.L}Shoulder`, parent: 'UpperChest', source: `${s.c}Clavicle` },
      { name: `${s.L}UpperArm`, parent: `${s.L}Shoulder`, source: `${s.c}UpperArm` },
      { name: `${s.L}LowerArm`, parent: `${s.L}UpperArm`, source: `${s.c}Forearm` },
      { name: `${s.L}Hand`, parent: `${s.L}LowerArm`, source: `${s.c}Hand` },
    );
    for (const f of CANON_FINGERS) {
      let parent = `${s.L}Hand`;
      for (let k = 0; k < 3; k++) {
        const name = `${s.L}${uf[f]}${seg[k]}`;
        bones.push({ name, parent, source: `${s.c}${f}${k + 1}` });
        parent = name;
      }
    }
  }
  for (const s of SIDES) {
    bones.push(
      { name: `${s.L}UpperLeg`, parent: 'Hips', source: `${s.c}Thigh` },
      { name: `${s.L}LowerLeg`, parent: `${s.L}UpperLeg`, source: `${s.c}Shin` },
      { name: `${s.L}Foot`, parent: `${s.L}LowerLeg`, source: `${s.c}Foot` },
      { name: `${s.L}Toes`, parent: `${s.L}Foot`, source: `${s.c}Toes` },
    );
  }
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
