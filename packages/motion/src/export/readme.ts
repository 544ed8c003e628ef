/**
 * Per-bone-type facts (rig, files, texture set, target tool, import steps) and the README.txt written into each
 * zip: rig, fps, frame count, units, axes and the import steps for the target tool.
 */

import type { BoneType } from '@mocap/contracts';
import type { MotionClip } from '../clip.ts';
import type { RigId } from '../rigs/index.ts';
import type { Rig } from '../rigs/types.ts';

export type FileKind = 'fbx' | 'bvh' | 'glb' | 'vmd' | 'anim' | 'csm' | 'csv' | 'json';

export interface BoneTypeInfo {
  /** Rig the clip is retargeted to (null: the bone type writes canonical data). */
  rig: RigId | null;
  /** Files written, in order. */
  files: readonly FileKind[];
  /** Character / texture set shipped in the zip (from the characters module). */
  character?: 'boy' | 'girl' | 'roblox' | 'ue4' | 'ue5' | 'face';
  /** The tool the files are for. */
  tool: string;
  /** Import steps, one per line. */
  steps: readonly string[];
}

export const BONE_TYPE_INFO: Record<BoneType, BoneTypeInfo> = {
  Unreal4: {
    rig: 'ue4',
    files: ['fbx'],
    character: 'ue4',
    tool: 'Unreal Engine 4 (UE4 mannequin skeleton)',
    steps: [
      'Content Browser > Import > choose the .fbx.',
      'Skeleton: UE4_Mannequin_Skeleton (or your copy of it); Import Mesh off; Import Animations on.',
      'Animation Length: Exported Time; leave "Import Uniform Scale" at 1.0 (the file is in centimetres, Z up).',
      'Root motion: the pelvis carries the travel; export with root motion on to move the "root" bone instead, then enable Root Motion in the animation asset.',
      'The .fbx also holds a mannequin-style character skinned to this skeleton (material with textures/ue4_basecolor.png): import with Import Mesh on and Skeleton empty to get it as a Skeletal Mesh with the animation.',
    ],
  },
  'Unreal5.5': {
    rig: 'ue5',
    files: ['fbx'],
    character: 'ue5',
    tool: 'Unreal Engine 5.5 (UE5 Manny/Quinn skeleton SK_Mannequin)',
    steps: [
      'Content Browser > Import > choose the .fbx (Interchange FBX importer of 5.5).',
      'Skeleton: SK_Mannequin (Characters/Mannequins/Meshes); Import Mesh off; Import Animations on.',
      'The file is in centimetres, Z up, 89 core bones: the corrective bones are driven by the pose drivers of the Manny/Quinn post-process Animation Blueprint.',
      'The .fbx also holds a UE5-style character skinned to this skeleton (material with textures/ue5_basecolor.png): import with Import Mesh on and Skeleton empty to get it as a Skeletal Mesh with the animation.',
    ],
  },
  'Unreal5.6': {
    rig: 'ue5',
    files: ['fbx'],
    character: 'ue5',
    tool: 'Unreal Engine 5.6 (UE5 Manny/Quinn skeleton SK_Mannequin)',
    steps: [
      'Drag the .fbx into the Content Browser (5.6 Interchange import dialog), pick the "Animation" pipeline.',
      'Skeleton: SK_Mannequin; Import Only Animations on.',
      'The skeleton is the same as in 5.5 (same bone names and bind pose); centimetres, Z up.',
      'The .fbx also holds a UE5-style character skinned to this skeleton (material with textures/ue5_basecolor.png): pick the "Skeletal Mesh" pipeline with no skeleton to get it with the animation.',
    ],
  },
  Mixamo: {
    rig: 'mixamo',
    files: ['fbx', 'bvh'],
    tool: 'Mixamo-rigged characters (Maya, Blender, Unity, Unreal retargeting, any mixamorig: rig)',
    steps: [
      'Blender: File > Import > FBX (defaults). Maya: File > Import, then bake onto your mixamorig: skeleton.',
      'Unity: import the .fbx, Rig > Animation Type: Humanoid, Avatar Definition: Create From This Model.',
      'The .bvh has the same Mixamo bone names (without the mixamorig: prefix character) for tools that prefer BVH.',
    ],
  },
  C4D: {
    // Cinema 4D has no standard skeleton; its Mixamo Control Rig template expects the Mixamo rig (rigs/index.ts C4D).
    rig: 'mixamo',
    files: ['fbx', 'bvh'],
    tool: 'Cinema 4D (Character object, Mixamo Control Rig template)',
    steps: [
      'File > Merge (or Open) the .fbx: the joints come in as a mixamorig: hierarchy with the animation on the timeline.',
      'To drive a character: Character object > Template "Mixamo Control Rig", build, and use Retarget from the imported joints.',
    ],
  },
  'CC&iClone': {
    rig: 'cc',
    files: ['fbx', 'bvh'],
    tool: 'Character Creator / iClone (CC_Base_ skeleton)',
    steps: [
      'iClone 8: drag the .fbx onto a CC character (Motion > Load Motion), or use 3DXchange / "Convert to iMotion" with the CC3 Base profile.',
      'Character Creator: Animation > Motion > Import and pick the .fbx.',
      'The .bvh carries the same motion with CC_Base_ names for iClone\'s BVH Converter (profile: "Default T-pose").',
    ],
  },
  RobloxR15: {
    rig: 'r15',
    files: ['fbx'],
    character: 'roblox',
    tool: 'Roblox Studio (R15 avatars)',
    steps: [
      'Studio: Avatar tab > Rig Builder > R15 (or select your R15 character).',
      'Animation Editor > select the rig > ⋯ > Import > From FBX Animation > choose the .fbx.',
      'The root translation is muted (the Humanoid moves the character); publish with the Animation Editor (30 fps timeline).',
      'The .fbx also holds a Roblox-style character skinned to the R15 bones (material with textures/roblox_basecolor.png), so it opens on a visible body in Blender or the 3D Importer.',
    ],
  },
  BIP: {
    rig: 'biped',
    files: ['fbx', 'bvh'],
    tool: '3ds Max Biped (Character Studio)',
    steps: [
      '.bip is a closed 3ds Max format: load the motion into a Biped and save the .bip there.',
      'Create a Biped, Motion panel > Motion Capture > Load Motion Capture File > choose the .bvh (Bip001 names), or File > Import the .fbx onto a Bip001 skeleton.',
      'Then Biped > Save File (.bip). Set System Unit to centimetres first (the files are in cm, Z up).',
    ],
  },
  bvh: {
    rig: 'canonical',
    files: ['bvh'],
    tool: 'any BVH reader (Blender, MotionBuilder, Maya, 3ds Max, iClone, Houdini)',
    steps: [
      'Blender: File > Import > Motion Capture (.bvh), Scale 0.01 (the file is in centimetres), keep Forward/Up at their defaults (Y up); the character faces +Z in the file.',
      "The skeleton is the product's canonical one: 22 body joints + 15 finger joints per hand, T-pose at zero rotations.",
    ],
  },
  'VMD-TDA': {
    rig: 'mmd',
    files: ['vmd'],
    tool: 'MikuMikuDance / MMD tools (Tda-style PMX models)',
    steps: [
      'MMD: load your model (a Tda-style or any standard-boned PMX), select it, File > Load motion data (.vmd).',
      'The motion keys the standard bones (センター, 上半身, 下半身, arms, fingers) and the leg IK bones 足ＩＫ/つま先ＩＫ; 30 fps.',
    ],
  },
  OnlyFace: {
    rig: null,
    files: ['fbx', 'vmd', 'csv', 'json'],
    character: 'face',
    tool: 'face animation (ARKit blendshapes): FBX morph animation, MMD morphs, CSV/JSON weights',
    steps: [
      'FBX: a face mesh with the 52 ARKit blendshapes animated through DeformPercent (0-100); transfer the curves by shape name to your character.',
      'VMD: morph frames on the MMD morphs (まばたき, あ, い, う...), load onto your PMX model.',
      'CSV/JSON: one row per frame with the 52 ARKit weights (0..1) for scripts, Live Link or Unity.',
    ],
  },
  UnityAnim: {
    // The .anim is bound to the character FBX shipped with it (Mixamo-named skeleton, which Unity's Humanoid
    // importer maps automatically).
    rig: 'mixamo',
    files: ['anim', 'fbx'],
    character: 'boy',
    tool: 'Unity (Animator / Mecanim): Generic .anim bound to the character FBX, and the FBX for Humanoid retargeting',
    steps: [
      'Copy the .fbx, the .anim and the textures/ folder into Assets.',
      "Generic (plays the .anim as it is): select the .fbx, Rig > Animation Type: Generic, Avatar Definition: Create From This Model, Apply. Drag the model into the scene, add an Animator Controller with the .anim as its state. The .anim curves are bound by path to the model's own bones (mixamorig:Hips/mixamorig:Spine/...), in metres (Model > Convert Units on, the default).",
      'Humanoid (to retarget onto any humanoid avatar): select the .fbx, Rig > Animation Type: Humanoid, Avatar Definition: Create From This Model, Apply (the mixamorig: skeleton maps to every required Humanoid bone, T-pose, no Configure needed). Then use the animation clip inside the .fbx (expand it in the Project window, Animation tab > Apply) on any Humanoid Animator; Unity converts it to muscle curves itself.',
      'The .anim is a Generic clip: it drives this hierarchy only; use the FBX clip (Humanoid) for other characters.',
    ],
  },
  BoyFBX: {
    rig: 'mixamo',
    files: ['fbx'],
    character: 'boy',
    tool: 'any FBX tool (skinned boy character with textures + animation)',
    steps: [
      'Open or import the .fbx (Blender, Maya, 3ds Max, Unity, Unreal); keep the textures/ folder next to it.',
      'The character is bound to a Mixamo-named skeleton (mixamorig:), so the motion can be retargeted like any Mixamo file.',
    ],
  },
  GirlFBX: {
    rig: 'mixamo',
    files: ['fbx'],
    character: 'girl',
    tool: 'any FBX tool (skinned girl character with textures + animation)',
    steps: [
      'Open or import the .fbx (Blender, Maya, 3ds Max, Unity, Unreal); keep the textures/ folder next to it.',
      'The character is bound to a Mixamo-named skeleton (mixamorig:), so the motion can be retargeted like any Mixamo file.',
    ],
  },
  CS: {
    rig: null,
    files: ['csm'],
    tool: '3ds Max Character Studio (marker file .csm)',
    steps: [
      'Create a Biped, Motion panel > Motion Capture > Load Motion Capture File, file type "Marker Files (*.csm)".',
      'Character Studio fits the Biped to the markers (Talent Figure Mode adjusts the proportions); save as .bip from there.',
    ],
  },
};

