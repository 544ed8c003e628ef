/**
 * Issue 25, spec §7 "Storage": POST /file/upload and POST /file/write/ext (content checks, size limits, the key
 * scheme uploadZM/<random id>.<extension of the content>) and signed downloads optionally converted to webp
 * (converted once with sharp, kept, refreshed when the original changes), on SQLite and PostgreSQL with local
 * storage, and on S3 storage (s3rver).
 */
import type { DownloadCredentials } from '@mocap/contracts';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { Codes } from '../src/errors.ts';
import { FILE_LIMITS, tooLarge, WRONG_FORMAT } from '../src/modules/file/service.ts';
import { databases, type TestServer, useServer } from './harness.ts';
import { S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, startS3Server } from './s3-server.ts';
import { multipart } from './video-helpers.ts';

interface FileView {
  id: number;
  key: string;
  url: string;
  kind: string;
  purpose: string;
  contentType: string;
  size: number;
  width: number | null;
  height: number | null;
  name: string;
}
interface Signed {
  key: string;
  url: string;
  contentType: string;
  cached: boolean;
  expiresAt: number;
}

const png = (w: number, h: number, color = { r: 200, g: 40, b: 90 }) =>
  sharp({ create: { width: w, height: h, channels: 3, background: color } })
    .png()
    .toBuffer();
/** Incompressible pixels: a PNG of about w*h*3 bytes. */
const noisePng = (w: number, h: number) => {
  const raw = Buffer.alloc(w * h * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24;
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
};

/** Fetches a signed URL: the app's own /product/files (local storage) in process, S3 over HTTP. */
async function fetchSigned(
  t: TestServer,
  url: string,
): Promise<{ status: number; type: string; body: Buffer }> {
  if (url.startsWith('http://') && !url.includes('/product/files')) {
    const res = await fetch(url);
    return {
      status: res.status,
      type: res.headers.get('content-type') ?? '',
      body: Buffer.from(await res.arrayBuffer()),
    };
  }
  const u = new URL(url, 'http://x');
  const res = await t.app.inject({ method: 'GET', url: u.pathname + u.search });
  return { status: res.statusCode, type: String(res.headers['content-type']), body: res.rawPayload };
}

function uploader(t: TestServer) {
  return async (
    token: string,
    file: { filename: string; data: Buffer },
    purpose?: string,
  ): Promise<{ code: number; message: string; data: FileView }> => {
    const form = multipart([
      ...(purpose ? [{ name: 'purpose', value: purpose }] : []),
      { name: 'file', file },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/product/file/upload',
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...form.headers },
      payload: form.payload,
    });
    return res.json();
  };
}

const KEY = /^uploadZM\/[0-9a-f]{32}\.(png|jpg|gif|webp|txt|json|csv|md|srt)$/;

