/**
 * Uploaded characters (digital humans): import, mapping, pictures, retarget and export, as one entry point
 * (`@mocap/motion/characters`).
 */
export {
  absentFromRig,
  type CharacterBone,
  type CharacterFormat,
  CharacterImportError,
  type CharacterModel,
  detectRestPose,
  importCharacter,
  missingJoints,
  type RestPoseInfo,
  sniffCharacterFormat,
} from './character.ts';
export { type CharacterExportFormat, exportCharacter, mergeMeshes } from './export-character.ts';
export {
  absentJoints,
  autoMap,
  BODY_JOINT_NAMES,
  CANONICAL_JOINTS,
  type JointMapping,
  mapByTopology,
} from './mapping.ts';
export { type CharacterView, renderCharacter } from './render.ts';
export { characterRig, clipStandingHeight, retargetToCharacter } from './retarget-character.ts';
