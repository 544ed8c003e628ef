/**
 * Issue 15 (what a first-time user trips over), server side: byte ranges on stored files, the embedded mail's
 * path and code on the console, SMTP as one variable, zips per plan, checkMd5, and the judged result (15.3:
 * confidence, free remakes granted by flagged results, refund of an unusable one).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { parseRange } from '../src/modules/cos/routes.ts';
import { type CaptureJobData, runChargeRef } from '../src/modules/jobs/service.ts';
import type { CaptureJudgement } from '../src/modules/video/ports.ts';
import { createVideoStore } from '../src/modules/video/store.ts';
import { databases, freePort, mainEnv, spawnMain, useServer } from './harness.ts';
import {
  type Fixtures,
  makeFixtures,
  markMade,
  unzip,
  uploadForm,
  uploadVideo,
  useFixtures,
} from './video-helpers.ts';

describe('15.1 parseRange', () => {
  it('reads the three forms of one range and refuses what lies past the end', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange('items=0-1', 100)).toBeNull();
  });
});

describe.each(databases)('15.1 stored files are served with byte ranges (local storage), on %s', (kind) => {
  const t = useServer(kind);
  it('206 with Content-Range for a range, Accept-Ranges on the whole file, 416 past the end', async () => {
    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
    await t.infra.storage.put('videos/u1/x/source.mp4', bytes, { contentType: 'video/mp4' });
    const url = new URL(
      await t.infra.storage.signedUrl('videos/u1/x/source.mp4', { expiresInS: 60, contentType: 'video/mp4' }),
      'http://x',
    );
    const get = (range?: string) =>
      t.app.inject({ method: 'GET', url: url.pathname + url.search, headers: range ? { range } : {} });
    const whole = await get();
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.equals(bytes)).toBe(true);
    const mid = await get('bytes=2500-2599');
    expect(mid.statusCode).toBe(206);
    expect(mid.headers['content-range']).toBe('bytes 2500-2599/5000');
    expect(mid.headers['content-length']).toBe('100');
    expect(mid.rawPayload.equals(bytes.subarray(2500, 2600))).toBe(true);
    const tail = await get('bytes=-10');
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(bytes.subarray(4990))).toBe(true);
    const past = await get('bytes=6000-');
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe('bytes */5000');
  });
});

