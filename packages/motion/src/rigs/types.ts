/**
 * Product rigs as data, and the retargeted clip every exporter writes.
 *
 * Spaces and units:
 * - **Canonical space** is the MotionClip's: right-handed, Y up, metres, the character faces +Z, its left is +X.
 * - **Rig space** is the coordinate system of the files written for a rig (for FBX the axis system declared in
 *   GlobalSettings): `axes` says where the canonical up/front/left directions go, `unitsPerMetre` the unit
 *   (100 = centimetres). `basis` is the 3×3 matrix (row-major) taking a canonical vector to rig axes (before the
 *   unit scale); its determinant is -1 for left-handed rigs (MMD).
 * - A bone's local transform is `translate(restTranslation or the keyed translation) · rotate(local rotation)`,
 *   in its parent's frame (the same convention as `MotionClip`), so a bone's rest world rotation is the product of
 *   its chain's `restRotation`s. Unlike the canonical skeleton, rig bones may have non-identity rest rotations
 *   (bone-local axes such as "+X down the bone" for Unreal).
 *
 * Every rig is instantiated for a clip's skeleton (`buildRig(id, skeleton)` in `rigs/index.ts`): mapped bones
 * sit exactly where the canonical joints are (in the rig's rest pose kind: T or A), so a retargeted clip
 * reproduces the canonical joints' world positions exactly (after unit and axis conversion).
 */

import type { ArkitBlendshape, BlendshapeCurves } from '../clip.ts';
import type { Quat, Vec3 } from '../math.ts';

/** A signed axis of a coordinate system. */
export type SignedAxis = '+X' | '-X' | '+Y' | '-Y' | '+Z' | '-Z';

/** Where the canonical directions go in rig space. Left = the character's own left. */
export interface RigAxes {
  /** Up (canonical +Y). */
  up: SignedAxis;
  /** The direction the character faces in its rest pose (canonical +Z). */
  front: SignedAxis;
  handedness: 'right' | 'left';
}

/** What a bone is for, beyond being a deforming joint. */
export type BoneRole =
  /** An ordinary joint driven from a canonical joint (or kept at rest when it has no source). */
  | 'joint'
  /** A leaf marker (Mixamo `*_End`, Biped `*Nub`): never keyed. */
  | 'end'
  /** A twist/share/corrective helper: kept at rest. */
  | 'helper'
  /** An IK target bone (Unreal `ik_foot_l`): copies the world transform of `follows`. */
  | 'ik'
  /** The ground root of a rig whose hips are not the top bone (Unreal `root`, CC `CC_Base_BoneRoot`). */
  | 'root';

export interface RigBone {
  readonly name: string;
  /** Parent bone name; null for the top bone (exactly one per rig). */
  readonly parent: string | null;
  /** Canonical joint driving this bone's rotation (a `createSkeleton` joint name), or null. */
  readonly source: string | null;
  /** Rest translation from the parent, rig units, in the parent's rest frame. */
  readonly restTranslation: Vec3;
  /** Rest local rotation (x, y, z, w) relative to the parent, rig axes. */
  readonly restRotation: Quat;
  readonly role: BoneRole;
  /** For `ik` bones: the bone whose world transform this one copies every frame. */
  readonly follows?: string;
}

/** How the character's travel over the floor is carried. */
export type RootMotionConvention =
  /** The hips bone is the top bone and carries the full world translation (Mixamo, BVH, Biped COM). */
  | 'hips'
  /** A ground root bone sits at the floor under the hips; the hips carry the translation relative to it. With
   *  `retarget(..., { rootMotion: true })` the root follows the hips' floor projection instead (Unreal, CC). */
  | 'groundRoot'
  /** Horizontal travel is muted: the hips keep their rest X/Z, only vertical motion remains (Roblox R15). */
  | 'inPlace';

