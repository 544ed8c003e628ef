/**
 * The typed client (@mocap/client, generated from docs/public-api.json) against a live server, SQLite and
 * PostgreSQL, with only API keys: info, multipart upload and an upload grant (GET /cos/sts/upload → PUT →
 * POST /video/uploads), each charged 1 CV per second once however often retried with its Idempotency-Key; list,
 * status, what a video offers, the download URL per bone type (a zip with an FBX), remake, delete; the key's
 * allow-list (a key is refused outside the public API, and outside its own route list when it has one), a revoked
 * key (401), company B's key blind to A's videos, and the client's webhook check agreeing with the server's
 * signature (a replay outside the window fails).
 */
import { openAsBlob } from 'node:fs';
import type { AddressInfo } from 'node:net';
import {
  createMocapClient,
  data,
  MocapApiError,
  uploadLargeVideo,
  uploadVideo,
  verifyWebhook,
} from '@mocap/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { Codes } from '../src/errors.ts';
import { signWebhook } from '../src/modules/company/service.ts';
import { databases, useServer } from './harness.ts';
import { markMade, unzip, useFixtures } from './video-helpers.ts';

const fx = useFixtures();

const codeOf = async (p: Promise<unknown>): Promise<number> => {
  try {
    await p;
    return 0;
  } catch (e) {
    if (e instanceof MocapApiError) return e.code;
    throw e;
  }
};

