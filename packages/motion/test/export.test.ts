/**
 * Bone-type packaging: the zip writer (checked with Python's zipfile), exportBoneType / exportFormat behaviour
 * (file names, contents, lower-body variant, root motion, errors) and the `mocap convert --bone-type/--format` CLI.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  ARKIT_BLENDSHAPES,
  BONE_TYPE_INFO,
  BONE_TYPES,
  bvh,
  crc32,
  EXPORT_FORMATS,
  exportBoneType,
  exportFormat,
  isBoneType,
  type MotionClip,
  zip,
} from '../src/index.ts';
import { mocap, randomClip, walkTracksFile } from './helpers.ts';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'mocap-export-'));

/** Python zipfile listing: name → [compress_type, file_size, CRC ok, bytes as latin-1 when small]. */
async function pyZip(
  bytes: Uint8Array,
): Promise<{ names: string[]; info: Record<string, [number, number]>; texts: Record<string, string> }> {
  const file = join(dir, `z${Math.random().toString(36).slice(2)}.zip`);
  writeFileSync(file, bytes);
  const code = `
import sys, zipfile, json
z = zipfile.ZipFile(sys.argv[1])
assert z.testzip() is None
out = {"names": z.namelist(), "info": {i.filename: [i.compress_type, i.file_size] for i in z.infolist()},
       "texts": {n: z.read(n).decode('utf8') for n in z.namelist() if n.endswith(('.txt', '.bvh', '.csm', '.csv', '.json', '.anim')) and z.getinfo(n).file_size < 4000000}}
print(json.dumps(out))`;
  const { stdout } = await run('python3', ['-c', code, file], { maxBuffer: 256 << 20 });
  return JSON.parse(stdout);
}

function faceClip(frames = 12): MotionClip {
  const c = randomClip(frames, 30, 4);
  const weights = new Float32Array(frames * 52);
  for (let i = 0; i < weights.length; i++) weights[i] = (i % 7) / 7;
  return {
    ...c,
    blendshapes: { names: ARKIT_BLENDSHAPES, weights, supported: ARKIT_BLENDSHAPES },
    metadata: { ...c.metadata, source: 'My Dance #1.mov' },
  };
}

