/**
 * Bone-type packaging: the last stage of the capture path, `MotionClip → retargeted clip → file bytes → zip`.
 *
 * `BONE_TYPES` are the product's display names (used as-is in the UI, API and CLI). `exportBoneType` retargets
 * the clip to the bone type's rig, writes its files and zips them with a README.txt (rig, fps, units, axes,
 * import steps) and, for character bone types, the texture set. `exportFormat` writes one file of one format
 * (the CLI's `--format`). Everything here is pure (no fs): bytes in, bytes out.
 */

import { BONE_TYPES, type BoneType, isBoneType } from '@mocap/contracts';
import { characterTextures, makeCharacter, makeFaceMesh } from '../characters/index.ts';
import { type MotionClip, nearestStandardFps, resampleClip } from '../clip.ts';
import * as anim from '../formats/anim.ts';
import * as bvh from '../formats/bvh.ts';
import * as csm from '../formats/csm.ts';
import * as face from '../formats/face.ts';
import * as fbx from '../formats/fbx.ts';
import * as gltf from '../formats/gltf.ts';
import * as motionJson from '../formats/json.ts';
import * as vmd from '../formats/vmd.ts';
import * as vrma from '../formats/vrma.ts';
import { type ZipEntry, zip } from '../formats/zip.ts';
import { retarget } from '../retarget/index.ts';
import { buildRig, type RigId } from '../rigs/index.ts';
import type { Rig, RigClip } from '../rigs/types.ts';
import { BONE_TYPE_INFO, type BoneTypeInfo, readme } from './readme.ts';

export { BONE_TYPE_FORMAT, BONE_TYPES, type BoneType, type FormatFamily, isBoneType } from '@mocap/contracts';

