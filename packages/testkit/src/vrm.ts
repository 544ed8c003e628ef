/**
 * VRM avatars for tests, made from a CC0 glTF character: testdata holds no VRM file we may use (the VRM sample
 * avatars are Git-LFS pointers or under licences that do not allow copying), so the Quaternius "Ultimate Modular
 * Men" GLB (CC0) gets the VRM humanoid table written into it, the way an exporter (UniVRM, the VRM add-on for
 * Blender) would:
 * - VRM 1.0: `VRMC_vrm` with `specVersion` 1.0, `meta` (name, authors, the VRM licence, CC0 as the other licence),
 *   `humanoid.humanBones`
 *   (role → `{ node }`); the model faces +Z.
 * - VRM 0.x: `VRM` with `meta` (title, author, `licenseName` CC0), `humanoid.humanBones` (an array of
 *   `{ bone, node }`); the model is turned to face -Z (a new top node rotated 180° about Y), as VRM 0.x files do.
 * Bytes in, bytes out; the geometry, skins and materials are untouched.
 */

/** VRM humanoid roles of the Quaternius modular rig (node names); thumbs by VRM version. */
export function quaterniusVrmBones(version: '0' | '1'): Record<string, string> {
  const roles: Record<string, string> = {
    hips: 'Hips',
    spine: 'Abdomen',
    chest: 'Torso',
    upperChest: 'Chest',
    neck: 'Neck',
    head: 'Head',
  };
  for (const [side, s] of [
    ['left', 'L'],
    ['right', 'R'],
  ]) {
    Object.assign(roles, {
      [`${side}Shoulder`]: `Shoulder.${s}`,
      [`${side}UpperArm`]: `UpperArm.${s}`,
      [`${side}LowerArm`]: `LowerArm.${s}`,
      [`${side}Hand`]: `Hand.${s}`,
      [`${side}UpperLeg`]: `UpperLeg.${s}`,
      [`${side}LowerLeg`]: `LowerLeg.${s}`,
      [`${side}Foot`]: `Foot.${s}`,
    });
    for (const [vrm, q] of [
      ['Index', 'Index'],
      ['Middle', 'Middle'],
      ['Ring', 'Ring'],
      ['Little', 'Pinky'],
    ]) {
      roles[`${side}${vrm}Proximal`] = `${q}2.${s}`;
      roles[`${side}${vrm}Intermediate`] = `${q}3.${s}`;
      roles[`${side}${vrm}Distal`] = `${q}4.${s}`;
    }
    // Two thumb joints: VRM 1.0 proximal/distal (metacarpal is optional), VRM 0.x intermediate/distal.
    roles[`${side}Thumb${version === '1' ? 'Proximal' : 'Intermediate'}`] = `Thumb2.${s}`;
    roles[`${side}ThumbDistal`] = `Thumb3.${s}`;
  }
  return roles;
}

function readGlb(glb: Uint8Array): { json: Record<string, unknown>; bin: Uint8Array } {
  const dv = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  if (dv.getUint32(0, true) !== 0x46546c67) throw new Error('not a GLB');
  const jl = dv.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jl)));
  const bl = dv.getUint32(20 + jl, true);
  return { json, bin: glb.subarray(28 + jl, 28 + jl + bl) };
}

function writeGlb(json: unknown, bin: Uint8Array): Uint8Array {
  let js = new TextEncoder().encode(JSON.stringify(json));
  const jp = (4 - (js.length % 4)) % 4;
  if (jp) {
    const padded = new Uint8Array(js.length + jp).fill(0x20);
    padded.set(js);
    js = padded;
  }
  const bp = (4 - (bin.length % 4)) % 4;
  const total = 12 + 8 + js.length + 8 + bin.length + bp;
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0x46546c67, true);
  dv.setUint32(4, 2, true);
  dv.setUint32(8, total, true);
  dv.setUint32(12, js.length, true);
  dv.setUint32(16, 0x4e4f534a, true);
  out.set(js, 20);
  const o = 20 + js.length;
  dv.setUint32(o, bin.length + bp, true);
  dv.setUint32(o + 4, 0x004e4942, true);
  out.set(bin, o + 8);
  return out;
}

/** A VRM (0.x or 1.0) from a GLB character and its humanoid table (role → node name). */
export function vrmFromGlb(
  glb: Uint8Array,
  version: '0' | '1',
  humanBones: Record<string, string>,
  title = 'Quaternius Modular Man (CC0)',
): Uint8Array {
  const { json, bin } = readGlb(glb);
  const nodes = json.nodes as { name?: string; children?: number[] }[];
  const node = (n: string) => {
    const i = nodes.findIndex((x) => x.name === n);
    if (i < 0) throw new Error(`no node "${n}" for the VRM humanoid`);
    return i;
  };
  const used = new Set((json.extensionsUsed as string[] | undefined) ?? []);
  const ext = (json.extensions as Record<string, unknown> | undefined) ?? {};
  if (version === '1') {
    used.add('VRMC_vrm');
    ext.VRMC_vrm = {
      specVersion: '1.0',
      meta: {
        name: title,
        version: '1',
        authors: ['Quaternius'],
        // VRM 1.0 names its own licence here; the asset's CC0 goes in otherLicenseUrl.
        licenseUrl: 'https://vrm.dev/licenses/1.0/',
        otherLicenseUrl: 'https://creativecommons.org/publicdomain/zero/1.0/',
        avatarPermission: 'everyone',
        commercialUsage: 'corporation',
        allowRedistribution: true,
        modification: 'allowModificationRedistribution',
      },
      humanoid: {
        humanBones: Object.fromEntries(Object.entries(humanBones).map(([r, n]) => [r, { node: node(n) }])),
      },
    };
  } else {
    used.add('VRM');
    ext.VRM = {
      exporterVersion: '@mocap/testkit',
      specVersion: '0.0',
      meta: { title, version: '1', author: 'Quaternius', licenseName: 'CC0' },
      humanoid: {
        humanBones: Object.entries(humanBones).map(([bone, n]) => ({
          bone,
          node: node(n),
          useDefaultValues: true,
        })),
      },
    };
    // VRM 0.x faces -Z: the scene's top nodes under one node turned half round the vertical.
    const scenes = json.scenes as { nodes: number[] }[];
    const sc = scenes[(json.scene as number | undefined) ?? 0];
    nodes.push({ name: 'VRM0_Facing', rotation: [0, 1, 0, 0], children: sc.nodes } as never);
    sc.nodes = [nodes.length - 1];
  }
  json.extensionsUsed = [...used];
  json.extensions = ext;
  return writeGlb(json, bin);
}
