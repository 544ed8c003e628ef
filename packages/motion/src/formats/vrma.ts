/**
 * VRMA writer (VRM Animation 1.0: a GLB with the root extension `VRMC_vrm_animation`, formats.md e.3).
 *
 * - Humanoid nodes: one per canonical joint, named after its VRM 1.0 humanoid bone (`VRM_BONES`), rest pose = the
 *   canonical T-pose, which is the VRM T-pose (faces +Z, Y up, arms along ±X, palms down, metres) with identity
 *   rest rotations. Mapping: hips, spine, spine1 → chest, spine2 → upperChest, neck, head, clavicles → shoulders,
 *   upper arm / forearm / hand → upperArm / lowerArm / hand, thigh / shin / foot / toes → upperLeg / lowerLeg /
 *   foot / toes, fingers 1/2/3 → Proximal/Intermediate/Distal (thumb: Metacarpal/Proximal/Distal, pinky → Little).
 * - Animation: the first (only) glTF animation; rotation on every humanoid bone, translation on hips only, no
 *   scale (the extension's rules), LINEAR samplers.
 * - Expressions (when the clip has face curves): one node per expression under the scene root, its translation X
 *   is the weight (0..1). Presets aa, ih, ou, ee, oh, blink, blinkLeft, blinkRight, happy, sad, angry, surprised
 *   (mapped from ARKit, see `face.ts`) and every supported ARKit shape as a custom expression of the same name
 *   ("Perfect Sync" avatars carry ARKit-named expressions).
 *
 * - LookAt (when the clip's gaze shapes are estimated, i.e. iris points were tracked): one node whose rotation
 *   (Euler YXZ, relative to the head's lookAt space) is the gaze: yaw = 25° × (½(eyeLookOutLeft + eyeLookInRight)
 *   − ½(eyeLookInLeft + eyeLookOutRight)), positive toward the character's left; pitch = 20° × (½(down) − ½(up)),
 *   positive downward — the yaw/pitch convention of VRMC_vrm lookAt and of three-vrm-animation, which reads the
 *   node's rotation (the 1.0-draft text said position; the reference implementation throws on a translation
 *   track, so rotation it is). 25°/20° are the usual ranges of ARKit's gaze shapes at weight 1.
 *
 * Limits: no eye bones (gaze goes through lookAt), no jaw bone (jawOpen is an expression). Players retarget by VRM bone, so the avatar's proportions do not matter
 * except for the hips height (three-vrm scales the hips translation by the ratio of hip heights).
 */

import type { MotionClip } from '../clip.ts';
import { EXPRESSIONS, expressionCurves } from './face.ts';
import { buildGltf, finishGltf, fromMotionClip, type GltfDocument } from './gltf.ts';

/** Canonical joint → VRM 1.0 humanoid bone. */
export const VRM_BONES: Readonly<Record<string, string>> = (() => {
  const m: Record<string, string> = {
    hips: 'hips',
    spine: 'spine',
    spine1: 'chest',
    spine2: 'upperChest',
    neck: 'neck',
    head: 'head',
  };
  for (const side of ['left', 'right'] as const) {
    Object.assign(m, {
      [`${side}Clavicle`]: `${side}Shoulder`,
      [`${side}UpperArm`]: `${side}UpperArm`,
      [`${side}Forearm`]: `${side}LowerArm`,
      [`${side}Hand`]: `${side}Hand`,
      [`${side}Thigh`]: `${side}UpperLeg`,
      [`${side}Shin`]: `${side}LowerLeg`,
      [`${side}Foot`]: `${side}Foot`,
      [`${side}Toes`]: `${side}Toes`,
      [`${side}Thumb1`]: `${side}ThumbMetacarpal`,
      [`${side}Thumb2`]: `${side}ThumbProximal`,
      [`${side}Thumb3`]: `${side}ThumbDistal`,
    });
    for (const [ours, vrm] of [
      ['Index', 'Index'],
      ['Middle', 'Middle'],
      ['Ring', 'Ring'],
      ['Pinky', 'Little'],
    ]) {
      m[`${side}${ours}1`] = `${side}${vrm}Proximal`;
      m[`${side}${ours}2`] = `${side}${vrm}Intermediate`;
      m[`${side}${ours}3`] = `${side}${vrm}Distal`;
    }
  }
  return m;
})();

export interface VrmaOptions {
  /** Write face expressions when the clip has face curves (default true). */
  expressions?: boolean;
  /** Skip the hips translation (an in-place animation). */
  inPlace?: boolean;
  /** Add the one zero-area mesh that lets assimp load the file (default true; see `addEmptyMesh`). */
  emptyMesh?: boolean;
}