export interface Rig {
  /** Stable identifier (`mixamo`, `ue4`, `ue5`, `cc`, `r15`, `biped`, `mmd`, `c4d`, `canonical`...). */
  readonly id: string;
  /** Human-readable name, e.g. "Mixamo (mixamorig:)". */
  readonly displayName: string;
  /** Bones, parents before children; bone 0 is the top bone. */
  readonly bones: readonly RigBone[];
  /** Rig units per metre (100 = cm, 1 = m, 12.5 = MMD units of 8 cm). */
  readonly unitsPerMetre: number;
  readonly axes: RigAxes;
  /** Canonical → rig axes, row-major 3×3 (no unit scale). */
  readonly basis: readonly number[];
  /** The rig's rest (bind) pose: arms straight out (T), lowered `armDownDeg` below the horizontal (A), or
   *  hanging down (I, 90°). */
  readonly restPose: { kind: 'T' | 'A' | 'I'; armDownDeg: number };
  readonly rootMotion: RootMotionConvention;
  /** Name of the bone carrying the hips (pelvis) translation. */
  readonly hipsBone: string;
  /** Free-form notes shown in README.txt (import steps live with the bone type). */
  readonly notes?: readonly string[];
}

export interface RetargetOptions {
  /** Key only the hips and legs; spine, arms and head stay at rest (the spec's lowerBodyDownload). */
  lowerBodyOnly?: boolean;
  /** For `groundRoot` rigs: the root bone follows the hips over the floor (default false: root stays at the
   *  origin and the hips carry the travel). */
  rootMotion?: boolean;
}

/** A clip retargeted to a rig: what the per-format writers serialise. */
export interface RigClip {
  readonly rig: Rig;
  readonly fps: number;
  readonly frameCount: number;
  /** `rotations[(f * boneCount + b) * 4 + k]`: local rotation of bone b at frame f, rig axes (x, y, z, w). */
  readonly rotations: Float32Array;
  /** `translations[(f * boneCount + b) * 3 + k]`: local translation of bone b at frame f, rig units. */
  readonly translations: Float32Array;
  /** Per bone: 1 when the writers should key it (rotation and, for `translated`, translation). */
  readonly keyed: Uint8Array;
  /** Per bone: 1 when its translation changes over the clip (hips, ground root, IK bones). */
  readonly translated: Uint8Array;
  /** Face curves carried over from the MotionClip. */
  readonly blendshapes?: BlendshapeCurves;
  /** Name of the clip / take (e.g. the source video's base name). */
  readonly name: string;
}

/** A texture image: PNG bytes and the file name it gets inside a zip. */
export interface TextureImage {
  readonly fileName: string;
  readonly png: Uint8Array;
}

export interface MeshMaterial {
  readonly name: string;
  /** Linear RGBA 0..1 used when there is no texture (and as a tint). */
  readonly baseColor: readonly [number, number, number, number];
  /** Base colour texture. */
  readonly texture?: TextureImage;
  /** Optional normal map. */
  readonly normalTexture?: TextureImage;
}

/** A morph target (blendshape) of a mesh: per-vertex position deltas, canonical metres. */
export interface MorphTarget {
  /** ARKit name when it is a face shape. */
  readonly name: ArkitBlendshape | string;
  /** `[3 × vertexCount]` position deltas. */
  readonly positions: Float32Array;
  /** Optional `[3 × vertexCount]` normal deltas. */
  readonly normals?: Float32Array;
}

/**
 * A skinned triangle mesh bound to a rig in the rig's rest pose, in **canonical space** (metres, Y up, facing
 * +Z): writers convert it to their file space like every other piece of data.
 */
export interface SkinnedMesh {
  readonly name: string;
  /** `[3 × vertexCount]`. */
  readonly positions: Float32Array;
  /** `[3 × vertexCount]`, unit length. */
  readonly normals: Float32Array;
  /** `[2 × vertexCount]`, glTF convention (v down from the top of the image). */
  readonly uvs: Float32Array;
  /** Triangles, `[3 × triangleCount]`, counter-clockwise seen from outside. */
  readonly indices: Uint32Array;
  /** `[4 × vertexCount]`: indices into `jointNames`. */
  readonly joints: Uint16Array;
  /** `[4 × vertexCount]`: weights summing to 1 per vertex. */
  readonly weights: Float32Array;
  /** Rig bone names the joint indices refer to. */
  readonly jointNames: readonly string[];
  readonly materials: readonly MeshMaterial[];
  /** Triangle ranges per material (`start`/`count` in indices, multiples of 3). One group = whole mesh. */
  readonly groups: readonly { start: number; count: number; material: number }[];
  readonly morphTargets?: readonly MorphTarget[];
}

/** A character: its meshes and the extra texture files that go into a zip next to them. */
export interface Character {
  readonly meshes: readonly SkinnedMesh[];
  readonly textures: readonly TextureImage[];
}
