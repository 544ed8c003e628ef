/**
 * The correspondence table, shared by the renderer (which ground-truth points to record) and every metric:
 * our canonical joints (names of `@mocap/motion`'s canonical skeleton) ↔ the BlazePose landmarks the raw
 * rows use ↔ each ground-truth rig's bones.
 *
 * Evaluation joints (`EVAL_JOINTS`): hips (pelvis = midpoint of the hip joints), hip joints, knees, ankles,
 * shoulders, elbows, wrists and the head. `leftToes`/`rightToes` are recorded for foot contacts, foot sliding
 * and ground penetration only (the canonical toe joint is the ball of the foot, BlazePose's `foot_index` the
 * toe tip: not the same point, so they stay out of the position errors).
 *
 * Ground-truth points are bone origins, or *markers*: points fixed to a bone, placed in the rest pose. The
 * Quaternius rigs put their foot bone at the sole (2 cm above the floor), not at the ankle, and the modular
 * ones have no toe bone: there an ankle marker rides on the shin 5.5 cm above the foot bone, and a toe marker
 * on the foot 12 cm in front of it.
 */

/** Canonical joints the position metrics use, in this order. */
export const EVAL_JOINTS = [
  'hips',
  'leftThigh',
  'rightThigh',
  'leftShin',
  'rightShin',
  'leftFoot',
  'rightFoot',
  'leftUpperArm',
  'rightUpperArm',
  'leftForearm',
  'rightForearm',
  'leftHand',
  'rightHand',
  'head',
] as const;
export type EvalJoint = (typeof EVAL_JOINTS)[number];

/** Joints recorded for every clip: the evaluation joints and the toes. */
export const RECORDED_JOINTS = [...EVAL_JOINTS, 'leftToes', 'rightToes'] as const;
export type RecordedJoint = (typeof RECORDED_JOINTS)[number];

export const jointIndexOf = (name: RecordedJoint): number => RECORDED_JOINTS.indexOf(name);

/** Readable names for tables. */
export const JOINT_LABEL: Record<RecordedJoint, string> = {
  hips: 'pelvis',
  leftThigh: 'L hip',
  rightThigh: 'R hip',
  leftShin: 'L knee',
  rightShin: 'R knee',
  leftFoot: 'L ankle',
  rightFoot: 'R ankle',
  leftUpperArm: 'L shoulder',
  rightUpperArm: 'R shoulder',
  leftForearm: 'L elbow',
  rightForearm: 'R elbow',
  leftHand: 'L wrist',
  rightHand: 'R wrist',
  head: 'head',
  leftToes: 'L toe',
  rightToes: 'R toe',
};

/**
 * BlazePose landmark indices whose mean is each recorded joint (raw rows). The pelvis is the hip midpoint;
 * the head is the midpoint of the ears (the skull base sits between and slightly below them).
 */
export const LANDMARKS_OF: Record<RecordedJoint, number[]> = {
  hips: [23, 24],
  leftThigh: [23],
  rightThigh: [24],
  leftShin: [25],
  rightShin: [26],
  leftFoot: [27],
  rightFoot: [28],
  leftUpperArm: [11],
  rightUpperArm: [12],
  leftForearm: [13],
  rightForearm: [14],
  leftHand: [15],
  rightHand: [16],
  head: [7, 8],
  leftToes: [31],
  rightToes: [32],
};

/** Canonical skeleton joints whose mean is each recorded joint (solved rows). */
export const CANONICAL_OF: Record<RecordedJoint, string[]> = {
  hips: ['leftThigh', 'rightThigh'],
  leftThigh: ['leftThigh'],
  rightThigh: ['rightThigh'],
  leftShin: ['leftShin'],
  rightShin: ['rightShin'],
  leftFoot: ['leftFoot'],
  rightFoot: ['rightFoot'],
  leftUpperArm: ['leftUpperArm'],
  rightUpperArm: ['rightUpperArm'],
  leftForearm: ['leftForearm'],
  rightForearm: ['rightForearm'],
  leftHand: ['leftHand'],
  rightHand: ['rightHand'],
  head: ['head'],
  leftToes: ['leftToes'],
  rightToes: ['rightToes'],
};

/** Skeleton roles the renderer poses and retargets (page/render.js). */
export type Role =
  | 'hips'
  | 'spine'
  | 'chest'
  | 'neck'
  | 'head'
  | 'shoulderL'
  | 'upperArmL'
  | 'forearmL'
  | 'handL'
  | 'shoulderR'
  | 'upperArmR'
  | 'forearmR'
  | 'handR'
  | 'thighL'
  | 'shinL'
  | 'footL'
  | 'toeL'
  | 'thighR'
  | 'shinR'
  | 'footR'
  | 'toeR';

/** A ground-truth point: a bone origin, or a marker fixed to `bone` at `from`'s rest position + `offset`. */
export interface GtPoint {
  bone: string[];
  from?: string[];
  /** Metres, in the scaled character's rest frame (Y up, facing +Z). */
  offset?: [number, number, number];
}