describe('zip writer', () => {
  it('crc32 matches the standard check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });

  it('deflates compressible entries, stores the rest, UTF-8 names, identical bytes for identical input', async () => {
    const big = 'hello motion\n'.repeat(1000);
    const png = Uint8Array.from({ length: 300 }, (_, i) => (i * 7919) % 256);
    const entries = [
      { name: 'README.txt', data: big },
      { name: 'textures/boy.png', data: png, store: true },
      { name: 'モーション/説明.txt', data: 'ダンス' },
    ];
    const a = zip(entries);
    expect(zip(entries)).toEqual(a);
    const z = await pyZip(a);
    expect(z.names).toEqual(['README.txt', 'textures/boy.png', 'モーション/説明.txt']);
    expect(z.info['README.txt']).toEqual([8, big.length]);
    expect(z.info['textures/boy.png']).toEqual([0, 300]);
    expect(z.texts['README.txt']).toBe(big);
    expect(z.texts['モーション/説明.txt']).toBe('ダンス');
    expect(a.length).toBeLessThan(big.length / 5);
  });

  it('rejects unsafe or duplicate names', () => {
    for (const name of ['../evil.txt', '/abs.txt', 'a\\b.txt', 'a//b.txt', 'C:/x.txt', ''])
      expect(() => zip([{ name, data: 'x' }]), name).toThrow(/bad entry name/);
    expect(() =>
      zip([
        { name: 'a.txt', data: 'x' },
        { name: 'a.txt', data: 'y' },
      ]),
    ).toThrow(/duplicate/);
  });
});

describe('exportBoneType', () => {
  const clip = faceClip();

  it('has the 15 display names of the spec, each with a rig or a file plan', () => {
    // Checked against the text, not the code: the bone-type table of docs/exporters.md (the spec's names, in order).
    const doc = readFileSync(new URL('../../../docs/exporters.md', import.meta.url), 'utf8');
    const table = doc.slice(doc.indexOf('\n## Bone types\n')).split('\n\n')[1].split('\n');
    expect(table[0]).toMatch(/^\| Bone type \|/);
    const documented = table.slice(2).map((row) => row.split('|')[1].trim());
    expect(documented).toHaveLength(15);
    expect([...BONE_TYPES]).toEqual(documented);
    for (const bt of BONE_TYPES) {
      expect(isBoneType(bt)).toBe(true);
      expect(BONE_TYPE_INFO[bt].files.length, bt).toBeGreaterThan(0);
      expect(BONE_TYPE_INFO[bt].steps.length, bt).toBeGreaterThan(0);
    }
    expect(isBoneType('Unreal6')).toBe(false);
  });

  it('names zips <source>_<bone type>.zip and fills them with the planned files and a README', async () => {
    const expected: Record<string, string[]> = {
      Unreal4: ['My_Dance_1.fbx', 'textures/ue4_basecolor.png', 'README.txt'],
      Mixamo: ['My_Dance_1.fbx', 'My_Dance_1.bvh', 'README.txt'],
      'CC&iClone': ['My_Dance_1.fbx', 'My_Dance_1.bvh', 'README.txt'],
      RobloxR15: ['My_Dance_1.fbx', 'textures/roblox_basecolor.png', 'README.txt'],
      'VMD-TDA': ['My_Dance_1.vmd', 'README.txt'],
      UnityAnim: ['My_Dance_1.anim', 'My_Dance_1.fbx', 'textures/boy_basecolor.png', 'README.txt'],
      CS: ['My_Dance_1.csm', 'README.txt'],
      bvh: ['My_Dance_1.bvh', 'README.txt'],
    };
    for (const [bt, files] of Object.entries(expected)) {
      const out = exportBoneType(clip, bt as 'Mixamo');
      expect(out.fileName).toBe(`My_Dance_1_${bt.replace('&', '_').replace('.', '_')}.zip`);
      const z = await pyZip(out.bytes);
      expect(z.names, bt).toEqual(files);
      const readme = z.texts['README.txt'];
      expect(readme).toContain(`bone type ${bt}`);
      expect(readme).toMatch(/Frames: 12 at 30 fps \(0\.40 s\)/);
      expect(readme).toMatch(/Import:\r\n {2}1\. /);
    }
    const u55 = await pyZip(exportBoneType(clip, 'Unreal5.5').bytes);
    const u56 = await pyZip(exportBoneType(clip, 'Unreal5.6').bytes);
    expect(u55.names).toEqual(['My_Dance_1.fbx', 'textures/ue5_basecolor.png', 'README.txt']);
    expect(u56.texts['README.txt']).toContain('5.6');
    expect(u55.texts['README.txt']).toContain('5.5');
  });

  it('character bone types embed the textures and reference them under textures/', async () => {
    const out = exportBoneType(clip, 'GirlFBX');
    const z = await pyZip(out.bytes);
    expect(z.names).toEqual(['My_Dance_1.fbx', 'textures/girl_basecolor.png', 'README.txt']);
    const file = join(dir, 'girl.zip');
    writeFileSync(file, out.bytes);
    const { stdout } = await run('python3', [
      '-c',
      'import sys, zipfile\nb = zipfile.ZipFile(sys.argv[1]).read("My_Dance_1.fbx")\nprint(b.count(b"textures/girl_basecolor.png"), b.count(b"\\x89PNG"), len(b))',
      file,
    ]);
    const [refs, pngs, size] = stdout.trim().split(' ').map(Number);
    expect(refs).toBeGreaterThanOrEqual(2); // Video RelativeFilename + Texture FileName
    expect(pngs).toBe(1); // embedded Content
    expect(size).toBeGreaterThan(100_000);
  });

  it('README states rig, units and axes per target', async () => {
    const ue = (await pyZip(exportBoneType(clip, 'Unreal4').bytes)).texts['README.txt'];
    expect(ue).toContain('Units: centimetres');
    expect(ue).toContain('Axes: +Z up, character faces -Y, right-handed');
    expect(ue).toContain('68 bones, rest pose A with arms 45° down');
    const r15 = (await pyZip(exportBoneType(clip, 'RobloxR15').bytes)).texts['README.txt'];
    expect(r15).toContain('Units: studs (1 stud = 28 cm)');
    expect(r15).toMatch(/Root motion: muted/);
    const mmd = (await pyZip(exportBoneType(clip, 'VMD-TDA').bytes)).texts['README.txt'];
    expect(mmd).toContain('MMD units (1 unit = 8 cm)');
    expect(mmd).toContain('left-handed');
    const cs = (await pyZip(exportBoneType(clip, 'CS').bytes)).texts['README.txt'];
    expect(cs).toContain('Units: millimetres');
  });

  it('lowerBodyOnly: the BVH keeps the upper body at rest and the README says so', async () => {
    const full = await pyZip(exportBoneType(clip, 'Mixamo').bytes);
    const lower = await pyZip(exportBoneType(clip, 'Mixamo', { lowerBodyOnly: true }).bytes);
    expect(lower.texts['README.txt']).toContain('Lower body only');
    const f = bvh.read(full.texts['My_Dance_1.bvh']);
    const l = bvh.read(lower.texts['My_Dance_1.bvh']);
    const chan = (d: typeof f, joint: string, frame: number) => {
      const j = d.joints.find((x) => x.name === joint);
      if (!j) throw new Error(joint);
      return Array.from(
        d.motion.subarray(
          frame * d.channelCount + j.channelOffset,
          frame * d.channelCount + j.channelOffset + 3,
        ),
      );
    };
    // Spine: zero rotation relative to the hips' T-pose frame in every frame; legs as in the full export.
    for (const fr of [2, 9]) {
      for (const v of chan(l, 'Spine', fr)) expect(Math.abs(v)).toBeLessThan(1e-3);
      expect(chan(l, 'LeftUpLeg', fr)).toEqual(chan(f, 'LeftUpLeg', fr));
    }
    expect(chan(f, 'Spine', 9).some((v) => Math.abs(v) > 1)).toBe(true);
  });

  it('rootMotion moves the Unreal root bone and says so in the README', async () => {
    const still = await pyZip(exportBoneType(clip, 'Unreal4').bytes);
    const moving = await pyZip(exportBoneType(clip, 'Unreal4', { rootMotion: true }).bytes);
    expect(still.texts['README.txt']).toContain('root stays at the origin; pelvis carries the travel');
    expect(moving.texts['README.txt']).toContain('root follows the character over the floor');
    const ue = exportFormat(clip, 'fbx', { boneType: 'Unreal4', rootMotion: true });
    const plain = exportFormat(clip, 'fbx', { boneType: 'Unreal4' });
    // One more translation curve node (root T) when the root moves.
    const count = (b: Uint8Array) =>
      Buffer.from(b).toString('latin1').split('T\u0000\u0001AnimCurveNode').length - 1;
    expect(count(ue.bytes)).toBe(count(plain.bytes) + 1);
  });

  it('OnlyFace needs face curves; other bad input gets clear errors', () => {
    const noFace: MotionClip = { ...clip, blendshapes: undefined };
    expect(() => exportBoneType(noFace, 'OnlyFace')).toThrow(/no face curves/);
    expect(() => exportBoneType(clip, 'Unreal6' as 'Unreal4')).toThrow(/unknown bone type "Unreal6"/);
    const empty: MotionClip = {
      ...clip,
      frameCount: 0,
      rotations: new Float32Array(0),
      rootPositions: new Float32Array(0),
    };
    expect(() => exportBoneType(empty, 'Mixamo')).toThrow(/no frames/);
  });

  it('exportFormat writes one file per format, on the bone type rig when given', async () => {
    for (const f of EXPORT_FORMATS) {
      const out = exportFormat(clip, f, { name: 'take' });
      expect(out.fileName).toBe(`take.${f}`);
      expect(out.bytes.length, f).toBeGreaterThan(100);
    }
    const ue = exportFormat(clip, 'bvh', { boneType: 'Unreal4' });
    const doc = bvh.read(new TextDecoder().decode(ue.bytes));
    expect(doc.joints[0].name).toBe('pelvis');
    expect(() => exportFormat(clip, 'fbx', { boneType: 'VMD-TDA' })).toThrow(/left-handed/);
    expect(() => exportFormat(clip, 'obj' as 'fbx')).toThrow(/unknown format/);
  });
});

describe('mocap convert --bone-type / --format', () => {
  const input = walkTracksFile(dir, 30);

  it('writes a bone-type zip and a single FBX on a bone type rig', async () => {
    const zipOut = join(dir, 'out', 'walk.zip');
    const r = await mocap('convert', input, '--bone-type', 'CC&iClone', '-o', zipOut, '--lower-body');
    expect(r.stderr).toMatch(/30 frames at 30\.000 fps/);
    const z = await pyZip(readFileSync(zipOut));
    expect(z.names).toEqual(['walk_tracks.fbx', 'walk_tracks.bvh', 'README.txt']);
    expect(z.texts['README.txt']).toContain('Lower body only');
    const fbxOut = join(dir, 'out', 'walk.fbx');
    await mocap('convert', input, '--format', 'fbx', '--bone-type', 'Unreal4', '-o', fbxOut);
    const b = readFileSync(fbxOut);
    expect(b.subarray(0, 18).toString('latin1')).toBe('Kaydara FBX Binary');
    expect(b.includes(Buffer.from('ik_foot_root'))).toBe(true);
  });

  it('rejects unknown bone types, formats and mismatched extensions with exit code 2', async () => {
    for (const [args, msg] of [
      [['--bone-type', 'Unreal6', '-o', join(dir, 'x.zip')], /--bone-type must be one of Unreal4/],
      [['--format', 'obj', '-o', join(dir, 'x.obj')], /--format must be one of fbx/],
      [['--format', 'fbx', '-o', join(dir, 'x.zip')], /-o must end in \.fbx/],
      [['--bone-type', 'Mixamo', '-o', join(dir, 'x.bvh')], /-o must end in \.zip/],
    ] as [string[], RegExp][]) {
      const err = (await mocap('convert', input, ...args).catch((e) => e)) as {
        code: number;
        stderr: string;
      };
      expect(err.code, args.join(' ')).toBe(2);
      expect(err.stderr).toMatch(msg);
    }
  });
});