describe.each(databases)('file uploads and webp downloads on %s', (kind) => {
  const t = useServer(kind);
  let n = 0;
  const user = () => t.register(`files-${++n}-${kind}@example.com`);

  it('stores an image under uploadZM/<random id>.<ext of its content> and serves the same bytes', async () => {
    const a = await user();
    const upload = uploader(t);
    const img = await png(64, 48);
    const r = await upload(a.token, { filename: 'My Avatar.PNG', data: img }, 'avatar');
    expect(r.code, r.message).toBe(0);
    expect(r.data.key).toMatch(KEY);
    expect(r.data).toMatchObject({
      kind: 'image',
      purpose: 'avatar',
      contentType: 'image/png',
      size: img.length,
      width: 64,
      height: 48,
      name: 'My Avatar.PNG',
    });
    const got = await fetchSigned(t, r.data.url);
    expect(got.status).toBe(200);
    expect(got.type).toBe('image/png');
    expect(got.body.equals(img)).toBe(true);
    // The name never decides: a JPEG called .png is stored as .jpg; two uploads never share a key.
    const jpg = await sharp(img).jpeg().toBuffer();
    const r2 = await upload(a.token, { filename: 'fake.png', data: jpg });
    expect(r2.code, r2.message).toBe(0);
    expect(r2.data.key).toMatch(/\.jpg$/);
    expect(r2.data.contentType).toBe('image/jpeg');
    const r3 = await upload(a.token, { filename: 'fake.png', data: jpg });
    expect(r3.data.key).not.toBe(r2.data.key);
    // A WebP and a GIF are images too.
    const webp = await upload(a.token, { filename: 'w', data: await sharp(img).webp().toBuffer() });
    expect(webp.data.key).toMatch(/\.webp$/);
    const gif = await upload(a.token, { filename: 'g.gif', data: await sharp(img).gif().toBuffer() });
    expect(gif.data.key).toMatch(/\.gif$/);
  });

  it('console staff upload notice and QR pictures when they may change those pages; others may not', async () => {
    const upload = uploader(t);
    const admin = await t.adminToken();
    const img = await png(64, 64);
    const staff = async (role: string) => {
      const u = await user();
      const r = await t.call('POST', '/product/role/assign', {
        token: admin,
        body: { userId: u.id, roles: [role] },
      });
      expect(r.code, r.message).toBe(0);
      return u.token;
    };
    // The operator role changes the maintenance page (notices, community panel): both purposes.
    const operator = await staff('operator');
    for (const purpose of ['notice', 'qrcode']) {
      const r = await upload(operator, { filename: 'q.png', data: img }, purpose);
      expect(r.code, `${purpose}: ${r.message}`).toBe(0);
    }
    const saved = await t.call('POST', '/product/sysConfig/saveCommunity', {
      token: operator,
      body: {
        groups: {
          group: { imageKey: (await upload(operator, { filename: 'q.png', data: img }, 'qrcode')).data.key },
        },
      },
    });
    expect(saved.code, saved.message).toBe(0);
    // Finance staff (no maintenance page) and plain users: refused.
    const finance = await staff('finance');
    const plain = (await user()).token;
    for (const token of [finance, plain])
      for (const purpose of ['notice', 'qrcode'])
        expect((await upload(token, { filename: 'q.png', data: img }, purpose)).code).toBe(
          Codes.INSUFFICIENT_PERMISSION,
        );
  });

  it('refuses what is not a decodable image or clean text, and what is too large', async () => {
    const a = await user();
    const upload = uploader(t);
    const img = await png(32, 32);
    // PNG signature, broken body.
    const broken = Buffer.concat([img.subarray(0, 40), Buffer.alloc(200, 7)]);
    const bad = await upload(a.token, { filename: 'x.png', data: broken });
    expect([bad.code, bad.message]).toEqual([Codes.REFUSED, WRONG_FORMAT]);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect((await upload(a.token, { filename: 'x.svg', data: svg })).message).toBe(WRONG_FORMAT);
    const exe = Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00]);
    expect((await upload(a.token, { filename: 'notes.txt', data: exe })).message).toBe(WRONG_FORMAT);
    expect((await upload(a.token, { filename: 'data.json', data: Buffer.from('{"a":') })).code).toBe(
      Codes.REFUSED,
    );
    const okJson = await upload(a.token, { filename: 'data.json', data: Buffer.from('{"a":[1,2]}') });
    expect(okJson.code, okJson.message).toBe(0);
    expect(okJson.data).toMatchObject({
      kind: 'text',
      purpose: 'text',
      contentType: 'application/json; charset=utf-8',
    });
    expect(okJson.data.key).toMatch(/\.json$/);
    // Size: an avatar over 2M, anything over 10M.
    const big = await noisePng(900, 900);
    expect(big.length).toBeGreaterThan(FILE_LIMITS.avatarMB * 1024 * 1024);
    const avatar = await upload(a.token, { filename: 'a.png', data: big }, 'avatar');
    expect([avatar.code, avatar.message]).toEqual([Codes.REFUSED, tooLarge(2)]);
    expect((await upload(a.token, { filename: 'a.png', data: big }, 'picture')).code).toBe(0);
    const huge = Buffer.concat([img, Buffer.alloc(FILE_LIMITS.imageMB * 1024 * 1024)]);
    const tooBig = await upload(a.token, { filename: 'h.png', data: huge });
    expect([tooBig.code, tooBig.message]).toEqual([Codes.REFUSED, tooLarge(10)]);
    // Nothing refused was stored: only the JSON and the 900x900 picture are on record.
    const rows = await t.infra.database.db
      .selectFrom('uploaded_files' as never)
      .select(['key' as never])
      .where('user_id' as never, '=', a.id as never)
      .execute();
    expect(rows.length).toBe(2);
    // Notice images and QR codes are for administrators; no token: 401.
    expect((await upload(a.token, { filename: 'n.png', data: img }, 'notice')).code).toBe(
      Codes.INSUFFICIENT_PERMISSION,
    );
    expect((await upload(await t.adminToken(), { filename: 'n.png', data: img }, 'notice')).code).toBe(0);
    expect((await upload('', { filename: 'n.png', data: img })).code).toBe(Codes.UNAUTHENTICATED);
  });

  it('POST /file/write/ext stores text with its extension; refuses other extensions and control bytes', async () => {
    const a = await user();
    const r = await t.call<FileView>('POST', '/product/file/write/ext', {
      token: a.token,
      body: { content: 'frame,x\n1,0.5\n', ext: '.csv', name: 'curve.csv' },
    });
    expect(r.code, r.message).toBe(0);
    expect(r.data.key).toMatch(KEY);
    expect(r.data.key).toMatch(/\.csv$/);
    expect(r.data).toMatchObject({ kind: 'text', size: 14, name: 'curve.csv' });
    const got = await fetchSigned(t, r.data.url);
    expect(got.body.toString('utf8')).toBe('frame,x\n1,0.5\n');
    expect(got.type).toContain('text/csv');
    const zh = await t.call<FileView>('POST', '/product/file/write/ext', {
      token: a.token,
      body: { content: '动作捕捉', ext: 'txt' },
    });
    expect(zh.data.size).toBe(12);
    for (const [content, ext] of [
      ['x', 'exe'],
      ['x', 'html'],
      ['a\u0000b', 'txt'],
      ['{bad', 'json'],
    ]) {
      const bad = await t.call('POST', '/product/file/write/ext', { token: a.token, body: { content, ext } });
      expect(bad.code, `${ext}: ${bad.message}`).toBe(Codes.REFUSED);
    }
    const empty = await t.call('POST', '/product/file/write/ext', {
      token: a.token,
      body: { content: '', ext: 'txt' },
    });
    expect(empty.code).toBe(Codes.PARAMETER_ERROR);
  });

  it('limits uploads to 60 an hour per account', async () => {
    const a = await user();
    const b = await user();
    for (let i = 0; i < FILE_LIMITS.perHour; i++) {
      const r = await t.call('POST', '/product/file/write/ext', {
        token: a.token,
        body: { content: `${i}`, ext: 'txt' },
      });
      expect(r.code, r.message).toBe(0);
    }
    const writeX = (token: string) =>
      t.code('POST', '/product/file/write/ext', { token, body: { content: 'x', ext: 'txt' } });
    expect(await writeX(a.token)).toBe(Codes.TOO_MANY_REQUESTS);
    expect(await writeX(b.token)).toBe(0);
    t.clock.advance(3_600_001);
    expect(await writeX(a.token)).toBe(0);
  });

  it('GET /file/url signs a readable file, converts images to webp once, and refuses others’ files', async () => {
    const a = await user();
    const b = await user();
    const upload = uploader(t);
    const img = await png(400, 300, { r: 10, g: 200, b: 30 });
    const up = await upload(a.token, { filename: 'p.png', data: img });
    const orig = await t.call<Signed>('GET', `/product/file/url?key=${encodeURIComponent(up.data.key)}`, {
      token: b.token,
    });
    expect(orig.code, orig.message).toBe(0);
    expect(orig.data).toMatchObject({ key: up.data.key, contentType: 'image/png', cached: false });
    expect((await fetchSigned(t, orig.data.url)).body.equals(img)).toBe(true);

    const q = `/product/file/url?key=${encodeURIComponent(up.data.key)}&format=webp&maxSide=200`;
    const w1 = await t.call<Signed>('GET', q, { token: a.token });
    expect(w1.code, w1.message).toBe(0);
    expect(w1.data.contentType).toBe('image/webp');
    expect(w1.data.cached).toBe(false);
    expect(w1.data.key).toMatch(/^webp\/uploadZM\/.+\.webp$/);
    const got = await fetchSigned(t, w1.data.url);
    expect(got.status).toBe(200);
    expect(got.type).toBe('image/webp');
    expect(got.body.subarray(0, 4).toString()).toBe('RIFF');
    expect(got.body.subarray(8, 12).toString()).toBe('WEBP');
    const meta = await sharp(got.body).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 200, 150]);
    const { dominant } = await sharp(got.body).stats();
    expect(dominant.g).toBeGreaterThan(150);
    // Second time: the stored conversion.
    const w2 = await t.call<Signed>('GET', q, { token: b.token });
    expect([w2.data.cached, w2.data.key]).toEqual([true, w1.data.key]);
    // Full size is another conversion.
    const full = await t.call<Signed>(
      'GET',
      `/product/file/url?key=${encodeURIComponent(up.data.key)}&format=webp`,
      { token: a.token },
    );
    expect(full.data.key).not.toBe(w1.data.key);
    expect((await sharp((await fetchSigned(t, full.data.url)).body).metadata()).width).toBe(400);

    // A user's own prefix: his only (a thumbnail-like picture stored for b).
    const own = `videos/u${b.id}/abc/thumb.png`;
    await t.infra.storage.put(own, img, { contentType: 'image/png' });
    const mine = await t.call<Signed>('GET', `/product/file/url?key=${own}&format=webp`, { token: b.token });
    expect(mine.code, mine.message).toBe(0);
    expect((await t.call('GET', `/product/file/url?key=${own}`, { token: a.token })).code).toBe(
      Codes.INSUFFICIENT_PERMISSION,
    );
    expect((await t.call('GET', `/product/file/url?key=${own}`, { token: await t.adminToken() })).code).toBe(
      0,
    );
    // Replacing the original makes a fresh conversion.
    await t.infra.storage.put(own, await png(50, 50), { contentType: 'image/png' });
    const again = await t.call<Signed>('GET', `/product/file/url?key=${own}&format=webp`, { token: b.token });
    expect(again.data.key).not.toBe(mine.data.key);
    expect((await sharp((await fetchSigned(t, again.data.url)).body).metadata()).width).toBe(50);
    // Text does not convert; missing files are 404; other prefixes and tricks are refused.
    const txt = await t.call<FileView>('POST', '/product/file/write/ext', {
      token: a.token,
      body: { content: 'x', ext: 'txt' },
    });
    expect(
      (await t.call('GET', `/product/file/url?key=${txt.data.key}&format=webp`, { token: a.token })).code,
    ).toBe(Codes.REFUSED);
    expect((await t.call('GET', '/product/file/url?key=uploadZM/nothing.png', { token: a.token })).code).toBe(
      Codes.NOT_FOUND,
    );
    for (const key of ['secrets/x', `videos/u${b.id}/../u${a.id}/x.png`, 'animation/cmu/1.json']) {
      const r = await t.call('GET', `/product/file/url?key=${encodeURIComponent(key)}`, { token: a.token });
      expect(r.code, key).toBe(Codes.INSUFFICIENT_PERMISSION);
    }
  });
});

