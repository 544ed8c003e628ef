/**
 * Binary FBX 7.4 writer: file structure read back with fbx2json's decoder (the pure-Python FBX parser shipped with
 * Blender), skinned-mesh deformation checked in Blender 3.4 against linear blend skinning computed here, morph
 * animation and skins seen by three.js, and clear errors on bad input.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ARKIT_BLENDSHAPES,
  buildRig,
  fbx,
  type MotionClip,
  type Rig,
  type RigClip,
  restClip,
  retarget,
  rigToCanonical,
  rigWorldPositions,
  type SkinnedMesh,
} from '../src/index.ts';
import { type Quat, qConj, qMul, qRotate, readQuat, type Vec3 } from '../src/math.ts';
import { createSkeleton } from '../src/skeleton.ts';
import { blenderPath, blenderResult, fbx2json, haveFbx2Json, randomClip } from './helpers.ts';

if (!haveFbx2Json && process.env.CI === 'true')
  throw new Error('CI=true but Blender (fbx2json.py) is not installed');
const dir = mkdtempSync(join(tmpdir(), 'mocap-fbx-'));

/** Python: GlobalSettings, stack times, first KeyTime array, object counts and the top-level node order. */
const DUMP_PY = `
gs = first(first(root, b'GlobalSettings'), b'Properties70')
props = {p.props[0].decode(): p.props[4] for p in gs.elems if len(p.props) > 4}
counts = {}
for o in objs.elems:
    k = o.id.decode() + ':' + (o.props[2].decode() if len(o.props) > 2 and isinstance(o.props[2], bytes) else '')
    counts[k] = counts.get(k, 0) + 1
stack = [o for o in objs.elems if o.id == b'AnimationStack']
stop = None
if stack:
    p70 = first(stack[0], b'Properties70')
    stop = [p.props[4] for p in p70.elems if p.props[0] == b'LocalStop'][0]
curves = [o for o in objs.elems if o.id == b'AnimationCurve']
keytime = list(first(curves[0], b'KeyTime').props[0]) if curves else []
print(json.dumps({"version": version, "top": [e.id.decode() for e in root.elems], "settings": {k: v for k, v in props.items() if isinstance(v, (int, float))},
  "counts": counts, "stop": stop, "keytime": keytime[:4], "nkeys": len(keytime)}))
`;

interface Dump {
  version: number;
  top: string[];
  settings: Record<string, number>;
  counts: Record<string, number>;
  stop: number | null;
  keytime: number[];
  nkeys: number;
}

async function dump(bytes: Uint8Array, name: string): Promise<Dump> {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  return fbx2json<Dump>(DUMP_PY, file);
}

const withFps = (c: MotionClip, fps: number): MotionClip => ({ ...c, fps });

