/**
 * End to end through the HTTP API with the in-process worker and the real capture path (lite model, the 3.3 s
 * basketball clip of ../shared/testdata): register (code from the outbox) → login (RSA) → upload → live
 * progress until made → zips of three bone types → exact coins → square → a second user buys it once →
 * ledger rows and balances exact. Runs on SQLite and PostgreSQL.
 */
import type { MotionResult } from '@mocap/contracts';
import { startWorker } from '@mocap/worker';
import { afterAll, describe, expect, it } from 'vitest';
import type { VideoView } from '../src/index.ts';
import { databases, useServer } from './harness.ts';
import { postUpload, unzip, uploadForm, useFixtures } from './video-helpers.ts';

const fx = useFixtures();

describe.each(databases)('end to end on %s', (kind) => {
  const t = useServer(kind, { env: { CAPTURE_MODEL: 'lite', JOB_BACKOFF_MS: '200' } });
  let worker: { close(): Promise<void> } | undefined;
  afterAll(async () => {
    await worker?.close();
  });

  it('register → login → upload → made → three bone types → square → a second user pays once', async () => {
    worker = startWorker({ infra: t.infra, services: t.services, config: t.config }, { reconcileMs: 0 });

    // Register with the code mailed to the outbox, then log in with the RSA-encrypted password.
    const email = `e2e-${kind}@example.com`;
    const sent = await t.call('POST', `/product/code/${encodeURIComponent(email)}/1`);
    expect(sent.code, sent.message).toBe(0);
    const code = await t.lastCode(email);
    const reg = await t.call<{ user: { id: number; surplus: number } }>('POST', '/product/user/register', {
      body: { email, password: t.encrypt('pass-word-1'), code },
    });
    expect(reg.code, reg.message).toBe(0);
    const userId = reg.data.user.id;
    expect(reg.data.user.surplus).toBe(50);
    const login = await t.call<{ token: string }>('POST', '/product/auth/login', {
      body: { username: email, password: t.encrypt('pass-word-1') },
    });
    expect(login.code, login.message).toBe(0);
    const token = login.data.token;

    // Upload the clip.
    const form = uploadForm(fx.person, { name: 'dribble', tags: ['basketball'], boneType: 'Mixamo' });
    const up = await postUpload<VideoView>(t.app, token, form);
    const video = up.data;
    expect(up.code, up.message).toBe(0);
    expect(video.duration).toBeCloseTo(3.33, 1);

    // Live progress (SSE): the stream ends with `done` once the video is made.
    const sse = await t.app.inject({
      method: 'GET',
      url: `/product/video/progress/${video.id}?token=${token}`,
    });
    expect(sse.headers['content-type']).toContain('text/event-stream');
    const events = [...sse.body.matchAll(/event: (\w+)\ndata: (.*)\n\n/g)].map((m) => ({
      event: m[1]!,
      data: JSON.parse(m[2]!) as { status: number; progress: number },
    }));
    const done = events.at(-1)!;
    expect(done.event).toBe('done');
    expect(done.data.status).toBe(2);
    const progress = events.filter((e) => e.event === 'progress').map((e) => e.data.progress);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toBe(100);

    const made = await t.call<VideoView>('POST', '/product/video/queryVideoById', {
      token,
      body: { id: video.id },
    });
    expect(made.data).toMatchObject({ status: 2, statusName: 'made', progress: 100 });
    expect(made.data.thumbnail).toBeTruthy();
    const thumb = await t.app.inject({
      method: 'GET',
      url:
        new URL(made.data.thumbnail!, 'http://x').pathname + new URL(made.data.thumbnail!, 'http://x').search,
    });
    expect(thumb.rawPayload.subarray(0, 2).toString('hex')).toBe('ffd8'); // JPEG

    // Zips of three bone types, each a real archive with the rig's file and a README.
    const expected: Record<string, RegExp> = { Mixamo: /\.fbx$/, Unreal4: /\.fbx$/, RobloxR15: /\.fbx$/ };
    for (const [boneType, main] of Object.entries(expected)) {
      const r = await t.call<MotionResult>(
        'GET',
        `/product/motion/download/video/${video.id}/${encodeURIComponent(boneType)}`,
        { token },
      );
      expect(r.code, `${boneType}: ${r.message}`).toBe(0);
      expect(r.data.charged).toBe(0);
      const u = new URL(r.data.paths[0]!, 'http://x');
      const zipRes = await t.app.inject({ method: 'GET', url: u.pathname + u.search });
      expect(zipRes.statusCode).toBe(200);
      expect(zipRes.headers['content-disposition']).toContain(encodeURIComponent(r.data.motionsName));
      const entries = unzip(zipRes.rawPayload);
      const names = [...entries.keys()];
      expect(
        names.some((n) => main.test(n)),
        `${boneType}: ${names.join(', ')}`,
      ).toBe(true);
      expect(names).toContain('README.txt');
      const fbx = [...entries.entries()].find(([n]) => main.test(n))![1];
      expect(fbx.subarray(0, 18).toString('latin1')).toBe('Kaydara FBX Binary');
    }
    // A free account cannot take a non-FBX bone type.
    const vmd = await t.call('GET', `/product/motion/download/video/${video.id}/VMD-TDA`, { token });
    expect(vmd.message).toBe('免费版用户只能选择 FBX 格式');
    // Tracks for the repair editor.
    const pose = await t.call<{ url: string }>('GET', `/product/motion/video/${video.id}/pose_url`, {
      token,
    });
    const pu = new URL(pose.data.url, 'http://x');
    const tracks = (await t.app.inject({ method: 'GET', url: pu.pathname + pu.search })).json() as {
      frames: unknown[];
    };
    expect(tracks.frames.length).toBe(40);

    // Exact coins: 50 at signup − 4 for 3.33 s.
    expect(await t.services.coins.balance(userId)).toBe(46);

    // Share it; a second user buys it for 4 V, once.
    const pub = await t.call('PUT', `/product/video/square/${video.id}/1`, { token });
    expect(pub.code).toBe(0);
    const b = await t.register(`buyer-${kind}@example.com`);
    const price = await t.call<{ price: number; due: number; enough: boolean }>(
      'GET',
      `/product/motion/preMotionDownload/${video.id}`,
      { token: b.token },
    );
    expect(price.data).toMatchObject({ price: 4, due: 4, enough: true });
    const buy = await t.call<MotionResult>('GET', `/product/motion/download/video/${video.id}/Mixamo`, {
      token: b.token,
    });
    expect(buy.code, buy.message).toBe(0);
    expect(buy.data.charged).toBe(4);
    const again = await t.call<MotionResult>('GET', `/product/motion/download/video/${video.id}/Unreal4`, {
      token: b.token,
    });
    expect(again.data.charged).toBe(0);
    const after = await t.call<{ due: number; purchased: boolean }>(
      'GET',
      `/product/motion/preMotionDownload/${video.id}`,
      { token: b.token },
    );
    expect(after.data).toMatchObject({ due: 0, purchased: true });
    const has = await t.call<{ hasDownload: boolean; boneTypes: string[] }>(
      'GET',
      `/product/motion/has_download/${video.id}`,
      { token: b.token },
    );
    expect(has.data.hasDownload).toBe(true);
    expect(has.data.boneTypes.sort()).toEqual(['Mixamo', 'Unreal4']);

    // Ledger rows and balances, exactly.
    const rowsA = (await t.services.coins.records({ userId, page: 1, size: 50 })).list;
    const rowsB = (await t.services.coins.records({ userId: b.id, page: 1, size: 50 })).list;
    const shape = (rows: typeof rowsA) => rows.map((r) => [r.reason, r.amount, r.balanceAfter]).sort();
    expect(shape(rowsA)).toEqual([
      ['signup', 50, 50],
      ['upload', -4, 46],
    ]);
    expect(shape(rowsB)).toEqual([
      ['signup', 50, 50],
      ['square_download', -4, 46],
    ]);
    expect(await t.services.coins.balance(b.id)).toBe(46);
    expect(await t.services.coins.ledgerSum(userId)).toBe(46);
    expect(await t.services.coins.ledgerSum(b.id)).toBe(46);
    const rec = await t.call<{ list: unknown[] }>('POST', '/product/user/surplus/record', {
      token: b.token,
      body: {},
    });
    expect(rec.code, rec.message).toBe(0);
    expect(rec.data.list.length).toBe(2);
  });
});