export interface RigDefinition {
  name: string;
  roles: Partial<Record<Role, string[]>>;
  /** Ground truth per recorded joint except `hips` (the midpoint of the two hip joints). */
  gt: Record<Exclude<RecordedJoint, 'hips'>, GtPoint>;
}

const sided = (l: string, r: string) => ({ l, r });
function gtFromRoles(
  roles: Partial<Record<Role, string[]>>,
  over: Partial<RigDefinition['gt']> = {},
): RigDefinition['gt'] {
  const b = (role: Role): GtPoint => ({ bone: roles[role] ?? [] });
  return {
    leftThigh: b('thighL'),
    rightThigh: b('thighR'),
    leftShin: b('shinL'),
    rightShin: b('shinR'),
    leftFoot: b('footL'),
    rightFoot: b('footR'),
    leftUpperArm: b('upperArmL'),
    rightUpperArm: b('upperArmR'),
    leftForearm: b('forearmL'),
    rightForearm: b('forearmR'),
    leftHand: b('handL'),
    rightHand: b('handR'),
    head: b('head'),
    leftToes: b('toeL'),
    rightToes: b('toeR'),
    ...over,
  };
}

function quaterniusRoles(hand: string): Partial<Record<Role, string[]>> {
  const s = sided('L', 'R');
  return {
    hips: ['Hips'],
    spine: ['Abdomen'],
    chest: ['Chest', 'Torso'],
    neck: ['Neck'],
    head: ['Head'],
    shoulderL: [`Shoulder.${s.l}`],
    upperArmL: [`UpperArm.${s.l}`],
    forearmL: [`LowerArm.${s.l}`],
    handL: [`${hand}.${s.l}`],
    shoulderR: [`Shoulder.${s.r}`],
    upperArmR: [`UpperArm.${s.r}`],
    forearmR: [`LowerArm.${s.r}`],
    handR: [`${hand}.${s.r}`],
    thighL: [`UpperLeg.${s.l}`],
    shinL: [`LowerLeg.${s.l}`],
    footL: [`Foot.${s.l}`],
    thighR: [`UpperLeg.${s.r}`],
    shinR: [`LowerLeg.${s.r}`],
    footR: [`Foot.${s.r}`],
  };
}

/** Quaternius' foot bone sits at the sole: the ankle is a marker on the shin 5.5 cm above it. */
const quaterniusAnkles = {
  leftFoot: { bone: ['LowerLeg.L'], from: ['Foot.L'], offset: [0, 0.055, 0] },
  rightFoot: { bone: ['LowerLeg.R'], from: ['Foot.R'], offset: [0, 0.055, 0] },
} satisfies Partial<RigDefinition['gt']>;

const quaterniusAnimatedRoles = quaterniusRoles('Palm');
const quaterniusModularRoles = quaterniusRoles('Hand');

export const RIGS = {
  quaterniusAnimated: {
    name: 'Quaternius animated (FBX)',
    roles: quaterniusAnimatedRoles,
    gt: gtFromRoles(quaterniusAnimatedRoles, {
      ...quaterniusAnkles,
      leftToes: { bone: ['Foot.L_end', 'FootL_end'] },
      rightToes: { bone: ['Foot.R_end', 'FootR_end'] },
    }),
  },
  quaterniusModular: {
    name: 'Quaternius modular (glTF)',
    roles: quaterniusModularRoles,
    gt: gtFromRoles(quaterniusModularRoles, {
      ...quaterniusAnkles,
      leftToes: { bone: ['Foot.L'], offset: [0, 0, 0.12] },
      rightToes: { bone: ['Foot.R'], offset: [0, 0, 0.12] },
    }),
  },
  mixamo: {
    name: 'Mixamo (glTF)',
    roles: Object.fromEntries(
      Object.entries({
        hips: 'Hips',
        spine: 'Spine',
        chest: 'Spine2',
        neck: 'Neck',
        head: 'Head',
        shoulderL: 'LeftShoulder',
        upperArmL: 'LeftArm',
        forearmL: 'LeftForeArm',
        handL: 'LeftHand',
        shoulderR: 'RightShoulder',
        upperArmR: 'RightArm',
        forearmR: 'RightForeArm',
        handR: 'RightHand',
        thighL: 'LeftUpLeg',
        shinL: 'LeftLeg',
        footL: 'LeftFoot',
        toeL: 'LeftToeBase',
        thighR: 'RightUpLeg',
        shinR: 'RightLeg',
        footR: 'RightFoot',
        toeR: 'RightToeBase',
      }).map(([k, v]) => [k, [`mixamorig:${v}`, v]]),
    ),
    gt: {} as RigDefinition['gt'],
  },
} satisfies Record<string, RigDefinition>;
RIGS.mixamo.gt = gtFromRoles(RIGS.mixamo.roles);

export type RigName = keyof typeof RIGS;