describe('FBX structure (fbx2json decoder)', () => {
  const clip = randomClip(10, 30, 9);

  it.skipIf(!haveFbx2Json)(
    'Mixamo: 7400, Y up / +Z front, cm, TimeMode 30 fps, KTime keys on every frame',
    async () => {
      const d = await dump(fbx.write(retarget(clip, buildRig('mixamo', clip.skeleton))), 'mixamo.fbx');
      expect(d.version).toBe(7400);
      expect(d.top).toEqual([
        'FBXHeaderExtension',
        'FileId',
        'CreationTime',
        'Creator',
        'GlobalSettings',
        'Documents',
        'References',
        'Definitions',
        'Objects',
        'Connections',
        'Takes',
      ]);
      expect(d.settings).toMatchObject({
        UpAxis: 1,
        UpAxisSign: 1,
        FrontAxis: 2,
        FrontAxisSign: 1,
        CoordAxis: 0,
        CoordAxisSign: 1,
        UnitScaleFactor: 1,
        TimeMode: 6,
      });
      expect(d.counts['Model:LimbNode']).toBe(65);
      expect(d.counts['NodeAttribute:LimbNode']).toBe(65);
      expect(d.counts['AnimationStack:']).toBe(1);
      expect(d.counts['AnimationLayer:']).toBe(1);
      expect(d.nkeys).toBe(10);
      expect(d.keytime).toEqual([0, 1539538600, 3079077200, 4618615800]);
      expect(d.stop).toBe(9 * 1539538600);
    },
  );

  it.skipIf(!haveFbx2Json)(
    'UE4 and R15: Z up / -Y front in cm, R15 in studs (28 cm per unit); 24 fps and custom rates',
    async () => {
      const ue = await dump(
        fbx.write(retarget(withFps(clip, 24), buildRig('ue4', clip.skeleton))),
        'ue4.fbx',
      );
      expect(ue.settings).toMatchObject({
        UpAxis: 2,
        FrontAxis: 1,
        FrontAxisSign: -1,
        CoordAxis: 0,
        TimeMode: 11,
      });
      expect(ue.keytime[1]).toBe(1924423250);
      const r15 = await dump(
        fbx.write(retarget(withFps(clip, 29.97), buildRig('r15', clip.skeleton))),
        'r15.fbx',
      );
      expect(r15.settings.UnitScaleFactor).toBeCloseTo(28, 9);
      expect(r15.settings.TimeMode).toBe(14);
      expect(r15.settings.CustomFrameRate).toBeCloseTo(29.97, 9);
      expect(r15.keytime[1]).toBe(Math.round(46186158000 / 29.97));
    },
  );

  it('ends with the FBX footer (version, 120 zeros, magic) and starts with the binary header', () => {
    const b = fbx.write(retarget(clip, buildRig('mixamo', clip.skeleton)));
    expect(new TextDecoder().decode(b.subarray(0, 20))).toBe('Kaydara FBX Binary  ');
    expect([...b.subarray(20, 23)]).toEqual([0, 0x1a, 0]);
    const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
    expect(dv.getUint32(23, true)).toBe(7400);
    const n = b.length;
    expect([...b.subarray(n - 16)]).toEqual([
      0xf8, 0x5a, 0x8c, 0x6a, 0xde, 0xf5, 0xd9, 0x7e, 0xec, 0xe9, 0x0c, 0xe3, 0x75, 0x8f, 0x29, 0x0b,
    ]);
    expect([...b.subarray(n - 136, n - 16)].every((x) => x === 0)).toBe(true);
    expect(dv.getUint32(n - 140, true)).toBe(7400);
  });

  it('rejects left-handed rigs, meshes weighted to unknown bones and inconsistent meshes', () => {
    expect(() => fbx.write(retarget(clip, buildRig('mmd', clip.skeleton)))).toThrow(/left-handed/);
    const rig = buildRig('mixamo', clip.skeleton);
    const rc = retarget(clip, rig);
    const m = boxMesh(rig, ['mixamorig:LeftForeArm']);
    expect(() => fbx.write(rc, { meshes: [{ ...m, jointNames: ['NoSuchBone'] }] })).toThrow(/NoSuchBone/);
    expect(() => fbx.write(rc, { meshes: [{ ...m, uvs: new Float32Array(2) }] })).toThrow(
      /attribute lengths/,
    );
  });
});

// ------------------------------------------------------------------ skinned mesh

/** Rig-space world rotation and position of every bone at frame f. */
function rigWorld(rc: RigClip, f: number): { q: Quat[]; p: Vec3[] } {
  const bones = rc.rig.bones;
  const idx = new Map(bones.map((b, i) => [b.name, i]));
  const q: Quat[] = [];
  const p: Vec3[] = [];
  const nb = bones.length;
  bones.forEach((b, i) => {
    const lq = readQuat(rc.rotations, f * nb + i);
    const lt: Vec3 = [
      rc.translations[(f * nb + i) * 3],
      rc.translations[(f * nb + i) * 3 + 1],
      rc.translations[(f * nb + i) * 3 + 2],
    ];
    const pi = b.parent === null ? -1 : (idx.get(b.parent) as number);
    if (pi < 0) {
      q[i] = lq;
      p[i] = lt;
    } else {
      q[i] = qMul(q[pi], lq);
      const o = qRotate(q[pi], lt);
      p[i] = [p[pi][0] + o[0], p[pi][1] + o[1], p[pi][2] + o[2]];
    }
  });
  return { q, p };
}

