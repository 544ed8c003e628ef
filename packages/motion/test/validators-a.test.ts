/**
 * Exporter acceptance (part A): every bone type's zip is read back by independent readers — Python's zipfile
 * (CRC-checked), Blender 3.4 headless (FBX and BVH import), three.js (FBXLoader, BVHLoader) and `assimp info` —
 * and each reader sees the rig's bones and hierarchy, the clip's frame count and rate, and world joint positions
 * matching the canonical clip within 1 mm after unit and axis conversion.
 *
 * Blender and assimp tests skip locally when the tools are absent; under CI=true they must run.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ARKIT_BLENDSHAPES,
  BONE_TYPE_INFO,
  BONE_TYPES,
  type BoneType,
  buildRig,
  bvh,
  exportBoneType,
  forwardKinematics,
  type MotionClip,
  type Rig,
  type RigClip,
  retarget,
  rigToCanonical,
  rigWorldPositions,
  SUPPORTED_BLENDSHAPES,
} from '../src/index.ts';
import { blenderImportByExtension, blenderPath, blenderResult, randomClip } from './helpers.ts';

const run = promisify(execFile);
const FRAMES = 12;
const FPS = 30;
/** Frames sampled for world positions (0-based clip frames). */
const SAMPLES = [0, 5, 11];
const TOL_M = 0.001;

function assimpPath(): string | null {
  for (const p of ['/usr/bin/assimp', '/usr/local/bin/assimp']) if (existsSync(p)) return p;
  if (process.env.CI === 'true')
    throw new Error('CI=true but assimp is not installed (scripts/system-deps.sh --test)');
  return null;
}

/** A moving clip: smooth random rotations and a travelling root (rotations stay moderate). */
function testClip(): MotionClip {
  const c = randomClip(FRAMES, FPS, 21);
  const weights = new Float32Array(FRAMES * 52);
  for (let f = 0; f < FRAMES; f++)
    for (let k = 0; k < 52; k++) weights[f * 52 + k] = (0.5 + 0.5 * Math.sin(f + k)) * 0.9;
  return {
    ...c,
    blendshapes: { names: ARKIT_BLENDSHAPES, weights, supported: SUPPORTED_BLENDSHAPES },
    metadata: { ...c.metadata, source: 'walk test.mp4' },
  };
}

interface Expect {
  rig: Rig;
  rc: RigClip;
  /** Canonical FK positions `[f][j][3]`. */
  fk: Float32Array;
}

/** Canonical expected position of a rig bone at frame f (metres), or null when the bone is not at a canonical joint. */
function expectedAtJoint(e: Expect, clip: MotionClip, b: number, f: number): [number, number, number] | null {
  const src = e.rig.bones[b].source;
  if (!src) return null;
  const j = clip.skeleton.names.indexOf(src);
  const n = clip.skeleton.names.length;
  const p: [number, number, number] = [
    e.fk[(f * n + j) * 3],
    e.fk[(f * n + j) * 3 + 1],
    e.fk[(f * n + j) * 3 + 2],
  ];
  if (e.rig.rootMotion === 'inPlace') {
    p[0] -= e.fk[f * n * 3] - e.fk[0];
    p[2] -= e.fk[f * n * 3 + 2] - e.fk[2];
  }
  // Only bones that sit on their source joint (some rigs place a bone elsewhere, e.g. R15 UpperTorso at the waist).
  const rw = rigToCanonical(e.rig, rigWorldPositions(e.rc, 0), 3 * b);
  const p0 = [e.fk[j * 3], e.fk[j * 3 + 1], e.fk[j * 3 + 2]];
  if (Math.hypot(rw[0] - p0[0], rw[1] - p0[1], rw[2] - p0[2]) > 1e-5) return null;
  return p;
}

/** Blender inspector: imports each file into an empty scene, prints bones, actions and world joint heads. */
const BLENDER_INSPECTOR = `
import bpy, sys, builtins, json, os
args = sys.argv[sys.argv.index("--") + 1:]
frames = [int(x) for x in args[0].split(',')] if args[0] else []
out = []
for path in args[1:]:${blenderImportByExtension(`    elif ext in ('.glb', '.gltf'):
        bpy.ops.import_scene.gltf(filepath=path)`)}
    sc = bpy.context.scene
    arms = [o for o in sc.objects if o.type == 'ARMATURE']
    res = {"file": path, "fps": sc.render.fps / sc.render.fps_base, "armatures": [a.name for a in arms],
           "objects": [[o.name, o.type, o.parent.name if o.parent else None] for o in sc.objects],
           "actions": [[a.name, list(a.frame_range)] for a in bpy.data.actions], "bones": [], "positions": {}}
    if arms:
        arm = arms[0]
        res["bones"] = [[b.name, b.parent.name if b.parent else None] for b in arm.data.bones]
        for f in frames:
            sc.frame_set(f)
            bpy.context.view_layer.update()
            res["positions"][str(f)] = {pb.name: list(arm.matrix_world @ pb.head) for pb in arm.pose.bones}
    res["shapes"] = {}
    for o in sc.objects:
        if o.type == 'MESH' and o.data.shape_keys:
            kb = o.data.shape_keys.key_blocks
            vals = {}
            for f in frames:
                sc.frame_set(f)
                vals[str(f)] = {k.name: k.value for k in kb}
            res["shapes"][o.name] = vals
    res["meshes"] = [[o.name, len(o.data.vertices), [m.name for m in o.modifiers], len(o.vertex_groups),
                      [img.name for img in bpy.data.images]] for o in sc.objects if o.type == 'MESH']
    out.append(res)
print("RESULT " + json.dumps(out))
`;

