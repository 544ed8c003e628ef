/**
 * Object storage: the same tests on local disk and on the S3 adapter (against s3rver, a real S3-compatible server
 * from npm, started in `s3-server.ts`), a multipart upload over the single-PUT size, plus signed-token specifics.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LocalStorage,
  type ObjectStorage,
  S3Storage,
  StorageGrantError,
  StorageNotFoundError,
  StorageTooLargeError,
  sign,
  TokenError,
  verify,
} from '../src/infra/storage/index.ts';
import { S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, type S3TestServer, startS3Server } from './s3-server.ts';

const SECRET = 'x'.repeat(40);
let dir: string;
let stub: S3TestServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mocap-st-'));
  stub = await startS3Server();
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await stub.close();
});

/** An S3 storage on the s3rver test server, under `prefix` when given. */
const s3Storage = (prefix?: string) =>
  new S3Storage({
    bucket: stub.bucket,
    region: 'us-east-1',
    endpoint: stub.url,
    accessKeyId: S3_ACCESS_KEY_ID,
    secretAccessKey: S3_SECRET_ACCESS_KEY,
    ...(prefix === undefined ? {} : { prefix }),
    secret: SECRET,
  });

const impls: { name: string; make: () => ObjectStorage }[] = [
  {
    name: 'local disk',
    make: () =>
      new LocalStorage({ root: join(dir, 'files'), secret: SECRET, publicUrl: 'http://127.0.0.1:9' }),
  },
  {
    name: 'S3 (s3rver)',
    make: () => s3Storage('pfx/'),
  },
];

for (const impl of impls) {
  describe(impl.name, () => {
    let s: ObjectStorage;
    beforeAll(() => {
      s = impl.make();
    });

    it('stores bytes, strings, streams and files, and reads them back', async () => {
      expect((await s.put('a/one.bin', new Uint8Array([1, 2, 3]))).size).toBe(3);
      await s.put('a/two.txt', 'héllo', { contentType: 'text/plain' });
      await s.put('a/three.bin', Readable.from([Buffer.from('ab'), Buffer.from('cd')]));
      const f = join(dir, 'src.bin');
      writeFileSync(f, Buffer.alloc(1000, 7));
      await s.putFile('b/file.bin', f);
      expect([...(await s.getBytes('a/one.bin'))]).toEqual([1, 2, 3]);
      expect((await s.getBytes('a/two.txt')).toString('utf8')).toBe('héllo');
      expect((await s.getBytes('a/three.bin')).toString()).toBe('abcd');
      const chunks: Buffer[] = [];
      for await (const c of await s.get('b/file.bin')) chunks.push(c as Buffer);
      expect(Buffer.concat(chunks).equals(Buffer.alloc(1000, 7))).toBe(true);
      expect((await s.stat('b/file.bin'))?.size).toBe(1000);
      const out = join(dir, 'dl', impl.name.replace(/\W/g, ''), 'x.bin');
      await s.download('a/three.bin', out);
      expect(readdirSync(join(out, '..'))).toContain('x.bin');
    });

    it('reports absent objects and deletes single objects and prefixes', async () => {
      await s.put('del/1', 'a');
      await s.put('del/sub/2', 'b');
      await s.put('keep/3', 'c');
      expect(await s.exists('del/1')).toBe(true);
      expect(await s.stat('missing/x')).toBeNull();
      await expect(s.getBytes('missing/x')).rejects.toBeInstanceOf(StorageNotFoundError);
      await expect(s.get('missing/x')).rejects.toBeInstanceOf(StorageNotFoundError);
      await s.delete('del/1');
      await s.delete('del/1'); // absent is fine
      expect(await s.exists('del/1')).toBe(false);
      expect(await s.deletePrefix('del')).toBe(1);
      expect(await s.exists('del/sub/2')).toBe(false);
      expect(await s.exists('keep/3')).toBe(true);
    });

    it('refuses unsafe keys', async () => {
      for (const k of ['../etc/passwd', 'a/../b', '/abs', 'a//b', 'sp ace', '', 'a/./b']) {
        await expect(s.put(k, 'x'), k).rejects.toThrow(/bad storage key/);
      }
    });

    it('stores nothing when a body is over the size limit', async () => {
      await expect(s.put('big/bytes', Buffer.alloc(11), { maxBytes: 10 })).rejects.toBeInstanceOf(
        StorageTooLargeError,
      );
      const stream = Readable.from([Buffer.alloc(6), Buffer.alloc(6)]);
      await expect(s.put('big/stream', stream, { maxBytes: 10 })).rejects.toBeInstanceOf(
        StorageTooLargeError,
      );
      expect(await s.exists('big/bytes')).toBe(false);
      expect(await s.exists('big/stream')).toBe(false);
      if (s instanceof LocalStorage) expect(readdirSync(join(dir, 'files', '.tmp'))).toEqual([]);
    });

    it('issues upload credentials shaped as the spec describes, bound to key and owner', async () => {
      const c = await s.uploadCredentials({
        key: 'up/v.mp4',
        owner: 42,
        maxBytes: 1000,
        contentType: 'video/mp4',
      });
      expect(Object.keys(c.credentials).sort()).toEqual(['sessionToken', 'tmpSecretId', 'tmpSecretKey']);
      expect(c.expiredTime - c.startTime).toBe(1800);
      expect(c.key).toBe('up/v.mp4');
      expect(c.method).toBe('PUT');
      const g = s.verifyUploadGrant(c.credentials.sessionToken);
      expect(g).toMatchObject({ key: 'up/v.mp4', owner: '42', maxBytes: 1000, contentType: 'video/mp4' });
      const forged = `${Buffer.from(JSON.stringify({ id: 'x', k: 'up/other', o: '1', m: 1e9, exp: 9e9 })).toString('base64url')}.${c.credentials.sessionToken.split('.')[1]}`;
      expect(() => s.verifyUploadGrant(forged)).toThrow(StorageGrantError);
      if (s instanceof S3Storage) {
        // The pre-signed PUT stores the object directly in the bucket.
        const r = await fetch(c.uploadUrl, { method: 'PUT', headers: c.headers, body: Buffer.from('mp4!') });
        expect(r.status).toBe(200);
        expect((await s.getBytes('up/v.mp4')).toString()).toBe('mp4!');
      }
    });
  });
}

