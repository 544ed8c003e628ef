/**
 * Export bone types (spec §1: display names used as-is). Free users may only choose FBX output
 * (spec §5); the FBX family is every type whose zip holds an .fbx file.
 */

export const BONE_TYPES = [
  'Unreal4',
  'Unreal5.5',
  'Unreal5.6',
  'Mixamo',
  'C4D',
  'CC&iClone',
  'RobloxR15',
  'BIP',
  'bvh',
  'VMD-TDA',
  'OnlyFace',
  'UnityAnim',
  'BoyFBX',
  'GirlFBX',
  'CS',
] as const;

export type BoneType = (typeof BONE_TYPES)[number];

export interface BoneTypeInfo {
  name: string;
  /** Main file format in the zip. */
  format: string;
  /** A free account may choose it. */
  free: boolean;
}

const FORMAT: Record<BoneType, string> = {
  Unreal4: 'FBX',
  'Unreal5.5': 'FBX',
  'Unreal5.6': 'FBX',
  Mixamo: 'FBX',
  C4D: 'FBX',
  'CC&iClone': 'FBX',
  RobloxR15: 'FBX',
  BIP: 'BIP',
  bvh: 'BVH',
  'VMD-TDA': 'VMD',
  OnlyFace: 'FBX',
  UnityAnim: 'ANIM',
  BoyFBX: 'FBX',
  GirlFBX: 'FBX',
  CS: 'CSM',
};

export const DEFAULT_BONE_TYPES: readonly BoneTypeInfo[] = BONE_TYPES.map((name) => ({
  name,
  format: FORMAT[name],
  free: FORMAT[name] === 'FBX',
}));

export const isFbxType = (name: string): boolean =>
  (DEFAULT_BONE_TYPES.find((b) => b.name === name)?.format ?? '') === 'FBX';
