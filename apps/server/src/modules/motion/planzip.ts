/**
 * Zips per plan (issue 15.4): a bone type's zip may hold files of more than one format (Mixamo, C4D, CC&iClone and
 * BIP carry a BVH beside the FBX; UnityAnim an FBX beside the .anim). A plan gets only the formats it allows: the
 * others are left out of the zip it downloads (README and textures stay).
 */
import { inflateRawSync } from 'node:zlib';
import { type FormatFamily, zip } from '@mocap/motion';

export interface ZipFile {
  name: string;
  data: Uint8Array;
}

/** The files of a zip (stored or deflated entries; what our writer and most tools make). */
export function readZip(bytes: Uint8Array): ZipFile[] {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = b.length - 22; i >= Math.max(0, b.length - 65_557); i--)
    if (b.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  if (eocd < 0) throw new Error('not a zip file (no end of central directory)');
  const count = b.readUInt16LE(eocd + 10);
  let p = b.readUInt32LE(eocd + 16);
  const files: ZipFile[] = [];
  for (let k = 0; k < count; k++) {
    if (b.readUInt32LE(p) !== 0x02014b50) throw new Error('corrupt zip central directory');
    const method = b.readUInt16LE(p + 10);
    const compSize = b.readUInt32LE(p + 20);
    const nameLen = b.readUInt16LE(p + 28);
    const extraLen = b.readUInt16LE(p + 30);
    const commentLen = b.readUInt16LE(p + 32);
    const local = b.readUInt32LE(p + 42);
    const name = b.toString('utf8', p + 46, p + 46 + nameLen);
    const start = local + 30 + b.readUInt16LE(local + 26) + b.readUInt16LE(local + 28);
    const raw = b.subarray(start, start + compSize);
    let data: Uint8Array;
    if (method === 0) data = raw;
    else if (method === 8) data = inflateRawSync(raw);
    else throw new Error(`zip entry ${name}: compression method ${method} not supported`);
    files.push({ name, data });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return files;
}

const FAMILY_OF_EXT: Record<string, FormatFamily> = {
  fbx: 'fbx',
  bvh: 'bvh',
  vmd: 'vmd',
  anim: 'anim',
  csm: 'csm',
  bip: 'bip',
};

/** The motion format of a file in a zip by its extension (null: README, textures and the like). */
export function familyOf(name: string): FormatFamily | null {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  return FAMILY_OF_EXT[ext] ?? null;
}

/**
 * The zip without the motion files whose format `allowed` refuses; `null` when nothing had to go (serve the stored
 * zip as it is).
 */
export function zipForPlan(
  bytes: Uint8Array,
  allowed: (f: FormatFamily) => boolean,
): { bytes: Uint8Array; dropped: string[] } | null {
  const files = readZip(bytes);
  const dropped = files.filter((f) => {
    const fam = familyOf(f.name);
    return fam !== null && !allowed(fam);
  });
  if (dropped.length === 0) return null;
  const kept = files.filter((f) => !dropped.includes(f));
  return { bytes: zip(kept), dropped: dropped.map((f) => f.name) };
}
