/**
 * FBX document reader (binary 6100–7700, 32- and 64-bit records, zlib arrays; ASCII 6.x/7.x): the node tree only,
 * `{ name, props, children }`, as both encodings describe it. Strings keep FBX's "Name\x00\x01Class" (binary) or
 * "Class::Name" (ASCII) forms; `objectName` reads either. Meaning (models, geometry, skins) is in `fbx-scene.ts`.
 */
import * as zlib from 'node:zlib';

export type FbxProp = number | bigint | string | boolean | Uint8Array | ArrayLike<number>;

export interface FbxNode {
  name: string;
  props: FbxProp[];
  children: FbxNode[];
}

export class FbxParseError extends Error {}

const MAGIC = 'Kaydara FBX Binary  \0';

/** True when the bytes start like a binary FBX. */
export function isBinaryFbx(b: Uint8Array): boolean {
  if (b.length < 27) return false;
  for (let i = 0; i < MAGIC.length; i++) if (b[i] !== MAGIC.charCodeAt(i)) return false;
  return true;
}

/** True when the bytes look like an ASCII FBX (a `FBXHeaderExtension` or `Objects` block near the start). */
export function isAsciiFbx(b: Uint8Array): boolean {
  const head = new TextDecoder('latin1').decode(b.subarray(0, Math.min(b.length, 4096)));
  return /^\s*(;[^\n]*\n\s*)*FBXHeaderExtension\s*:/m.test(head) || /\bFBXVersion\s*:\s*\d+/.test(head);
}

export function parseFbx(bytes: Uint8Array): { version: number; root: FbxNode } {
  if (isBinaryFbx(bytes)) return parseBinary(bytes);
  if (isAsciiFbx(bytes)) return parseAscii(new TextDecoder('utf-8').decode(bytes));
  throw new FbxParseError('not an FBX file');
}

// ------------------------------------------------------------------ binary

function parseBinary(b: Uint8Array): { version: number; root: FbxNode } {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const version = dv.getUint32(23, true);
  const wide = version >= 7500;
  const latin = new TextDecoder('utf-8');
  let pos = 27;
  const u64 = (o: number) => Number(dv.getBigUint64(o, true));
  const readNode = (): FbxNode | null => {
    if (pos + (wide ? 25 : 13) > b.length) throw new FbxParseError('FBX: truncated node record');
    const end = wide ? u64(pos) : dv.getUint32(pos, true);
    const nProps = wide ? u64(pos + 8) : dv.getUint32(pos + 4, true);
    pos += wide ? 24 : 12;
    const nameLen = b[pos];
    pos += 1;
    if (end === 0) return null;
    if (end > b.length || end < pos) throw new FbxParseError('FBX: node end offset out of range');
    const name = latin.decode(b.subarray(pos, pos + nameLen));
    pos += nameLen;
    const props: FbxProp[] = [];
    for (let i = 0; i < nProps; i++) props.push(readProp());
    const children: FbxNode[] = [];
    while (pos < end) {
      const c = readNode();
      if (!c) break;
      children.push(c);
    }
    pos = end;
    return { name, props, children };
  };
  const readArray = (type: string): ArrayLike<number> => {
    const len = dv.getUint32(pos, true);
    const enc = dv.getUint32(pos + 4, true);
    const clen = dv.getUint32(pos + 8, true);
    pos += 12;
    if (pos + clen > b.length) throw new FbxParseError('FBX: array out of range');
    let raw = b.subarray(pos, pos + clen);
    pos += clen;
    if (enc === 1) raw = new Uint8Array(zlib.inflateSync(raw));
    const size = type === 'd' || type === 'l' ? 8 : type === 'b' ? 1 : 4;
    if (raw.length < len * size) throw new FbxParseError('FBX: short array');
    const copy = new Uint8Array(raw.subarray(0, len * size)); // aligned copy
    switch (type) {
      case 'f':
        return new Float32Array(copy.buffer);
      case 'd':
        return new Float64Array(copy.buffer);
      case 'i':
        return new Int32Array(copy.buffer);
      case 'l': {
        const big = new BigInt64Array(copy.buffer);
        return Float64Array.from(big, (v) => Number(v));
      }
      default:
        return copy;
    }
  };
  const readProp = (): FbxProp => {
    const t = String.fromCharCode(b[pos]);
    pos += 1;
    /** The offset of the next `n` bytes, which are skipped. */
    const take = (n: number) => {
      pos += n;
      return pos - n;
    };
    switch (t) {
      case 'Y':
        return dv.getInt16(take(2), true);
      case 'C':
        return b[take(1)] !== 0;
      case 'I':
        return dv.getInt32(take(4), true);
      case 'F':
        return dv.getFloat32(take(4), true);
      case 'D':
        return dv.getFloat64(take(8), true);
      case 'L':
        return dv.getBigInt64(take(8), true);
      case 'S': {
        const n = dv.getUint32(take(4), true);
        const at = take(n);
        return latin.decode(b.subarray(at, at + n));
      }
      case 'R': {
        const n = dv.getUint32(take(4), true);
        const at = take(n);
        return b.subarray(at, at + n);
      }
      case 'f':
      case 'd':
      case 'l':
      case 'i':
      case 'b':
        return readArray(t);
      default:
        throw new FbxParseError(`FBX: unknown property type "${t}" at ${pos - 1}`);
    }
  };
  const root: FbxNode = { name: '', props: [], children: [] };
  while (pos < b.length - 13) {
    const n = readNode();
    if (!n) break;
    root.children.push(n);
  }
  return { version, root };
}