describe('S3 multipart', () => {
  it('a file over the single-PUT size (8 MiB) goes up in parts and reads back byte for byte', async () => {
    const s = s3Storage('mp/');
    const size = 12 * 1024 * 1024 + 333;
    const bytes = Buffer.alloc(size);
    for (let i = 0; i + 4 <= size; i += 4) bytes.writeUInt32LE((i * 2654435761) >>> 0, i);
    const f = join(dir, 'big.bin');
    writeFileSync(f, bytes);
    const before = stub.requests.length;
    expect((await s.putFile('big/file.bin', f)).size).toBe(size);
    const reqs = stub.requests.slice(before).filter((q) => q.path.endsWith('/mp/big/file.bin'));
    // CreateMultipartUpload, at least two UploadPart, CompleteMultipartUpload; no single PutObject.
    expect(reqs.filter((q) => q.method === 'POST' && q.query.includes('uploads')).length).toBe(1);
    expect(
      reqs.filter((q) => q.method === 'PUT' && q.query.includes('partNumber=')).length,
    ).toBeGreaterThanOrEqual(2);
    expect(reqs.filter((q) => q.method === 'POST' && q.query.includes('uploadId=')).length).toBe(1);
    expect(reqs.filter((q) => q.method === 'PUT' && !q.query.includes('partNumber=')).length).toBe(0);
    expect((await s.stat('big/file.bin'))?.size).toBe(size);
    expect((await s.getBytes('big/file.bin')).equals(bytes)).toBe(true);
    expect(await stub.keys()).toContain('mp/big/file.bin');
    // A stream over the limit mid-way stores nothing (the multipart upload is aborted).
    await expect(
      s.put('big/limited.bin', Readable.from([bytes]), { maxBytes: 10 * 1024 * 1024 }),
    ).rejects.toBeInstanceOf(StorageTooLargeError);
    expect(await s.exists('big/limited.bin')).toBe(false);
    await s.close();
  });
});

