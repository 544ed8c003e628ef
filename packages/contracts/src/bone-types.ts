/**
 * The bone types the product sells (spec §1 display names, used as-is in the UI, API and CLI) and the main
 * file format each zip holds. Pure data: the server validates with it, the web app offers it, the exporters
 * (`@mocap/motion`) write it.
 */
import { z } from 'zod';

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

export type FormatFamily = 'fbx' | 'bip' | 'bvh' | 'vmd' | 'anim' | 'csm';

/** Main file format of each bone type's zip (free accounts may choose the `fbx` ones, spec §5). */
export const BONE_TYPE_FORMAT: Record<BoneType, FormatFamily> = {
  Unreal4: 'fbx',
  'Unreal5.5': 'fbx',
  'Unreal5.6': 'fbx',
  Mixamo: 'fbx',
  C4D: 'fbx',
  'CC&iClone': 'fbx',
  RobloxR15: 'fbx',
  BIP: 'bip',
  bvh: 'bvh',
  'VMD-TDA': 'vmd',
  OnlyFace: 'fbx',
  UnityAnim: 'anim',
  BoyFBX: 'fbx',
  GirlFBX: 'fbx',
  CS: 'csm',
};

export function isBoneType(s: string): s is BoneType {
  return (BONE_TYPES as readonly string[]).includes(s);
}

/**
 * A bone type as the API takes it: one of BONE_TYPES, checked once at the edge (400 `unknown bone type "…"`
 * otherwise); behind the edge it travels as a `BoneType`, not a string to check again.
 */
export const BoneTypeSchema = z.enum(BONE_TYPES, {
  error: (iss) => `unknown bone type "${String(iss.input)}"; one of ${BONE_TYPES.join(', ')}`,
});