/** Single-file formats (`mocap convert --format`). */
export const EXPORT_FORMATS = ['fbx', 'bvh', 'vmd', 'anim', 'glb', 'vrma', 'csm', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportOptions {
  /** Key only the hips and legs (the spec's lowerBodyDownload). */
  lowerBodyOnly?: boolean;
  /** Base name of the files (default: the clip's source name, else `motion`). */
  name?: string;
  /** For ground-root rigs (Unreal, CC): move the root bone with the character instead of the hips. */
  rootMotion?: boolean;
  /**
   * Frame rate of the files (a whole number of frames per second, 1–240). Default: the standard rate (24, 25, 30,
   * 50 or 60) nearest to the clip's, so a variable-frame-rate capture (a phone's 29.83 fps average) is written at
   * exactly 30 fps and every key falls on a whole frame. The clip is resampled on its timeline first
   * (`resampleClip`); VMD is always written at MMD's 30 fps.
   */
  fps?: number;
}

/** The frame rate the files of `clip` are written at with `options` (validated). */
export function exportFps(clip: MotionClip, options: Pick<ExportOptions, 'fps'> = {}): number {
  if (options.fps === undefined) return nearestStandardFps(clip.fps);
  if (!Number.isInteger(options.fps) || options.fps < 1 || options.fps > 240)
    throw new Error(`fps must be a whole number from 1 to 240 (got ${options.fps})`);
  return options.fps;
}

const RATE_CACHE = new WeakMap<MotionClip, Map<number, MotionClip>>();

/** The value cached for (owner, key) in a per-owner map, made by `make` on a miss. */
function cached<O extends object, K, V>(cache: WeakMap<O, Map<K, V>>, owner: O, key: K, make: () => V): V {
  let m = cache.get(owner);
  if (!m) {
    m = new Map();
    cache.set(owner, m);
  }
  let v = m.get(key);
  if (v === undefined) {
    v = make();
    m.set(key, v);
  }
  return v;
}

/** MotionClip's fields, in the order `steadyClip` adds them. */
const CLIP_KEYS = [
  'skeleton',
  'fps',
  'frameCount',
  'rotations',
  'rootPositions',
  'contacts',
  'support',
  'blendshapes',
  'metadata',
] as const;

/**
 * The clip's fields (the same values) on an object built the same way for every clip, so every clip the exporter
 * sees has one of a few hidden classes. A clip made by object spread (`{ ...clip, blendshapes }`, as the solver's
 * callers and the bench do) can get a hidden class of its own; every exporter loop that reads it was then
 * deoptimised ("wrong map") and recompiled on each new clip: a second or so of CPU over the first exports of a
 * process, and again whenever such loops saw a new class.
 */
function steadyClip(c: MotionClip): MotionClip {
  const out: Record<string, unknown> = {};
  const src = c as unknown as Record<string, unknown>;
  for (const k of CLIP_KEYS) if (k in c) out[k] = src[k];
  for (const k of Object.keys(c)) if (!(k in out)) out[k] = src[k];
  return out as unknown as MotionClip;
}

/**
 * The clip resampled to the export rate, on a steady shape (`steadyClip`); cached per clip and rate: the bone
 * types of one clip resample once and share the per-clip caches below.
 */
function atExportRate(clip: MotionClip, options: ExportOptions): MotionClip {
  const fps = exportFps(clip, options);
  return cached(RATE_CACHE, clip, fps, () =>
    steadyClip(Math.abs(clip.fps - fps) < 1e-9 ? clip : resampleClip(clip, fps)),
  );
}

export interface ExportedFile {
  fileName: string;
  bytes: Uint8Array;
}

/** A file-name-safe base name. */
export function safeBaseName(s: string): string {
  const base = s
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .replace(/[^\p{L}\p{N}_-]+/gu, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 60);
  return base || 'motion';
}

const boneTypeSlug = (b: BoneType) => b.replace(/&/g, '_').replace(/\./g, '_');

function baseNameOf(clip: MotionClip, options: ExportOptions): string {
  return safeBaseName(options.name ?? clip.metadata.source ?? 'motion');
}

const RC_CACHE = new WeakMap<MotionClip, Map<string, RigClip>>();
const FILE_CACHE = new WeakMap<RigClip, Map<string, unknown>>();

/** The clip retargeted to a rig (cached per clip: bone types sharing a rig retarget once). */
function rigClipFor(clip: MotionClip, id: RigId, options: ExportOptions, name: string): RigClip {
  const key = `${id}|${options.lowerBodyOnly === true}|${options.rootMotion === true}|${name}`;
  return cached(RC_CACHE, clip, key, () => {
    const rig: Rig = buildRig(id, clip.skeleton);
    const r = retarget(clip, rig, { lowerBodyOnly: options.lowerBodyOnly, rootMotion: options.rootMotion });
    // Field by field, not by spread: one hidden class for every RigClip the writers see (see `steadyClip`).
    const o: { -readonly [K in keyof RigClip]: RigClip[K] } = {
      rig: r.rig,
      fps: r.fps,
      frameCount: r.frameCount,
      rotations: r.rotations,
      translations: r.translations,
      keyed: r.keyed,
      translated: r.translated,
      name,
    };
    if (r.blendshapes) o.blendshapes = r.blendshapes;
    return o;
  });
}

/** A file written from a RigClip, cached per RigClip (Mixamo, C4D and UnityAnim share the same FBX and BVH). */
function cachedFile<T>(rc: RigClip, key: string, make: () => T): T {
  return cached(FILE_CACHE, rc, key, make) as T;
}

const TEXTURES = 'textures/';

/** Texture set entries of a kind, under textures/ (PNG: stored, not deflated). */
function textureEntries(kind: 'boy' | 'girl' | 'roblox' | 'ue4' | 'ue5'): ZipEntry[] {
  return characterTextures(kind).map((t) => ({ name: `${TEXTURES}${t.fileName}`, data: t.png, store: true }));
}

/** Files of one bone type (without the README), in zip order. */
function boneTypeFiles(
  clip: MotionClip,
  boneType: BoneType,
  info: BoneTypeInfo,
  options: ExportOptions,
): ZipEntry[] {
  const name = baseNameOf(clip, options);
  const out: ZipEntry[] = [];
  // Inside a zip the FBX keeps its arrays raw: the zip's deflate also removes the key-time arrays every curve
  // repeats, which per-array compression cannot.
  // Its RigClips are cached per clip and never changed, so their Euler curves are reused across files.
  const fbxOptions: fbx.FbxWriteOptions = {
    takeName: name,
    texturePath: TEXTURES,
    compressArrays: false,
    reuseCurves: true,
  };
  // The FBX goes in with its deflate hints (key values stored, repeated key times copied: zip.ts).
  const pushFbx = (f: { bytes: Uint8Array; hints: fbx.DeflateHint[] }) =>
    out.push({ name: `${name}.fbx`, data: f.bytes, hints: f.hints });
  switch (boneType) {
    case 'bvh':
      out.push({ name: `${name}.bvh`, data: bvh.writeBytes(clip) });
      break;
    case 'OnlyFace': {
      if (!clip.blendshapes)
        throw new Error('OnlyFace: the clip has no face curves (capture with face tracking on)');
      // A face mesh with the ARKit morph targets on a Mixamo-named head/neck, animated by DeformPercent only.
      const frc = rigClipFor(clip, 'mixamo', options, name);
      const faceMesh = makeFaceMesh({ rig: frc.rig, skeleton: clip.skeleton });
      pushFbx(fbx.writeWithHints(frc, { ...fbxOptions, meshes: [faceMesh], boneAnimation: false }));
      out.push({ name: `${name}_face.vmd`, data: vmd.writeMorphs(clip) });
      out.push({ name: `${name}_face.csv`, data: face.writeCsvBytes(clip) });
      out.push({ name: `${name}_face.json`, data: face.writeJsonBytes(clip) });
      for (const t of faceMesh.materials.flatMap((m) => (m.texture ? [m.texture] : [])))
        out.push({ name: `${TEXTURES}${t.fileName}`, data: t.png, store: true });
      break;
    }
    case 'CS':
      out.push({
        name: `${name}.csm`,
        data: csm.writeBytes(clip, { lowerBodyOnly: options.lowerBodyOnly, fileName: `${name}.csm` }),
      });
      break;
    default: {
      if (!info.rig) throw new Error(`bone type ${boneType}: no rig`);
      // Retargeted only here: the bvh, OnlyFace and CS bone types write the canonical clip itself.
      const rc = rigClipFor(clip, info.rig, options, name);
      // Every bone type with a texture set ships its character, skinned to the rig, in the FBX.
      const kind = info.character && info.character !== 'face' ? info.character : null;
      for (const f of info.files) {
        if (f === 'fbx') {
          // FBX scenes are right-handed: left-handed rigs ship a Mixamo-named FBX for Humanoid import.
          const frc = rc.rig.axes.handedness === 'right' ? rc : rigClipFor(clip, 'mixamo', options, name);
          // Cached per RigClip and character: Unreal5.5/5.6 share one file, BoyFBX and UnityAnim another.
          pushFbx(
            cachedFile(frc, kind ? `fbx:${kind}` : 'fbx', () =>
              fbx.writeWithHints(
                frc,
                kind
                  ? { ...fbxOptions, meshes: makeCharacter(kind, frc.rig, clip.skeleton).meshes }
                  : fbxOptions,
              ),
            ),
          );
        } else if (f === 'bvh')
          out.push({
            name: `${name}.bvh`,
            // Bytes (not a string) so the zip writer can reuse the deflated body across bone types.
            data: cachedFile(rc, 'bvh', () => bvh.writeRigBytes(rc)),
          });
        else if (f === 'glb') out.push({ name: `${name}.glb`, data: gltf.write(rc) });
        else if (f === 'vmd') out.push({ name: `${name}.vmd`, data: vmd.write(rc) });
        // The .anim binds to the FBX next to it: its hierarchy as Unity imports it (X mirrored, metres).
        else if (f === 'anim')
          out.push({ name: `${name}.anim`, data: anim.writeBytes(anim.asUnityImport(rc), { name }) });
      }
      if (out.length === 0) throw new Error(`bone type ${boneType}: no files`);
      if (kind) out.push(...textureEntries(kind));
    }
  }
  return out;
}

/**
 * Exports a clip as one bone type: a zip holding the animation file(s), the texture set where the bone type has
 * one, and README.txt. `fileName` is `<name>_<BoneType>.zip` (file-name-safe).
 */
export function exportBoneType(
  source: MotionClip,
  boneType: BoneType,
  options: ExportOptions = {},
): ExportedFile {
  if (!isBoneType(boneType))
    throw new Error(`unknown bone type ${JSON.stringify(boneType)} (known: ${BONE_TYPES.join(', ')})`);
  if (source.frameCount < 1) throw new Error('the clip has no frames');
  const clip = atExportRate(source, options);
  const info = BONE_TYPE_INFO[boneType];
  const name = baseNameOf(clip, options);
  const entries = boneTypeFiles(clip, boneType, info, options);
  const rig = info.rig ? buildRig(info.rig, clip.skeleton) : null;
  entries.push({
    name: 'README.txt',
    data: readme(boneType, info, {
      clip,
      rig,
      files: entries.map((e) => e.name),
      lowerBodyOnly: options.lowerBodyOnly === true,
      rootMotion: options.rootMotion === true,
    }),
  });
  return { fileName: `${name}_${boneTypeSlug(boneType)}.zip`, bytes: zip(entries) };
}

/** Rig used for a single-format export when none is given. */
const FORMAT_DEFAULT_RIG: Record<ExportFormat, RigId | null> = {
  fbx: 'mixamo',
  bvh: 'canonical',
  vmd: 'mmd',
  anim: 'unity',
  glb: 'canonical',
  vrma: null,
  csm: null,
  json: null,
};

/** Writes one file of one format (optionally for a bone type's rig). */
export function exportFormat(
  source: MotionClip,
  format: ExportFormat,
  options: ExportOptions & { boneType?: BoneType } = {},
): ExportedFile {
  if (!(EXPORT_FORMATS as readonly string[]).includes(format))
    throw new Error(`unknown format ${JSON.stringify(format)} (known: ${EXPORT_FORMATS.join(', ')})`);
  if (source.frameCount < 1) throw new Error('the clip has no frames');
  const clip = atExportRate(source, options);
  const name = baseNameOf(clip, options);
  const rigId = options.boneType ? BONE_TYPE_INFO[options.boneType].rig : FORMAT_DEFAULT_RIG[format];
  const rc = () => rigClipFor(clip, rigId ?? 'canonical', options, name);
  switch (format) {
    case 'fbx': {
      const r = rc();
      if (r.rig.axes.handedness !== 'right')
        throw new Error(
          `--format fbx: the ${options.boneType} rig is left-handed; FBX needs a right-handed rig`,
        );
      const kind = options.boneType ? BONE_TYPE_INFO[options.boneType].character : undefined;
      const meshes = kind && kind !== 'face' ? makeCharacter(kind, r.rig, clip.skeleton).meshes : undefined;
      return {
        fileName: `${name}.fbx`,
        bytes: fbx.write(r, { takeName: name, ...(meshes ? { meshes } : {}) }),
      };
    }
    case 'bvh':
      return {
        fileName: `${name}.bvh`,
        bytes: rigId && rigId !== 'canonical' ? bvh.writeRigBytes(rc()) : bvh.writeBytes(clip),
      };
    case 'glb': {
      // With the bone type's character (the boy by default) skinned to the joints: the file opens on a visible,
      // textured body, and readers that require a material (assimp) load it.
      const r = rigId && rigId !== 'canonical' ? rc() : null;
      const kind = options.boneType ? BONE_TYPE_INFO[options.boneType].character : undefined;
      const mesh = makeCharacter(kind && kind !== 'face' ? kind : 'boy', r?.rig, clip.skeleton).meshes[0];
      return { fileName: `${name}.glb`, bytes: gltf.write(r ?? clip, { mesh, animationName: name }) };
    }
    case 'vmd':
      return { fileName: `${name}.vmd`, bytes: vmd.write(rigClipFor(clip, 'mmd', options, name)) };
    case 'vrma':
      return { fileName: `${name}.vrma`, bytes: vrma.write(clip) };
    case 'csm':
      return {
        fileName: `${name}.csm`,
        bytes: csm.writeBytes(clip, { lowerBodyOnly: options.lowerBodyOnly }),
      };
    case 'json':
      return { fileName: `${name}.json`, bytes: new TextEncoder().encode(motionJson.write(clip)) };
    case 'anim':
      // On the Unity rig (Humanoid bone names), or bound to a bone type's FBX hierarchy as Unity imports it.
      return {
        fileName: `${name}.anim`,
        bytes: anim.writeBytes(anim.asUnityImport(rigClipFor(clip, rigId ?? 'unity', options, name)), {
          name,
        }),
      };
    default:
      throw new Error(`format ${format} is not supported`);
  }
}