// ------------------------------------------------------------------ ASCII

function parseAscii(text: string): { version: number; root: FbxNode } {
  let i = 0;
  const n = text.length;
  const skipWs = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 59 /* ; */) {
        while (i < n && text[i] !== '\n') i++;
      } else if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const skipInline = () => {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\r')) i++;
  };
  const readValue = (): FbxProp => {
    skipInline();
    const c = text[i];
    if (c === '"') {
      const end = text.indexOf('"', i + 1);
      if (end < 0) throw new FbxParseError('FBX ASCII: unterminated string');
      const s = text.slice(i + 1, end);
      i = end + 1;
      return s;
    }
    let j = i;
    while (j < n && !',{}\n\r'.includes(text[j])) j++;
    const tok = text.slice(i, j).trim();
    i = j;
    if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(tok)) return Number(tok);
    if (tok === 'T' || tok === 'Y') return true;
    if (tok === 'F' || tok === 'N') return false;
    return tok;
  };
  const readNumbers = (): number[] => {
    // "a: 1,2,3" possibly over several lines, until "}".
    const end = text.indexOf('}', i);
    if (end < 0) throw new FbxParseError('FBX ASCII: unterminated array');
    let body = text.slice(i, end).trim();
    i = end + 1;
    if (body.startsWith('a:')) body = body.slice(2);
    if (!body.trim()) return [];
    return body.split(',').map((s) => Number(s.trim()));
  };
  const readNode = (): FbxNode | null => {
    skipWs();
    if (i >= n || text[i] === '}') return null;
    const colon = text.indexOf(':', i);
    if (colon < 0) throw new FbxParseError('FBX ASCII: expected "Name:"');
    const name = text.slice(i, colon).trim();
    if (!/^[A-Za-z_][\w|]*$/.test(name))
      throw new FbxParseError(`FBX ASCII: bad node name "${name.slice(0, 40)}"`);
    i = colon + 1;
    const props: FbxProp[] = [];
    const children: FbxNode[] = [];
    skipInline();
    if (text[i] === '*') {
      // Array: *N { a: ... }
      while (i < n && text[i] !== '{') i++;
      i++;
      props.push(Float64Array.from(readNumbers()));
      return { name, props, children };
    }
    while (i < n) {
      skipInline();
      const c = text[i];
      if (c === '\n' || c === undefined) break;
      if (c === '{') break;
      if (c === ',') {
        i++;
        // A value list may continue on the next line after a trailing comma.
        skipWs();
        continue;
      }
      props.push(readValue());
    }
    skipInline();
    if (text[i] === '{') {
      i++;
      for (;;) {
        skipWs();
        if (i >= n) throw new FbxParseError('FBX ASCII: unexpected end of file');
        if (text[i] === '}') {
          i++;
          break;
        }
        const c = readNode();
        if (c) children.push(c);
      }
    }
    return { name, props, children };
  };
  const root: FbxNode = { name: '', props: [], children: [] };
  for (;;) {
    skipWs();
    if (i >= n) break;
    const node = readNode();
    if (!node) break;
    root.children.push(node);
  }
  const hdr = root.children.find((c) => c.name === 'FBXHeaderExtension');
  const ver = hdr?.children.find((c) => c.name === 'FBXVersion')?.props[0];
  return { version: typeof ver === 'number' ? ver : 7400, root };
}

// ------------------------------------------------------------------ helpers

export const child = (n: FbxNode | undefined, name: string): FbxNode | undefined =>
  n?.children.find((c) => c.name === name);
export const childrenNamed = (n: FbxNode | undefined, name: string): FbxNode[] =>
  n ? n.children.filter((c) => c.name === name) : [];

/** "Hips\x00\x01Model" or "Model::Hips" → "Hips". */
export function objectName(s: FbxProp | undefined): string {
  if (typeof s !== 'string') return '';
  const bin = s.indexOf('\x00\x01');
  if (bin >= 0) return s.slice(0, bin);
  const asc = s.indexOf('::');
  if (asc >= 0) return s.slice(asc + 2);
  return s;
}

export function num(p: FbxProp | undefined): number {
  if (typeof p === 'number') return p;
  if (typeof p === 'bigint') return Number(p);
  if (typeof p === 'boolean') return p ? 1 : 0;
  return Number.NaN;
}

export function arr(n: FbxNode | undefined): ArrayLike<number> {
  const p = n?.props[0];
  if (p && typeof p === 'object' && 'length' in p) return p as ArrayLike<number>;
  return [];
}

/** Properties70 (7.x) or Properties60 (6.x) as name → values. */
export function properties(n: FbxNode | undefined): Map<string, FbxProp[]> {
  const out = new Map<string, FbxProp[]>();
  const p = child(n, 'Properties70') ?? child(n, 'Properties60');
  if (!p) return out;
  for (const c of p.children) {
    if (c.name !== 'P' && c.name !== 'Property') continue;
    const key = c.props[0];
    if (typeof key !== 'string') continue;
    // P: name, type, subtype, flags, values... (7.x); Property: name, type, flags, values... (6.x)
    out.set(key, c.props.slice(c.name === 'P' ? 4 : 3));
  }
  return out;
}
