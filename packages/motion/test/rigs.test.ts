/**
 * Rigs as data: our Mixamo, UE4 and R15 files name and nest their bones exactly like the real files in
 * shared/testdata/formats (read with fbx2json's decoder, the pure-Python FBX parser shipped with Blender), and each
 * rig's own facts from rigs.md (counts, parents, axes, rest pose, bone-local axes) hold.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRig, fbx, RIG_IDS, type Rig, restClip, retarget } from '../src/index.ts';
import { axesBasis } from '../src/rigs/build.ts';
import { createSkeleton } from '../src/skeleton.ts';
import { fbx2json, haveFbx2Json, SHARED } from './helpers.ts';

const FORMATS = join(SHARED, 'testdata', 'formats');

/** Python: skeleton Models (LimbNode/Root) of a binary FBX with their skeleton parent (null above the skeleton). */
const SKELETON_PY = `
models = {}
for e in objs.elems:
    if e.id == b'Model':
        name = e.props[1].split(b'\\x00\\x01')[0].decode('utf8')
        models[e.props[0]] = (name, e.props[2].decode('utf8'))
parent = {}
for c in conns.elems:
    # Only Model -> Model links: skinned bones are also children of their Cluster deformers.
    if c.props[0] == b'OO' and c.props[1] in models and c.props[2] in models:
        parent[c.props[1]] = c.props[2]
out = []
for mid, (name, typ) in models.items():
    if typ not in ('LimbNode', 'Root'):
        continue
    p = parent.get(mid)
    pn = models[p][0] if p in models and models[p][1] in ('LimbNode', 'Root') else None
    out.append([name, pn])
print(json.dumps(out))
`;

const fbxSkeleton = (file: string) => fbx2json<[string, string | null][]>(SKELETON_PY, file);

if (!haveFbx2Json && process.env.CI === 'true')
  throw new Error('CI=true but Blender (fbx2json.py) is not installed');

describe('our skeletons match the real files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mocap-rigs-'));
  const skeleton = createSkeleton();
  const ours = async (rig: Rig): Promise<[string, string | null][]> => {
    const file = join(dir, `${rig.id}.fbx`);
    writeFileSync(file, fbx.write(retarget(restClip(skeleton, 2, 30), rig)));
    return fbxSkeleton(file);
  };
  const cases: [string, string, string][] = [
    ['mixamo', 'fbx_mixamo/Jumping.fbx', 'Mixamo "Jumping" download (65 mixamorig: bones)'],
    ['mixamo', 'fbx_mixamo/Samba_Dancing_with_skin.fbx', 'Mixamo "Samba Dancing" download with skin'],
    ['ue4', 'fbx_unreal/SK_Mannequin.FBX', 'UE4 SK_Mannequin (root + 67 bones)'],
    ['r15', 'fbx_roblox/R15_Block.fbx', 'official Roblox R15 Block rig (17 nodes)'],
  ];
  for (const [id, file, what] of cases) {
    it.skipIf(!haveFbx2Json)(`${id}: same bone names and parents as the ${what} (${file})`, async () => {
      const real = await fbxSkeleton(join(FORMATS, file));
      const mine = await ours(buildRig(id as 'mixamo', skeleton));
      const fmt = (s: [string, string | null][]) => s.map(([n, p]) => `${n} < ${p}`).sort();
      expect(real.length).toBeGreaterThan(15);
      expect(fmt(mine)).toEqual(fmt(real));
    });
  }
  it.skipIf(!haveFbx2Json)(
    'the real R15 Rthro rig has the same 17-node skeleton as the Block rig (and ours)',
    async () => {
      const real = await fbxSkeleton(join(FORMATS, 'fbx_roblox/R15_Rthro_Normal.fbx'));
      const mine = buildRig('r15', skeleton).bones.map((b) => `${b.name} < ${b.parent}`);
      expect(real.map(([n, p]) => `${n} < ${p}`).sort()).toEqual(mine.sort());
    },
  );
});

