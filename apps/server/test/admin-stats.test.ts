/**
 * The /sysInfo reports (issue 21) on SQLite and PostgreSQL, over data the test makes through the API: accounts
 * (one invited by an extension staff member), uploads, a made and a failed video, a monthly plan paid through the
 * WeChat sandbox with a cash-back to the inviter. Days are counted in the caller's offset.
 */
import { describe, expect, it } from 'vitest';
import { createVideoStore } from '../src/index.ts';
import { databases, useServer } from './harness.ts';
import { markMade, uploadForm, uploadVideo, useTestClips } from './video-helpers.ts';

const clip = useTestClips('mocap-stats-', (i) => i * 53);

const DAY = 86_400_000;

interface Briefing {
  days: {
    date: string;
    newUsers: number;
    uploads: number;
    made: number;
    secondsProcessed: number;
    failures: number;
    revenue: number;
    orders: number;
    activeUsers: number;
    firstPaid: number;
  }[];
  totals: Record<string, number>;
  revenueByPlan: { key: string; orders: number; amount: number }[];
  revenueByMethod: { key: string; orders: number; amount: number }[];
  conversion: { registered: number; paid: number; rate: number };
}

describe.each(databases)('reports on %s', (kind) => {
  const t = useServer(kind);

  it('briefing and extension count what happened, per day of the period', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    t.clock.t = Date.now();
    const admin = await t.adminToken();
    const staff = await t.register(`staff-${kind}@stats.test`);
    expect(
      await t.code('POST', '/product/user/setExtensionStaff', {
        token: admin,
        body: { id: staff.id, flag: true },
      }),
    ).toBe(0);
    const code = (
      await t.call<{ user: { inviteCode: string } }>('GET', '/product/auth/info', { token: staff.token })
    ).data.user.inviteCode;
    const buyer = await t.register(`buyer-${kind}@stats.test`, { inviteCode: code });
    const other = await t.register(`other-${kind}@stats.test`);
    expect(
      (await t.call('POST', '/product/sysConfig/setCashBack', { token: admin, body: { rateBp: 1000 } })).code,
    ).toBe(0);

    const upload = async (token: string, i: number, seconds: number) => {
      const form = uploadForm(clip(i, seconds), { name: `v${i}`, tags: 'x', boneType: 'Mixamo' });
      const r = await uploadVideo(t.app, token, form);
      return r.id as number;
    };
    const v1 = await upload(other.token, 1, 3);
    const v2 = await upload(other.token, 2, 2);
    await upload(buyer.token, 3, 2);
    await markMade(t.infra, t.services, v1, ['Mixamo']);
    // v2 fails for good.
    const v2rec = await createVideoStore(t.infra.database).repos.videos.findById(v2);
    await t.services.captureJobs.started(
      { videoId: v2, userId: other.id, mode: 'capture', seq: v2rec!.jobSeq, chargeRef: v2rec!.chargeRef },
      1,
    );
    await t.services.captureJobs.failedForGood(
      { videoId: v2, userId: other.id, mode: 'capture', seq: v2rec!.jobSeq, chargeRef: v2rec!.chargeRef },
      'test failure',
    );

    // The buyer pays monthly (99 yuan) on the WeChat sandbox phone page.
    const p = await t.call<{ url: string; orderNo: string }>('POST', '/product/wx/prepay/1', {
      token: buyer.token,
    });
    expect(p.code, p.message).toBe(0);
    expect(await (await fetch(`${p.data.url}/pay`, { method: 'POST' })).text()).toContain(
      'data-state="paid"',
    );

    const now = t.clock.now();
    const tz = 480;
    const from = now - 2 * DAY;
    const to = now + DAY;
    const r = await t.call<Briefing>('POST', '/product/sysInfo/briefing', {
      token: admin,
      body: { from, to, tzOffsetMin: tz },
    });
    expect(r.code, r.message).toBe(0);
    const b = r.data;
    expect(b.days).toHaveLength(4);
    const today = new Date(now + tz * 60_000).toISOString().slice(0, 10);
    const d = b.days.find((x) => x.date === today)!;
    expect(d).toBeDefined();
    // Three accounts (the first-start administrator was made at the test clock's start, long before).
    expect(d.newUsers).toBe(3);
    expect(d.uploads).toBe(3);
    expect(d.made).toBe(1);
    expect(d.secondsProcessed).toBe(3);
    expect(d.failures).toBe(1);
    expect(d.orders).toBe(1);
    expect(d.revenue).toBe(9900);
    expect(d.firstPaid).toBe(1);
    expect(d.activeUsers).toBeGreaterThanOrEqual(3);
    expect(b.totals).toMatchObject({ uploads: 3, made: 1, failures: 1, revenue: 9900, orders: 1 });
    expect(b.days.filter((x) => x.date !== today).every((x) => x.uploads === 0 && x.newUsers === 0)).toBe(
      true,
    );
    const title = (
      await t.call<{ list: { title: string }[] }>('POST', '/product/user/order/record', {
        token: buyer.token,
        body: {},
      })
    ).data.list[0]!.title;
    expect(b.revenueByPlan).toEqual([{ key: title, orders: 1, amount: 9900 }]);
    expect(b.revenueByMethod).toEqual([{ key: 'wechat', orders: 1, amount: 9900 }]);
    // Three individual accounts registered in the period; one paid.
    expect(b.conversion).toMatchObject({ registered: 3, paid: 1 });
    expect(b.conversion.rate).toBeCloseTo(1 / 3);

    // A period that ended before: nothing.
    const old = await t.call<Briefing>('POST', '/product/sysInfo/briefing', {
      token: admin,
      body: { from: now - 10 * DAY, to: now - 5 * DAY, tzOffsetMin: tz },
    });
    expect(old.data.totals.uploads).toBe(0);
    // Bad periods.
    expect(
      (await t.call('POST', '/product/sysInfo/briefing', { token: admin, body: { from: to, to: from } }))
        .code,
    ).toBe(400);
    expect(
      (await t.call('POST', '/product/sysInfo/briefing', { token: admin, body: { from: 0, to: now } })).code,
    ).toBe(400);

    const e = await t.call<{
      days: { referrals: number }[];
      inviters: {
        email: string;
        extensionStaff: boolean;
        referrals: number;
        paidReferrals: number;
        cashback: number;
        orderAmount: number;
      }[];
      totals: Record<string, number>;
    }>('POST', '/product/sysInfo/extension', { token: admin, body: { from, to, tzOffsetMin: tz } });
    expect(e.code, e.message).toBe(0);
    expect(e.data.totals.referrals).toBe(1);
    expect(e.data.inviters[0]).toMatchObject({
      email: `staff-${kind}@stats.test`,
      extensionStaff: true,
      referrals: 1,
      paidReferrals: 1,
      orderAmount: 9900,
      cashback: 990,
    });
    // Ordinary users and operators do not see reports.
    expect(
      (await t.call('POST', '/product/sysInfo/briefing', { token: other.token, body: { from, to } })).code,
    ).toBe(406);
  });
});
