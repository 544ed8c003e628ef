/**
 * The character engine (an adapter: the service gets it as `CharacterEngine`): `@mocap/motion/characters` does
 * the work — content check and import (FBX, glTF/GLB, VRM), auto-mapping, rest pose, the pictures (software
 * rendered), retargeting a motion onto the character and writing its FBX/GLB/VRMA and the zip.
 */
import { motionJson, zip } from '@mocap/motion';
import {
  CANONICAL_JOINTS,
  CharacterImportError,
  type CharacterModel,
  detectRestPose,
  exportCharacter,
  importCharacter,
  missingJoints,
  renderCharacter,
  sniffCharacterFormat,
} from '@mocap/motion/characters';
import type { CharacterEngine, CharacterInspection, EngineFailure } from './service.ts';

const fail = (reason: EngineFailure['reason'], message: string): EngineFailure => ({ reason, message });

function load(bytes: Uint8Array, mapping?: Record<string, string>): CharacterModel {
  let model: CharacterModel;
  try {
    model = importCharacter(bytes);
  } catch (e) {
    if (e instanceof CharacterImportError)
      throw fail(e.reason === 'format' ? 'format' : 'not-humanoid', e.message);
    throw fail('format', (e as Error).message);
  }
  if (mapping) {
    const m = {
      ...model.mapping,
      bones: { ...mapping },
      method: Object.fromEntries(
        Object.keys(mapping).map((k) => [
          k,
          model.mapping.bones[k] === mapping[k] ? (model.mapping.method[k] ?? 'user') : 'user',
        ]),
      ) as CharacterModel['mapping']['method'],
    };
    model = { ...model, mapping: m, restPose: detectRestPose(model.bones, m) };
  }
  return model;
}

function inspection(model: CharacterModel): CharacterInspection {
  return {
    format: model.format,
    scheme: model.mapping.scheme,
    restPose: { kind: model.restPose.kind, armDownDeg: model.restPose.armDownDeg },
    height: Math.round(model.height * 1000) / 1000,
    stats: model.stats,
    bones: model.bones.map((b) => ({
      name: b.name,
      parent: b.parent >= 0 ? model.bones[b.parent].name : null,
    })),
    mapping: model.mapping.bones,
    method: model.mapping.method,
    missing: missingJoints(model.mapping, true),
    warnings: model.warnings,
    vrm: !!model.vrm,
  };
}

export function createCharacterEngine(): CharacterEngine {
  return {
    joints: CANONICAL_JOINTS,
    sniff: (bytes) => sniffCharacterFormat(bytes),
    ingest(bytes) {
      const model = load(bytes);
      if (
        !model.mapping.bones.hips ||
        model.mapping.bones.leftThigh === undefined ||
        !model.mapping.bones.head
      )
        throw fail('not-humanoid', 'no humanoid skeleton found (hips, legs and head could not be located)');
      return {
        inspection: inspection(model),
        pictures: {
          front: renderCharacter(model.meshes, 'front'),
          threeQuarter: renderCharacter(model.meshes, 'threeQuarter'),
        },
        preview: exportCharacter(model, 'glb'),
      };
    },
    inspect: (bytes, mapping) => inspection(load(bytes, mapping)),
    apply(bytes, mapping, clipJson, name) {
      const model = load(bytes, mapping);
      let clip: ReturnType<typeof motionJson.read>;
      try {
        clip = motionJson.read(clipJson);
      } catch (e) {
        throw fail('format', `the motion could not be read: ${(e as Error).message}`);
      }
      const fbx = exportCharacter(model, 'fbx', clip, { name });
      const glb = exportCharacter(model, 'glb', clip, { name });
      const vrma = model.vrm ? exportCharacter(model, 'vrma', clip, { name }) : undefined;
      return { fbx, glb, ...(vrma ? { vrma } : {}), durationS: clip.frameCount / clip.fps };
    },
    zip: (files) =>
      zip(files.map((f) => ({ name: f.name, data: f.bytes, store: /\.(png|glb|vrma)$/.test(f.name) }))),
  };
}
