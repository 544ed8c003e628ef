/**
 * Authorisation, categories/tags, notices, maintenance info and machines through the HTTP API on SQLite and
 * PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import { Codes, Messages } from '../src/errors.ts';
import { CATEGORY_HAS_VIDEOS } from '../src/modules/catalog/service.ts';
import { createVideoStore } from '../src/modules/video/store.ts';
import { databases, useServer } from './harness.ts';

interface Node {
  id: number;
  name: string;
  children: Node[];
}

describe.each(databases)('platform on %s', (kind) => {
  const t = useServer(kind);

  it('a user reads only their own coin records; administrators read anyone', async () => {
    const a = await t.register('a@example.com');
    const b = await t.register('b@example.com');
    await t.services.coins.change(b.id, -5, 'upload', `upload:b:1`);
    const mine = await t.call<{ list: { userId: number }[] }>('POST', '/product/user/surplus/record', {
      token: a.token,
      body: {},
    });
    expect(mine.code).toBe(0);
    expect(mine.data.list.every((e) => e.userId === a.id)).toBe(true);
    const theirs = await t.call('POST', '/product/user/surplus/record', {
      token: a.token,
      body: { userId: b.id },
    });
    expect(theirs.code).toBe(Codes.INSUFFICIENT_PERMISSION);
    expect((await t.call('GET', `/product/user/invited/${b.id}`, { token: a.token })).code).toBe(
      Codes.INSUFFICIENT_PERMISSION,
    );
    const admin = await t.adminToken();
    const asAdmin = await t.call<{ list: { userId: number; amount: number }[]; balance: number }>(
      'POST',
      '/product/user/surplus/record',
      { token: admin, body: { userId: b.id } },
    );
    expect(asAdmin.data.balance).toBe(45);
    expect(asAdmin.data.list.map((e) => e.amount)).toEqual([-5, 50]);
  });

  it('normal users get 406 on administrator routes', async () => {
    const u = await t.register('normal@example.com');
    const routes: [method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown][] = [
      ['POST', '/product/user/search', {}],
      ['PUT', `/product/user/surplus/${u.id}/1000`, {}],
      ['POST', `/product/user/test/${u.id}`, {}],
      ['POST', `/product/user/blackFlag/${u.id}`, {}],
      ['POST', `/product/user/updateLevel/${u.id}/yearly/360`],
      ['POST', `/product/user/addTime/${u.id}/30`],
      ['POST', '/product/user/countUser', {}],
      ['POST', '/product/category', { name: 'x' }],
      ['DELETE', '/product/category/1'],
      ['POST', '/product/notice/save', { title: 'x' }],
      ['POST', '/product/sysConfig/saveMaintain', { maintainBtn: true }],
      ['POST', '/product/machineInfo/list'],
      ['POST', '/product/user/scheduled/monthlyTopUp'],
      ['POST', '/product/sysConfig/blackListInfo', {}],
      ['POST', '/product/sysConfig/blackListInfo/insert', { email: 'normal@example.com' }],
    ];
    for (const [method, url, body] of routes) {
      const r = await t.call(method, url, { token: u.token, body });
      expect({ url, code: r.code }).toEqual({ url, code: Codes.INSUFFICIENT_PERMISSION });
      expect(r.status).toBe(403);
    }
    expect(await t.services.coins.balance(u.id)).toBe(50);
    // Without a token: 401.
    expect((await t.call('POST', '/product/user/search', { body: {} })).code).toBe(Codes.UNAUTHENTICATED);
  });

  it('administrators search users, top up coins idempotently and change plans', async () => {
    const u = await t.register('topup@example.com');
    const admin = await t.adminToken();
    const found = await t.call<{ list: { id: number }[]; total: number }>('POST', '/product/user/search', {
      token: admin,
      body: { keyword: 'TOPUP@' },
    });
    expect(found.data.list.map((x) => x.id)).toEqual([u.id]);
    const headers = { 'idempotency-key': 'grant-1' };
    const r1 = await t.call<{ balance: number; duplicate: boolean }>(
      'PUT',
      `/product/user/surplus/${u.id}/100`,
      { token: admin, headers, body: {} },
    );
    const r2 = await t.call<{ balance: number; duplicate: boolean }>(
      'PUT',
      `/product/user/surplus/${u.id}/100`,
      { token: admin, headers, body: {} },
    );
    expect(r1.data).toMatchObject({ balance: 150, duplicate: false });
    expect(r2.data).toMatchObject({ balance: 150, duplicate: true });
    const under = await t.call('PUT', `/product/user/surplus/${u.id}/-1000`, { token: admin, body: {} });
    expect(under.code).toBe(Codes.REFUSED);
    expect(await t.services.coins.balance(u.id)).toBe(150);
    const lvl = await t.call<{ level: string; vexpiredAt: number }>(
      'POST',
      `/product/user/updateLevel/${u.id}/monthly/30`,
      { token: admin },
    );
    expect(lvl.data.level).toBe('monthly');
    expect(lvl.data.vexpiredAt).toBe(t.clock.now() + 30 * 86_400_000);
    const more = await t.call<{ vexpiredAt: number }>('POST', `/product/user/addTime/${u.id}/5`, {
      token: admin,
    });
    expect(more.data.vexpiredAt).toBe(t.clock.now() + 35 * 86_400_000);
    const count = await t.call<{ total: number }>('POST', '/product/user/countUser', {
      token: admin,
      body: {},
    });
    expect(count.data.total).toBeGreaterThanOrEqual(4);
  });

  it('company administration: search company accounts, set their plan', async () => {
    const admin = await t.adminToken();
    const c = await t.register('corp@example.com', { company: true });
    await t.register('individual@example.com');
    const found = await t.call<{ list: { id: number; type: number }[] }>('POST', '/product/company/search', {
      token: admin,
      body: {},
    });
    expect(found.data.list.map((u) => u.type)).toEqual(found.data.list.map(() => 2));
    expect(found.data.list.map((u) => u.id)).toContain(c.id);
    const lvl = await t.call<{ level: string }>('PUT', '/product/company/update/vip/level', {
      token: admin,
      body: { id: c.id, level: 'yearly', days: 360 },
    });
    expect(lvl.data.level).toBe('yearly');
    const person = await t.infra.store.repos.users.findByEmail('individual@example.com');
    const notCompany = await t.call('PUT', '/product/company/update/vip/level', {
      token: admin,
      body: { id: person!.id, level: 'yearly', days: 360 },
    });
    expect(notCompany.code).toBe(Codes.NOT_FOUND);
    expect((await t.call('POST', '/product/company/search', { token: c.token, body: {} })).code).toBe(
      Codes.INSUFFICIENT_PERMISSION,
    );
  });

  it('blacklist administration: insert by e-mail, list, clear', async () => {
    const admin = await t.adminToken();
    const u = await t.register('spammer@example.com');
    const ins = await t.call<{ id: number; blackFlag: boolean }>(
      'POST',
      '/product/sysConfig/blackListInfo/insert',
      {
        token: admin,
        body: { email: 'Spammer@example.com' },
      },
    );
    expect(ins.data).toMatchObject({ id: u.id, blackFlag: true });
    expect((await t.call('GET', '/product/auth/info', { token: u.token })).code).toBe(Codes.ACCOUNT_DISABLED);
    const list = await t.call<{ list: { email: string }[] }>('POST', '/product/sysConfig/blackListInfo', {
      token: admin,
      body: {},
    });
    expect(list.data.list.map((x) => x.email)).toContain('spammer@example.com');
    await t.call('POST', '/product/sysConfig/blackListInfo/update', {
      token: admin,
      body: { id: u.id, flag: false },
    });
    const after = await t.call<{ list: { email: string }[] }>('POST', '/product/sysConfig/blackListInfo', {
      token: admin,
      body: {},
    });
    expect(after.data.list.map((x) => x.email)).not.toContain('spammer@example.com');
    expect(
      (
        await t.call('POST', '/product/sysConfig/blackListInfo/insert', {
          token: admin,
          body: { email: 'ghost@example.com' },
        })
      ).code,
    ).toBe(Codes.NOT_FOUND);
  });

  it('category tree: create, nest, search, refuse deleting a parent with the spec message', async () => {
    const admin = await t.adminToken();
    const user = await t.register('cat@example.com');
    const dance = await t.call<{ id: number }>('POST', '/product/category', {
      token: admin,
      body: { name: 'Dance', sort: 2 },
    });
    const sport = await t.call<{ id: number }>('POST', '/product/category', {
      token: admin,
      body: { name: 'Sport', sort: 1 },
    });
    const hiphop = await t.call<{ id: number }>('POST', '/product/category', {
      token: admin,
      body: { name: 'Hip-hop', parentId: dance.data.id },
    });
    expect(hiphop.code).toBe(0);
    const dup = await t.call('POST', '/product/category', { token: admin, body: { name: 'Dance' } });
    expect(dup.code).toBe(Codes.REFUSED);
    const tree = await t.call<Node[]>('POST', '/product/category/search', { token: user.token, body: {} });
    expect(tree.data.map((n) => n.name)).toEqual(['Sport', 'Dance']);
    expect(tree.data[1].children.map((n) => n.name)).toEqual(['Hip-hop']);
    const filtered = await t.call<Node[]>('POST', '/product/category/search', {
      token: user.token,
      body: { keyword: 'hop' },
    });
    expect(filtered.data.map((n) => n.name)).toEqual(['Dance']);
    const child = await t.call<{ name: string }[]>('GET', `/product/category/child/${dance.data.id}`, {
      token: user.token,
    });
    expect(child.data.map((c) => c.name)).toEqual(['Hip-hop']);

    const refused = await t.call('DELETE', `/product/category/${dance.data.id}`, { token: admin });
    expect(refused).toMatchObject({ code: Codes.REFUSED, message: Messages.CATEGORY_HAS_CHILDREN });
    // Moving a node under its own child is refused.
    const cycle = await t.call('PUT', '/product/category', {
      token: admin,
      body: { id: dance.data.id, parentId: hiphop.data.id },
    });
    expect(cycle.code).toBe(Codes.REFUSED);
    expect((await t.call('DELETE', `/product/category/${hiphop.data.id}`, { token: admin })).code).toBe(0);
    expect((await t.call('DELETE', `/product/category/${dance.data.id}`, { token: admin })).code).toBe(0);
    expect((await t.call('GET', `/product/category/${dance.data.id}`, { token: user.token })).code).toBe(
      Codes.NOT_FOUND,
    );
    expect((await t.call('GET', `/product/category/${sport.data.id}`, { token: user.token })).code).toBe(0);

    const tag = await t.call<{ id: number }>('POST', '/product/category', {
      token: admin,
      body: { name: 'slow', kind: 'tag' },
    });
    expect((await t.call('GET', `/product/tag/${tag.data.id}`, { token: user.token })).code).toBe(0);
    expect((await t.call('GET', `/product/tag/${sport.data.id}`, { token: user.token })).code).toBe(
      Codes.NOT_FOUND,
    );
    const comma = await t.call('POST', '/product/category', {
      token: admin,
      body: { name: 'a,b', kind: 'tag' },
    });
    expect(comma).toMatchObject({ code: Codes.REFUSED, message: '标签内容不能包含有（，）逗号' });
    const tags = await t.call<Node[]>('POST', '/product/tag/search', { token: user.token, body: {} });
    expect(tags.data.map((n) => n.name)).toEqual(['slow']);
  });

  it('refuses deleting a category (or tag id) that videos are still filed under, with the count', async () => {
    const admin = await t.adminToken();
    const owner = await t.register('catvideos@example.com');
    const cat = await t.call<{ id: number }>('POST', '/product/category', {
      token: admin,
      body: { name: 'Martial arts' },
    });
    const tag = await t.call<{ id: number }>('POST', '/product/category', {
      token: admin,
      body: { name: 'kick', kind: 'tag' },
    });
    // Two videos filed under the category (rows as an upload leaves them; the capture does not matter here).
    const store = createVideoStore(t.infra.database);
    const ids: number[] = [];
    for (const [i, categoryId] of [cat.data.id, cat.data.id, tag.data.id].entries()) {
      const v = await store.repos.videos.create({
        userId: owner.id,
        name: `kata ${i}`,
        titleInSquare: null,
        description: '',
        fileName: 'kata.mp4',
        storagePrefix: `videos/cat-test-${i}`,
        md5: `${i}`.padStart(32, '0'),
        sizeBytes: 1000,
        durationMs: 2000,
        width: 640,
        height: 360,
        fps: 30,
        captureType: 'body',
        boneType: 'BoyFBX',
        modelType: 'full',
        serialNo: `CAT${i}`,
        priority: 'low',
        freeRemakes: 1,
        categoryId,
        tags: ['kick'],
        currency: 'V',
        charged: 2,
        chargeRef: null,
        createdAt: t.clock.now(),
      });
      ids.push(v.id);
    }
    const refused = await t.call('DELETE', `/product/category/${cat.data.id}`, { token: admin });
    expect(refused).toMatchObject({
      code: Codes.REFUSED,
      message: CATEGORY_HAS_VIDEOS,
      data: { videos: 2 },
    });
    expect((await t.call('GET', `/product/category/${cat.data.id}`, { token: admin })).code).toBe(0);
    const tagRefused = await t.call('DELETE', `/product/category/${tag.data.id}`, { token: admin });
    expect(tagRefused).toMatchObject({ code: Codes.REFUSED, data: { videos: 1 } });

    // Once no video is filed under them, they can go.
    await store.repos.videos.delete(ids[0]!);
    expect((await t.call('DELETE', `/product/category/${cat.data.id}`, { token: admin })).data).toMatchObject(
      { videos: 1 },
    );
    await store.repos.videos.delete(ids[1]!);
    expect((await t.call('DELETE', `/product/category/${cat.data.id}`, { token: admin })).code).toBe(0);
    expect((await t.call('GET', `/product/category/${cat.data.id}`, { token: admin })).code).toBe(
      Codes.NOT_FOUND,
    );
    await store.repos.videos.delete(ids[2]!);
    expect((await t.call('DELETE', `/product/category/${tag.data.id}`, { token: admin })).code).toBe(0);
  });

  it('notices: sorted by page, hidden after noLongerDisplayed until one changes', async () => {
    const admin = await t.adminToken();
    const u = await t.register('notice@example.com');
    await t.call('POST', '/product/notice/save', {
      token: admin,
      body: { title: 'second', page: 2, type: 2, url: '/v.mp4' },
    });
    const first = await t.call<{ id: number }>('POST', '/product/notice/save', {
      token: admin,
      body: { title: 'first', page: 1, jumpTo: 'a,b,https://example.com', button: 'Go' },
    });
    await t.call('POST', '/product/notice/save', {
      token: admin,
      body: { title: 'off', page: 0, enabled: false },
    });
    const seen = await t.call<{ title: string }[]>('GET', '/product/notice/getNotice', { token: u.token });
    expect(seen.data.map((n) => n.title)).toEqual(['first', 'second']);
    // Readable without a token too.
    expect((await t.call<unknown[]>('GET', '/product/notice/getNotice')).data).toHaveLength(2);
    expect((await t.call('POST', '/product/notice/noLongerDisplayed', { token: u.token })).code).toBe(0);
    expect(
      (await t.call<unknown[]>('GET', '/product/notice/getNotice', { token: u.token })).data,
    ).toHaveLength(0);
    t.clock.advance(1000);
    await t.call('POST', '/product/notice/save', {
      token: admin,
      body: { id: first.data.id, content: 'updated' },
    });
    const again = await t.call<{ title: string; content: string }[]>('GET', '/product/notice/getNotice', {
      token: u.token,
    });
    expect(again.data).toEqual([expect.objectContaining({ title: 'first', content: 'updated' })]);
  });

  it('maintenance info is public and only administrators change it', async () => {
    const before = await t.call<{ maintainBtn: boolean; plateNumber: string }>(
      'GET',
      '/product/sysConfig/maintainInfo',
    );
    expect(before.data).toMatchObject({ maintainBtn: false, plateNumber: '' });
    const admin = await t.adminToken();
    await t.call('POST', '/product/sysConfig/saveMaintain', {
      token: admin,
      body: { maintainBtn: true, maintainText: 'down at 2am', tomoMaintain: true },
    });
    await t.call('POST', '/product/sysConfig/savePlateNumber', {
      token: admin,
      body: { plateNumber: 'ICP-123', plateNumberBtn: true },
    });
    t.clock.advance(3000);
    const after = await t.call<{ maintainBtn: boolean; maintainText: string; plateNumber: string }>(
      'GET',
      '/product/sysConfig/maintainInfo',
    );
    expect(after.data).toMatchObject({
      maintainBtn: true,
      maintainText: 'down at 2am',
      plateNumber: 'ICP-123',
      plateNumberBtn: true,
    });
    expect((await t.call('GET', '/product/tomokage/checkMaintain')).data).toEqual({ tomoMaintain: true });
  });

  it('machines register by heartbeat with the worker token and show online/offline', async () => {
    const noToken = await t.call('POST', '/product/machineInfo/heartbeat', { body: { name: 'w1' } });
    expect(noToken.code).toBe(Codes.UNAUTHENTICATED);
    const badToken = await t.call('POST', '/product/machineInfo/heartbeat', {
      body: { name: 'w1' },
      headers: { 'x-worker-token': 'nope' },
    });
    expect(badToken.code).toBe(Codes.AUTH_FAILED);
    const headers = { 'x-worker-token': t.infra.secrets.worker };
    const beat = await t.call<{ id: number; status: string; enabled: boolean }>(
      'POST',
      '/product/machineInfo/heartbeat',
      {
        headers,
        body: { name: 'w1', host: 'box-1', capacity: 2, running: 1, version: '1.0' },
      },
    );
    expect(beat.data).toMatchObject({ status: 'online', enabled: true });
    const admin = await t.adminToken();
    const list = await t.call<{ name: string; online: boolean; running: number }[]>(
      'POST',
      '/product/machineInfo/list',
      { token: admin },
    );
    expect(list.data).toEqual([expect.objectContaining({ name: 'w1', online: true, running: 1 })]);
    await t.call('POST', '/product/machineInfo/update', {
      token: admin,
      body: { id: beat.data.id, enabled: false },
    });
    const again = await t.call<{ enabled: boolean }>('POST', '/product/machineInfo/heartbeat', {
      headers,
      body: { name: 'w1' },
    });
    expect(again.data.enabled).toBe(false);
    t.clock.advance(120_000);
    const stale = await t.call<{ online: boolean }[]>('POST', '/product/machineInfo/list', { token: admin });
    expect(stale.data[0].online).toBe(false);
    expect(
      (await t.call('POST', '/product/machineInfo/delete', { token: admin, body: { id: beat.data.id } }))
        .code,
    ).toBe(0);
  });

  it('health reports the database; the first-start administrator is created once even by racing processes', async () => {
    const h = await t.call<{ database: string }>('GET', '/product/health');
    expect(h).toMatchObject({ code: 0, data: { database: kind } });
    const raw = await t.app.inject({ method: 'GET', url: '/product/health' });
    expect(raw.headers['x-request-id']).toBeTruthy();
    expect(raw.headers['x-content-type-options']).toBe('nosniff');
    const results = await Promise.all([
      t.services.accounts.ensureAdmin('race@test.local'),
      t.services.accounts.ensureAdmin('race@test.local'),
      t.services.accounts.ensureAdmin('race@test.local'),
    ]);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect((await t.infra.store.repos.users.findByEmail('race@test.local'))?.roles).toEqual(['admin']);
  });

  it('serves the OpenAPI document and the docs page', async () => {
    const doc = await t.app.inject({ method: 'GET', url: '/product/docs/json' });
    expect(doc.statusCode).toBe(200);
    const spec = doc.json() as { openapi: string; paths: Record<string, unknown> };
    expect(spec.openapi).toMatch(/^3\./);
    for (const p of [
      '/product/auth/login',
      '/product/user/register',
      '/product/user/surplus/record',
      '/product/category/{id}',
    ])
      expect(Object.keys(spec.paths)).toContain(p);
    const ui = await t.app.inject({ method: 'GET', url: '/product/docs/' });
    expect([200, 302]).toContain(ui.statusCode);
  });
});
