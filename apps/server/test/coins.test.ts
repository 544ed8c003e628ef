/**
 * Coins ledger on SQLite and PostgreSQL: idempotency by reference, never negative under 100 concurrent spends,
 * ledger sums to the balance, refunds once, prices, monthly top-up once per month, referral ranks.
 */
import {
  companyUploadCost,
  referralReward,
  remakeCost,
  squareDownloadCost,
  uploadCost,
} from '@mocap/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, Codes, Messages } from '../src/errors.ts';
import { monthKey, Reasons } from '../src/modules/coins/service.ts';
import type { Infra } from '../src/wiring.ts';
import { createServices, type Services } from '../src/wiring.ts';
import { createTestInfra, databases, TestClock } from './harness.ts';

describe('prices', () => {
  it('charges 1 V per started second for uploads, square downloads and company uploads', () => {
    expect([10, 10.2, 0.3].map(uploadCost)).toEqual([10, 11, 1]);
    expect(squareDownloadCost(7.5)).toBe(8);
    expect(companyUploadCost(12)).toBe(12);
    expect(() => uploadCost(Number.NaN)).toThrow(RangeError);
  });
  it('charges a remake 1 V per 2 s, the duration rounded up to a multiple of 2 s', () => {
    expect([4, 5, 4.2, 1, 60].map(remakeCost)).toEqual([2, 3, 3, 1, 30]);
  });
  it('rewards inviters 10/15/20 by rank', () => {
    expect([1, 5, 6, 10, 11, 100].map(referralReward)).toEqual([10, 10, 15, 15, 20, 20]);
    expect(() => referralReward(0)).toThrow(RangeError);
  });
});

