/**
 * Page-view and action analytics (issue 25, spec §7 POST /pageView/addBehavior and addDigitalHumanBehavior),
 * read back by administrators as the page-view report (POST /sysInfo/pageView).
 *
 * Anonymous-safe: a visitor without a session is counted without an account; nothing personal is kept beyond
 * the account id — no IP address, user agent or query string (paths are checked to be plain route paths, so an
 * e-mail or a token in a path is refused rather than stored). Rate-limited per visitor (the limiter keys on the
 * account, or on the address without storing it): 120 behaviours a minute.
 */
import { AppError, Codes } from '../../errors.ts';
import { type Clock, DAY_MS, type RateLimiter } from '../../ports.ts';
import type { BehaviorKind, BehaviorRepo, BehaviorRow } from './ports.ts';

export const BEHAVIOR_LIMIT = { perMinute: 120 } as const;
/** A route path of the app: `/index/myPro`, `/userCenter`, `/refresher` (no query, no `@`, no dots). */
export const PAGE_PATH = /^\/[A-Za-z0-9_\-/]{0,127}$/;
/** An action name: `upload.start`, `download`, `tour.dismiss`. */
export const ACTION_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
const MAX_DAYS = 366;

export interface BehaviorInput {
  page: string;
  action?: string | undefined;
}

export interface PageViewReport {
  days: { date: string; views: number; actions: number; digitalHuman: number; users: number }[];
  pages: { page: string; views: number; users: number; anonymous: number }[];
  actions: { kind: BehaviorKind; page: string; action: string; count: number; users: number }[];
}

export class BehaviorService {
  constructor(
    private readonly repo: BehaviorRepo,
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
  ) {}

  /** Records one behaviour: a page view (no action) or an action on a page. `visitor` keys the rate limit only. */
  async add(
    kind: 'site' | 'digital_human',
    input: BehaviorInput,
    who: { userId: number | null; visitor: string },
  ): Promise<{ recorded: true }> {
    const page = input.page.replace(/\/+$/, '') || '/';
    if (!PAGE_PATH.test(page))
      throw new AppError(Codes.PARAMETER_ERROR, 'page: a route path such as /index/myPro');
    const action = input.action ?? '';
    if (action && !ACTION_NAME.test(action))
      throw new AppError(Codes.PARAMETER_ERROR, 'action: letters, digits, _ . - (at most 64)');
    if (kind === 'digital_human' && !action)
      throw new AppError(Codes.PARAMETER_ERROR, 'action is required for a digital-human behaviour');
    const key = who.userId !== null ? `behavior:u${who.userId}` : `behavior:a${who.visitor}`;
    const hit = await this.limiter.hit(key, BEHAVIOR_LIMIT.perMinute, 60_000);
    if (!hit.allowed) throw new AppError(Codes.TOO_MANY_REQUESTS, 'too many behaviours: slow down');
    await this.repo.add({
      kind: kind === 'digital_human' ? 'digital_human' : action ? 'action' : 'page',
      page,
      action,
      userId: who.userId,
      createdAt: this.clock.now(),
    });
    return { recorded: true };
  }

  /** The administrators' page-view report over [from, to): per day, per page, per action. */
  async report(p: { from: number; to: number; tzOffsetMin: number }): Promise<PageViewReport> {
    if (!(p.to > p.from)) throw new AppError(Codes.PARAMETER_ERROR, 'the period must end after it starts');
    if (p.to - p.from > MAX_DAYS * DAY_MS)
      throw new AppError(Codes.PARAMETER_ERROR, `a report covers at most ${MAX_DAYS} days`);
    const off = p.tzOffsetMin * 60_000;
    const rows = await this.repo.summary(p.from, p.to, off);
    const first = Math.floor((p.from + off) / DAY_MS);
    const last = Math.floor((p.to - 1 + off) / DAY_MS);
    const days: PageViewReport['days'] = [];
    for (let d = first; d <= last; d++) {
      const of = rows.filter((r) => r.day === d);
      const sum = (k: BehaviorKind) => of.filter((r) => r.kind === k).reduce((s, r) => s + r.count, 0);
      days.push({
        date: new Date(d * DAY_MS).toISOString().slice(0, 10),
        views: sum('page'),
        actions: sum('action'),
        digitalHuman: sum('digital_human'),
        // Distinct accounts per (day, page, action) row: the largest row is a lower bound of the day's accounts.
        users: of.reduce((m, r) => Math.max(m, r.users), 0),
      });
    }
    const byPage = new Map<string, { views: number; users: number; anonymous: number }>();
    const byAction = new Map<string, PageViewReport['actions'][number]>();
    for (const r of rows) {
      if (r.kind === 'page') {
        const e = byPage.get(r.page) ?? { views: 0, users: 0, anonymous: 0 };
        e.views += r.count;
        e.users += r.users;
        e.anonymous += r.anonymous;
        byPage.set(r.page, e);
      } else {
        const k = `${r.kind}|${r.page}|${r.action}`;
        const e = byAction.get(k) ?? { kind: r.kind, page: r.page, action: r.action, count: 0, users: 0 };
        e.count += r.count;
        e.users += r.users;
        byAction.set(k, e);
      }
    }
    return {
      days,
      pages: [...byPage].map(([page, e]) => ({ page, ...e })).sort((a, b) => b.views - a.views),
      actions: [...byAction.values()].sort((a, b) => b.count - a.count),
    };
  }
}

export type { BehaviorRow };