describe('signed URLs', () => {
  it('local: tokens carry key, name and expiry; tampering and expiry are refused', async () => {
    const s = new LocalStorage({
      root: join(dir, 'files2'),
      secret: SECRET,
      publicUrl: 'https://mocap.example',
    });
    const url = await s.signedUrl('videos/1/Mixamo.zip', { expiresInS: 60, fileName: 'walk Mixamo.zip' });
    expect(url.startsWith('https://mocap.example/product/files?token=')).toBe(true);
    const token = new URL(url).searchParams.get('token')!;
    const p = s.verifyDownloadToken(token);
    expect(p.k).toBe('videos/1/Mixamo.zip');
    expect(p.fn).toBe('walk Mixamo.zip');
    expect(p.exp - Math.floor(Date.now() / 1000)).toBeGreaterThan(55);
    const [body, mac] = token.split('.');
    const other = Buffer.from(JSON.stringify({ ...p, k: 'videos/2/Mixamo.zip' })).toString('base64url');
    expect(() => s.verifyDownloadToken(`${other}.${mac}`)).toThrow(TokenError);
    expect(() => s.verifyDownloadToken(`${body}.${mac}x`)).toThrow(TokenError);
    const expired = sign(SECRET, 'storage-download', { k: 'a', exp: Math.floor(Date.now() / 1000) - 1 });
    expect(() => s.verifyDownloadToken(expired)).toThrow(/expired/);
    // A token for one purpose is not valid for another.
    const t = sign(SECRET, 'storage-upload', { k: 'a', exp: 9e9 });
    expect(() => verify(SECRET, 'storage-download', t)).toThrow(TokenError);
  });

  it('local: a URL asked again within its expiry step is the same URL, valid at least as long as asked', async () => {
    const s = new LocalStorage({ root: join(dir, 'files3'), secret: SECRET });
    const a = await s.signedUrl('videos/1/source.mp4', { expiresInS: 3600, contentType: 'video/mp4' });
    const b = await s.signedUrl('videos/1/source.mp4', { expiresInS: 3600, contentType: 'video/mp4' });
    const nowS = Math.floor(Date.now() / 1000);
    const exp = (u: string) => s.verifyDownloadToken(new URL(u, 'http://x').searchParams.get('token')!).exp;
    // Equal unless the 60 s step turned between the two calls (then the second is one step later).
    expect(exp(b) - exp(a)).toBeLessThanOrEqual(60);
    if (exp(a) === exp(b)) expect(b).toBe(a);
    expect(exp(a) % 60).toBe(0);
    expect(exp(a)).toBeGreaterThanOrEqual(nowS + 3600 - 1);
    expect(exp(a)).toBeLessThanOrEqual(nowS + 3600 + 60);
    // Other key, name or type: another token.
    const other = [
      await s.signedUrl('videos/2/source.mp4', { expiresInS: 3600, contentType: 'video/mp4' }),
      await s.signedUrl('videos/1/source.mp4', { expiresInS: 3600 }),
      await s.signedUrl('videos/1/source.mp4', {
        expiresInS: 3600,
        fileName: 'a.mp4',
        contentType: 'video/mp4',
      }),
    ];
    for (const u of other) expect(u).not.toBe(a);
    const p = s.verifyDownloadToken(new URL(other[2]!, 'http://x').searchParams.get('token')!);
    expect(p).toMatchObject({ k: 'videos/1/source.mp4', fn: 'a.mp4', ct: 'video/mp4' });
    // Short lifetimes use short steps: a 5 s URL is valid 5 to 6 s.
    const short = exp(await s.signedUrl('videos/1/source.mp4', { expiresInS: 5 }));
    expect(short - Math.floor(Date.now() / 1000)).toBeGreaterThanOrEqual(4);
    expect(short - nowS).toBeLessThanOrEqual(7);
    // Bad keys are still refused (also when a good key was memoised).
    await expect(s.signedUrl('../etc/passwd', { expiresInS: 3600 })).rejects.toThrow(/bad storage key/);
  });

  it('S3: pre-signed GET URLs download the object, with the file name, until they expire', async () => {
    const s = s3Storage();
    await s.put('z/m.zip', 'zipbytes');
    const url = await s.signedUrl('z/m.zip', { expiresInS: 60, fileName: 'walk Mixamo.zip' });
    expect(url).toContain('X-Amz-Signature=');
    expect(url).toContain('X-Amz-Expires=60');
    const r = await fetch(url);
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('zipbytes');
    expect(r.headers.get('content-disposition')).toContain("filename*=UTF-8''walk%20Mixamo.zip");
    const old = await s.signedUrl('z/m.zip', { expiresInS: 1 });
    const stale = old.replace(/X-Amz-Date=\d{8}T\d{6}Z/, 'X-Amz-Date=20200101T000000Z');
    expect((await fetch(stale)).status).toBe(403);
    expect(stub.requests.every((q) => q.signed !== 'none')).toBe(true);
    await s.close();
  });
});