/** A small skinned mesh: a cube of 8 vertices around each listed bone's head, weighted 70/30 to it and its parent. */
function boxMesh(rig: Rig, boneNames: string[]): SkinnedMesh {
  const rest = fbx.restWorld(rig);
  const positions: number[] = [];
  const joints: number[] = [];
  const weights: number[] = [];
  const names: string[] = [];
  const indices: number[] = [];
  for (const bn of boneNames) {
    const i = rig.bones.findIndex((b) => b.name === bn);
    const parent = rig.bones[i].parent as string;
    if (!names.includes(bn)) names.push(bn);
    if (!names.includes(parent)) names.push(parent);
    const c = rigToCanonical(rig, rest.pos[i]);
    const base = positions.length / 3;
    for (let k = 0; k < 8; k++) {
      positions.push(
        c[0] + (k & 1 ? 0.04 : -0.04),
        c[1] + (k & 2 ? 0.05 : -0.05),
        c[2] + (k & 4 ? 0.03 : -0.03),
      );
      joints.push(names.indexOf(bn), names.indexOf(parent), 0, 0);
      weights.push(0.7, 0.3, 0, 0);
    }
    const quads = [
      [0, 1, 3, 2],
      [4, 6, 7, 5],
      [0, 4, 5, 1],
      [2, 3, 7, 6],
      [0, 2, 6, 4],
      [1, 5, 7, 3],
    ];
    for (const [a, b, cc, d] of quads)
      indices.push(base + a, base + b, base + cc, base + a, base + cc, base + d);
  }
  const nv = positions.length / 3;
  const normals = new Float32Array(3 * nv);
  for (let v = 0; v < nv; v++) normals[3 * v + 1] = 1;
  return {
    name: 'boxes',
    positions: Float32Array.from(positions),
    normals,
    uvs: new Float32Array(2 * nv).fill(0.5),
    indices: Uint32Array.from(indices),
    joints: Uint16Array.from(joints),
    weights: Float32Array.from(weights),
    jointNames: names,
    materials: [{ name: 'grey', baseColor: [0.5, 0.5, 0.5, 1] }],
    groups: [{ start: 0, count: indices.length, material: 0 }],
    morphTargets: [
      {
        name: 'jawOpen',
        positions: Float32Array.from({ length: 3 * nv }, (_, k) => (k % 3 === 1 && k < 24 ? -0.02 : 0)),
      },
    ],
  };
}

/** Linear blend skinning of a mesh vertex (canonical metres) at frame f. */
function skinned(rc: RigClip, mesh: SkinnedMesh, v: number, f: number, morph = 0): Vec3 {
  const rig = rc.rig;
  const bind = fbx.restWorld(rig);
  const pose = rigWorld(rc, f);
  const u = rig.unitsPerMetre;
  const B = rig.basis;
  const pc: Vec3 = [
    mesh.positions[3 * v] + morph * (mesh.morphTargets?.[0].positions[3 * v] ?? 0),
    mesh.positions[3 * v + 1] + morph * (mesh.morphTargets?.[0].positions[3 * v + 1] ?? 0),
    mesh.positions[3 * v + 2] + morph * (mesh.morphTargets?.[0].positions[3 * v + 2] ?? 0),
  ];
  const pr: Vec3 = [0, 1, 2].map(
    (r) => (B[3 * r] * pc[0] + B[3 * r + 1] * pc[1] + B[3 * r + 2] * pc[2]) * u,
  ) as Vec3;
  const out: Vec3 = [0, 0, 0];
  for (let k = 0; k < 4; k++) {
    const w = mesh.weights[4 * v + k];
    if (!w) continue;
    const b = rig.bones.findIndex((x) => x.name === mesh.jointNames[mesh.joints[4 * v + k]]);
    const local = qRotate(qConj(bind.rot[b] as Quat), [
      pr[0] - bind.pos[b][0],
      pr[1] - bind.pos[b][1],
      pr[2] - bind.pos[b][2],
    ]);
    const wp = qRotate(pose.q[b], local);
    for (let c = 0; c < 3; c++) out[c] += w * (pose.p[b][c] + wp[c]);
  }
  return rigToCanonical(rig, out);
}

const MESH_PY = `
import bpy, sys, json
args = sys.argv[sys.argv.index("--") + 1:]
frames = [int(x) for x in args[0].split(',')]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.fbx(filepath=args[1])
sc = bpy.context.scene
ob = [o for o in sc.objects if o.type == 'MESH'][0]
out = {"groups": [g.name for g in ob.vertex_groups], "shapes": [k.name for k in ob.data.shape_keys.key_blocks] if ob.data.shape_keys else [], "frames": {}}
for f in frames:
    sc.frame_set(f)
    dg = bpy.context.evaluated_depsgraph_get()
    ev = ob.evaluated_get(dg)
    me = ev.to_mesh()
    out["frames"][str(f)] = [list(ev.matrix_world @ v.co) for v in me.vertices]
    ev.to_mesh_clear()
print("RESULT " + json.dumps(out))
`;

