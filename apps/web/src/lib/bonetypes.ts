/**
 * Export bone types (spec §1: display names used as-is). Free users may only choose FBX output
 * (spec §5); the FBX family is every type whose zip holds an .fbx file.
 */

import { BONE_TYPE_FORMAT, BONE_TYPES, type BoneType } from '@mocap/motion/bone-types';

export { BONE_TYPES, type BoneType };

export interface BoneTypeInfo {
  name: string;
  /** Main file format in the zip. */
  format: string;
  /** A free account may choose it. */
  free: boolean;
}

const FORMAT = (name: BoneType): string => BONE_TYPE_FORMAT[name].toUpperCase();

export const DEFAULT_BONE_TYPES: readonly BoneTypeInfo[] = BONE_TYPES.map((name) => ({
  name,
  format: FORMAT(name),
  free: BONE_TYPE_FORMAT[name] === 'fbx',
}));

export const isFbxType = (name: string): boolean =>
  (DEFAULT_BONE_TYPES.find((b) => b.name === name)?.format ?? '') === 'FBX';
