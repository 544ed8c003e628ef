/**
 * Exports that fit their tools (issue 18), checked with the tools' own readers:
 * - steady frame rates: a variable-frame-rate clip (29.827 fps) is resampled to a standard rate, the files carry
 *   exactly that rate and Blender puts every key on a whole frame (FBX, BVH, GLB); `fps` chooses another rate;
 * - UnityAnim binds: every `.anim` path resolves in the hierarchy of the FBX shipped beside it (fbx2json), and the
 *   curves played as Unity plays them on that hierarchy (as Unity imports it: X mirrored, metres) reproduce the
 *   FBX's own animation read by three.js' FBXLoader;
 * - every zip that promises a character ships one: a mesh with an armature modifier, deformed by the animation,
 *   whose materials' image textures are found next to the FBX (Blender); OnlyFace has the 52 ARKit shape keys;
 * - `assimp info` loads every file of every zip that assimp has a reader for (FBX, BVH, CSM, GLB, and the VRMA of
 *   the digital-human zip: as is where assimp can, else — assimp 5.2, whose glTF reader tells GLB from JSON glTF
 *   by the name only — under a .glb name), and the GLB and VRMA exports; the .vrma files as they are, under their
 *   own names, in assimp built after upstream pull request #5154 (assimpjs 0.0.10: assimp commit cf7d363);
 * - the Unreal `ik_*` bones stay on the hands and feet at and between keys, through the Euler pole (Blender).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { quaterniusVrmBones, vrmFromGlb } from '@mocap/testkit';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { exportCharacter, importCharacter } from '../src/characters/api.ts';
import {
  ARKIT_BLENDSHAPES,
  BONE_TYPES,
  type BoneType,
  crc32,
  createSkeleton,
  exportBoneType,
  exportFormat,
  exportFps,
  type MotionClip,
  nearestStandardFps,
  resampleClip,
  resampledFrameCount,
  zip,
} from '../src/index.ts';
import { type Quat, qMul, qNormalize, qRotate, type Vec3 } from '../src/math.ts';
import {
  type AnimClip,
  blenderImportByExtension,
  blenderResult,
  fbx2json,
  haveFbx2Json,
  SHARED,
  sampleAnimCurve,
  smoothClip,
} from './helpers.ts';
import { assimp, blender } from './validators-b-helpers.ts';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'mocap-toolfit-'));
const BLENDER = blender();
const ASSIMP = assimp();

/** The part of assimpjs' API used here (the package ships no types). */
interface AssimpJs {
  FileList: new () => { AddFile(name: string, content: Uint8Array): void };
  ConvertFileList(
    files: unknown,
    format: string,
  ): {
    IsSuccess(): boolean;
    GetErrorCode(): string;
    FileCount(): number;
    GetFile(i: number): { GetPath(): string; GetContent(): Uint8Array };
  };
}

/**
 * assimp itself at a commit that reads a binary glTF by its "glTF" magic whatever the file's name (upstream pull
 * request #5154, July 2023): assimpjs 0.0.10 (npm, devDependency pinned), assimp's C++ compiled to WebAssembly at
 * assimp commit cf7d363 (it calls itself "assimp v5.2.cf7d3637": the development tree after 5.2.5, before 5.3.0).
 * Loads one file under its own name and returns the scene as assimp's JSON export (`assjson`) and the version
 * string its glTF2 exporter writes.
 */
async function assimpJsRead(
  name: string,
  bytes: Uint8Array,
): Promise<{
  scene: {
    meshes?: unknown[];
    materials?: unknown[];
    animations?: { duration: number; tickspersecond: number; channels: { name: string }[] }[];
  };
  generator: string;
}> {
  const ajs = (await (createRequire(import.meta.url)('assimpjs') as () => Promise<AssimpJs>)()) as AssimpJs;
  const convert = (format: string) => {
    const files = new ajs.FileList();
    files.AddFile(name, bytes);
    const r = ajs.ConvertFileList(files, format);
    if (!r.IsSuccess() || r.FileCount() === 0) throw new Error(`assimpjs: ${name}: ${r.GetErrorCode()}`);
    return new TextDecoder().decode(r.GetFile(0).GetContent());
  };
  return {
    scene: JSON.parse(convert('assjson')),
    generator: JSON.parse(convert('gltf2')).asset.generator,
  };
}

/**
 * Smooth whole-body motion sampled at `fps` for `seconds`: sinusoids on every joint and a hips yaw that keeps
 * turning (at 30 fps the UE4 pelvis passes the XYZ-Euler pole at frame 200, 6.67 s), a travelling root, face curves.
 */