describe('skinned mesh + morph animation', () => {
  const clip = randomClip(8, 30, 13);
  const weights = new Float32Array(8 * 52);
  for (let f = 0; f < 8; f++) weights[f * 52 + 17] = f / 7; // jawOpen ramps 0 → 1
  const faceClip: MotionClip = {
    ...clip,
    blendshapes: {
      names: ARKIT_BLENDSHAPES,
      weights,
      supported: ['jawOpen'],
    },
  };

  for (const id of ['mixamo', 'ue4'] as const) {
    it(`Blender deforms the mesh like linear blend skinning on the ${id} rig (within 1 mm)`, async () => {
      const blender = blenderPath();
      if (!blender) return;
      const rig = buildRig(id, clip.skeleton);
      const rc = retarget(faceClip, rig);
      const bones =
        id === 'mixamo'
          ? ['mixamorig:LeftForeArm', 'mixamorig:RightLeg', 'mixamorig:Head']
          : ['lowerarm_l', 'calf_r', 'head'];
      const mesh = boxMesh(rig, bones);
      const file = join(dir, `skin-${id}.fbx`);
      writeFileSync(file, fbx.write(rc, { meshes: [mesh] }));
      const frames = [0, 3, 7];
      const r = await blenderResult<{
        groups: string[];
        shapes: string[];
        frames: Record<string, number[][]>;
      }>(blender, MESH_PY, [frames.map((f) => f + 1).join(','), file]);
      expect(r.groups.sort()).toEqual([...mesh.jointNames].sort());
      expect(r.shapes).toContain('jawOpen');
      for (const f of frames) {
        const got = r.frames[String(f + 1)];
        expect(got.length).toBe(mesh.positions.length / 3);
        for (let v = 0; v < got.length; v++) {
          const e = skinned(rc, mesh, v, f, weights[f * 52 + 17]);
          const g = [got[v][0], got[v][2], -got[v][1]]; // Blender Z up, -Y front → canonical
          expect(Math.hypot(g[0] - e[0], g[1] - e[1], g[2] - e[2]), `${id} v${v} f${f}`).toBeLessThan(0.001);
        }
      }
    });
  }

  it('three.js FBXLoader: a SkinnedMesh on the rig bones with a jawOpen morph track', async () => {
    const loaderPath: string = 'three/examples/jsm/loaders/FBXLoader.js';
    // biome-ignore lint/suspicious/noExplicitAny: three.js has no types here
    const { FBXLoader } = (await import(loaderPath)) as any;
    const rig = buildRig('mixamo', clip.skeleton);
    const mesh = boxMesh(rig, ['mixamorig:LeftForeArm', 'mixamorig:Head']);
    const b = fbx.write(retarget(faceClip, rig), { meshes: [mesh] });
    const group = new FBXLoader().parse(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength), '');
    // biome-ignore lint/suspicious/noExplicitAny: three objects
    const meshes: any[] = [];
    // biome-ignore lint/suspicious/noExplicitAny: three objects
    group.traverse((o: any) => {
      if (o.isSkinnedMesh) meshes.push(o);
    });
    expect(meshes.length).toBe(1);
    expect(meshes[0].morphTargetDictionary).toHaveProperty('jawOpen');
    expect(meshes[0].skeleton.bones.map((x: { name: string }) => x.name)).toContain('mixamorigLeftForeArm');
    const tracks: { name: string; values: Float32Array }[] = group.animations[0].tracks;
    const morph = tracks.find((t) => /morphTargetInfluences/.test(t.name));
    expect(morph).toBeTruthy();
    expect(Math.max(...(morph as { values: Float32Array }).values)).toBeCloseTo(1, 5);
  });

  it('a bind-pose file (noAnimation) has no animation stack; boneAnimation false keeps only morph curves', async () => {
    const rig = buildRig('mixamo', clip.skeleton);
    const rc = retarget(faceClip, rig);
    const mesh = boxMesh(rig, ['mixamorig:Head']);
    if (haveFbx2Json) {
      const still = await dump(fbx.write(rc, { meshes: [mesh], noAnimation: true }), 'still.fbx');
      expect(still.counts['AnimationStack:']).toBeUndefined();
      expect(still.counts['Deformer:Skin']).toBe(1);
      expect(still.counts['Deformer:Cluster']).toBe(2);
      expect(still.counts['Pose:BindPose']).toBe(1);
      const face = await dump(fbx.write(rc, { meshes: [mesh], boneAnimation: false }), 'face.fbx');
      expect(face.counts['AnimationCurveNode:']).toBe(1);
      expect(face.counts['AnimationCurve:']).toBe(1);
    }
    const rest = retarget(restClip(createSkeleton(), 2, 30), rig);
    expect(rigWorldPositions(rest, 0).length).toBe(3 * rig.bones.length);
  });
});
