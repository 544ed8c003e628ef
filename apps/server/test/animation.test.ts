/**
 * The animation library (issue 22) through the HTTP API on SQLite and PostgreSQL: seeded once from the shipped
 * CMU dance takes (seeding again adds nothing), browse by category/tag/keyword, the 3D preview's clip, collect,
 * buying once (charge = 1 V per second of motion with a ledger row; later downloads of any bone type free; too
 * few coins refused with nothing charged), zips that read back, and the administrator's publish/hide/delete
 * under the manageAnimation permission (a normal user refused with 406). The zips are made by the worker's export
 * jobs (the export queue, as the lower-body zips), never inside the request; the VMD-TDA zip is read back by
 * mmd-parser and checked against the clip.
 */

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Animation } from '@mocap/contracts';
import { createSkeleton, motionJson, restClip } from '@mocap/motion';
import { runTomokageWorker } from '@mocap/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVideoStore, VideoStatus } from '../src/index.ts';
import { databases, useServer } from './harness.ts';
import {
  markMade,
  multipart,
  postUpload,
  TESTDATA,
  unzip,
  uploadForm,
  useExportWorker,
  useFixtures,
} from './video-helpers.ts';

const fx = useFixtures();

const XBOT = join(TESTDATA, 'characters', 'mixamo_glb', 'Xbot.glb');
const GENE = join(TESTDATA, 'formats', 'mmd', 'Gene_light', 'Gene_light.pmx');

interface MmdParser {
  parseVmd(
    b: ArrayBuffer,
    lr: boolean,
  ): {
    motions: { boneName: string; frameNum: number; position: number[] }[];
  };
  parsePmx(b: ArrayBuffer, lr: boolean): { bones: { name: string }[] };
}
const arrayBuffer = (b: Uint8Array) =>
  b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
