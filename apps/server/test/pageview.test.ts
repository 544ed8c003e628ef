/**
 * Issue 25, spec §7 POST /pageView/addBehavior and addDigitalHumanBehavior: page views and actions counted with
 * or without a session (a bad token is counted as anonymous, never a logout), nothing personal stored beyond the
 * account id, rate-limited per visitor, and read back by administrators as the /sysInfo/pageView report.
 */
import { describe, expect, it } from 'vitest';
import { Codes } from '../src/errors.ts';
import { BEHAVIOR_LIMIT } from '../src/modules/pageview/service.ts';
import { databases, useServer } from './harness.ts';

interface Report {
  days: { date: string; views: number; actions: number; digitalHuman: number; users: number }[];
  pages: { page: string; views: number; users: number; anonymous: number }[];
  actions: { kind: string; page: string; action: string; count: number; users: number }[];
}

describe.each(databases)('page-view analytics on %s', (kind) => {
  const t = useServer(kind);

  it('counts views and actions, anonymous and logged in, and reports them per day, page and action', async () => {
    const start = t.clock.now();
    const a = await t.register(`pv-a-${kind}@example.com`);
    const b = await t.register(`pv-b-${kind}@example.com`);
    const add = (token: string | undefined, body: object, ip = '10.1.1.1') =>
      t.call<{ recorded: boolean }>('POST', '/product/pageView/addBehavior', { token, body, ip });
    expect((await add(a.token, { page: '/index/myProPc' })).data).toEqual({ recorded: true });
    await add(a.token, { page: '/index/myProPc/' });
    await add(b.token, { page: '/index/myProPc' });
    await add(undefined, { page: '/index/myProPc' }, '10.9.9.9');
    // An expired or forged token: counted as anonymous, answered 0 (no forced logout over analytics).
    const forged = await add('not-a-token', { page: '/index/square' });
    expect(forged.code, forged.message).toBe(0);
    await add(a.token, { page: '/index/uploadPc', action: 'upload.start' });
    await add(b.token, { page: '/index/uploadPc', action: 'upload.start' });
    const dh = await t.call('POST', '/product/pageView/addDigitalHumanBehavior', {
      token: a.token,
      body: { page: '/index/tomokage', action: 'apply' },
    });
    expect(dh.code, dh.message).toBe(0);
    // The next day.
    t.clock.advance(86_400_000);
    await add(a.token, { page: '/index/square' });

    // What is stored: kind, path, action, account, time — nothing else.
    const rows = await t.infra.database.db
      .selectFrom('page_views' as never)
      .selectAll()
      .execute();
    expect(Object.keys(rows[0] as object).sort()).toEqual([
      'action',
      'created_at',
      'id',
      'kind',
      'page',
      'user_id',
    ]);
    expect(rows.length).toBe(9);

    const admin = await t.adminToken();
    const r = await t.call<Report>('POST', '/product/sysInfo/pageView', {
      token: admin,
      body: { from: start, to: t.clock.now() + 1, tzOffsetMin: 0 },
    });
    expect(r.code, r.message).toBe(0);
    const d0 = new Date(start).toISOString().slice(0, 10);
    expect(r.data.days[0]).toEqual({ date: d0, views: 5, actions: 2, digitalHuman: 1, users: 2 });
    expect(r.data.days[1]).toMatchObject({ views: 1, actions: 0, digitalHuman: 0, users: 1 });
    expect(r.data.pages.find((p) => p.page === '/index/myProPc')).toEqual({
      page: '/index/myProPc',
      views: 4,
      users: 2,
      anonymous: 1,
    });
    expect(r.data.pages.find((p) => p.page === '/index/square')).toMatchObject({ views: 2, anonymous: 1 });
    expect(r.data.actions).toEqual([
      { kind: 'action', page: '/index/uploadPc', action: 'upload.start', count: 2, users: 2 },
      { kind: 'digital_human', page: '/index/tomokage', action: 'apply', count: 1, users: 1 },
    ]);
    // Administrators only; a bad period is a parameter error.
    expect(
      (await t.call('POST', '/product/sysInfo/pageView', { token: a.token, body: { from: 0, to: 1 } })).code,
    ).toBe(Codes.INSUFFICIENT_PERMISSION);
    expect(
      (await t.call('POST', '/product/sysInfo/pageView', { token: admin, body: { from: 5, to: 5 } })).code,
    ).toBe(Codes.PARAMETER_ERROR);
  });

  it('refuses paths that could carry personal data, and limits each visitor to 120 a minute', async () => {
    const a = await t.register(`pv-c-${kind}@example.com`);
    for (const page of ['/user?email=a@b.com', 'index', '/reset/a@b.com', '/x/../y', `/${'a'.repeat(200)}`]) {
      const r = await t.call('POST', '/product/pageView/addBehavior', { token: a.token, body: { page } });
      expect(r.code, page).toBe(Codes.PARAMETER_ERROR);
    }
    const noAction = await t.call('POST', '/product/pageView/addDigitalHumanBehavior', {
      token: a.token,
      body: { page: '/index/tomokage' },
    });
    expect(noAction.code).toBe(Codes.PARAMETER_ERROR);
    const badAction = await t.call('POST', '/product/pageView/addBehavior', {
      token: a.token,
      body: { page: '/index/square', action: 'a b' },
    });
    expect(badAction.code).toBe(Codes.PARAMETER_ERROR);
    for (let i = 0; i < BEHAVIOR_LIMIT.perMinute; i++) {
      const r = await t.call('POST', '/product/pageView/addBehavior', {
        body: { page: '/home' },
        ip: '10.7.7.7',
      });
      expect(r.code, r.message).toBe(0);
    }
    const over = await t.call('POST', '/product/pageView/addBehavior', {
      body: { page: '/home' },
      ip: '10.7.7.7',
    });
    expect(over.code).toBe(Codes.TOO_MANY_REQUESTS);
    // Another visitor, and a logged-in account from the same address, are counted apart.
    expect(
      (await t.call('POST', '/product/pageView/addBehavior', { body: { page: '/home' }, ip: '10.7.7.8' }))
        .code,
    ).toBe(0);
    expect(
      (
        await t.call('POST', '/product/pageView/addBehavior', {
          token: a.token,
          body: { page: '/home' },
          ip: '10.7.7.7',
        })
      ).code,
    ).toBe(0);
    t.clock.advance(60_001);
    expect(
      (await t.call('POST', '/product/pageView/addBehavior', { body: { page: '/home' }, ip: '10.7.7.7' }))
        .code,
    ).toBe(0);
  });
});