describe.each(databases)('coin ledger on %s', (kind) => {
  let infra: Infra;
  let services: Services;
  let cleanup: () => Promise<void>;
  const clock = new TestClock();
  let seq = 0;

  beforeAll(async () => {
    const t = await createTestInfra(kind, { clock });
    infra = t.infra;
    cleanup = t.cleanup;
    services = createServices(infra);
  });
  afterAll(async () => cleanup?.());

  /** A user straight in the database with a starting balance through the ledger. */
  async function user(balance: number, level: 'free' | 'monthly' | 'yearly' = 'free', type = 1) {
    const u = await infra.store.repos.users.create({
      email: `u${++seq}-${kind}@test.local`,
      username: `u${seq}`,
      passwordHash: 'x',
      type,
      inviteCode: `IC${kind[0]}${seq}`,
      now: clock.now(),
    });
    if (level !== 'free')
      await infra.store.repos.users.update(
        u.id,
        { level, vexpiredAt: clock.now() + 30 * 86_400_000 },
        clock.now(),
      );
    if (balance > 0)
      await services.coins.change(u.id, balance, Reasons.ADMIN, `seed:${u.id}`, {
        currency: type === 2 ? 'CV' : 'V',
      });
    return u.id;
  }

  it('writes one ledger row per change with the balance after it', async () => {
    const id = await user(20);
    const r = await services.coins.change(id, -7, Reasons.UPLOAD, `upload:${id}:1`);
    expect(r).toMatchObject({ balance: 13, duplicate: false });
    expect(r.entry).toMatchObject({
      userId: id,
      amount: -7,
      balanceAfter: 13,
      reason: 'upload',
      currency: 'V',
    });
    const page = await services.coins.records({ userId: id, page: 1, size: 10 });
    expect(page.total).toBe(2);
    expect(page.list.map((e) => [e.amount, e.balanceAfter])).toEqual([
      [-7, 13],
      [20, 20],
    ]);
  });

  it('is idempotent by reference: a retry returns the first result and charges nothing', async () => {
    const id = await user(10);
    const a = await services.coins.change(id, -4, Reasons.UPLOAD, `upload:${id}:retry`);
    const b = await services.coins.change(id, -4, Reasons.UPLOAD, `upload:${id}:retry`);
    expect(b.duplicate).toBe(true);
    expect(b.entry.id).toBe(a.entry.id);
    expect(await services.coins.balance(id)).toBe(6);
    // The same reference for a different change is a bug in the caller, not a retry.
    await expect(services.coins.change(id, -5, Reasons.UPLOAD, `upload:${id}:retry`)).rejects.toMatchObject({
      code: Codes.PARAMETER_ERROR,
    });
  });

  it('refuses to go negative with the spec message and leaves no ledger row', async () => {
    const id = await user(3);
    const err = await services.coins.change(id, -4, Reasons.UPLOAD, `upload:${id}:big`).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({
      code: Codes.REFUSED,
      message: Messages.INSUFFICIENT_V,
      data: { balance: 3, required: 4 },
    });
    expect(await infra.store.repos.ledger.findByRef(`upload:${id}:big`)).toBeUndefined();
    expect(await services.coins.balance(id)).toBe(3);
    // The reference was not consumed: once the balance allows, the same change goes through.
    await services.coins.change(id, 1, Reasons.ADMIN, `top:${id}`);
    expect((await services.coins.change(id, -4, Reasons.UPLOAD, `upload:${id}:big`)).balance).toBe(0);
  });

  it('keeps CV coins separate from V coins', async () => {
    const id = await user(30, 'free', 2);
    await services.coins.change(id, -12, Reasons.COMPANY_UPLOAD, `cu:${id}`, { currency: 'CV' });
    expect(await services.coins.balance(id, 'CV')).toBe(18);
    expect(await services.coins.balance(id, 'V')).toBe(0);
    expect(await services.coins.ledgerSum(id, 'CV')).toBe(18);
  });

  it('100 concurrent spends never overdraw and the ledger sums to the balance', async () => {
    const id = await user(50);
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) => services.coins.change(id, -1, Reasons.UPLOAD, `c100:${id}:${i}`)),
    );
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter(
      (r) => r.status === 'rejected' && (r.reason as AppError).code === Codes.REFUSED,
    ).length;
    expect(ok).toBe(50);
    expect(refused).toBe(50);
    expect(await services.coins.balance(id)).toBe(0);
    expect(await services.coins.ledgerSum(id)).toBe(0);
    const rows = await services.coins.records({ userId: id, page: 1, size: 100 });
    expect(rows.total).toBe(51);
    // Balances after each row are a strictly decreasing sequence 49..0 (no two spends saw the same balance).
    const after = rows.list.filter((e) => e.amount === -1).map((e) => e.balanceAfter);
    expect(new Set(after).size).toBe(50);
    expect(Math.min(...after)).toBe(0);
  });

  it('100 concurrent retries of one charge apply it once', async () => {
    const id = await user(100);
    const results = await Promise.all(
      Array.from({ length: 100 }, () => services.coins.change(id, -9, Reasons.UPLOAD, `same:${id}`)),
    );
    expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
    expect(await services.coins.balance(id)).toBe(91);
    expect(await services.coins.ledgerSum(id)).toBe(91);
  });

  it('refunds a charge once', async () => {
    const id = await user(10);
    await services.coins.change(id, -6, Reasons.UPLOAD, `upload:${id}:fail`);
    const [a, b] = await Promise.all([
      services.coins.refund(`upload:${id}:fail`),
      services.coins.refund(`upload:${id}:fail`),
    ]);
    expect([a?.duplicate, b?.duplicate].sort()).toEqual([false, true]);
    expect(await services.coins.balance(id)).toBe(10);
    expect(await services.coins.refund('no-such-charge')).toBeUndefined();
  });

  it('tops free users up to 50 once per month, only when below 50', async () => {
    const month = Date.UTC(2026, 6, 1, 0, 5);
    clock.t = month;
    const low = await user(12);
    const high = await user(80);
    const vip = await user(5, 'monthly');
    const empty = await user(0);
    const banned = await user(1);
    await infra.store.repos.users.update(banned, { blackFlag: true }, clock.now());
    const first = await services.scheduler.runMonthlyTopUp(month);
    expect(await services.coins.balance(banned)).toBe(1);
    expect(first.skipped).toBe(false);
    expect(await services.coins.balance(low)).toBe(50);
    expect(await services.coins.balance(high)).toBe(80);
    expect(await services.coins.balance(vip)).toBe(5);
    expect(await services.coins.balance(empty)).toBe(50);
    const row = (await services.coins.records({ userId: low, page: 1, size: 1 })).list[0];
    expect(row).toMatchObject({ reason: Reasons.MONTHLY_TOPUP, amount: 38, balanceAfter: 50 });

    // Spending and re-running within the month gives nothing more (the job and each user's grant are once a month).
    await services.coins.change(low, -40, Reasons.UPLOAD, `m:${low}`);
    clock.t = month + 86_400_000;
    expect((await services.scheduler.runMonthlyTopUp()).skipped).toBe(true);
    const direct = await services.coins.monthlyTopUp(month + 86_400_000);
    expect(direct.toppedUp).toBe(0);
    expect(await services.coins.balance(low)).toBe(10);

    // Next month: topped up again.
    clock.t = Date.UTC(2026, 7, 1, 0, 5);
    const next = await services.scheduler.runMonthlyTopUp();
    expect(next).toMatchObject({ period: monthKey(clock.t), skipped: false });
    expect(await services.coins.balance(low)).toBe(50);
    expect(await services.coins.ledgerSum(low)).toBe(50);
  });

  it('expired paid plans fall back to free and are topped up', async () => {
    const id = await user(3, 'monthly');
    clock.advance(31 * 86_400_000);
    await services.scheduler.tick();
    expect((await infra.store.repos.users.findById(id))?.level).toBe('free');
    expect(await services.coins.balance(id)).toBe(50);
  });
});