const correlation = (x: number[], y: number[]) => {
  const mx = x.reduce((s, v) => s + v, 0) / x.length;
  const my = y.reduce((s, v) => s + v, 0) / y.length;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < x.length; i++) {
    sxy += (x[i]! - mx) * (y[i]! - my);
    sxx += (x[i]! - mx) ** 2;
    syy += (y[i]! - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
};

type Anim = Animation;
interface PageOf<T> {
  list: T[];
  total: number;
  categories?: { category: string; count: number }[];
}

describe.each(databases)('animation library on %s', (kind) => {
  const t = useServer(kind);
  // Applying an animation to a digital human is a job of the worker's tomokage queue.
  let tomokageWorker: ReturnType<typeof runTomokageWorker> | undefined;
  beforeAll(() => {
    tomokageWorker = runTomokageWorker({
      queue: t.services.tomokage.applyQueue,
      tomokage: t.services.tomokage,
    });
  });
  afterAll(async () => tomokageWorker?.close());
  let a: { token: string; id: number };
  let b: { token: string; id: number };
  const { fetchUrl } = t;
  const search = (token: string, body: Record<string, unknown> = {}) =>
    t.call<PageOf<Anim>>('POST', '/product/animation/search', { token, body: { size: 100, ...body } });

  // The zips are made by the worker's export jobs.
  useExportWorker(t);

  beforeAll(async () => {
    a = await t.register(`anim-a-${kind}@example.com`);
    b = await t.register(`anim-b-${kind}@example.com`);
  });

  it('lists the shipped CMU takes once, by category, tag and keyword, with the CMU credit', async () => {
    const r = await t.call<PageOf<Anim>>('POST', '/product/animation/center', {
      token: a.token,
      body: { size: 100 },
    });
    expect(r.code, r.message).toBe(0);
    expect(r.data.total).toBe(19);
    expect(r.data.categories).toEqual([{ category: 'dance', count: 19 }]);
    const take = r.data.list.find((x) => x.name === 'CMU dance 05_02')!;
    expect(take.frameCount).toBe(281);
    expect(take.fps).toBe(30);
    expect(take.price).toBe(10); // 281 / 30 = 9.37 s → 10 V
    expect(take.credit).toContain('mocap.cs.cmu.edu');
    // The card's picture: an SVG rendered from the clip (four poses, limbs as strokes, a head each).
    const pic = await fetchUrl((take as Anim & { picture: string }).picture);
    expect(pic.statusCode).toBe(200);
    expect(pic.body.startsWith('<svg')).toBe(true);
    expect(pic.body.match(/<circle/g)?.length).toBe(4);
    expect(pic.body.match(/<line/g)!.length).toBeGreaterThan(40);
    const other = r.data.list.find((x) => x.name === 'CMU dance 05_03') as Anim & { picture: string };
    expect((await fetchUrl(other.picture)).body).not.toBe(pic.body);
    // Seeding again (a restart) adds nothing.
    (t.services.animation as unknown as { seeded: null }).seeded = null;
    expect(await t.services.animation.seed()).toBe(0);
    expect((await search(a.token)).data.total).toBe(19);
    expect((await search(a.token, { keyword: '05_03' })).data.list.map((x) => x.name)).toEqual([
      'CMU dance 05_03',
    ]);
    expect((await search(a.token, { tag: 'CMU' })).data.total).toBe(19);
    expect((await search(a.token, { tag: 'ballroom' })).data.total).toBe(0);
    expect((await search(a.token, { category: 'walk' })).data.total).toBe(0);
    expect((await t.call('POST', '/product/animation/search', { body: {} })).code).toBe(401);
  });

  it('previews: the detail signs the clip, which reads back as the take', async () => {
    const list = (await search(a.token, { keyword: '05_03' })).data.list;
    const d = await t.call<Anim & { clip: string }>('GET', `/product/animation/${list[0]!.id}`, {
      token: a.token,
    });
    expect(d.code, d.message).toBe(0);
    const res = await fetchUrl(d.data.clip);
    expect(res.statusCode).toBe(200);
    const clip = motionJson.read(res.body);
    expect(clip.frameCount).toBe(109);
    expect(clip.fps).toBe(30);
    expect((await t.call('GET', '/product/animation/999999', { token: a.token })).code).toBe(404);
  });

  it('collects and un-collects', async () => {
    const id = (await search(a.token, { keyword: '05_04' })).data.list[0]!.id;
    const on = await t.call<Anim>('PUT', `/product/animation/collect/${id}`, {
      token: a.token,
      body: { collected: true },
    });
    expect(on.data.collected).toBe(true);
    const mine = await search(a.token, { collected: true });
    expect(mine.data.list.map((x) => x.id)).toEqual([id]);
    expect((await search(b.token, { collected: true })).data.total).toBe(0);
    await t.call('PUT', `/product/animation/collect/${id}`, { token: a.token, body: { collected: false } });
    expect((await search(a.token, { collected: true })).data.total).toBe(0);
  });

  it('sells once: charged with a ledger row, later downloads free, zips read back; too few coins refused', async () => {
    const anim = (await search(a.token, { keyword: '05_02' })).data.list[0]!;
    const before = await t.services.coins.balance(a.id);
    expect(before).toBeGreaterThanOrEqual(anim.price);
    const url = (bone: string) => `/product/animation/download/0/${anim.id}/${bone}`;
    const first = await t.call<{ paths: string[]; charged: number; motionsName: string[] }>(
      'GET',
      url('Mixamo'),
      {
        token: a.token,
      },
    );
    expect(first.code, first.message).toBe(0);
    expect(first.data.charged).toBe(anim.price);
    expect(await t.services.coins.balance(a.id)).toBe(before - anim.price);
    const ledger = await t.infra.store.repos.ledger.findByRef(`animation:${anim.id}:u${a.id}`);
    expect(ledger?.amount).toBe(-anim.price);
    const zip = await fetchUrl(first.data.paths[0]!);
    expect(zip.statusCode).toBe(200);
    const files = unzip(zip.rawPayload);
    expect([...files.keys()].some((n) => n.toLowerCase().endsWith('.fbx'))).toBe(true);
    // Again, and another bone type: free.
    const again = await t.call<{ charged: number }>('GET', url('Mixamo'), { token: a.token });
    expect(again.data.charged).toBe(0);
    const ue = await t.call<{ paths: string[]; charged: number }>('GET', url('Unreal5.6'), {
      token: a.token,
    });
    expect(ue.code, ue.message).toBe(0);
    expect(ue.data.charged).toBe(0);
    expect(unzip((await fetchUrl(ue.data.paths[0]!)).rawPayload).size).toBeGreaterThan(0);
    // Each zip was a job of the export queue, worked by the worker (not written in the request).
    for (const bone of ['Mixamo', 'Unreal5.6']) {
      const job = await t.services.motion.exportQueue.getJob(`animation-${anim.id}-${bone}`);
      expect(job?.state, bone).toBe('completed');
      expect(job?.data).toEqual({ kind: 'animationZip', animationId: anim.id, boneType: bone });
    }
    // VMD (MikuMikuDance), read back by mmd-parser (an independent reader, as the exporters' tests): keys over the
    // whole take at 30 fps, on bones the MMD model Gene has, and the centre bone bobs with the clip's hips.
    // (a free plan downloads FBX bone types only, as for videos)
    expect((await t.call('GET', url('VMD-TDA'), { token: a.token })).message).toBe(
      '免费版用户只能选择 FBX 格式',
    );
    const setLevel = (level: 'monthly' | 'free', until: number | null) =>
      t.infra.store.repos.users.update(a.id, { level, vexpiredAt: until }, t.clock.now());
    await setLevel('monthly', t.clock.now() + 86_400_000);
    const vmd = await t.call<{ paths: string[]; charged: number }>('GET', url('VMD-TDA'), { token: a.token });
    await setLevel('free', null);
    expect(vmd.code, vmd.message).toBe(0);
    expect(vmd.data.charged).toBe(0);
    const vzip = unzip((await fetchUrl(vmd.data.paths[0]!)).rawPayload);
    const vmdBytes = [...vzip.entries()].find(([k]) => k.endsWith('.vmd'))?.[1];
    expect(vmdBytes?.subarray(0, 20).toString('latin1')).toBe('Vocaloid Motion Data');
    const modPath: string = 'mmd-parser';
    const { Parser } = (await import(modPath)) as { Parser: new () => MmdParser };
    const parsed = new Parser().parseVmd(arrayBuffer(vmdBytes!), false);
    const centre = parsed.motions
      .filter((m) => m.boneName === 'センター')
      .sort((p, q) => p.frameNum - q.frameNum);
    expect(centre.length).toBeGreaterThan(anim.frameCount / 2);
    expect(centre.at(-1)!.frameNum).toBe(anim.frameCount - 1);
    for (const b of ['左足ＩＫ', '右足ＩＫ', '上半身', '頭']) {
      expect(
        parsed.motions.some((m) => m.boneName === b),
        b,
      ).toBe(true);
    }
    const detail = await t.call<{ clip: string }>('GET', `/product/animation/${anim.id}`, { token: a.token });
    const clip = motionJson.read((await fetchUrl(detail.data.clip)).body);
    // The hips' ground path is on センター (MMD's z points the other way), their height on グルーブ.
    const root = (k: { frameNum: number }, axis: number) => clip.rootPositions[k.frameNum * 3 + axis]!;
    expect(
      correlation(
        centre.map((k) => root(k, 0)),
        centre.map((k) => k.position[0]!),
      ),
    ).toBeGreaterThan(0.95);
    expect(
      correlation(
        centre.map((k) => root(k, 2)),
        centre.map((k) => -k.position[2]!),
      ),
    ).toBeGreaterThan(0.95);
    const groove = parsed.motions.filter((m) => m.boneName === 'グルーブ');
    expect(groove.length).toBe(centre.length);
    expect(
      correlation(
        groove.map((k) => root(k, 1)),
        groove.map((k) => k.position[1]!),
      ),
    ).toBeGreaterThan(0.95);
    if (existsSync(GENE)) {
      const gene = new Set(
        new Parser().parsePmx(arrayBuffer(readFileSync(GENE)), false).bones.map((b) => b.name),
      );
      for (const n of new Set(parsed.motions.map((m) => m.boneName))) expect(gene.has(n), n).toBe(true);
    }
    expect(await t.services.coins.balance(a.id)).toBe(before - anim.price);
    expect((await search(a.token, { keyword: '05_02' })).data.list[0]!.purchased).toBe(true);
    // Bad input.
    expect((await t.call('GET', url('NoSuchBone'), { token: a.token })).code).toBe(400);
    expect(
      (await t.call('GET', `/product/animation/download/1/${anim.id}/Mixamo`, { token: a.token })).code,
    ).toBe(307);
    // b spends all but 1 coin: refused, nothing charged, nothing bought.
    const bb = await t.services.coins.balance(b.id);
    await t.services.coins.change(b.id, -(bb - 1), 'admin', `anim-test-drain-${kind}`);
    const poor = await t.call('GET', url('Mixamo'), { token: b.token });
    expect(poor.code).toBe(307);
    expect(poor.message).toContain('V币余额不足');
    expect(await t.services.coins.balance(b.id)).toBe(1);
    expect((await search(b.token, { keyword: '05_02' })).data.list[0]!.purchased).toBe(false);
  });

  it.skipIf(!existsSync(XBOT))(
    'a digital human applies a library animation once it is bought (free then), not before',
    async () => {
      const c = await t.register(`anim-c-${kind}@example.com`);
      const form = multipart([{ name: 'file', file: { filename: 'Xbot.glb', data: readFileSync(XBOT) } }]);
      const up = (
        await t.app.inject({
          method: 'POST',
          url: '/product/tomokage/upload',
          headers: { authorization: `Bearer ${c.token}`, ...form.headers },
          payload: form.payload,
        })
      ).json() as { code: number; message: string; data: { id: number } };
      expect(up.code, up.message).toBe(0);
      const anim = (await search(c.token, { keyword: '05_03' })).data.list[0]!;
      const apply = () =>
        t.call<{ id: number; formats: string[]; charged: number }>(
          'POST',
          `/product/tomokage/apply/${up.data.id}`,
          {
            token: c.token,
            body: { kind: 'animation', id: anim.id },
          },
        );
      const before = await t.services.coins.balance(c.id);
      const refused = await apply();
      expect(refused.code).toBe(307);
      expect(refused.message).toBe('请先在动画库购买该动画');
      expect(await t.services.coins.balance(c.id)).toBe(before);
      const motions = () =>
        t.call<{ kind: string; id: number }[]>('GET', '/product/tomokage/motions', { token: c.token });
      expect((await motions()).data.some((m) => m.kind === 'animation')).toBe(false);
      // Buy it in the library (a download), then apply: free, files made.
      const bought = await t.call<{ charged: number }>(
        'GET',
        `/product/animation/download/0/${anim.id}/Mixamo`,
        {
          token: c.token,
        },
      );
      expect(bought.data.charged).toBe(anim.price);
      expect((await motions()).data.some((m) => m.kind === 'animation' && m.id === anim.id)).toBe(true);
      const ap = await apply();
      expect(ap.code, ap.message).toBe(0);
      expect(ap.data.charged).toBe(0);
      expect(ap.data.formats).toContain('fbx');
      expect(await t.services.coins.balance(c.id)).toBe(before - anim.price);
      const fbx = await t.call<{ paths: string[] }>('GET', `/product/tomokage/download/${ap.data.id}/fbx`, {
        token: c.token,
      });
      expect((await fetchUrl(fbx.data.paths[0]!)).rawPayload.subarray(0, 18).toString()).toBe(
        'Kaydara FBX Binary',
      );
      // An unknown animation: 404.
      expect(
        await t.code('POST', `/product/tomokage/apply/${up.data.id}`, {
          token: c.token,
          body: { kind: 'animation', id: 999999 },
        }),
      ).toBe(404);
    },
    120_000,
  );

  it('administrators publish, hide and delete (manageAnimation); users are refused', async () => {
    expect((await t.call('POST', '/product/admin/animation/search', { token: a.token, body: {} })).code).toBe(
      406,
    );
    const admin = await t.adminToken();
    const all = await t.call<PageOf<Anim>>('POST', '/product/admin/animation/search', {
      token: admin,
      body: { size: 100 },
    });
    expect(all.code, all.message).toBe(0);
    expect(all.data.total).toBe(19);
    const target = all.data.list.find((x) => x.name === 'CMU dance 05_05')!;
    const hid = await t.call<Anim>('POST', '/product/admin/animation/publish', {
      token: admin,
      body: { id: target.id, published: false },
    });
    expect(hid.data.status).toBe(0);
    expect((await search(a.token)).data.total).toBe(18);
    expect((await t.call('GET', `/product/animation/${target.id}`, { token: a.token })).code).toBe(404);
    const hidden = await t.call<PageOf<Anim>>('POST', '/product/admin/animation/search', {
      token: admin,
      body: { status: 0 },
    });
    expect(hidden.data.list.map((x) => x.id)).toEqual([target.id]);
    await t.call('POST', '/product/admin/animation/publish', {
      token: admin,
      body: { id: target.id, published: true },
    });
    expect((await search(a.token)).data.total).toBe(19);

    const clipUrl = (
      await t.call<{ clip: string }>('GET', `/product/animation/${target.id}`, { token: a.token })
    ).data.clip;
    const del = await t.call<{ deleted: number[] }>('POST', '/product/admin/animation/delete', {
      token: admin,
      body: { ids: [target.id] },
    });
    expect(del.data.deleted).toEqual([target.id]);
    expect((await search(a.token)).data.total).toBe(18);
    expect((await fetchUrl(clipUrl)).statusCode).not.toBe(200);
    expect(
      await t.code('POST', '/product/admin/animation/publish', {
        token: admin,
        body: { id: target.id, published: true },
      }),
    ).toBe(404);
    // A deleted take is not seeded back.
    (t.services.animation as unknown as { seeded: null }).seeded = null;
    expect(await t.services.animation.seed()).toBe(0);
    expect((await search(a.token)).data.total).toBe(18);
  });
  // The capture shared in the test below (used again by the redone test).
  let sharedCapture:
    | { owner: { token: string; id: number }; videoId: number; animationId: number }
    | undefined;

  it('an owner shares a made square capture as an animation; an administrator publishes it; others buy it', async () => {
    const owner = await t.register(`anim-share-${kind}@example.com`);
    const form = uploadForm(fx.synthetic(31, 2), { name: 'shared clip', tags: 'x' });
    const up = await postUpload(t.app, owner.token, form);
    expect(up.code, up.message).toBe(0);
    const share = () =>
      t.call<Anim & { picture: string }>('POST', '/product/animation/upload', {
        token: owner.token,
        body: { videoId: up.data.id },
      });
    expect((await share()).message).toBe('only a made capture can be shared as an animation');
    await markMade(t.infra, t.services, up.data.id);
    expect((await share()).message).toBe('share the video to the square first');
    await t.call('PUT', `/product/video/square/${up.data.id}/1`, { token: owner.token });
    const before = (await search(a.token)).data.total;
    const shared = await share();
    expect(shared.code, shared.message).toBe(0);
    expect(shared.data).toMatchObject({
      name: 'shared clip',
      category: 'capture',
      status: 0,
      frameCount: 10,
      fps: 30,
    });
    expect((await fetchUrl(shared.data.picture)).body.startsWith('<svg')).toBe(true);
    expect(shared.data.purchased).toBe(true); // the owner's own: free
    expect(shared.data.mine).toBe(true);
    // Hidden until an administrator publishes it; once per video; only by its owner.
    expect((await search(a.token)).data.total).toBe(before);
    expect((await share()).message).toBe('this video is already in the animation library');
    expect(
      (await t.call('POST', '/product/animation/upload', { token: b.token, body: { videoId: up.data.id } }))
        .code,
    ).toBe(404);
    const admin = await t.adminToken();
    await t.call('POST', '/product/admin/animation/publish', {
      token: admin,
      body: { id: shared.data.id, published: true },
    });
    const listed = await search(a.token, { category: 'capture' });
    expect(listed.data.list.map((x) => x.id)).toEqual([shared.data.id]);
    // Marked as theirs for its owner only (they may redo it).
    expect(listed.data.list[0]!.mine).toBe(false);
    const ownView = (await search(owner.token, { category: 'capture' })).data.list[0]!;
    expect(ownView.mine).toBe(true);
    expect((await search(owner.token, { keyword: '05_02' })).data.list[0]!.mine).toBe(false);
    // Another user buys it (1 V for 10 frames) and downloads a zip the worker makes from the copied clip.
    const bal = await t.services.coins.balance(a.id);
    const dl = await t.call<{ paths: string[]; charged: number }>(
      'GET',
      `/product/animation/download/0/${shared.data.id}/Mixamo`,
      { token: a.token },
    );
    expect(dl.code, dl.message).toBe(0);
    expect(dl.data.charged).toBe(1);
    expect(await t.services.coins.balance(a.id)).toBe(bal - 1);
    const files = unzip((await fetchUrl(dl.data.paths[0]!)).rawPayload);
    expect([...files.keys()].some((n) => n.toLowerCase().endsWith('.fbx'))).toBe(true);
    sharedCapture = { owner, videoId: up.data.id, animationId: shared.data.id };
  });

  interface Urls {
    clip: string;
    picture: string;
    zips: { boneType: string; fileName: string; url: string }[];
  }
  const urlsOf = (token: string, id: number) =>
    t.call<Urls>('GET', `/product/animation/cos_url/${id}`, { token });

  it('cos_url signs the clip and picture for anyone, the made zips only for a buyer; pictures signs the picture', async () => {
    const anim = (await search(a.token, { keyword: '05_02' })).data.list[0]!; // a bought it (Mixamo, Unreal5.6, VMD-TDA made)
    const mine = await urlsOf(a.token, anim.id);
    expect(mine.code, mine.message).toBe(0);
    expect(motionJson.read((await fetchUrl(mine.data.clip)).body).frameCount).toBe(anim.frameCount);
    expect((await fetchUrl(mine.data.picture)).body.startsWith('<svg')).toBe(true);
    // a is on the free plan again: the VMD-TDA zip made while monthly is not offered (FBX bone types only).
    expect(mine.data.zips.map((z) => z.boneType)).toEqual(['Mixamo', 'Unreal5.6']);
    const mixamo = mine.data.zips.find((z) => z.boneType === 'Mixamo')!;
    const files = unzip((await fetchUrl(mixamo.url)).rawPayload);
    expect([...files.keys()].some((n) => n.toLowerCase().endsWith('.fbx'))).toBe(true);
    // b did not buy it: the preview, not the files.
    const theirs = await urlsOf(b.token, anim.id);
    expect(theirs.code, theirs.message).toBe(0);
    expect(theirs.data.zips).toEqual([]);
    expect((await fetchUrl(theirs.data.clip)).statusCode).toBe(200);
    const pic = await t.call<{ picture: string }>('GET', `/product/animation/pictures/${anim.id}`, {
      token: b.token,
    });
    expect((await fetchUrl(pic.data.picture)).body).toBe((await fetchUrl(mine.data.picture)).body);
    expect((await urlsOf(a.token, 999999)).code).toBe(404);
    expect((await t.call('GET', `/product/animation/cos_url/${anim.id}`)).code).toBe(401);
  });

  it('redone: the owner makes a shared capture again from the video (after a repair); hidden until published again; buyers keep it', async () => {
    expect(sharedCapture).toBeDefined();
    const { owner, videoId, animationId } = sharedCapture!;
    const before = (await urlsOf(owner.token, animationId)).data;
    const oldPicture = (await fetchUrl(before.picture)).body;
    // The owner repairs the capture: the video's clip is now 75 frames (2.5 s) of another motion.
    const v = await createVideoStore(t.infra.database).repos.videos.findById(videoId);
    const longer = restClip(createSkeleton(), 75, 30);
    for (let f = 0; f < 75; f++) longer.rootPositions[f * 3 + 1]! += 0.2 * Math.sin(f / 5);
    await t.infra.storage.put(v!.outputs.clipKey!, motionJson.write(longer));
    // Only the owner may redo it.
    const other = await t.call('POST', `/product/animation/redone/${animationId}`, { token: b.token });
    expect(other.code).toBe(307);
    expect(other.message).toBe('only the owner of a shared capture can redo it');
    const take = (await search(a.token, { keyword: '05_03' })).data.list[0]!;
    expect(
      (await t.call('POST', `/product/animation/redone/${take.id}`, { token: owner.token })).message,
    ).toBe('only the owner of a shared capture can redo it');
    const redone = await t.call<Anim & { picture: string }>(
      'POST',
      `/product/animation/redone/${animationId}`,
      {
        token: owner.token,
      },
    );
    expect(redone.code, redone.message).toBe(0);
    expect(redone.data).toMatchObject({ status: 0, frameCount: 75, fps: 30, duration: 2.5, price: 3 });
    expect((await fetchUrl(redone.data.picture)).body).not.toBe(oldPicture);
    // Hidden again: gone from the list and from a's view, still the owner's to preview (the new clip).
    expect((await search(a.token, { category: 'capture' })).data.total).toBe(0);
    expect((await urlsOf(a.token, animationId)).code).toBe(404);
    const own = await urlsOf(owner.token, animationId);
    expect(own.code, own.message).toBe(0);
    expect(motionJson.read((await fetchUrl(own.data.clip)).body).frameCount).toBe(75);
    // Published again: a (who bought it) downloads free, a zip made anew from the 75 frames; the old zip is gone.
    const admin = await t.adminToken();
    await t.call('POST', '/product/admin/animation/publish', {
      token: admin,
      body: { id: animationId, published: true },
    });
    expect((await urlsOf(a.token, animationId)).data.zips).toEqual([]);
    // (bvh is in the yearly plan's formats only: a is yearly for it)
    const setLevel = (level: 'yearly' | 'free', until: number | null) =>
      t.infra.store.repos.users.update(a.id, { level, vexpiredAt: until }, t.clock.now());
    await setLevel('yearly', t.clock.now() + 86_400_000);
    const bal = await t.services.coins.balance(a.id);
    const dl = await t.call<{ paths: string[]; charged: number }>(
      'GET',
      `/product/animation/download/0/${animationId}/bvh`,
      { token: a.token },
    );
    expect(dl.code, dl.message).toBe(0);
    expect(dl.data.charged).toBe(0);
    expect(await t.services.coins.balance(a.id)).toBe(bal);
    const bvh = [...unzip((await fetchUrl(dl.data.paths[0]!)).rawPayload).entries()].find(([n]) =>
      n.endsWith('.bvh'),
    )?.[1];
    expect(bvh?.toString('utf8')).toMatch(/Frames:\s*75\b/);
    expect((await urlsOf(a.token, animationId)).data.zips.map((z) => z.boneType)).toEqual(['bvh']);
    await setLevel('free', null);
    // The video's motion gone (a remake that failed, its clip removed): refused, the animation unchanged.
    await t.infra.storage.delete(v!.outputs.clipKey!);
    const gone = await t.call('POST', `/product/animation/redone/${animationId}`, { token: owner.token });
    expect(gone.code).toBe(307);
    expect(gone.message).toBe('the capture this animation was shared from is gone or not made');
    await createVideoStore(t.infra.database).repos.videos.update(
      videoId,
      { status: VideoStatus.FAILED },
      t.clock.now(),
    );
    expect(
      (await t.call('POST', `/product/animation/redone/${animationId}`, { token: owner.token })).message,
    ).toBe('the capture this animation was shared from is gone or not made');
    expect((await search(a.token, { category: 'capture' })).data.list[0]!.frameCount).toBe(75);
  });

  it('an administrator redoes a shipped take from the product’s take (picture drawn again, zips dropped, status kept); users refused', async () => {
    const anim = (await search(a.token, { keyword: '05_02' })).data.list[0]!;
    const keys = await urlsOf(a.token, anim.id);
    const picture = (await fetchUrl(keys.data.picture)).body;
    expect(keys.data.zips.length).toBeGreaterThan(0);
    expect(
      (await t.call('POST', '/product/admin/animation/redone', { token: a.token, body: { id: anim.id } }))
        .code,
    ).toBe(406);
    const admin = await t.adminToken();
    const r = await t.call<Anim>('POST', '/product/admin/animation/redone', {
      token: admin,
      body: { id: anim.id },
    });
    expect(r.code, r.message).toBe(0);
    expect(r.data).toMatchObject({ status: 1, frameCount: anim.frameCount, price: anim.price });
    const after = await urlsOf(a.token, anim.id);
    expect(after.data.zips).toEqual([]);
    expect((await fetchUrl(after.data.picture)).body).toBe(picture);
    expect((await search(a.token, { keyword: '05_02' })).data.list[0]!.purchased).toBe(true);
    expect(
      (await t.call('POST', '/product/admin/animation/redone', { token: admin, body: { id: 999999 } })).code,
    ).toBe(404);
  });

  it('zip: one zip of several animations, the unbought ones bought once each; refused with nothing charged when coins fall short', async () => {
    const e = await t.register(`anim-zip-${kind}@example.com`);
    const list = (await search(e.token)).data.list.filter((x) => x.category === 'dance');
    const [x, y] = [
      list.find((q) => q.name === 'CMU dance 05_03')!,
      list.find((q) => q.name === 'CMU dance 05_04')!,
    ];
    const bundle = (ids: number[], boneType = 'Mixamo') =>
      t.call<{ paths: string[]; charged: number; count: number; name: string }>(
        'POST',
        '/product/animation/zip',
        {
          token: e.token,
          body: { ids, boneType },
        },
      );
    const bal = await t.services.coins.balance(e.id);
    expect(bal).toBeGreaterThanOrEqual(x.price + y.price);
    const r = await bundle([x.id, y.id, x.id]);
    expect(r.code, r.message).toBe(0);
    expect(r.data.count).toBe(2);
    expect(r.data.charged).toBe(x.price + y.price);
    expect(r.data.name).toBe('animations_Mixamo_2.zip');
    expect(await t.services.coins.balance(e.id)).toBe(bal - x.price - y.price);
    const outer = unzip((await fetchUrl(r.data.paths[0]!)).rawPayload);
    expect(outer.size).toBe(2);
    for (const [name, inner] of outer) {
      expect(name.endsWith('.zip'), name).toBe(true);
      expect(
        [...unzip(inner).keys()].some((n) => n.toLowerCase().endsWith('.fbx')),
        name,
      ).toBe(true);
    }
    // Bought: again free.
    const again = await bundle([y.id, x.id]);
    expect(again.data.charged).toBe(0);
    expect(await t.services.coins.balance(e.id)).toBe(bal - x.price - y.price);
    // Too few coins for the unbought one: refused, nothing charged, nothing bought.
    const z = list.find((q) => q.name === 'CMU dance 05_06')!;
    const left = await t.services.coins.balance(e.id);
    await t.services.coins.change(e.id, -(left - (z.price - 1)), 'admin', `anim-zip-drain-${kind}`);
    const poor = await bundle([x.id, z.id]);
    expect(poor.code).toBe(307);
    expect(poor.message).toContain('V币余额不足');
    expect(await t.services.coins.balance(e.id)).toBe(z.price - 1);
    expect((await search(e.token, { keyword: '05_06' })).data.list[0]!.purchased).toBe(false);
    // Bad input; a free plan bundles FBX bone types only.
    expect((await bundle([])).code).toBe(400);
    expect((await bundle(Array.from({ length: 21 }, (_, i) => i + 1))).code).toBe(400);
    expect((await bundle([x.id], 'NoSuchBone')).code).toBe(400);
    expect((await bundle([x.id], 'VMD-TDA')).message).toBe('免费版用户只能选择 FBX 格式');
    expect((await bundle([x.id, 999999])).code).toBe(404);
  });
});