/** Python: rest world axes (columns of the world rotation, file axes) of named Models, from Lcl/PreRotation. */
const AXES_PY = `
models = {}
for e in objs.elems:
    if e.id == b'Model':
        props = {}
        for c in e.elems:
            if c.id == b'Properties70':
                for p in c.elems: props[p.props[0].decode()] = p.props[4:]
        models[e.props[0]] = (e.props[1].split(b'\\x00\\x01')[0].decode().split(':')[-1], props)
parent = {c.props[1]: c.props[2] for c in conns.elems if c.props[0] == b'OO' and c.props[1] in models and c.props[2] in models}
def R(e):
    a, b, c = [math.radians(x) for x in e]
    rx = [[1,0,0],[0,math.cos(a),-math.sin(a)],[0,math.sin(a),math.cos(a)]]
    ry = [[math.cos(b),0,math.sin(b)],[0,1,0],[-math.sin(b),0,math.cos(b)]]
    rz = [[math.cos(c),-math.sin(c),0],[math.sin(c),math.cos(c),0],[0,0,1]]
    return mm(rz, mm(ry, rx))
def mm(a, b): return [[sum(a[i][k]*b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
world = {}
def W(m):
    if m not in world:
        props = models[m][1]
        l = mm(R(props.get('PreRotation', (0, 0, 0))), R(props.get('Lcl Rotation', (0, 0, 0))))
        world[m] = mm(W(parent[m]), l) if m in parent else l
    return world[m]
want = set(sys.argv[3].split(','))
print(json.dumps({n: W(m) for m, (n, _) in models.items() if n in want}))
`;

const restAxes = (file: string, names: string[]) =>
  fbx2json<Record<string, number[][]>>(AXES_PY, file, names.join(','));

describe('our bone-local axes follow the real rigs (rest orientations)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mocap-axes-'));
  const skeleton = createSkeleton();
  const cases: [string, string, string[]][] = [
    [
      'ue4',
      'fbx_unreal/SK_Mannequin.FBX',
      'pelvis spine_01 spine_03 neck_01 head clavicle_l upperarm_l lowerarm_l hand_l index_01_l thumb_01_l thigh_l calf_l foot_l ball_l upperarm_r lowerarm_r hand_r middle_02_r thigh_r calf_r foot_r ball_r'.split(
        ' ',
      ),
    ],
    [
      'mixamo',
      'fbx_mixamo/Jumping.fbx',
      'Hips Spine Spine2 Neck Head LeftShoulder LeftArm LeftForeArm LeftHand LeftHandIndex1 LeftHandThumb1 LeftUpLeg LeftLeg LeftFoot LeftToeBase RightArm RightForeArm RightHand RightUpLeg RightFoot'.split(
        ' ',
      ),
    ],
  ];
  for (const [id, file, names] of cases) {
    it.skipIf(!haveFbx2Json)(
      `${id}: every local axis of the main bones within 40° of ${file} (same conventions)`,
      async () => {
        const mine = join(dir, `${id}.fbx`);
        writeFileSync(mine, fbx.write(retarget(restClip(skeleton, 2, 30), buildRig(id as 'ue4', skeleton))));
        const real = await restAxes(join(FORMATS, file), names);
        const ours = await restAxes(mine, names);
        for (const n of names) {
          expect(real[n], n).toBeTruthy();
          for (let k = 0; k < 3; k++) {
            const dot = [0, 1, 2].reduce((s, r) => s + real[n][r][k] * ours[n][r][k], 0);
            const deg = (Math.acos(Math.max(-1, Math.min(1, dot))) * 180) / Math.PI;
            expect(deg, `${id} ${n} axis ${'XYZ'[k]}`).toBeLessThan(40);
          }
        }
      },
    );
  }
});