/** Source skeletons of the BVH collections (role → joint names). */
export const BVH_ROLES: Record<'cmu' | 'xia' | 'bandai', Partial<Record<Role, string[]>>> = {
  cmu: {
    hips: ['CC_Base_Hip'],
    spine: ['CC_Base_Waist'],
    chest: ['CC_Base_Spine02'],
    neck: ['CC_Base_NeckTwist01'],
    head: ['CC_Base_Head'],
    shoulderL: ['CC_Base_L_Clavicle'],
    upperArmL: ['CC_Base_L_Upperarm'],
    forearmL: ['CC_Base_L_Forearm'],
    handL: ['CC_Base_L_Hand'],
    shoulderR: ['CC_Base_R_Clavicle'],
    upperArmR: ['CC_Base_R_Upperarm'],
    forearmR: ['CC_Base_R_Forearm'],
    handR: ['CC_Base_R_Hand'],
    thighL: ['CC_Base_L_Thigh'],
    shinL: ['CC_Base_L_Calf'],
    footL: ['CC_Base_L_Foot'],
    toeL: ['CC_Base_L_ToeBase'],
    thighR: ['CC_Base_R_Thigh'],
    shinR: ['CC_Base_R_Calf'],
    footR: ['CC_Base_R_Foot'],
    toeR: ['CC_Base_R_ToeBase'],
  },
  xia: {
    hips: ['Hips'],
    spine: ['LowerBack'],
    chest: ['Spine1'],
    neck: ['Neck'],
    head: ['Head'],
    shoulderL: ['LeftShoulder'],
    upperArmL: ['LeftArm'],
    forearmL: ['LeftForeArm'],
    handL: ['LeftHand'],
    shoulderR: ['RightShoulder'],
    upperArmR: ['RightArm'],
    forearmR: ['RightForeArm'],
    handR: ['RightHand'],
    thighL: ['LeftUpLeg'],
    shinL: ['LeftLeg'],
    footL: ['LeftFoot'],
    toeL: ['LeftToeBase'],
    thighR: ['RightUpLeg'],
    shinR: ['RightLeg'],
    footR: ['RightFoot'],
    toeR: ['RightToeBase'],
  },
  bandai: {
    hips: ['Hips'],
    spine: ['Spine'],
    chest: ['Chest'],
    neck: ['Neck'],
    head: ['Head'],
    shoulderL: ['Shoulder_L'],
    upperArmL: ['UpperArm_L'],
    forearmL: ['LowerArm_L'],
    handL: ['Hand_L'],
    shoulderR: ['Shoulder_R'],
    upperArmR: ['UpperArm_R'],
    forearmR: ['LowerArm_R'],
    handR: ['Hand_R'],
    thighL: ['UpperLeg_L'],
    shinL: ['LowerLeg_L'],
    footL: ['Foot_L'],
    toeL: ['Toes_L'],
    thighR: ['UpperLeg_R'],
    shinR: ['LowerLeg_R'],
    footR: ['Foot_R'],
    toeR: ['Toes_R'],
  },
};

/**
 * Bones whose lengths the bone-length standard deviation measures (pairs of evaluation joints). The span
 * between the shoulders is not one: it runs over both clavicles, which turn when a person shrugs or reaches
 * (measured on the solved taiji clip: every bone 0.000 mm, the shoulder span 10.6 mm), so it is not counted.
 */
export const BONES: [RecordedJoint, RecordedJoint][] = [
  ['leftThigh', 'leftShin'],
  ['rightThigh', 'rightShin'],
  ['leftShin', 'leftFoot'],
  ['rightShin', 'rightFoot'],
  ['leftUpperArm', 'leftForearm'],
  ['rightUpperArm', 'rightForearm'],
  ['leftForearm', 'leftHand'],
  ['rightForearm', 'rightHand'],
  ['leftThigh', 'rightThigh'],
];

/** Joint angles compared by the joint-angle error: the angle at `b` between `a` and `c`. */
export const ANGLES: { name: string; a: RecordedJoint; b: RecordedJoint; c: RecordedJoint }[] = [
  { name: 'L knee', a: 'leftThigh', b: 'leftShin', c: 'leftFoot' },
  { name: 'R knee', a: 'rightThigh', b: 'rightShin', c: 'rightFoot' },
  { name: 'L elbow', a: 'leftUpperArm', b: 'leftForearm', c: 'leftHand' },
  { name: 'R elbow', a: 'rightUpperArm', b: 'rightForearm', c: 'rightHand' },
  { name: 'L hip', a: 'leftUpperArm', b: 'leftThigh', c: 'leftShin' },
  { name: 'R hip', a: 'rightUpperArm', b: 'rightThigh', c: 'rightShin' },
  { name: 'L shoulder', a: 'leftThigh', b: 'leftUpperArm', c: 'leftForearm' },
  { name: 'R shoulder', a: 'rightThigh', b: 'rightUpperArm', c: 'rightForearm' },
];
