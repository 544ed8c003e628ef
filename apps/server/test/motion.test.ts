/**
 * Motion downloads through the API on SQLite and PostgreSQL, with videos marked made by the job hooks (real
 * zips of a short clip; the capture path itself runs in e2e/jobs tests): bulk download, lower body made on
 * demand, signed URL tampering, info/preview/has_download, regen through a worker, 2D repair rules, read
 * credentials, DeleteBatch.
 */
import type { DownloadCredentials, MotionResult } from '@mocap/contracts';
import { runWorker } from '@mocap/worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { createVideoStore, type VideoView } from '../src/index.ts';
import { databases, useServer } from './harness.ts';
import { waitFor } from './queue-helpers.ts';
import { markMade, unzip, uploadForm, uploadVideo, useExportWorker, useFixtures } from './video-helpers.ts';

const fx = useFixtures();

describe.each(databases)('motion on %s', (kind) => {
  const t = useServer(kind, { env: { CAPTURE_MODEL: 'lite' } });
  let a: { token: string; id: number };
  let b: { token: string; id: number };
  const vids: VideoView[] = [];
  const { fetchUrl } = t;

  // The lower-body zips are made by the worker's export jobs (issue 17.3).
  useExportWorker(t);

  beforeAll(async () => {
    a = await t.register(`ma-${kind}@example.com`);
    b = await t.register(`mb-${kind}@example.com`);
    for (const i of [21, 22]) {
      const form = uploadForm(fx.synthetic(i, 2), { name: `clip ${i}`, tags: 'x' });
      const r = await uploadVideo<VideoView>(t.app, a.token, form);
      vids.push(r);
      await markMade(t.infra, t.services, r.id, ['Mixamo', 'Unreal4', 'bvh', 'VMD-TDA']);
    }
  });

  it('bulk-downloads a zip of zips; square videos are paid once each, own ones are free', async () => {
    await t.call('PUT', `/product/video/square/${vids[0]!.id}/1`, { token: a.token });
    const own = await t.call<MotionResult & { count: number }>('POST', '/product/motion/MotionBulkDownload', {
      token: a.token,
      body: { ids: vids.map((v) => v.id), boneType: 'Mixamo' },
    });
    expect(own.code, own.message).toBe(0);
    expect(own.data).toMatchObject({ count: 2, charged: 0 });
    const entries = unzip((await fetchUrl(own.data.paths[0]!)).rawPayload);
    expect([...entries.keys()].length).toBe(2);
    for (const inner of entries.values()) expect([...unzip(inner).keys()]).toContain('README.txt');
    // B may not bulk a private video, and pays 2 V for the square one, once.
    const refused = await t.call('POST', '/product/motion/MotionBulkDownload', {
      token: b.token,
      body: { ids: vids.map((v) => v.id), boneType: 'Mixamo' },
    });
    expect(refused.code).toBe(406);
    const before = await t.services.coins.balance(b.id);
    const paid = await t.call<MotionResult>('POST', '/product/motion/MotionBulkDownload', {
      token: b.token,
      body: { ids: [vids[0]!.id], boneType: 'Mixamo' },
    });
    expect(paid.data.charged).toBe(2);
    const again = await t.call<MotionResult>('POST', '/product/motion/MotionBulkDownload', {
      token: b.token,
      body: { ids: [vids[0]!.id], boneType: 'Unreal4' },
    });
    expect(again.data.charged).toBe(0);
    expect(await t.services.coins.balance(b.id)).toBe(before - 2);
  });

  it('makes the lower-body zip on first request and keeps it', async () => {
    const r1 = await t.call<MotionResult>('POST', '/product/motion/lowerBodyDownload', {
      token: a.token,
      body: { id: vids[1]!.id, boneType: 'Mixamo' },
    });
    expect(r1.code, r1.message).toBe(0);
    expect(r1.data.motionsName).toMatch(/_lower\.zip$/);
    const zip1 = unzip((await fetchUrl(r1.data.paths[0]!)).rawPayload);
    expect(zip1.get('README.txt')!.toString()).toMatch(/lower/i);
    const stored = (await createVideoStore(t.infra.database).repos.videos.findById(vids[1]!.id))!.outputs
      .lower;
    expect(Object.keys(stored ?? {})).toEqual(['Mixamo']);
    const r2 = await t.call<MotionResult>('POST', '/product/motion/lowerBodyDownload', {
      token: a.token,
      body: { id: vids[1]!.id, boneType: 'Mixamo' },
    });
    expect(r2.data.motionsName).toBe(r1.data.motionsName);
  });

  it('signed URLs: tampered or foreign tokens are refused; read credentials cover only my files', async () => {
    const r = await t.call<MotionResult>('GET', `/product/motion/download/video/${vids[1]!.id}/Mixamo`, {
      token: a.token,
    });
    const u = new URL(r.data.paths[0]!, 'http://x');
    const token = u.searchParams.get('token')!;
    const [body, mac] = token.split('.');
    const payload = JSON.parse(Buffer.from(body!, 'base64url').toString()) as { k: string };
    const forged = Buffer.from(
      JSON.stringify({ ...payload, k: payload.k.replace('Mixamo', 'Unreal4') }),
    ).toString('base64url');
    const bad = await t.app.inject({ method: 'GET', url: `/product/files?token=${forged}.${mac}` });
    expect(bad.json().code).toBe(402);
    const good = await t.app.inject({ method: 'GET', url: u.pathname + u.search });
    expect(good.statusCode).toBe(200);
    const creds = await t.call<DownloadCredentials>('GET', '/product/cos/sts/download', { token: b.token });
    const foreign = await t.app.inject({
      method: 'GET',
      url: `/product/cos/object?key=${encodeURIComponent(payload.k)}&token=${creds.data.credentials.sessionToken}`,
    });
    expect(foreign.json().code).toBe(406);
    const credsA = await t.call<DownloadCredentials>('GET', '/product/cos/sts/download', { token: a.token });
    const mine = await t.app.inject({
      method: 'GET',
      url: `/product/cos/object?key=${encodeURIComponent(payload.k)}&token=${credsA.data.credentials.sessionToken}`,
    });
    expect(mine.statusCode).toBe(200);
  });

  it('info, preview, has_download, regen count; a regen runs through a worker', async () => {
    const info = await t.call<{ zips: { boneType: string; allowed: boolean }[] }>(
      'GET',
      `/product/motion/video/${vids[1]!.id}`,
      { token: a.token },
    );
    expect(info.data.zips.map((z) => [z.boneType, z.allowed]).sort()).toEqual([
      ['Mixamo', true],
      ['Unreal4', true],
      ['VMD-TDA', false],
      ['bvh', false],
    ]);
    const fbx = await t.call<{ boneType: string }>('GET', `/product/motion/fbx/${vids[1]!.id}/anm`, {
      token: a.token,
    });
    expect(fbx.data.boneType).toBe('Mixamo');
    // A free plan has FBX only: its preview of the VMD zip is refused like its download (issue 13.2).
    const vmd = await t.call<{ boneType: string }>('GET', `/product/motion/vmd/${vids[1]!.id}/anm`, {
      token: a.token,
    });
    expect(vmd.code).toBe(307);
    const has = await t.call<{ hasDownload: boolean }>('GET', `/product/motion/has_download/${vids[1]!.id}`, {
      token: b.token,
    });
    expect(has.data.hasDownload).toBe(false);
    const cnt0 = await t.call<{ count: number; free: number }>(
      'GET',
      `/product/motion/regen/${vids[1]!.id}/cnt`,
      { token: a.token },
    );
    expect(cnt0.data).toMatchObject({ count: 0, free: 3 });
    const worker = runWorker(
      { queue: t.services.captureJobs.queue, storage: t.infra.storage, jobs: t.services.captureJobs },
      { reconcileMs: 0 },
    );
    try {
      const regen = await t.call<VideoView>('PUT', `/product/motion/${vids[1]!.id}/regen/fbxs`, {
        token: a.token,
      });
      expect(regen.code, regen.message).toBe(0);
      expect(regen.data.status).toBe(0);
      const done = await waitFor(
        async () => {
          const v = await createVideoStore(t.infra.database).repos.videos.findById(vids[1]!.id);
          return v?.status === 2 ? v : null;
        },
        60_000,
        'regen',
      );
      // Every bone type re-exported from the stored clip (OnlyFace needs face curves).
      expect(Object.keys(done.outputs.zips ?? {}).length).toBe(14);
      const cnt1 = await t.call<{ count: number; free: number }>(
        'GET',
        `/product/motion/regen/${vids[1]!.id}/cnt`,
        { token: a.token },
      );
      expect(cnt1.data).toMatchObject({ count: 1, free: 2 });
    } finally {
      await worker.close();
    }
  });

  it('preview another rig (owner only, no download recorded) and the solved clip for the viewer', async () => {
    const id = vids[0]!.id;
    await t.call('PUT', `/product/video/square/${id}/1`, { token: a.token });
    const count = async () =>
      (await t.call<{ count: number }>('GET', `/product/motion/has_download/${id}`, { token: a.token })).data
        .count;
    const before = await count();
    const rig = await t.call<{ url: string; boneType: string }>(
      'GET',
      `/product/motion/fbx/${id}/anm?boneType=Unreal4`,
      { token: a.token },
    );
    expect(rig.code, rig.message).toBe(0);
    expect(rig.data.boneType).toBe('Unreal4');
    const entries = unzip((await fetchUrl(rig.data.url)).rawPayload);
    expect([...entries.keys()].some((n) => n.toLowerCase().endsWith('.fbx'))).toBe(true);
    expect(await count()).toBe(before);
    // Not an FBX type; not made for this video; not the owner (even on the square).
    expect((await t.call('GET', `/product/motion/fbx/${id}/anm?boneType=bvh`, { token: a.token })).code).toBe(
      400,
    );
    expect((await t.call('GET', `/product/motion/fbx/${id}/anm?boneType=C4D`, { token: a.token })).code).toBe(
      307,
    );
    // B bought this square video (bulk test above): another rig of it is B's to preview; C has not bought it.
    const c = await t.register(`mc-${kind}@example.com`);
    expect(
      (await t.call('GET', `/product/motion/fbx/${id}/anm?boneType=Unreal4`, { token: b.token })).code,
    ).toBe(0);
    expect(
      (await t.call('GET', `/product/motion/fbx/${id}/anm?boneType=Unreal4`, { token: c.token })).code,
    ).toBe(307);
    // The clip: the owner's and the buyer's solved one; C (square, not bought) a preview-grade copy.
    for (const [token, preview] of [
      [a.token, false],
      [b.token, false],
      [c.token, true],
    ] as const) {
      const c = await t.call<{ url: string }>('GET', `/product/motion/video/${id}/clip_url`, { token });
      expect(c.code, c.message).toBe(0);
      const doc = JSON.parse((await fetchUrl(c.data.url)).body);
      expect(doc.format).toBe('mocap-motion');
      expect(doc.metadata?.preview === true).toBe(preview);
      if (!preview) expect(doc.frameCount ?? doc.frames?.length).toBe(10);
      else expect(doc.fps).toBeLessThanOrEqual(10);
    }
    const hidden = await t.call('GET', `/product/motion/video/${vids[1]!.id}/clip_url`, { token: b.token });
    expect(hidden.code).not.toBe(0);
  });

  it('2D repair: closed to free accounts; paid accounts must send a tracks document', async () => {
    const free = await t.call('PUT', '/product/video/2d', {
      token: a.token,
      body: { id: vids[1]!.id, tracks: {} },
    });
    expect(free.message).toBe('此功能不向免费用户开放');
    await t.infra.store.repos.users.update(
      a.id,
      { level: 'monthly', vexpiredAt: t.clock.now() + 86_400_000 },
      t.clock.now(),
    );
    const bad = await t.call('PUT', '/product/video/2d', {
      token: a.token,
      body: { id: vids[1]!.id, tracks: { format: 'x' } },
    });
    expect(bad.code).toBe(400);
    const get = await t.call<{ poseUrl: string; videoUrl: string }>(
      'GET',
      `/product/video/2d?id=${vids[1]!.id}`,
      { token: a.token },
    );
    expect((await fetchUrl(get.data.poseUrl)).statusCode).toBe(200);
    expect((await fetchUrl(get.data.videoUrl)).headers['content-type']).toBe('video/mp4');
  });

  it('DeleteBatch removes my videos and their files; not someone else’s', async () => {
    const theirs = await t.call('POST', '/product/motion/DeleteBatch', {
      token: b.token,
      body: { ids: [vids[1]!.id] },
    });
    expect(theirs.code).toBe(406);
    const store = createVideoStore(t.infra.database).repos.videos;
    const prefixes = await Promise.all(vids.map(async (v) => (await store.findById(v.id))!.storagePrefix));
    expect(await t.infra.storage.exists(`${prefixes[0]}/source.mp4`)).toBe(true);
    const del = await t.call<{ deleted: number[] }>('POST', '/product/motion/DeleteBatch', {
      token: a.token,
      body: { ids: vids.map((v) => v.id) },
    });
    expect(del.data.deleted.sort()).toEqual(vids.map((v) => v.id).sort());
    for (const p of prefixes) {
      expect(await t.infra.storage.exists(`${p}/source.mp4`)).toBe(false);
      expect(await t.infra.storage.exists(`${p}/zips/Mixamo.zip`)).toBe(false);
    }
    const gone = await t.call('GET', `/product/motion/download/video/${vids[0]!.id}/Mixamo`, {
      token: b.token,
    });
    expect(gone.code).toBe(404);
  });
});
