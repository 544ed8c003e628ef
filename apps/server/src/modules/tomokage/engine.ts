/**
 * The character engine (an adapter: the service gets it as `CharacterEngine`): `@mocap/motion/characters` does
 * the work — content check and import (FBX, glTF/GLB, VRM), auto-mapping, rest pose, the pictures (software
 * rendered), retargeting a motion onto the character and writing its FBX/GLB/VRMA and the zip. The heavy calls
 * run in a worker thread (`engine-thread.ts`, one thread, started on first use, requests queued in order) so
 * the server keeps answering while a character is read or a motion exported.
 */
import { Worker } from 'node:worker_threads';
import { motionJson, zip } from '@mocap/motion';
import {
  absentFromRig,
  absentJoints,
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
      absent: absentJoints(model.bones, mapping),
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
    absent: absentFromRig(model.mapping, true),
    warnings: model.warnings,
    vrm: !!model.vrm,
  };
}

type Sync<T> = { [K in keyof T]: T[K] extends (...a: infer A) => Promise<infer R> ? (...a: A) => R : T[K] };

/** The engine in this thread (the worker thread uses it; tests may too). */
export function createLocalEngine(): Sync<CharacterEngine> {
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

/** The engine with its heavy calls in a worker thread. */
export function createCharacterEngine(): CharacterEngine {
  let worker: Worker | null = null;
  let seq = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  const start = (): Worker => {
    if (worker) return worker;
    const w = new Worker(new URL('./engine-entry.mjs', import.meta.url));
    w.unref();
    w.on('message', (m: { id: number; ok: boolean; value?: unknown; failure?: unknown }) => {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.ok) p.resolve(m.value);
      else {
        const f = m.failure as { reason: string; message: string };
        p.reject(f.reason === 'format' || f.reason === 'not-humanoid' ? f : new Error(f.message));
      }
      if (pending.size === 0) w.unref();
    });
    const fail = (err: unknown) => {
      for (const p of pending.values()) p.reject(err instanceof Error ? err : new Error(String(err)));
      pending.clear();
      worker = null;
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`character engine thread exited (${code})`)));
    worker = w;
    return w;
  };
  const call = <T>(op: 'ingest' | 'inspect' | 'apply' | 'zip', ...args: unknown[]): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const w = start();
      const id = ++seq;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      w.ref();
      w.postMessage({ id, op, args });
    });
  return {
    joints: CANONICAL_JOINTS,
    sniff: (bytes) => sniffCharacterFormat(bytes),
    ingest: (bytes) => call('ingest', bytes),
    inspect: (bytes, mapping) => call('inspect', bytes, mapping),
    apply: (bytes, mapping, clipJson, name) => call('apply', bytes, mapping, clipJson, name),
    zip: (files) => call('zip', files),
  };
}
