/**
 * Password encryption for login/register/reset (spec §5: "public-key encrypted before sending").
 * RSA-OAEP with SHA-256 against the server's SPKI PEM public key, ciphertext in base64.
 *
 * WebCrypto does it when the page runs in a secure context (https or localhost). On plain http from another
 * host browsers hide `crypto.subtle`, so the same scheme is implemented here with BigInt as a fallback
 * (`encryptOaepFallback`, tested against node's `privateDecrypt`). Only the random seed needs the platform
 * (`crypto.getRandomValues`, available everywhere).
 */

export function pemToDer(pem: string): Uint8Array<ArrayBuffer> {
  const b64 = pem.replace(/-----(BEGIN|END)[^-]+-----/g, '').replace(/\s+/g, '');
  if (!b64) throw new Error('empty public key');
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** Encrypts `text` (UTF-8) for the holder of `pem`'s private key; base64 ciphertext. */
export async function encryptPassword(text: string, pem: string): Promise<string> {
  const der = pemToDer(pem);
  const data = new TextEncoder().encode(text);
  const subtle = globalThis.crypto?.subtle;
  if (subtle) {
    const key = await subtle.importKey('spki', der, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, [
      'encrypt',
    ]);
    return toBase64(new Uint8Array(await subtle.encrypt({ name: 'RSA-OAEP' }, key, data)));
  }
  return toBase64(encryptOaepFallback(data, der));
}

// ---------- fallback: ASN.1, SHA-256, OAEP, modular exponentiation ----------

interface Tlv {
  tag: number;
  start: number;
  end: number;
}

function readTlv(b: Uint8Array, pos: number): Tlv {
  const tag = b[pos];
  let len = b[pos + 1];
  let start = pos + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + b[pos + 2 + i];
    start += n;
  }
  if (start + len > b.length) throw new Error('malformed public key');
  return { tag, start, end: start + len };
}

/** Modulus and exponent of an SPKI (or PKCS#1 RSAPublicKey) DER. */
export function parseRsaPublicKey(der: Uint8Array): { n: bigint; e: bigint; k: number } {
  let seq = readTlv(der, 0);
  if (seq.tag !== 0x30) throw new Error('malformed public key');
  let first = readTlv(der, seq.start);
  if (first.tag === 0x30) {
    // SPKI: AlgorithmIdentifier, then BIT STRING holding RSAPublicKey.
    const bits = readTlv(der, first.end);
    if (bits.tag !== 0x03) throw new Error('malformed public key');
    seq = readTlv(der, bits.start + 1);
    first = readTlv(der, seq.start);
  }
  const exp = readTlv(der, first.end);
  const big = (t: Tlv) => {
    let v = 0n;
    for (let i = t.start; i < t.end; i++) v = (v << 8n) | BigInt(der[i]);
    return v;
  };
  const n = big(first);
  let k = 0;
  for (let v = n; v > 0n; v >>= 8n) k++;
  return { n, e: big(exp), k };
}

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

export function sha256(msg: Uint8Array): Uint8Array {
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const bitLen = msg.length * 8;
  const padded = new Uint8Array(((msg.length + 9 + 63) >> 6) << 6);
  padded.set(msg);
  padded[msg.length] = 0x80;
  const dv = new DataView(padded.buffer);
  dv.setUint32(padded.length - 4, bitLen >>> 0);
  dv.setUint32(padded.length - 8, Math.floor(bitLen / 2 ** 32));
  const w = new Uint32Array(64);
  const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < padded.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = dv.getUint32(off + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + S1 + ch + K[i] + w[i]) >>> 0;
      const S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
  }
  const out = new Uint8Array(32);
  const ov = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) ov.setUint32(4 * i, h[i]);
  return out;
}

function mgf1(seed: Uint8Array, len: number): Uint8Array {
  const out = new Uint8Array(len);
  const buf = new Uint8Array(seed.length + 4);
  buf.set(seed);
  for (let counter = 0, pos = 0; pos < len; counter++) {
    new DataView(buf.buffer).setUint32(seed.length, counter);
    const d = sha256(buf);
    out.set(d.subarray(0, Math.min(32, len - pos)), pos);
    pos += 32;
  }
  return out;
}

function modPow(base: bigint, exp: bigint, mod: bigint): bigint {
  let r = 1n;
  base %= mod;
  while (exp > 0n) {
    if (exp & 1n) r = (r * base) % mod;
    base = (base * base) % mod;
    exp >>= 1n;
  }
  return r;
}

/** RSAES-OAEP-ENCRYPT (RFC 8017 §7.1.1) with SHA-256 and MGF1-SHA-256, empty label. */
export function encryptOaepFallback(
  message: Uint8Array,
  der: Uint8Array,
  random: (n: number) => Uint8Array = (n) => globalThis.crypto.getRandomValues(new Uint8Array(n)),
): Uint8Array {
  const { n, e, k } = parseRsaPublicKey(der);
  const hLen = 32;
  if (message.length > k - 2 * hLen - 2) throw new Error('message too long for the key');
  const db = new Uint8Array(k - hLen - 1);
  db.set(sha256(new Uint8Array(0)));
  db[k - hLen - 1 - message.length - 1] = 0x01;
  db.set(message, k - hLen - 1 - message.length);
  const seed = random(hLen);
  const dbMask = mgf1(seed, db.length);
  for (let i = 0; i < db.length; i++) db[i] ^= dbMask[i];
  const seedMask = mgf1(db, hLen);
  const em = new Uint8Array(k);
  for (let i = 0; i < hLen; i++) em[1 + i] = seed[i] ^ seedMask[i];
  em.set(db, 1 + hLen);
  let m = 0n;
  for (const byte of em) m = (m << 8n) | BigInt(byte);
  let c = modPow(m, e, n);
  const out = new Uint8Array(k);
  for (let i = k - 1; i >= 0; i--) {
    out[i] = Number(c & 0xffn);
    c >>= 8n;
  }
  return out;
}