const python = async (code: string, ...args: string[]) =>
  (await run('python3', ['-c', code, ...args])).stdout;

describe('bone-type zips read back by independent readers', () => {
  const clip = testClip();
  const fk = forwardKinematics(clip).positions;
  const dir = mkdtempSync(join(tmpdir(), 'mocap-exporters-a-'));
  const zips = new Map<BoneType, string>();
  const expects = new Map<BoneType, Expect>();
  const exportable = [...BONE_TYPES];

  beforeAll(() => {
    for (const bt of exportable) {
      const out = exportBoneType(clip, bt);
      const p = join(dir, out.fileName);
      writeFileSync(p, out.bytes);
      zips.set(bt, p);
      const rigId = BONE_TYPE_INFO[bt].rig;
      if (rigId) {
        const rig = buildRig(rigId, clip.skeleton);
        expects.set(bt, { rig, rc: retarget(clip, rig), fk });
      }
    }
  });

  it('every zip passes Python zipfile CRC checks and holds README.txt and the animation files', async () => {
    for (const bt of exportable) {
      const p = zips.get(bt) as string;
      expect(p.endsWith('.zip')).toBe(true);
      const outDir = join(dir, bt.replace(/[^\w.-]/g, '_'));
      const listing = await python(
        'import sys, zipfile, json\nz = zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nz.extractall(sys.argv[2])\nprint(json.dumps(z.namelist()))',
        p,
        outDir,
      );
      const names = JSON.parse(listing) as string[];
      expect(names).toContain('README.txt');
      const readme = readFileSync(join(outDir, 'README.txt'), 'utf8');
      expect(readme).toContain(`bone type ${bt}`);
      expect(readme).toContain(`Frames: ${FRAMES} at 30 fps`);
      expect(readme).toMatch(/Units: \w+/);
      expect(readme).toMatch(/Axes: /);
      expect(names.some((n) => /\.(fbx|bvh|csm|vmd|anim)$/.test(n))).toBe(true);
      const kind = BONE_TYPE_INFO[bt].character;
      const textures = names.filter((n) => /^textures\/.+\.png$/.test(n));
      if (kind) {
        expect(textures.length, `${bt} texture set`).toBeGreaterThan(0);
        for (const t of textures)
          expect([...readFileSync(join(outDir, t)).subarray(0, 8)]).toEqual([
            137, 80, 78, 71, 13, 10, 26, 10,
          ]);
      } else expect(textures, bt).toEqual([]);
      if (bt === 'OnlyFace')
        for (const ext of ['fbx', 'vmd', 'csv', 'json'])
          expect(
            names.some((n) => n.endsWith(`.${ext}`)),
            ext,
          ).toBe(true);
    }
  });

  it('Blender 3.4 imports every FBX and BVH: bones, hierarchy, fps, frame range and world positions', async () => {
    const blender = blenderPath();
    if (!blender) return;
    const files: { bt: BoneType; file: string }[] = [];
    for (const bt of exportable) {
      const outDir = join(dir, bt.replace(/[^\w.-]/g, '_'));
      if (!existsSync(outDir)) continue;
      for (const f of readdirSync(outDir))
        if (/\.(fbx|bvh)$/.test(f)) files.push({ bt, file: join(outDir, f) });
    }
    expect(files.length).toBeGreaterThan(12);
    const results = await blenderResult<
      {
        file: string;
        fps: number;
        bones: [string, string | null][];
        actions: [string, [number, number]][];
        positions: Record<string, Record<string, [number, number, number]>>;
        shapes: Record<string, Record<string, Record<string, number>>>;
        meshes: [string, number, string[], number, string[]][];
      }[]
    >(
      blender,
      BLENDER_INSPECTOR,
      [SAMPLES.map((f) => f + 1).join(','), ...files.map((f) => f.file)],
      256 << 20,
    );
    expect(results.length).toBe(files.length);
    let compared = 0;
    results.forEach((r, i) => {
      const { bt, file } = files[i];
      const e = expects.get(bt);
      const isBvh = file.endsWith('.bvh');
      expect(r.fps, file).toBeCloseTo(FPS, 6);
      expect(r.actions.length, file).toBeGreaterThanOrEqual(1);
      expect(r.actions[0][1], file).toEqual([1, FRAMES]);
      if (bt === 'OnlyFace') {
        // Face mesh with the ARKit shape keys, animated (DeformPercent → shape key values 0..1).
        const shapes = Object.values(r.shapes)[0];
        expect(shapes, 'OnlyFace shape keys').toBeTruthy();
        const bs = clip.blendshapes;
        if (!bs) throw new Error('no face curves');
        for (const f of SAMPLES)
          for (const name of ['jawOpen', 'eyeBlinkLeft', 'mouthSmileRight']) {
            const k = bs.names.indexOf(name as never);
            expect(shapes[String(f + 1)][name], `${name} f${f}`).toBeCloseTo(bs.weights[f * 52 + k], 4);
          }
        return;
      }
      if (!e) {
        // The canonical bvh bone type: names are the canonical skeleton's.
        expect(r.bones.map((b) => b[0]).sort()).toEqual([...clip.skeleton.names].sort());
        return;
      }
      if (bt === 'BoyFBX' || bt === 'GirlFBX') {
        expect(r.meshes.length, `${bt} meshes`).toBe(1);
        const [, verts, modifiers, groups, images] = r.meshes[0];
        expect(verts).toBeGreaterThan(1000);
        expect(modifiers).toContain('Armature');
        expect(groups).toBeGreaterThan(40);
        expect(
          images.some((i) => i.endsWith('.png')),
          `${bt} texture image`,
        ).toBe(true);
      }
      // FBX of a left-handed rig (UnityAnim) is written on the Mixamo rig.
      const rig = !isBvh && e.rig.axes.handedness === 'left' ? buildRig('mixamo', clip.skeleton) : e.rig;
      const rc = rig === e.rig ? e.rc : retarget(clip, rig);
      const ex: Expect = { rig, rc, fk };
      let want: [string, string | null][];
      if (isBvh) {
        const sk = bvh.rigClipToBvhClip(rc).skeleton;
        want = sk.names.map((n, j) => [n, sk.parents[j] < 0 ? null : sk.names[sk.parents[j]]]);
      } else want = rig.bones.map((b) => [b.name, b.parent]);
      // Blender renames nothing here, but BVH names are written with spaces replaced by '_'.
      const norm = (s: string | null) =>
        s === null ? null : isBvh ? s.replace(/^[^:]*:/, '').replace(/\s+/g, '_') : s;
      expect(r.bones.map(([n, p]) => `${n}<${p}`).sort(), file).toEqual(
        want.map(([n, p]) => `${norm(n)}<${norm(p)}`).sort(),
      );
      for (const f of SAMPLES) {
        const pos = r.positions[String(f + 1)];
        rig.bones.forEach((b, bi) => {
          const exp = expectedAtJoint(ex, clip, bi, f);
          if (!exp) return;
          const got = pos[norm(b.name) as string];
          if (!got) return;
          // Blender: Z up, facing -Y, metres (FBX unit scale applied); BVH files are in centimetres.
          const s = isBvh ? 0.01 : 1;
          const c = [got[0] * s, got[2] * s, -got[1] * s];
          const d = Math.hypot(c[0] - exp[0], c[1] - exp[1], c[2] - exp[2]);
          expect(d, `${file} ${b.name} frame ${f}`).toBeLessThan(TOL_M);
          compared++;
        });
      }
    });
    expect(compared).toBeGreaterThan(1000);
  });

  it('three.js FBXLoader and BVHLoader read every FBX/BVH with the clip duration and world positions', async () => {
    const loaderPath: string = 'three/examples/jsm/loaders/FBXLoader.js';
    const bvhPath: string = 'three/examples/jsm/loaders/BVHLoader.js';
    const threePath: string = 'three';
    // biome-ignore lint/suspicious/noExplicitAny: three.js is untyped here (dev dependency, no @types)
    const { FBXLoader } = (await import(loaderPath)) as any;
    // biome-ignore lint/suspicious/noExplicitAny: as above
    const { BVHLoader } = (await import(bvhPath)) as any;
    // biome-ignore lint/suspicious/noExplicitAny: as above
    const THREE = (await import(threePath)) as any;
    const sanitize = (s: string) => THREE.PropertyBinding.sanitizeNodeName(s);
    // FBXLoader turns embedded textures into <img> elements; plain Node has no DOM, so give it inert ones (the
    // images never load, which does not matter for skeletons, skins and animation).
    const g = globalThis as { document?: unknown };
    const hadDocument = 'document' in g;
    if (!hadDocument)
      g.document = {
        createElementNS: () => ({ addEventListener() {}, removeEventListener() {}, style: {} }),
      };
    let compared = 0;
    let skinned = 0;
    for (const bt of exportable) {
      const outDir = join(dir, bt.replace(/[^\w.-]/g, '_'));
      const e = expects.get(bt);
      if (!e || !existsSync(outDir)) continue;
      for (const f of readdirSync(outDir)) {
        const isBvh = f.endsWith('.bvh');
        if (!isBvh && !f.endsWith('.fbx')) continue;
        const buf = readFileSync(join(outDir, f));
        const rig = !isBvh && e.rig.axes.handedness === 'left' ? buildRig('mixamo', clip.skeleton) : e.rig;
        const ex: Expect = rig === e.rig ? e : { rig, rc: retarget(clip, rig), fk };
        // biome-ignore lint/suspicious/noExplicitAny: three objects
        let root: any;
        // biome-ignore lint/suspicious/noExplicitAny: three objects
        let anim: any;
        let unit: number;
        if (isBvh) {
          const parsed = new BVHLoader().parse(buf.toString('utf8'));
          root = parsed.skeleton.bones[0];
          anim = parsed.clip;
          unit = 100;
        } else {
          root = new FBXLoader().parse(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength), '');
          anim = root.animations[0];
          unit = rig.unitsPerMetre;
          if (bt === 'BoyFBX' || bt === 'GirlFBX') {
            // biome-ignore lint/suspicious/noExplicitAny: three objects
            const meshes: any[] = [];
            // biome-ignore lint/suspicious/noExplicitAny: three objects
            root.traverse((o: any) => {
              if (o.isSkinnedMesh) meshes.push(o);
            });
            expect(meshes.length, `${bt}: skinned character`).toBe(1);
            expect(meshes[0].skeleton.bones.length).toBeGreaterThan(40);
            expect(meshes[0].material.map, `${bt}: textured material`).toBeTruthy();
            skinned++;
          }
        }
        expect(anim, `${bt}/${f}`).toBeTruthy();
        expect(anim.duration, `${bt}/${f}`).toBeCloseTo((FRAMES - 1) / FPS, 4);
        const byName = new Map<string, unknown>();
        // biome-ignore lint/suspicious/noExplicitAny: three objects
        root.traverse((o: any) => {
          if (o.isBone) byName.set(o.name, o);
        });
        const names = isBvh ? bvh.rigClipToBvhClip(ex.rc).skeleton.names : rig.bones.map((b) => b.name);
        const key = (n: string) => (isBvh ? n.replace(/^[^:]*:/, '').replace(/\s+/g, '_') : sanitize(n));
        for (const n of names) expect(byName.has(key(n)), `${bt}/${f}: bone ${n}`).toBe(true);
        const mixer = new THREE.AnimationMixer(root);
        mixer.clipAction(anim).play();
        for (const fr of SAMPLES) {
          mixer.setTime(fr / FPS);
          root.updateMatrixWorld(true);
          rig.bones.forEach((b, bi) => {
            const exp = expectedAtJoint(ex, clip, bi, fr);
            // biome-ignore lint/suspicious/noExplicitAny: three objects
            const bone = byName.get(key(b.name)) as any;
            if (!exp || !bone) return;
            const v = bone.getWorldPosition(new THREE.Vector3());
            // three: Y up (Z-up files are rotated to Y up), file units.
            const d = Math.hypot(v.x / unit - exp[0], v.y / unit - exp[1], v.z / unit - exp[2]);
            expect(d, `${bt}/${f} ${b.name} frame ${fr}`).toBeLessThan(TOL_M);
            compared++;
          });
        }
      }
    }
    if (!hadDocument) delete g.document;
    expect(compared).toBeGreaterThan(1000);
    expect(skinned).toBe(2);
  });

  it('assimp info loads every FBX and BVH and finds one animation', async () => {
    const assimp = assimpPath();
    if (!assimp) return;
    let n = 0;
    for (const bt of exportable) {
      const outDir = join(dir, bt.replace(/[^\w.-]/g, '_'));
      if (!existsSync(outDir)) continue;
      for (const f of readdirSync(outDir)) {
        if (!/\.(fbx|bvh)$/.test(f)) continue;
        const { stdout } = await run(assimp, ['info', join(outDir, f)], { maxBuffer: 64 * 1024 * 1024 });
        expect(stdout, `${bt}/${f}`).toMatch(/Animations:\s+1\b/);
        const nodes = Number(/Nodes:\s+(\d+)/.exec(stdout)?.[1]);
        expect(nodes, `${bt}/${f}`).toBeGreaterThan(15);
        n++;
      }
    }
    expect(n).toBeGreaterThan(12);
  });
});
