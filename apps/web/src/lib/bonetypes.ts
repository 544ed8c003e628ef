/**
 * Export bone types (spec §1: display names used as-is). Free users may only choose FBX output
 * (spec §5); the FBX family is every type whose zip holds an .fbx file.
 */

import {
  BONE_TYPE_FORMAT,
  BONE_TYPES,
  type BoneType,
  type BoneTypeInfo,
  formatAllowed,
} from '@mocap/contracts';

export { BONE_TYPES, type BoneType, type BoneTypeInfo };

/** What a bone type needs from the capture (OnlyFace: the face). */
export const needsOf = (name: string): BoneTypeInfo['needs'] => (name === 'OnlyFace' ? 'face' : null);

/** The list `GET /motion/boneTypes` answers, from the same contract (used before it answers or when it cannot). */
export const DEFAULT_BONE_TYPES: readonly BoneTypeInfo[] = BONE_TYPES.map((name) => ({
  name,
  format: BONE_TYPE_FORMAT[name].toUpperCase(),
  free: formatAllowed('free', name),
  needs: needsOf(name),
}));

export const isFbxType = (name: string): boolean =>
  (DEFAULT_BONE_TYPES.find((b) => b.name === name)?.format ?? '') === 'FBX';