describe('rig facts (rigs.md)', () => {
  const skeleton = createSkeleton();
  const rig = (id: (typeof RIG_IDS)[number]) => buildRig(id, skeleton);
  const parentOf = (r: Rig, name: string) => r.bones.find((b) => b.name === name)?.parent;

  it('bone counts: Mixamo 65, UE4 68, UE5 89 core, R15 17, every rig one top bone with parents first', () => {
    expect(rig('mixamo').bones.length).toBe(65);
    expect(rig('ue4').bones.length).toBe(68);
    expect(rig('ue5').bones.length).toBe(89);
    expect(rig('r15').bones.length).toBe(17);
    for (const id of RIG_IDS) {
      const r = rig(id);
      const seen = new Set<string>();
      r.bones.forEach((b, i) => {
        if (i === 0) expect(b.parent).toBeNull();
        else expect(seen.has(b.parent as string), `${id} ${b.name}`).toBe(true);
        seen.add(b.name);
      });
      expect(new Set(r.bones.map((b) => b.name)).size).toBe(r.bones.length);
    }
  });

  it('UE5 adds spine_04/05, neck_02, metacarpals, second twist bones, interaction and center_of_mass', () => {
    const r = rig('ue5');
    expect(parentOf(r, 'spine_05')).toBe('spine_04');
    expect(parentOf(r, 'neck_02')).toBe('neck_01');
    expect(parentOf(r, 'head')).toBe('neck_02');
    expect(parentOf(r, 'clavicle_l')).toBe('spine_05');
    expect(parentOf(r, 'index_metacarpal_l')).toBe('hand_l');
    expect(parentOf(r, 'index_01_l')).toBe('index_metacarpal_l');
    expect(parentOf(r, 'thumb_01_l')).toBe('hand_l');
    expect(parentOf(r, 'upperarm_twist_02_l')).toBe('upperarm_l');
    expect(parentOf(r, 'calf_twist_02_r')).toBe('calf_r');
    expect(parentOf(r, 'interaction')).toBe('root');
    expect(parentOf(r, 'center_of_mass')).toBe('root');
    expect(r.bones.some((b) => /corrective|Cor_|_fwd_|_bck_/.test(b.name))).toBe(false);
  });

  it('Biped: Bip001 names with L/R tokens, thighs under the first spine link, clavicles under the neck', () => {
    const r = rig('biped');
    expect(r.bones[0].name).toBe('Bip001');
    expect(parentOf(r, 'Bip001 L Thigh')).toBe('Bip001 Spine');
    expect(parentOf(r, 'Bip001 R Clavicle')).toBe('Bip001 Neck');
    expect(parentOf(r, 'Bip001 L Finger0')).toBe('Bip001 L Hand');
    expect(parentOf(r, 'Bip001 L Finger02')).toBe('Bip001 L Finger01');
    expect(parentOf(r, 'Bip001 HeadNub')).toBe('Bip001 Head');
  });

  it('CC: CC_Base_ names, Mid fingers, twist/share helpers never keyed', () => {
    const r = rig('cc');
    expect(parentOf(r, 'CC_Base_Hip')).toBe('CC_Base_BoneRoot');
    expect(parentOf(r, 'CC_Base_L_Mid1')).toBe('CC_Base_L_Hand');
    const rc = retarget(restClip(skeleton, 2, 30), r);
    r.bones.forEach((b, i) => {
      if (/(arm|Thigh|Calf)Twist|ShareBone/.test(b.name)) expect(rc.keyed[i], b.name).toBe(0);
    });
  });

  it('MMD: センター, グルーブ, leg IK bones follow the ankles and toes; left-handed basis', () => {
    const r = rig('mmd');
    for (const n of [
      '全ての親',
      'センター',
      'グルーブ',
      '上半身',
      '上半身2',
      '下半身',
      '左足ＩＫ',
      '右つま先ＩＫ',
      '左親指０',
      '右小指３',
    ])
      expect(
        r.bones.some((b) => b.name === n),
        n,
      ).toBe(true);
    expect(r.bones.find((b) => b.name === '左足ＩＫ')?.follows).toBe('左足首');
    const B = r.basis;
    const det =
      B[0] * (B[4] * B[8] - B[5] * B[7]) -
      B[1] * (B[3] * B[8] - B[5] * B[6]) +
      B[2] * (B[3] * B[7] - B[4] * B[6]);
    expect(det).toBeCloseTo(-1, 12);
  });

  it('axis bases: Mixamo identity, UE/Biped/CC Z up facing -Y, Unity left-handed with the right on +X', () => {
    expect(axesBasis({ up: '+Y', front: '+Z', handedness: 'right' })).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
    // canonical left (+X) stays +X, up (+Y) → +Z, front (+Z) → -Y
    expect(axesBasis({ up: '+Z', front: '-Y', handedness: 'right' }).map((v) => v + 0)).toEqual([
      1, 0, 0, 0, 0, -1, 0, 1, 0,
    ]);
    // Unity: the character's left goes to -X
    expect(axesBasis({ up: '+Y', front: '+Z', handedness: 'left' }).map((v) => v + 0)).toEqual([
      -1, 0, 0, 0, 1, 0, 0, 0, 1,
    ]);
    expect(() => axesBasis({ up: '+Y', front: '-Y', handedness: 'right' })).toThrow(/up and front/);
  });

  it('rest poses: UE4 A-pose arms 45° down, R15 arms hanging, Mixamo T-pose (from the bind world positions)', () => {
    const armAngle = (r: Rig, upper: string, hand: string) => {
      const w = fbx.restWorld(r);
      const i = r.bones.findIndex((b) => b.name === upper);
      const h = r.bones.findIndex((b) => b.name === hand);
      // Back to canonical axes (Y up).
      const B = r.basis;
      const d = [0, 1, 2].map((k) => w.pos[h][k] - w.pos[i][k]);
      const c = [0, 1, 2].map((k) => B[k] * d[0] + B[3 + k] * d[1] + B[6 + k] * d[2]);
      return (Math.atan2(-c[1], Math.abs(c[0])) * 180) / Math.PI;
    };
    expect(armAngle(rig('ue4'), 'upperarm_l', 'hand_l')).toBeCloseTo(45, 6);
    expect(armAngle(rig('ue5'), 'upperarm_r', 'hand_r')).toBeCloseTo(45, 6);
    expect(armAngle(rig('mixamo'), 'mixamorig:LeftArm', 'mixamorig:LeftHand')).toBeCloseTo(0, 6);
    expect(armAngle(rig('r15'), 'LeftUpperArm', 'LeftHand')).toBeCloseTo(90, 6);
    expect(armAngle(rig('mmd'), '左腕', '左手首')).toBeCloseTo(37, 6);
  });

  it('bone-local axes: UE ±X down the bones (sign per chain), Mixamo/CC +Y down every bone', () => {
    const downAxis = (r: Rig, bone: string) => {
      const b = r.bones.find((x) => x.name === bone);
      if (!b) throw new Error(bone);
      const t = b.restTranslation;
      const l = Math.hypot(t[0], t[1], t[2]);
      return t.map((v) => Math.round(v / l)).join(',');
    };
    expect(downAxis(rig('ue4'), 'lowerarm_l')).toBe('1,0,0');
    expect(downAxis(rig('ue4'), 'lowerarm_r')).toBe('-1,0,0');
    // UE legs are the other way round: -X down the left leg, +X down the right one (as in SK_Mannequin).
    expect(downAxis(rig('ue4'), 'calf_l')).toBe('-1,0,0');
    expect(downAxis(rig('ue4'), 'calf_r')).toBe('1,0,0');
    expect(downAxis(rig('ue5'), 'spine_03')).toBe('1,0,0');
    expect(downAxis(rig('mixamo'), 'mixamorig:LeftForeArm')).toBe('0,1,0');
    expect(downAxis(rig('mixamo'), 'mixamorig:RightLeg')).toBe('0,1,0');
    expect(downAxis(rig('cc'), 'CC_Base_R_Calf')).toBe('0,1,0');
    expect(downAxis(rig('biped'), 'Bip001 L Calf')).toBe('1,0,0');
    // Identity-oriented rigs keep the rig axes: the R15 lower leg hangs straight down (-Y).
    expect(downAxis(rig('r15'), 'LeftLowerLeg')).toBe('0,-1,0');
  });

  it('a rig built on a finger-less skeleton still has every finger bone (placed from the reference hand)', () => {
    const sk = createSkeleton(undefined, { fingers: false });
    const r = buildRig('mixamo', sk);
    expect(r.bones.length).toBe(65);
    const rc = retarget(restClip(sk, 3, 30), r);
    const i = r.bones.findIndex((b) => b.name === 'mixamorig:LeftHandIndex2');
    expect(r.bones[i].source).toBeNull();
    expect(rc.keyed[i]).toBe(1);
  });
});