function motion(fps: number, seconds: number, amp = 0.35): MotionClip {
  const clip = smoothClip(
    createSkeleton(undefined, { fingers: true }),
    fps,
    seconds,
    amp,
    0.7 * amp,
    9 * (fps / 30),
  );
  const left = new Uint8Array(clip.frameCount).map((_, f) => ((f / fps) % 1 < 0.5 ? 1 : 0));
  return {
    ...clip,
    contacts: { left, right: left.map((v) => 1 - v) },
    metadata: { generator: 'tool-fit test', source: 'phone clip.mp4' },
  };
}

/** Unzips a bone type's zip into its own folder; returns the folder and the entry names. */
async function unzip(clip: MotionClip, bt: BoneType, options: { fps?: number } = {}) {
  const out = exportBoneType(clip, bt, options);
  const d = join(dir, `${out.fileName.replace(/\.zip$/, '')}${options.fps ? `_${options.fps}` : ''}`);
  mkdirSync(d, { recursive: true });
  const zipFile = `${d}.zip`;
  writeFileSync(zipFile, out.bytes);
  await run('python3', [
    '-c',
    'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])',
    zipFile,
    d,
  ]);
  const names: string[] = [];
  const walk = (p: string, rel: string) => {
    for (const e of readdirSync(p, { withFileTypes: true }))
      if (e.isDirectory()) walk(join(p, e.name), `${rel}${e.name}/`);
      else names.push(`${rel}${e.name}`);
  };
  walk(d, '');
  return { dir: d, names };
}

// ---------------------------------------------------------------- Blender inspector (one process, many files)

const INSPECT_PY = `
import bpy, sys, json, builtins, os
files = sys.argv[sys.argv.index("--") + 1:]
results = {}
for path in files:${blenderImportByExtension(`    else:
        import numpy
        if not hasattr(numpy, "bool"): numpy.bool = bool
        # glTF stores seconds: the importer places keys by the scene's rate (Blender's default is 24 fps).
        bpy.context.scene.render.fps = 30
        bpy.ops.import_scene.gltf(filepath=path)`)}
    sc = bpy.context.scene
    r = {"fps": sc.render.fps, "fpsBase": sc.render.fps_base, "keys": 0, "offFrame": 0.0, "lastKey": 0.0, "meshes": []}
    for a in bpy.data.actions:
        for fc in a.fcurves:
            for k in fc.keyframe_points:
                x = k.co[0]
                r["keys"] += 1
                r["offFrame"] = max(r["offFrame"], abs(x - round(x)))
                r["lastKey"] = max(r["lastKey"], x)
    arms = [o for o in sc.objects if o.type == 'ARMATURE']
    mid = int(round(r["lastKey"] / 2)) + 1
    for m in [o for o in sc.objects if o.type == 'MESH']:
        mods = [md for md in m.modifiers if md.type == 'ARMATURE']
        images = []
        for slot in m.material_slots:
            if slot.material and slot.material.use_nodes:
                for nd in slot.material.node_tree.nodes:
                    if nd.type == 'TEX_IMAGE' and nd.image:
                        fp = bpy.path.abspath(nd.image.filepath)
                        images.append({"file": os.path.basename(fp), "exists": os.path.isfile(fp), "width": nd.image.size[0]})
        bbox = []
        for f in (1, mid):
            sc.frame_set(f)
            ev = m.evaluated_get(bpy.context.evaluated_depsgraph_get())
            me = ev.to_mesh()
            xs = [ev.matrix_world @ v.co for v in me.vertices]
            bbox.append([min(p[i] for p in xs) for i in range(3)] + [max(p[i] for p in xs) for i in range(3)])
            ev.to_mesh_clear()
        r["meshes"].append({"name": m.name, "armatureModifier": bool(mods) and all(md.object is not None and md.object.type == 'ARMATURE' for md in mods),
            "materials": len(m.material_slots), "images": images, "bbox": bbox,
            "shapeKeys": [k.name for k in m.data.shape_keys.key_blocks[1:]] if m.data.shape_keys else []})
    if arms and "ik_hand_r" in arms[0].pose.bones:
        arm = arms[0]
        pairs = [("ik_hand_r", "hand_r"), ("ik_hand_l", "hand_l"), ("ik_hand_gun", "hand_r"), ("ik_foot_l", "foot_l"), ("ik_foot_r", "foot_r")]
        worst = {}
        f = 1.0
        while f <= r["lastKey"]:
            sc.frame_set(int(f), subframe=f - int(f))
            for a, b in pairs:
                d = ((arm.matrix_world @ arm.pose.bones[a].head) - (arm.matrix_world @ arm.pose.bones[b].head)).length
                worst[a] = max(worst.get(a, 0.0), d)
            f += 0.5
        r["ik"] = worst
    results[os.path.basename(os.path.dirname(path)) + "/" + os.path.basename(path)] = r
print("RESULT " + json.dumps(results))
`;

