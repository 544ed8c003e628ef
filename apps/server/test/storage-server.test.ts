/**
 * The whole app on S3-compatible storage (config S3_*), against s3rver (a real S3-compatible server from npm, `s3-server.ts`): a multipart upload is
 * stored in the bucket, a direct upload goes to a pre-signed PUT URL, downloads are pre-signed GET URLs of the
 * bucket, deleting a video empties its prefix.
 */
import { readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage, type VideoView } from '../src/index.ts';
import { useServer } from './harness.ts';
import { s3Env, startS3Server } from './s3-server.ts';
import { type Fixtures, makeFixtures, markMade, unzip, uploadForm, uploadVideo } from './video-helpers.ts';

const stub = await startS3Server('mocap-test');
let fx: Fixtures;
beforeAll(() => {
  fx = makeFixtures();
});
afterAll(async () => {
  rmSync(fx.dir, { recursive: true, force: true });
  await stub.close();
});

describe('the app on S3 storage', () => {
  const t = useServer('sqlite', {
    env: { ...s3Env(stub), CAPTURE_MODEL: 'lite' },
  });

  it('stores uploads in the bucket, serves pre-signed downloads, uploads directly, deletes', async () => {
    expect(t.infra.storage).toBeInstanceOf(S3Storage);
    const a = await t.register('s3@example.com');
    const form = uploadForm(fx.synthetic(31, 2), { name: 's3 clip', tags: 'x' });
    const video = await uploadVideo<VideoView>(t.app, a.token, form);
    const keys = () => stub.keys();
    expect((await keys()).filter((k) => k.endsWith('/source.mp4')).length).toBe(1);
    expect(video.path).toContain(stub.url);
    expect(video.path).toContain('X-Amz-Signature=');

    await markMade(t.infra, t.services, video.id, ['Mixamo']);
    const dl = await t.call<{ paths: string[]; motionsName: string }>(
      'GET',
      `/product/motion/download/video/${video.id}/Mixamo`,
      { token: a.token },
    );
    expect(dl.code, dl.message).toBe(0);
    expect(dl.data.paths[0]).toContain('X-Amz-Expires=300');
    const res = await fetch(dl.data.paths[0]!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain(encodeURIComponent(dl.data.motionsName));
    expect([...unzip(new Uint8Array(await res.arrayBuffer())).keys()]).toContain('README.txt');

    // Direct upload: credentials → PUT to the bucket → confirm.
    const c = await t.call<{
      credentials: { sessionToken: string };
      uploadUrl: string;
      headers: Record<string, string>;
    }>('GET', '/product/cos/sts/upload?fileName=b.mp4', { token: a.token });
    expect(c.data.uploadUrl.startsWith(stub.url)).toBe(true);
    const put = await fetch(c.data.uploadUrl, {
      method: 'PUT',
      headers: c.data.headers,
      body: readFileSync(fx.synthetic(32, 1)),
    });
    expect(put.status).toBe(200);
    const confirmed = await t.call<VideoView>('POST', '/product/video/uploads', {
      token: a.token,
      body: { sessionToken: c.data.credentials.sessionToken, name: 'direct', tags: 'x', boneType: 'Mixamo' },
    });
    expect(confirmed.code, confirmed.message).toBe(0);
    expect((await keys()).filter((k) => k.startsWith('uploadZM/'))).toEqual([]);

    const del = await t.call<{ deleted: number[] }>('POST', '/product/motion/DeleteBatch', {
      token: a.token,
      body: { ids: [video.id] },
    });
    expect(del.data.deleted).toEqual([video.id]);
    // Only the second video's source is left under the user's prefix.
    const left = (await keys()).filter((k) => k.includes(`/u${a.id}/`));
    expect(left.length).toBe(1);
    expect(left[0]).toMatch(/\/source\.mp4$/);
  });
});