/** Writes a `.vrma` from a canonical MotionClip. */
export function write(clip: MotionClip, options: VrmaOptions = {}): Uint8Array {
  const anim = fromMotionClip(clip);
  const names = anim.names.map((n) => {
    const v = VRM_BONES[n];
    if (!v) throw new Error(`VRMA: joint "${n}" has no VRM humanoid bone`);
    return v;
  });
  for (const req of ['hips', 'spine', 'head', 'leftUpperArm', 'leftUpperLeg', 'rightHand', 'rightFoot'])
    if (!names.includes(req)) throw new Error(`VRMA: the skeleton lacks the required bone ${req}`);
  let translations = anim.translations;
  if (options.inPlace) {
    const t = new Float32Array(clip.frameCount * 3);
    for (let f = 0; f < clip.frameCount; f++) {
      t[3 * f] = clip.skeleton.offsets[0];
      t[3 * f + 1] = clip.rootPositions[3 * f + 1];
      t[3 * f + 2] = clip.skeleton.offsets[2];
    }
    translations = t;
  }
  const doc = buildGltf({ ...anim, names, translations }, { animationName: 'VRMA', skin: false });
  const humanBones = Object.fromEntries(names.map((n, j) => [n, { node: doc.jointNodes[j] }]));
  const ext: Record<string, unknown> = { specVersion: '1.0', humanoid: { humanBones } };

  if (clip.blendshapes && options.expressions !== false && doc.animation) {
    const curves = expressionCurves(clip);
    const preset: Record<string, { node: number }> = {};
    const custom: Record<string, { node: number }> = {};
    const F = clip.frameCount;
    const K = clip.blendshapes.names.length;
    const addExpression = (
      name: string,
      values: (f: number) => number,
      into: Record<string, { node: number }>,
    ) => {
      const node = doc.json.nodes.length;
      doc.json.nodes.push({ name: `expression_${name}` });
      (doc.json.scenes[0].nodes as number[]).push(node);
      into[name] = { node };
      const t = new Float32Array(3 * F);
      for (let f = 0; f < F; f++) t[3 * f] = values(f);
      const output = doc.bin.accessor(t, 'VEC3');
      doc.animation?.samplers.push({ input: doc.animation.timeAccessor, output, interpolation: 'LINEAR' });
      doc.animation?.channels.push({
        sampler: (doc.animation?.samplers.length ?? 1) - 1,
        target: { node, path: 'translation' },
      });
    };
    for (const e of EXPRESSIONS) addExpression(e, (f) => curves[e][f], preset);
    for (const name of clip.blendshapes.supported) {
      const k = clip.blendshapes.names.indexOf(name);
      addExpression(name, (f) => Math.min(1, Math.max(0, clip.blendshapes?.weights[f * K + k] ?? 0)), custom);
    }
    ext.expressions = { preset, ...(Object.keys(custom).length ? { custom } : {}) };
    const bs = clip.blendshapes;
    if (bs.supported.includes('eyeLookOutLeft')) {
      const g = (f: number, n: string) =>
        Math.min(1, Math.max(0, bs.weights[f * K + bs.names.indexOf(n as never)]));
      const q = new Float32Array(4 * F);
      for (let f = 0; f < F; f++) {
        const yaw =
          ((25 * Math.PI) / 180) *
          (0.5 * (g(f, 'eyeLookOutLeft') + g(f, 'eyeLookInRight')) -
            0.5 * (g(f, 'eyeLookInLeft') + g(f, 'eyeLookOutRight')));
        const pitch =
          ((20 * Math.PI) / 180) *
          (0.5 * (g(f, 'eyeLookDownLeft') + g(f, 'eyeLookDownRight')) -
            0.5 * (g(f, 'eyeLookUpLeft') + g(f, 'eyeLookUpRight')));
        // q = Ry(yaw) · Rx(pitch)
        const cy = Math.cos(yaw / 2);
        const sy = Math.sin(yaw / 2);
        const cx = Math.cos(pitch / 2);
        const sx = Math.sin(pitch / 2);
        q.set([cy * sx, sy * cx, -sy * sx, cy * cx], 4 * f);
      }
      const node = doc.json.nodes.length;
      doc.json.nodes.push({ name: 'lookAt' });
      (doc.json.scenes[0].nodes as number[]).push(node);
      const output = doc.bin.accessor(q, 'VEC4');
      doc.animation.samplers.push({ input: doc.animation.timeAccessor, output, interpolation: 'LINEAR' });
      doc.animation.channels.push({
        sampler: doc.animation.samplers.length - 1,
        target: { node, path: 'rotation' },
      });
      ext.lookAt = { node };
    }
  }
  if (options.emptyMesh !== false) addEmptyMesh(doc);
  doc.json.extensionsUsed = ['VRMC_vrm_animation'];
  doc.json.extensions = { VRMC_vrm_animation: ext };
  return finishGltf(doc);
}

/**
 * One mesh that draws nothing: a single triangle whose three corners are the scene origin, on its own node under
 * the scene root (after every humanoid, expression and lookAt node, so their indices are unchanged).
 *
 * Why: assimp (5.2) loads a glTF through its default post-processing, which drops the materials no mesh uses and
 * then fails the whole import with "No materials remaining" when the scene has no mesh. The three-vrm sample
 * `idle_loop.vrma` fails `assimp info` that way (renamed .glb); with this mesh assimp loads the file with its one
 * animation. The VRMA extension (1.0) asks for humanoid nodes in the VRM T-pose and animation data on them; it
 * does not forbid other nodes or meshes, and players (three-vrm-animation, UniVRM) read only the extension's
 * nodes. A zero-area triangle has no pixels, so an importer that instantiates the scene shows nothing extra.
 * gltf-validator: no error, no warning.
 */
function addEmptyMesh(doc: GltfDocument): void {
  const position = doc.bin.accessor(new Float32Array(9), 'VEC3', { target: 34962, minMax: true });
  const json = doc.json as GltfDocument['json'] & { meshes?: unknown[] };
  json.meshes = [
    ...(json.meshes ?? []),
    { name: 'empty', primitives: [{ attributes: { POSITION: position } }] },
  ];
  const node = json.nodes.length;
  json.nodes.push({ name: 'empty', mesh: json.meshes.length - 1 });
  (json.scenes[0].nodes as number[]).push(node);
}