interface Inspected {
  fps: number;
  fpsBase: number;
  keys: number;
  offFrame: number;
  lastKey: number;
  meshes: {
    name: string;
    armatureModifier: boolean;
    materials: number;
    images: { file: string; exists: boolean; width: number }[];
    bbox: number[][];
    shapeKeys: string[];
  }[];
  ik?: Record<string, number>;
}

function inspect(files: string[]): Promise<Record<string, Inspected>> {
  return blenderResult(BLENDER as string, INSPECT_PY, files, 256 << 20);
}

const key = (d: string, f: string) => `${d.split('/').pop()}/${f}`;

// ---------------------------------------------------------------- steady frame rates

/** A VRM 1.0 avatar: the CC0 Quaternius modular man with a VRM humanoid table. */
const vrmAvatar = () =>
  importCharacter(
    vrmFromGlb(
      new Uint8Array(
        readFileSync(join(SHARED, 'testdata/characters/quaternius_modular_glb/modular_men_Casual.glb')),
      ),
      '1',
      quaterniusVrmBones('1'),
    ),
  );

describe('steady frame rates', () => {
  it('picks the nearest standard rate (30 for a 29.827 fps phone clip), validates a chosen one', () => {
    const nearest = [
      [29.827, 30],
      [25.834, 25],
      [23.976, 24],
      [59.2, 60],
      [48, 50],
      [Number.NaN, 30],
    ];
    for (const [fps, standard] of nearest) expect(nearestStandardFps(fps), `${fps} fps`).toBe(standard);
    const c = motion(29.827, 1);
    expect(exportFps(c)).toBe(30);
    expect(exportFps(c, { fps: 24 })).toBe(24);
    expect(() => exportFps(c, { fps: 29.97 })).toThrow(/whole number/);
    expect(() => exportFps(c, { fps: 0 })).toThrow(/whole number/);
  });

  it('resampleClip keeps the duration and follows the motion at the new timestamps', () => {
    const src = motion(29.827, 4);
    const dst = resampleClip(src, 30);
    expect(dst.fps).toBe(30);
    const duration = (src.frameCount - 1) / src.fps;
    expect(dst.frameCount).toBe(Math.round(duration * 30) + 1);
    expect(dst.frameCount).toBe(resampledFrameCount(src.frameCount, src.fps, 30));
    expect(Math.abs((dst.frameCount - 1) / 30 - duration)).toBeLessThanOrEqual(0.5 / 30);
    expect(dst.metadata.sourceFps).toBe(29.827);
    // The same motion sampled directly at 30 fps: the resampled rotations match it within 0.3° and the root
    // within 0.2 mm (interpolation between 33.5 ms samples of ≤ 1 Hz sinusoids).
    const truth = motion(30, 4);
    const n = src.skeleton.names.length;
    let worstAngle = 0;
    let worstRoot = 0;
    // Frames up to the source's last time (the last one may be clamped to it, half a frame at most).
    for (let f = 0; f / 30 <= duration && f < truth.frameCount; f++) {
      for (let j = 0; j < n; j++) {
        const o = (f * n + j) * 4;
        let d = 0;
        for (let k = 0; k < 4; k++) d += dst.rotations[o + k] * truth.rotations[o + k];
        worstAngle = Math.max(worstAngle, 2 * Math.acos(Math.min(1, Math.abs(d))));
      }
      for (let k = 0; k < 3; k++)
        worstRoot = Math.max(
          worstRoot,
          Math.abs(dst.rootPositions[3 * f + k] - truth.rootPositions[3 * f + k]),
        );
    }
    expect((worstAngle * 180) / Math.PI).toBeLessThan(0.3);
    expect(worstRoot).toBeLessThan(2e-4);
    // Face weights interpolated, contacts from the nearest frame, both sized to the new frame count.
    expect(dst.blendshapes?.weights.length).toBe(dst.frameCount * 52);
    expect(dst.contacts?.left.length).toBe(dst.frameCount);
    expect(resampleClip(dst, 30)).toBe(dst);
    expect(() => resampleClip(src, 0)).toThrow(/frame rate/);
  });

  it.skipIf(!BLENDER)(
    'a 29.827 fps clip gives files at exactly 30 fps (24 when chosen) with every key on a whole frame in Blender',
    async () => {
      const clip = motion(29.827, 3);
      const expectedFrames = resampledFrameCount(clip.frameCount, 29.827, 30);
      const mixamo = await unzip(clip, 'Mixamo');
      const ue4 = await unzip(clip, 'Unreal4');
      const boy24 = await unzip(clip, 'BoyFBX', { fps: 24 });
      const glb = join(dir, 'vfr.glb');
      writeFileSync(glb, exportFormat(clip, 'glb').bytes);
      const readme = readFileSync(join(mixamo.dir, 'README.txt'), 'utf8');
      expect(readme).toContain(`Frames: ${expectedFrames} at 30 fps`);
      expect(readme).toMatch(/resampled to a steady 30 fps from the capture's 29\.827 fps/);
      expect(readFileSync(join(boy24.dir, 'README.txt'), 'utf8')).toContain('at 24 fps');
      const bvhText = readFileSync(join(mixamo.dir, 'phone_clip.bvh'), 'utf8');
      expect(bvhText).toMatch(/Frames: (\d+)\r?\nFrame Time: 0\.0333333333/);
      expect(Number(/Frames: (\d+)/.exec(bvhText)?.[1])).toBe(expectedFrames);
      const r = await inspect([
        join(mixamo.dir, 'phone_clip.fbx'),
        join(mixamo.dir, 'phone_clip.bvh'),
        join(ue4.dir, 'phone_clip.fbx'),
        join(boy24.dir, 'phone_clip.fbx'),
        glb,
      ]);
      for (const [file, fps] of [
        [key(mixamo.dir, 'phone_clip.fbx'), 30],
        [key(mixamo.dir, 'phone_clip.bvh'), 30],
        [key(ue4.dir, 'phone_clip.fbx'), 30],
        [key(boy24.dir, 'phone_clip.fbx'), 24],
      ] as const) {
        const x = r[file];
        expect(x.fps / x.fpsBase, file).toBeCloseTo(fps, 4);
        expect(x.keys, file).toBeGreaterThan(0);
        // Every key on a whole frame, the last one where the clip's last frame belongs.
        expect(x.offFrame, file).toBeLessThan(1e-3);
      }
      expect(r[key(mixamo.dir, 'phone_clip.fbx')].lastKey).toBeCloseTo(expectedFrames, 3);
      expect(r[key(boy24.dir, 'phone_clip.fbx')].lastKey).toBeCloseTo(
        resampledFrameCount(clip.frameCount, 29.827, 24),
        3,
      );
      // glTF stores seconds: in a 30 fps scene (Blender's default is 24) the keys land on whole frames too.
      const g = r[`${dir.split('/').pop()}/vfr.glb`];
      expect(g.keys).toBeGreaterThan(0);
      expect(g.offFrame).toBeLessThan(1e-3);
      // (the importer starts at frame 0 or 1 depending on the Blender version: the span is what counts).
      expect([expectedFrames - 1, expectedFrames]).toContain(Math.round(g.lastKey));
    },
    240_000,
  );
});

// ---------------------------------------------------------------- UnityAnim

/** FBX Model hierarchy (fbx2json): top-level models and each model's children, by exact name. */
const HIERARCHY_PY = `
models = {}
for o in objs.elems:
    if o.id == b'Model':
        models[o.props[0]] = o.props[1].split(b'\\x00\\x01')[0].decode()
parent = {}
for c in conns.elems:
    if c.props[0] == b'OO' and c.props[1] in models and (c.props[2] in models or c.props[2] == 0):
        parent[c.props[1]] = c.props[2]
paths = {}
def path(m):
    if m not in paths:
        p = parent.get(m, 0)
        paths[m] = models[m] if p == 0 else path(p) + '/' + models[m]
    return paths[m]
print(json.dumps(sorted(path(m) for m in models)))
`;

describe('UnityAnim binds to the character FBX shipped with it', () => {
  const clip = motion(29.827, 2);

  it.skipIf(!haveFbx2Json && process.env.CI !== 'true')(
    'every .anim path resolves in the FBX hierarchy (fbx2json) and the bindings are the CRC32 of those paths',
    async () => {
      const z = await unzip(clip, 'UnityAnim');
      expect(z.names.sort()).toEqual(
        ['README.txt', 'phone_clip.anim', 'phone_clip.fbx', 'textures/boy_basecolor.png'].sort(),
      );
      const hierarchy = new Set(await fbx2json<string[]>(HIERARCHY_PY, join(z.dir, 'phone_clip.fbx')));
      const docs = YAML.parseAllDocuments(readFileSync(join(z.dir, 'phone_clip.anim'), 'utf8'));
      expect(docs[0].errors).toEqual([]);
      const anim = (docs[0].toJS() as { AnimationClip: AnimClip }).AnimationClip;
      expect(anim.m_SampleRate).toBe(30);
      const paths = [...anim.m_RotationCurves, ...anim.m_PositionCurves].map((c) => c.path);
      expect(paths.length).toBeGreaterThan(50);
      const missing = paths.filter((p) => !hierarchy.has(p));
      expect(missing).toEqual([]);
      expect(paths).toContain('mixamorig:Hips/mixamorig:Spine/mixamorig:Spine1');
      const crcs = new Set(anim.m_ClipBindingConstant.genericBindings.map((b) => b.path));
      for (const p of paths) expect(crcs.has(crc32(new TextEncoder().encode(p))), p).toBe(true);
      // Humanoid-ready: Unity's 15 required Humanoid bones are there with the Mixamo names its avatar maps
      // automatically, nested as a Humanoid expects.
      const leaf = new Map([...hierarchy].map((p) => [p.split('/').pop() as string, p]));
      for (const side of ['Left', 'Right'])
        for (const [a, b] of [
          ['UpLeg', 'Leg'],
          ['Leg', 'Foot'],
          ['Arm', 'ForeArm'],
          ['ForeArm', 'Hand'],
        ])
          expect(leaf.get(`mixamorig:${side}${b}`)).toBe(
            `${leaf.get(`mixamorig:${side}${a}`)}/mixamorig:${side}${b}`,
          );
      for (const n of ['Hips', 'Spine', 'Head']) expect(leaf.has(`mixamorig:${n}`), n).toBe(true);
      // The character mesh is in the same FBX, beside the skeleton.
      expect([...hierarchy].some((p) => p === 'boy_body')).toBe(true);
      const readme = readFileSync(join(z.dir, 'README.txt'), 'utf8');
      expect(readme).toMatch(/Animation Type: Humanoid/);
      expect(readme).toMatch(/Animation Type: Generic/);
    },
    120_000,
  );

  it('played as Unity plays it on the FBX as Unity imports it, the .anim reproduces the FBX animation (three.js) within 1 mm', async () => {
    const z = await unzip(clip, 'UnityAnim');
    const anim = (
      YAML.parseAllDocuments(readFileSync(join(z.dir, 'phone_clip.anim'), 'utf8'))[0].toJS() as {
        AnimationClip: AnimClip;
      }
    ).AnimationClip;
    const loaderPath: string = 'three/examples/jsm/loaders/FBXLoader.js';
    const threePath: string = 'three';
    // biome-ignore lint/suspicious/noExplicitAny: three.js is loaded untyped in tests
    const { FBXLoader } = (await import(loaderPath)) as any;
    // biome-ignore lint/suspicious/noExplicitAny: idem
    const THREE = (await import(threePath)) as any;
    const b = readFileSync(join(z.dir, 'phone_clip.fbx'));
    // The FBX has a texture: three's ImageLoader makes an <img>; a stub element is enough (pixels are not used).
    const g = globalThis as { document?: unknown };
    const hadDocument = 'document' in g;
    g.document ??= {
      createElementNS: () => ({ addEventListener() {}, removeEventListener() {}, style: {} }),
    };
    // biome-ignore lint/suspicious/noExplicitAny: three.js is loaded untyped in tests
    let group: any;
    try {
      group = new FBXLoader().parse(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength), '');
    } finally {
      if (!hadDocument) delete g.document;
    }
    // three.js names bones with PropertyBinding.sanitizeNodeName (drops ':'): map .anim path leaves the same way.
    const sanitize = (s: string) => THREE.PropertyBinding.sanitizeNodeName(s);
    const bones: Record<string, { name: string; parent: string | null; t: Vec3; q: Quat }> = {};
    const order: string[] = [];
    group.traverse(
      (o: {
        isBone?: boolean;
        name: string;
        parent: { isBone?: boolean; name: string } | null;
        position: { x: number; y: number; z: number };
        quaternion: { x: number; y: number; z: number; w: number };
      }) => {
        if (!o.isBone) return;
        // Unity's import of a right-handed, Y-up FBX: X mirrored, centimetres → metres.
        bones[o.name] = {
          name: o.name,
          parent: o.parent?.isBone ? o.parent.name : null,
          t: [-o.position.x / 100, o.position.y / 100, o.position.z / 100],
          q: [o.quaternion.x, -o.quaternion.y, -o.quaternion.z, o.quaternion.w],
        };
        order.push(o.name);
      },
    );
    const rot = new Map(
      anim.m_RotationCurves.map((c) => [sanitize(c.path.split('/').pop() as string), c.curve.m_Curve]),
    );
    const pos = new Map(
      anim.m_PositionCurves.map((c) => [sanitize(c.path.split('/').pop() as string), c.curve.m_Curve]),
    );
    expect(rot.size).toBeGreaterThan(50);
    for (const name of rot.keys()) expect(bones[name], name).toBeDefined();
    const mixer = new THREE.AnimationMixer(group);
    mixer.clipAction(group.animations[0]).play();
    const F = resampledFrameCount(clip.frameCount, clip.fps, 30);
    let worst = 0;
    for (let f = 0; f < F; f += 3) {
      const t = f / 30;
      mixer.setTime(t);
      group.updateMatrixWorld(true);
      const W = new Map<string, { p: Vec3; q: Quat }>();
      for (const name of order) {
        const bone = bones[name];
        const r = rot.get(name);
        const q = r ? qNormalize(sampleAnimCurve(r, t) as Quat) : bone.q;
        const pk = pos.get(name);
        const p = (pk ? sampleAnimCurve(pk, t) : bone.t) as Vec3;
        const par = bone.parent ? W.get(bone.parent) : undefined;
        W.set(
          name,
          par ? { p: qRotate(par.q, p).map((v, k) => v + par.p[k]) as Vec3, q: qMul(par.q, q) } : { p, q },
        );
      }
      for (const name of order) {
        const o = group.getObjectByName(name);
        const v = o.getWorldPosition(new THREE.Vector3());
        const u = (W.get(name) as { p: Vec3 }).p;
        worst = Math.max(worst, Math.hypot(-u[0] - v.x / 100, u[1] - v.y / 100, u[2] - v.z / 100));
      }
    }
    expect(worst).toBeLessThan(1e-3);
  }, 120_000);
});