const AXES_TEXT = (rig: Rig | null): string => {
  if (!rig) return 'Y up, facing +Z, right-handed (canonical)';
  const a = rig.axes;
  return `${a.up} up, character faces ${a.front}, ${a.handedness}-handed`;
};

const UNIT_TEXT = (rig: Rig | null): string => {
  if (!rig) return 'centimetres';
  const u = rig.unitsPerMetre;
  if (u === 100) return 'centimetres';
  if (u === 1) return 'metres';
  if (Math.abs(u - 12.5) < 1e-9) return 'MMD units (1 unit = 8 cm)';
  if (Math.abs(u - 100 / 28) < 1e-9) return 'studs (1 stud = 28 cm)';
  return `${u} units per metre`;
};

export function readme(
  boneType: BoneType,
  info: BoneTypeInfo,
  ctx: { clip: MotionClip; rig: Rig | null; files: string[]; lowerBodyOnly: boolean; rootMotion: boolean },
): string {
  const { clip, rig } = ctx;
  const seconds = clip.frameCount / clip.fps;
  const lines = [
    `Motion capture export — bone type ${boneType}`,
    '',
    `Target: ${info.tool}`,
    `Rig: ${rig ? `${rig.displayName} (${rig.bones.length} bones, rest pose ${rig.restPose.kind}${rig.restPose.kind === 'A' ? ` with arms ${rig.restPose.armDownDeg}° down` : ''})` : boneType === 'CS' ? 'Character Studio markers (32 markers)' : 'face blendshapes (ARKit 52)'}`,
    `Frames: ${clip.frameCount} at ${Math.round(clip.fps * 1000) / 1000} fps (${seconds.toFixed(2)} s)${boneType === 'VMD-TDA' && Math.abs(clip.fps - 30) > 1e-9 ? "; the .vmd is keyed on MMD's 30 fps timeline" : ''}`,
    ...(clip.metadata.sourceFps !== undefined && Math.abs(clip.metadata.sourceFps - clip.fps) > 1e-9
      ? [
          `Frame rate: resampled to a steady ${Math.round(clip.fps * 1000) / 1000} fps from the capture's ${Math.round(clip.metadata.sourceFps * 1000) / 1000} fps (phone videos have a variable frame rate), so every key falls on a whole frame.`,
        ]
      : []),
    `Units: ${boneType === 'CS' ? 'millimetres' : UNIT_TEXT(rig)}`,
    `Axes: ${boneType === 'CS' ? 'Z up, actor faces -Y, right-handed (3ds Max)' : AXES_TEXT(rig)}`,
    `Root motion: ${rig ? rootMotionText(rig, ctx.rootMotion) : 'n/a'}`,
    ...(ctx.lowerBodyOnly
      ? [
          'Lower body only: the hips and legs are animated; spine, arms and head stay in the rest pose (not keyed).',
        ]
      : []),
    '',
    'Files:',
    ...ctx.files.map((f) => `  ${f}`),
    '',
    'Import:',
    ...info.steps.map((s, i) => `  ${i + 1}. ${s}`),
  ];
  if (rig?.notes?.length) lines.push('', 'About the rig:', ...rig.notes.map((n) => `  - ${n}`));
  if (clip.metadata.warnings?.length)
    lines.push('', 'Capture warnings:', ...clip.metadata.warnings.map((w) => `  - ${w}`));
  lines.push('');
  return lines.join('\r\n');
}

function rootMotionText(rig: Rig, rootMotion: boolean): string {
  switch (rig.rootMotion) {
    case 'hips':
      return `${rig.hipsBone} carries the travel over the floor`;
    case 'groundRoot':
      return rootMotion
        ? `${rig.bones[0].name} follows the character over the floor; ${rig.hipsBone} moves relative to it`
        : `${rig.bones[0].name} stays at the origin; ${rig.hipsBone} carries the travel`;
    case 'inPlace':
      return `muted: the character animates in place (horizontal travel removed), ${rig.hipsBone} keeps the vertical motion`;
  }
}