const s3 = await startS3Server('mocap-files');
afterAll(() => s3.close());

describe('file uploads and webp downloads on S3 storage', () => {
  const t = useServer('sqlite', {
    env: { S3_BUCKET: s3.bucket, S3_ENDPOINT: s3.url, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY },
  });
  it('stores the upload and its webp conversion in the bucket and signs bucket URLs', async () => {
    const a = await t.register('files-s3@example.com');
    const img = await png(120, 80);
    const up = await uploader(t)(a.token, { filename: 'p.png', data: img });
    expect(up.code, up.message).toBe(0);
    expect(up.data.url).toContain('X-Amz-Signature=');
    expect(await s3.keys()).toContain(up.data.key);
    const w = await t.call<Signed>('GET', `/product/file/url?key=${up.data.key}&format=webp`, {
      token: a.token,
    });
    expect(w.code, w.message).toBe(0);
    expect(await s3.keys()).toContain(w.data.key);
    const got = await fetchSigned(t, w.data.url);
    expect(got.status).toBe(200);
    expect((await sharp(got.body).metadata()).format).toBe('webp');
    const again = await t.call<Signed>('GET', `/product/file/url?key=${up.data.key}&format=webp`, {
      token: a.token,
    });
    expect(again.data.cached).toBe(true);
  });

  it('the read credentials of /cos/sts/download open my own objects in the bucket (302 to a pre-signed URL)', async () => {
    const a = await t.register('sts-a@example.com');
    const b = await t.register('sts-b@example.com');
    const creds = await t.call<DownloadCredentials>('GET', '/product/cos/sts/download', { token: a.token });
    expect(creds.code, creds.message).toBe(0);
    expect(creds.data.prefix).toBe(`videos/u${a.id}/`);
    expect(creds.data.expiredTime - creds.data.startTime).toBe(300);
    const key = `videos/u${a.id}/x/thumb.png`;
    const img = await png(20, 20);
    await t.infra.storage.put(key, img, { contentType: 'image/png' });
    const open = (k: string, token: string) =>
      t.app.inject({
        method: 'GET',
        url: `/product/cos/object?key=${encodeURIComponent(k)}&token=${encodeURIComponent(token)}`,
      });
    const res = await open(key, creds.data.credentials.sessionToken);
    expect(res.statusCode).toBe(302);
    const location = String(res.headers.location);
    expect(location).toContain(s3.url);
    expect(location).toContain('X-Amz-Signature=');
    expect(Number(new URL(location).searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(300);
    const got = await fetch(location);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(img)).toBe(true);
    // Someone else's prefix, a forged token, a missing object.
    const other = `videos/u${b.id}/y/thumb.png`;
    await t.infra.storage.put(other, img, { contentType: 'image/png' });
    expect((await open(other, creds.data.credentials.sessionToken)).json().code).toBe(
      Codes.INSUFFICIENT_PERMISSION,
    );
    expect((await open(key, `${creds.data.credentials.sessionToken}x`)).json().code).toBe(Codes.AUTH_FAILED);
    expect((await open(`videos/u${a.id}/none.png`, creds.data.credentials.sessionToken)).json().code).toBe(
      Codes.NOT_FOUND,
    );
  });
});
