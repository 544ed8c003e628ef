/**
 * Statistics of the console's reports (issue 21, spec §7 /sysInfo/*): briefing (information report) — new and
 * active users, uploads, seconds processed, failures, revenue by plan and method, conversion free → paid — and
 * extension (promotion report) — referrals and cash-back by inviter, extension staff first. Days are the
 * caller's calendar days (its UTC offset), counted by the database.
 */
import { AppError, Codes } from '../../errors.ts';
import { DAY_MS } from '../../ports.ts';
import type { DayCounts, InviterRow, Period, RevenueRow, StatsRepo } from './ports.ts';

export type { DayCounts, InviterRow, Period, RevenueRow, StatsRepo };

/** Longest period a report covers. */
export const MAX_DAYS = 400;

export interface BriefingDay {
  date: string;
  newUsers: number;
  activeUsers: number;
  uploads: number;
  made: number;
  secondsProcessed: number;
  failures: number;
  orders: number;
  revenue: number;
  firstPaid: number;
}

const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

export class StatsService {
  constructor(private readonly repo: StatsRepo) {}

  private check(p: Period): { first: number; last: number } {
    if (!(p.to > p.from)) throw new AppError(Codes.PARAMETER_ERROR, 'the period must end after it starts');
    if (p.to - p.from > MAX_DAYS * DAY_MS)
      throw new AppError(Codes.PARAMETER_ERROR, `a report covers at most ${MAX_DAYS} days`);
    const off = p.tzOffsetMin * 60_000;
    return { first: Math.floor((p.from + off) / DAY_MS), last: Math.floor((p.to - 1 + off) / DAY_MS) };
  }

  async briefing(p: Period) {
    const { first, last } = this.check(p);
    const [newUsers, active, activeTotal, uploads, made, failed, revenue, conversion, firstPaid] =
      await Promise.all([
        this.repo.newUsers(p),
        this.repo.activeUsers(p),
        this.repo.activeUsersTotal(p),
        this.repo.uploads(p),
        this.repo.made(p),
        this.repo.failed(p),
        this.repo.revenue(p),
        this.repo.conversion(p),
        this.repo.firstPaid(p),
      ]);
    const days: BriefingDay[] = [];
    for (let d = first; d <= last; d++) {
      const rev = revenue.filter((r) => r.day === d);
      days.push({
        date: dateOf(d),
        newUsers: newUsers.get(d)?.n ?? 0,
        activeUsers: active.get(d)?.n ?? 0,
        uploads: uploads.get(d)?.n ?? 0,
        made: made.get(d)?.n ?? 0,
        secondsProcessed: Math.round((made.get(d)?.sum ?? 0) / 1000),
        failures: failed.get(d)?.n ?? 0,
        orders: rev.reduce((s, r) => s + r.orders, 0),
        revenue: rev.reduce((s, r) => s + r.amount, 0),
        firstPaid: firstPaid.get(d)?.n ?? 0,
      });
    }
    const sum = (k: keyof Omit<BriefingDay, 'date'>) => days.reduce((s, x) => s + x[k], 0);
    // Revenue by plan (the goods' title on the order) and by method over the period.
    const by = (key: 'kind' | 'method') => {
      const m = new Map<string, { orders: number; amount: number }>();
      for (const r of revenue) {
        const e = m.get(r[key]) ?? { orders: 0, amount: 0 };
        e.orders += r.orders;
        e.amount += r.amount;
        m.set(r[key], e);
      }
      return [...m.entries()].map(([k, v]) => ({ key: k, ...v })).sort((a, b) => b.amount - a.amount);
    };
    return {
      days,
      totals: {
        newUsers: sum('newUsers'),
        activeUsers: activeTotal,
        uploads: sum('uploads'),
        made: sum('made'),
        secondsProcessed: sum('secondsProcessed'),
        failures: sum('failures'),
        orders: sum('orders'),
        revenue: sum('revenue'),
        firstPaid: sum('firstPaid'),
      },
      revenueByPlan: by('kind'),
      revenueByMethod: by('method'),
      conversion: {
        registered: conversion.registered,
        paid: conversion.paid,
        rate: conversion.registered ? conversion.paid / conversion.registered : 0,
      },
    };
  }

  async extension(p: Period) {
    const { first, last } = this.check(p);
    const [series, inviters] = await Promise.all([this.repo.referrals(p), this.repo.inviters(p)]);
    const days = [];
    for (let d = first; d <= last; d++) days.push({ date: dateOf(d), referrals: series.get(d)?.n ?? 0 });
    inviters.sort(
      (a, b) =>
        Number(b.extensionStaff) - Number(a.extensionStaff) ||
        b.referrals - a.referrals ||
        b.cashback - a.cashback,
    );
    return {
      days,
      inviters,
      totals: {
        referrals: days.reduce((s, x) => s + x.referrals, 0),
        paidReferrals: inviters.reduce((s, x) => s + x.paidReferrals, 0),
        cashback: inviters.reduce((s, x) => s + x.cashback, 0),
        cashbackPaid: inviters.reduce((s, x) => s + x.cashbackPaid, 0),
        orderAmount: inviters.reduce((s, x) => s + x.orderAmount, 0),
        staff: inviters.filter((x) => x.extensionStaff).length,
      },
    };
  }
}