describe('15.2 where the verification mail goes', () => {
  it('SMTP is one variable: SMTP_URL', () => {
    const c = loadConfig({ SMTP_URL: 'smtps://mailer%40example.com:p%40ss@smtp.example.com' });
    expect(c.mail).toMatchObject({
      kind: 'smtp',
      host: 'smtp.example.com',
      port: 465,
      secure: true,
      user: 'mailer@example.com',
      pass: 'p@ss',
    });
    expect(loadConfig({ SMTP_URL: 'smtp://smtp.example.com' }).mail).toMatchObject({
      port: 587,
      secure: false,
    });
    expect(loadConfig({}).mail.kind).toBe('outbox');
    expect(() => loadConfig({ SMTP_URL: 'http://x' })).toThrow(/SMTP_URL/);
  });

  it('embedded mode: npm start prints each mail’s path and code on the console', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mocap-mail-'));
    const port = await freePort();
    const env = mainEnv(dataDir, port);
    delete (env as Record<string, string | undefined>).NODE_ENV;
    const main = spawnMain(env);
    try {
      await main.started;
      const r = await fetch(`http://127.0.0.1:${port}/product/code/newcomer@example.com/1`, {
        method: 'POST',
      });
      expect(((await r.json()) as { code: number }).code).toBe(0);
      await waitFor(() => /mail to newcomer@example\.com \(code \d{4}\)/.test(main.out()));
      const m = /mail to newcomer@example\.com \(code (\d{4})\): .* saved as (\S+\.json)/.exec(main.out());
      expect(m).not.toBeNull();
      const mail = JSON.parse(readFileSync(m![2]!, 'utf8')) as { subject: string; to: string };
      expect(mail.to).toBe('newcomer@example.com');
      expect(mail.subject).toContain(m![1]!);
      expect(m![2]!.startsWith(join(dataDir, 'outbox'))).toBe(true);
    } finally {
      await main.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

async function waitFor(cond: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(databases)('15.4 downloads hold what the plan allows, on %s', (kind) => {
  const t = useServer(kind, { env: { CAPTURE_MODEL: 'lite' } });
  const fx = useFixtures();
  const names = async (url: string) => {
    const r = await t.fetchUrl(url);
    return [...unzip(r.rawPayload).keys()].sort();
  };
  const madeVideo = async (token: string, i: number) => {
    const form = uploadForm(fx.synthetic(i, 2), { name: `v${i}`, tags: 'x' });
    const r = await uploadVideo(t.app, token, form);
    await markMade(t.infra, t.services, r.id, ['Mixamo', 'UnityAnim', 'bvh']);
    return r.id as number;
  };
  /** The file names in the zip of `GET /motion/download/video/{id}/{boneType}`. */
  const zipNames = async (token: string, id: number, boneType: string) => {
    const dl = await t.call<{ paths: string[] }>('GET', `/product/motion/download/video/${id}/${boneType}`, {
      token,
    });
    return names(dl.data.paths[0]!);
  };

  it('a free plan’s Mixamo zip has no BVH; monthly keeps .anim, drops BVH; yearly gets everything', async () => {
    const free = await t.register(`zfree-${kind}@example.com`);
    const id = await madeVideo(free.token, 61);
    const dl = await t.call<{ paths: string[] }>('GET', `/product/motion/download/video/${id}/Mixamo`, {
      token: free.token,
    });
    expect(dl.code, dl.message).toBe(0);
    const freeNames = await names(dl.data.paths[0]!);
    expect(freeNames.some((n) => n.endsWith('.fbx'))).toBe(true);
    expect(freeNames.some((n) => n.endsWith('.bvh'))).toBe(false);
    expect(freeNames).toContain('README.txt');
    // The FBX preview of a free plan carries no BVH either.
    const pv = await t.call<{ url: string }>('GET', `/product/motion/fbx/${id}/anm`, { token: free.token });
    expect((await names(pv.data.url)).some((n) => n.endsWith('.bvh'))).toBe(false);
    // Bulk: the inner zip too.
    const bulk = await t.call<{ paths: string[] }>('POST', '/product/motion/MotionBulkDownload', {
      token: free.token,
      body: { ids: [id], boneType: 'Mixamo' },
    });
    const u = new URL(bulk.data.paths[0]!, 'http://x');
    const outer = unzip((await t.app.inject({ method: 'GET', url: u.pathname + u.search })).rawPayload);
    for (const inner of outer.values())
      expect([...unzip(inner).keys()].some((n) => n.endsWith('.bvh'))).toBe(false);

    const setPlan = async (userId: number, level: 'monthly' | 'yearly') =>
      t.infra.store.repos.users.update(
        userId,
        { level, vexpiredAt: t.clock.now() + 86_400_000 },
        t.clock.now(),
      );
    const monthly = await t.register(`zmonth-${kind}@example.com`);
    await setPlan(monthly.id, 'monthly');
    const mid = await madeVideo(monthly.token, 62);
    expect((await zipNames(monthly.token, mid, 'Mixamo')).some((n) => n.endsWith('.bvh'))).toBe(false);
    const m2names = await zipNames(monthly.token, mid, 'UnityAnim');
    expect(m2names.some((n) => n.endsWith('.anim'))).toBe(true);
    expect(m2names.some((n) => n.endsWith('.fbx'))).toBe(true);

    const yearly = await t.register(`zyear-${kind}@example.com`);
    await setPlan(yearly.id, 'yearly');
    const yid = await madeVideo(yearly.token, 63);
    expect((await zipNames(yearly.token, yid, 'Mixamo')).some((n) => n.endsWith('.bvh'))).toBe(true);
  });

  it('GET /motion/boneTypes answers (the web asked for it on every page and got 404)', async () => {
    const r = await t.call<{ name: string; format: string; free: boolean; needs: string | null }[]>(
      'GET',
      '/product/motion/boneTypes',
    );
    expect(r.status).toBe(200);
    expect(r.data.length).toBe(15);
    expect(r.data.find((b) => b.name === 'Mixamo')).toEqual({
      name: 'Mixamo',
      format: 'FBX',
      free: true,
      needs: null,
    });
    expect(r.data.find((b) => b.name === 'bvh')?.free).toBe(false);
    expect(r.data.find((b) => b.name === 'OnlyFace')?.needs).toBe('face');
  });
});

describe.each(databases)('15.5 POST /video/checkMd5, on %s', (kind) => {
  const t = useServer(kind, { env: { CAPTURE_MODEL: 'lite' } });
  const fx = useFixtures();
  it('tells me whether I uploaded this file before (mine only), nothing charged', async () => {
    const me = await t.register(`md5-me-${kind}@example.com`);
    const other = await t.register(`md5-other-${kind}@example.com`);
    const path = fx.synthetic(71, 1);
    const md5 = createHash('md5').update(readFileSync(path)).digest('hex');
    const before = await t.call<{ duplicate: boolean }>('POST', '/product/video/checkMd5', {
      token: me.token,
      body: { md5 },
    });
    expect(before.data).toEqual({ duplicate: false, id: null, name: null });
    const form = uploadForm(path, { name: 'first', tags: 'x' });
    const up = await t.app.inject({
      method: 'POST',
      url: '/product/video/upload',
      headers: { authorization: `Bearer ${me.token}`, ...form.headers },
      payload: form.payload,
    });
    expect(up.json().code).toBe(0);
    const coins = await t.services.coins.balance(me.id);
    const after = await t.call('POST', '/product/video/checkMd5', {
      token: me.token,
      body: { md5: md5.toUpperCase() },
    });
    expect(after.data).toEqual({ duplicate: true, id: up.json().data.id, name: 'first' });
    expect(await t.services.coins.balance(me.id)).toBe(coins);
    // Someone else's files are not told.
    const theirs = await t.call('POST', '/product/video/checkMd5', { token: other.token, body: { md5 } });
    expect(theirs.data).toEqual({ duplicate: false, id: null, name: null });
    expect(
      (await t.call('POST', '/product/video/checkMd5', { token: me.token, body: { md5: 'xyz' } })).code,
    ).toBe(400);
  });
});

describe.each(databases)(
  '15.3 the judged result: confidence, free remakes, refund when unusable, on %s',
  (kind) => {
    const t = useServer(kind, { env: { CAPTURE_MODEL: 'lite' } });
    let fx: Fixtures;
    beforeAll(() => {
      fx = makeFixtures();
    });
    afterAll(() => rmSync(fx.dir, { recursive: true, force: true }));

    const gap: CaptureJudgement = {
      confidence: 0.31,
      ranges: [{ from: 0, to: 1.5, confidence: 0, reasons: ['gap'] }],
      unusable: true,
    };
    const jump: CaptureJudgement = {
      confidence: 0.82,
      ranges: [{ from: 0.4, to: 0.8, confidence: 0.18, reasons: ['jump', 'pose'] }],
      unusable: false,
    };
    const clean: CaptureJudgement = { confidence: 0.93, ranges: [], unusable: false };

    /** Runs the video's current job through the worker's hooks, with the judgement a capture would send. */
    const finish = async (id: number, judgement: CaptureJudgement) => {
      const v = (await videos().findById(id))!;
      const data: CaptureJobData = {
        videoId: id,
        userId: v.userId,
        mode: 'capture',
        seq: v.jobSeq,
        chargeRef: runChargeRef(v),
      };
      expect(await t.services.captureJobs.started(data, 1)).not.toBeNull();
      await t.services.captureJobs.completed(data, { zips: {}, frameCount: 60, fps: 30, judgement });
      await t.services.captureJobs.queue.remove(`capture-${id}-${v.jobSeq}`);
    };
    type View = {
      freeRemakes: number;
      judgement: {
        confidence: number;
        unusable: boolean;
        refundedCoins: number;
        judgeRemakes: number;
        ranges: unknown[];
      } | null;
    };
    const view = async (token: string, id: number) => {
      const r = await t.call<View>('POST', '/product/video/queryVideoById', { token, body: { id } });
      expect(r.code, r.message).toBe(0);
      return r.data;
    };
    const videos = () => createVideoStore(t.infra.database).repos.videos;
    const remake = (token: string, id: number, paid = false) =>
      t.call<{ charged: number }>('POST', '/product/video/videoRedo', { token, body: { id, paid } });

    it('an unusable result is refunded with a ledger row; flagged results grant free remakes, two at most', async () => {
      const me = await t.register(`judge-${kind}@example.com`);
      const start = await t.services.coins.balance(me.id);
      const form = uploadForm(fx.synthetic(81, 2), { name: 'gym', tags: 'x' });
      const up = await uploadVideo(t.app, me.token, form);
      const id = up.id as number;
      expect(await t.services.coins.balance(me.id)).toBe(start - 2);
      expect((await view(me.token, id)).judgement).toBeNull();

      // 1. Unusable (a long gap over most of the clip): the upload's 2 V come back, one ledger row; +1 free remake.
      await finish(id, gap);
      expect(await t.services.coins.balance(me.id)).toBe(start);
      const v0 = (await videos().findById(id))!;
      const refund = await t.infra.store.repos.ledger.findByRef(`refund:${v0.chargeRef}`);
      expect(refund).toMatchObject({ userId: me.id, amount: 2, reason: 'refund' });
      expect(v0.confidence).toBe(0.31);
      expect(v0.refunded).toBe(true);
      const a = await view(me.token, id);
      expect(a.judgement).toMatchObject({
        confidence: 0.31,
        unusable: true,
        refundedCoins: 2,
        judgeRemakes: 1,
      });
      expect(a.freeRemakes).toBe(2); // the free plan's 1 + 1 for the flagged result
      // Someone else sees the confidence and ranges, not my coins.
      const other = await t.register(`judge-other-${kind}@example.com`);
      expect((await t.call('PUT', `/product/video/square/${id}/1`, { token: me.token })).code).toBe(0);
      expect((await view(other.token, id)).judgement).toMatchObject({
        confidence: 0.31,
        unusable: true,
        refundedCoins: 0,
        judgeRemakes: 0,
      });

      // 2. The remake costs nothing; its result is flagged again (another person): one more free remake, no refund.
      const r1 = await remake(me.token, id);
      expect(r1.code, r1.message).toBe(0);
      expect(r1.data.charged).toBe(0);
      expect(await t.services.coins.balance(me.id)).toBe(start);
      await finish(id, jump);
      const b = await view(me.token, id);
      expect(b.judgement).toMatchObject({ unusable: false, refundedCoins: 0, judgeRemakes: 2 });
      expect(b.freeRemakes).toBe(2);

      // 3. Flagged a third time: the cap (2 per video) holds, no more grants.
      expect((await remake(me.token, id)).data.charged).toBe(0);
      await finish(id, jump);
      expect((await view(me.token, id)).freeRemakes).toBe(1);
      expect((await remake(me.token, id)).data.charged).toBe(0);
      await finish(id, clean);
      const c = await view(me.token, id);
      expect(c.freeRemakes).toBe(0);
      expect(c.judgement).toMatchObject({ confidence: 0.93, ranges: [], unusable: false, refundedCoins: 0 });
      expect(await t.services.coins.balance(me.id)).toBe(start);

      // 4. None left: the spec's message; a paid remake (1 V per 2 s) whose result is unusable gets its 1 V back.
      const none = await remake(me.token, id);
      expect(none.code).toBe(307);
      expect(none.message).toBe('您的视频免费制作次数已用完');
      const paid = await remake(me.token, id, true);
      expect(paid.code, paid.message).toBe(0);
      expect(paid.data.charged).toBe(1);
      expect(await t.services.coins.balance(me.id)).toBe(start - 1);
      await finish(id, gap);
      expect(await t.services.coins.balance(me.id)).toBe(start);
      expect((await view(me.token, id)).judgement?.refundedCoins).toBe(1);
      // Each refund once: the run's hooks again change nothing.
      const v1 = (await videos().findById(id))!;
      await t.services.captureJobs.completed(
        { videoId: id, userId: me.id, mode: 'capture', seq: v1.jobSeq, chargeRef: runChargeRef(v1) },
        { zips: {}, judgement: gap },
      );
      expect(await t.services.coins.balance(me.id)).toBe(start);
    });
  },
);