describe.each(databases)('@mocap/client on %s', (kind) => {
  const t = useServer(kind, { env: { CAPTURE_MODEL: 'lite' } });
  let origin = '';
  let a: { id: number; token: string };
  let keyA = '';
  let keyB = '';
  const cv = (id: number) => t.services.coins.balance(id, 'CV');
  const newKey = async (token: string, name: string) =>
    (await t.call<{ key: string; id: number }>('POST', '/product/company/apiKeys', { token, body: { name } }))
      .data;

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    a = await t.register(`client-a-${kind}@example.com`, { company: true });
    const b = await t.register(`client-b-${kind}@example.com`, { company: true });
    await t.services.coins.change(a.id, 100, 'admin', `client-a-${kind}`, { currency: 'CV' });
    keyA = (await newKey(a.token, 'client')).key;
    keyB = (await newKey(b.token, 'client b')).key;
  });

  it('uploads (multipart and upload grant) charged once per Idempotency-Key; list, status, zip, remake, delete', async () => {
    const mocap = createMocapClient({ baseUrl: origin, apiKey: keyA });
    const info = data(await mocap.GET('/product/auth/company/info'));
    expect(info.user.id).toBe(a.id);
    expect(info.company.cvCoin).toBe(100);

    // multipart, retried with the same Idempotency-Key: one video, charged once (3 s → 3 CV)
    const file = await openAsBlob(fx.synthetic(41, 3), { type: 'video/mp4' });
    const input = {
      file,
      fileName: 'walk.mp4',
      fields: {
        name: 'client',
        boneType: 'Mixamo' as const,
        tags: ['api'],
        footLock: 'never' as const,
        smoothing: 0.5,
      },
    };
    const up = await uploadVideo(mocap, { ...input, idempotencyKey: `client-${kind}-1` });
    const again = await uploadVideo(mocap, { ...input, idempotencyKey: `client-${kind}-1` });
    expect(again.id).toBe(up.id);
    // the solve options chosen with the upload are kept with the video
    expect(up.solveOptions?.footLock).toBe('never');
    expect(up.solveOptions?.smoothing).toBe(0.5);
    expect(await cv(a.id)).toBe(97);

    // the upload grant (large files): credentials, PUT of the bytes, confirm; the confirm retried answers the same
    const big = await openAsBlob(fx.synthetic(42, 4), { type: 'video/mp4' });
    const grantIn = {
      file: big,
      fileName: 'big.mp4',
      fields: { name: 'grant', boneType: 'Mixamo' as const, tags: ['api'], footLock: 'always' as const },
      idempotencyKey: `client-${kind}-2`,
    };
    const viaGrant = await uploadLargeVideo(mocap, grantIn);
    expect(viaGrant.id).not.toBe(up.id);
    expect(viaGrant.solveOptions?.footLock).toBe('always');
    expect(await cv(a.id)).toBe(93);
    expect((await uploadLargeVideo(mocap, grantIn)).id).toBe(viaGrant.id);
    expect(await cv(a.id)).toBe(93);

    // list and status
    const list = data(await mocap.POST('/product/video/center', { body: { page: 1, size: 10 } }));
    expect(list.list.map((v) => v.id).sort()).toEqual([up.id, viaGrant.id].sort());
    const waiting = data(await mocap.POST('/product/video/queryVideoById', { body: { id: up.id } }));
    expect(waiting.status).toBe(0);
    const queued = data(
      await mocap.POST('/product/video/checkWaiting/{id}', { params: { path: { id: up.id } } }),
    );
    expect(queued).toBeTruthy();

    // made: what it offers, and the download URL of its Mixamo zip
    await markMade(t.infra, t.services, up.id, ['Mixamo']);
    expect(data(await mocap.POST('/product/video/queryVideoById', { body: { id: up.id } })).status).toBe(2);
    const offers = data(await mocap.GET('/product/motion/video/{id}', { params: { path: { id: up.id } } }));
    expect(JSON.stringify(offers)).toContain('Mixamo');
    const dl = data(
      await mocap.GET('/product/motion/download/{bodyType}/{id}/{boneType}', {
        params: { path: { bodyType: 'video', id: up.id, boneType: 'Mixamo' } },
      }),
    );
    const signed = new URL(dl.paths[0]!, origin);
    const zip = await fetch(new URL(signed.pathname + signed.search, origin));
    expect(zip.status).toBe(200);
    const entries = unzip(new Uint8Array(await zip.arrayBuffer()));
    expect([...entries.keys()].some((n) => n.toLowerCase().endsWith('.fbx'))).toBe(true);

    // remake (a free one), then delete the other video
    const redo = data(await mocap.POST('/product/video/videoRedo', { body: { id: up.id } }));
    expect(redo).toBeTruthy();
    expect(data(await mocap.POST('/product/video/queryVideoById', { body: { id: up.id } })).status).toBe(0);
    data(await mocap.DELETE('/product/video/center/{id}', { params: { path: { id: viaGrant.id } } }));
    const after = data(await mocap.POST('/product/video/center', { body: { page: 1, size: 10 } }));
    expect(after.list.map((v) => v.id)).toEqual([up.id]);

    // company B's key cannot see A's video
    const other = createMocapClient({ baseUrl: origin, apiKey: keyB });
    expect(
      await codeOf(other.POST('/product/video/queryVideoById', { body: { id: up.id } }).then((r) => data(r))),
    ).toBe(Codes.INSUFFICIENT_PERMISSION);
    expect(data(await other.POST('/product/video/center', { body: {} })).total).toBe(0);
  }, 120_000);

  it('a key works on the public API only (the allow-list), and on its own route list; a revoked key gets 401', async () => {
    const raw = (method: string, path: string, key: string, body?: unknown) =>
      fetch(`${origin}/product${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? null : JSON.stringify(body),
      }).then(async (r) => ((await r.json()) as { code: number }).code);
    // routes a logged-in company may call, but not with a key
    for (const [m, p, body] of [
      ['GET', '/video/getLastModelType'],
      ['GET', '/cos/sts/download'],
      ['POST', '/companyOrder/queryAll', {}],
      ['PUT', '/video/fbxs', { id: 1, boneType: 'Mixamo' }],
      ['GET', '/company/apiKeys'],
      ['POST', '/user/search', {}],
    ] as [string, string, unknown?][])
      expect(await raw(m, p, keyA, body), `${m} ${p}`).toBe(Codes.INSUFFICIENT_PERMISSION);
    // the same account logged in may
    expect((await t.call('GET', '/product/video/getLastModelType', { token: a.token })).code).toBe(0);
    expect(await raw('GET', '/auth/company/info', keyA)).toBe(0);

    // a key with its own route list: those operations only
    const narrow = await t.call<{ key: string; id: number; routes: string[] | null }>(
      'POST',
      '/product/company/apiKeys',
      {
        token: a.token,
        body: {
          name: 'read only',
          routes: ['GET /product/motion/boneTypes', 'GET /product/auth/company/info'],
        },
      },
    );
    expect(narrow.code, narrow.message).toBe(0);
    expect(narrow.data.routes).toEqual(['GET /product/auth/company/info', 'GET /product/motion/boneTypes']);
    expect(await raw('GET', '/auth/company/info', narrow.data.key)).toBe(0);
    expect(await raw('GET', '/motion/boneTypes', narrow.data.key)).toBe(0);
    expect(await raw('POST', '/video/center', narrow.data.key, {})).toBe(Codes.INSUFFICIENT_PERMISSION);
    expect(await raw('POST', '/video/center', keyA, {})).toBe(0);
    const listed = await t.call<{ id: number; routes: string[] | null }[]>(
      'GET',
      '/product/company/apiKeys',
      {
        token: a.token,
      },
    );
    expect(listed.data.find((k) => k.id === narrow.data.id)?.routes).toHaveLength(2);
    expect(listed.data.every((k) => k.id === narrow.data.id || k.routes === null)).toBe(true);
    for (const routes of [['GET /product/user/search'], ['POST /product/video/center/{id}'], []]) {
      const bad = await t.call('POST', '/product/company/apiKeys', {
        token: a.token,
        body: { name: 'x', routes },
      });
      expect(bad.code, JSON.stringify(routes)).toBe(Codes.PARAMETER_ERROR);
    }

    const tmp = await newKey(a.token, 'to revoke');
    const mocap = createMocapClient({ baseUrl: origin, apiKey: tmp.key });
    expect(data(await mocap.GET('/product/auth/company/info')).user.id).toBe(a.id);
    await t.call('DELETE', `/product/company/apiKeys/${tmp.id}`, { token: a.token });
    const r = await mocap.GET('/product/auth/company/info');
    expect(r.response.status).toBe(401);
    expect(await codeOf(Promise.resolve(r).then((x) => data(x)))).toBe(Codes.UNAUTHENTICATED);
  });

  it('verifyWebhook agrees with the server signature; a replay outside the window or another body fails', async () => {
    const body = JSON.stringify({ id: 'evt_1', type: 'video.made', data: { videoId: 7 } });
    const now = Math.floor(Date.now() / 1000);
    const header = signWebhook('whsec_test', body, now);
    expect(await verifyWebhook('whsec_test', header, body, now)).toBe(true);
    expect(await verifyWebhook('whsec_test', header, body, now + 301)).toBe(false);
    expect(await verifyWebhook('whsec_test', header, `${body} `, now)).toBe(false);
    expect(await verifyWebhook('whsec_other', header, body, now)).toBe(false);
    expect(await verifyWebhook('whsec_test', undefined, body, now)).toBe(false);
  });
});