// ---------------------------------------------------------------- characters, face shapes, readers

const CHARACTER_ZIPS: [BoneType, string][] = [
  ['Unreal4', 'ue4_basecolor.png'],
  ['Unreal5.5', 'ue5_basecolor.png'],
  ['Unreal5.6', 'ue5_basecolor.png'],
  ['RobloxR15', 'roblox_basecolor.png'],
  ['BoyFBX', 'boy_basecolor.png'],
  ['GirlFBX', 'girl_basecolor.png'],
  ['UnityAnim', 'boy_basecolor.png'],
];

describe('characters in every zip that promises one; readers', () => {
  // 8 s at 30 fps: the UE4 pelvis passes the Euler pole at frame 200.
  const clip = motion(30, 8);

  it.skipIf(!BLENDER)(
    'Blender: a mesh with an armature modifier, moved by the animation, its image textures found beside the FBX; OnlyFace has the 52 ARKit shape keys; Unreal ik bones stay on the hands and feet',
    async () => {
      const zips = await Promise.all(CHARACTER_ZIPS.map(([bt]) => unzip(clip, bt)));
      const face = await unzip(motion(30, 1), 'OnlyFace');
      const files = [...zips.map((z) => join(z.dir, 'phone_clip.fbx')), join(face.dir, 'phone_clip.fbx')];
      const r = await inspect(files);
      CHARACTER_ZIPS.forEach(([bt, texture], i) => {
        const z = zips[i];
        expect(z.names, bt).toContain(`textures/${texture}`);
        const x = r[key(z.dir, 'phone_clip.fbx')];
        expect(x.meshes.length, bt).toBe(1);
        const m = x.meshes[0];
        expect(m.armatureModifier, bt).toBe(true);
        expect(m.materials, bt).toBeGreaterThan(0);
        expect(m.images.length, bt).toBeGreaterThan(0);
        for (const img of m.images) {
          expect(img.file, bt).toBe(texture);
          expect(img.exists, bt).toBe(true);
          expect(img.width, bt).toBeGreaterThanOrEqual(512);
        }
        // Body-sized (1.5–2 m tall) and moved by the animation between the first and a middle frame.
        const [b0, b1] = m.bbox;
        expect(b0[5] - b0[2], bt).toBeGreaterThan(1.4);
        expect(b0[5] - b0[2], bt).toBeLessThan(2.1);
        expect(Math.max(...b0.map((v, k) => Math.abs(v - b1[k]))), bt).toBeGreaterThan(0.1);
      });
      const faceMesh = r[key(face.dir, 'phone_clip.fbx')].meshes[0];
      expect(faceMesh.shapeKeys).toEqual([...ARKIT_BLENDSHAPES]);
      for (const bt of ['Unreal4', 'Unreal5.5'] as const) {
        const ik = r[key(zips[CHARACTER_ZIPS.findIndex(([b]) => b === bt)].dir, 'phone_clip.fbx')].ik;
        expect(ik, bt).toBeDefined();
        // At every frame and half frame of 8 s (Blender metres): within 5 mm of the hand or foot they follow.
        for (const [bone, d] of Object.entries(ik ?? {})) expect(d, `${bt} ${bone}`).toBeLessThan(5e-3);
      }
    },
    300_000,
  );

  it.skipIf(!ASSIMP)(
    'assimp info loads every 3D file of every zip (bone types and the digital-human zip with its VRMA) and the GLB',
    async () => {
      const short = motion(29.827, 2);
      const checked: string[] = [];
      const other = new Set<string>();
      /** `assimp info` (default post-processing) on one file: loads, one animation, and a mesh for glTF. */
      const info = async (label: string, file: string) => {
        const { stdout } = await run(ASSIMP as string, ['info', file], { maxBuffer: 64 << 20 });
        expect(stdout, label).toMatch(/Animations:\s+1/);
        checked.push(label);
        return stdout;
      };
      const assimpReads = (ext: string) => ['fbx', 'bvh', 'glb', 'csm', 'vrma'].includes(ext);
      for (const bt of BONE_TYPES) {
        const z = await unzip(short, bt);
        for (const name of z.names) {
          const ext = name.split('.').pop() as string;
          if (!assimpReads(ext)) other.add(ext);
          else await info(`${bt}/${name}`, join(z.dir, name));
        }
      }
      // The digital-human zip (tomokage apply: FBX with the avatar's mesh, GLB, VRMA for a VRM avatar), made as the
      // server's engine makes it, for a VRM 1.0 avatar (the CC0 Quaternius man with a VRM humanoid table).
      const avatar = vrmAvatar();
      const dh = join(dir, 'digital_human');
      mkdirSync(dh, { recursive: true });
      const files = (['fbx', 'glb', 'vrma'] as const).map((f) => ({
        name: `avatar_walk.${f}`,
        data: exportCharacter(avatar, f, short, { name: 'walk' }),
      }));
      writeFileSync(`${dh}.zip`, zip(files.map((f) => ({ ...f, store: !f.name.endsWith('.fbx') }))));
      await run('python3', [
        '-c',
        'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])',
        `${dh}.zip`,
        dh,
      ]);
      for (const name of readdirSync(dh).sort()) {
        if (!name.endsWith('.vrma')) {
          await info(`digital-human/${name}`, join(dh, name));
          continue;
        }
        // The .vrma as is first (assimp with pull request #5154 reads it so: the assimpjs test below). assimp 5.2
        // cannot read any .vrma (a GLB by the VRMA spec): no reader lists the
        // extension, so it falls back to signature detection, where the glTF2 reader's CanRead decides binary or
        // text by the name alone (5.2's glTF2Importer.cpp: `asset.CanRead(filename, extension == "glb")`), parses
        // the GLB as JSON text and declines ("Parsing GLTF2 JSON" in its log; the same glTF as JSON text under a
        // .vrma name loads). assimp 5.3 checks the "glTF" magic instead (upstream pull request #5154): from there
        // the file must load as it is. Until then, the same bytes under a .glb name.
        const asIs = join(dh, name);
        const direct = await run(ASSIMP as string, ['info', asIs], { maxBuffer: 64 << 20 }).then(
          (r) => ({ ok: true, text: r.stdout }),
          (e: { stdout?: string; stderr?: string }) => ({
            ok: false,
            text: `${e.stdout ?? ''}${e.stderr ?? ''}`,
          }),
        );
        if (direct.ok) {
          expect(direct.text).toMatch(/Animations:\s+1/);
          expect(direct.text).toMatch(/Meshes:\s+1/);
          checked.push(`digital-human/${name}`);
          continue;
        }
        const { stdout: version } = await run(ASSIMP as string, ['version']);
        expect(version, 'assimp 5.3+ reads a GLB by its magic whatever its name').toMatch(
          /Version 5\.[0-2]\b/,
        );
        expect(direct.text).toContain(`No suitable reader found for the file format of file "${asIs}"`);
        // The cause, shown: the same glTF as JSON text (buffer inlined) under the .vrma name is found and loaded.
        const glbBytes = readFileSync(asIs);
        const jsonLength = glbBytes.readUInt32LE(12);
        const gltfJson = JSON.parse(glbBytes.subarray(20, 20 + jsonLength).toString('utf8'));
        const binLength = glbBytes.readUInt32LE(20 + jsonLength);
        const bin = glbBytes.subarray(28 + jsonLength, 28 + jsonLength + binLength);
        gltfJson.buffers[0].uri = `data:application/octet-stream;base64,${bin.toString('base64')}`;
        const asText = join(dh, 'as_text', name);
        mkdirSync(join(dh, 'as_text'), { recursive: true });
        writeFileSync(asText, JSON.stringify(gltfJson));
        expect((await run(ASSIMP as string, ['info', asText], { maxBuffer: 64 << 20 })).stdout).toMatch(
          /Animations:\s+1/,
        );
        const asGlb = join(dh, name.replace(/\.vrma$/, '_vrma.glb'));
        writeFileSync(asGlb, glbBytes);
        const out = await info(`digital-human/${name}`, asGlb);
        expect(out).toMatch(/Meshes:\s+1/);
      }
      const glb = join(dir, 'assimp.glb');
      writeFileSync(glb, exportFormat(short, 'glb').bytes);
      const stdout = await info('exportFormat glb', glb);
      expect(stdout).toMatch(/Materials:\s+1/);
      const vrma = join(dir, 'assimp_vrma.glb');
      writeFileSync(vrma, exportFormat(short, 'vrma').bytes);
      await info('exportFormat vrma', vrma);
      // All 12 FBX bone types, the 5 BVHs and the CSM; the digital human's FBX, GLB and VRMA; the rest of the
      // zips' files are formats assimp has no reader for (VMD: it reads PMX models, not motions).
      expect(
        checked.filter((c) => /^[^/]+\/[^/]+\.fbx$/.test(c) && !c.startsWith('digital-human')),
      ).toHaveLength(12);
      expect(checked.filter((c) => c.endsWith('.bvh'))).toHaveLength(5);
      expect(checked.filter((c) => c.endsWith('.csm'))).toEqual(['CS/phone_clip.csm']);
      expect(checked.filter((c) => c.startsWith('digital-human/'))).toEqual([
        'digital-human/avatar_walk.fbx',
        'digital-human/avatar_walk.glb',
        'digital-human/avatar_walk.vrma',
      ]);
      expect([...other].sort()).toEqual(['anim', 'csv', 'json', 'png', 'txt', 'vmd']);
    },
    300_000,
  );

  it('assimp built with the glTF magic check (assimpjs) reads every .vrma as it is, under its own name', async () => {
    const short = motion(29.827, 2);
    // The digital-human zip's .vrma (a VRM 1.0 avatar, as in the test above) and the CLI's `--format vrma`.
    const avatar = vrmAvatar();
    const files: [string, Uint8Array][] = [
      ['avatar_walk.vrma', exportCharacter(avatar, 'vrma', short, { name: 'walk' })],
      ['phone_clip.vrma', exportFormat(short, 'vrma').bytes],
    ];
    for (const [name, bytes] of files) {
      // Loads, one animation as long as the file's (its keys' last time), one channel per node the glTF animates,
      // by the same names.
      const { scene, generator } = await assimpJsRead(name, bytes);
      expect(generator, name).toMatch(/^Open Asset Import Library \(assimp v5\./);
      const b = Buffer.from(bytes);
      expect(b.toString('latin1', 0, 4), name).toBe('glTF');
      const gltf = JSON.parse(b.toString('utf8', 20, 20 + b.readUInt32LE(12)));
      const anim = gltf.animations[0];
      const targets = new Set<string>(
        anim.channels.map((c: { target: { node: number } }) => gltf.nodes[c.target.node].name),
      );
      const lastTime = Math.max(
        ...anim.samplers.map((s: { input: number }) => gltf.accessors[s.input].max[0] as number),
      );
      expect(targets.size, name).toBeGreaterThan(10);
      expect(scene.animations, name).toHaveLength(1);
      const a = scene.animations?.[0] as NonNullable<typeof scene.animations>[number];
      expect(a.duration / a.tickspersecond, name).toBeCloseTo(lastTime, 4);
      expect(new Set(a.channels.map((c) => c.name)), name).toEqual(targets);
    }
  }, 120_000);
});
