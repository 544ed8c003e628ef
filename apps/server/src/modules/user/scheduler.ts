/**
 * Scheduled jobs: plan expiry and the monthly free top-up. `tick()` is safe to call often and from several
 * processes: the monthly run is claimed once per month in `scheduled_runs`, and each user's top-up once per
 * month in `coin_grants`.
 */

import type { Clock, Store } from '../../ports.ts';
import { type CoinService, monthKey } from '../coins/service.ts';
import type { AccountService } from './service.ts';

export const MONTHLY_TOPUP_JOB = 'monthly_topup';
/** A run started this long ago without finishing is presumed crashed and resumed. */
const STALE_RUN_MS = 3_600_000;

export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly accounts: AccountService,
    private readonly coins: CoinService,
  ) {}

  /**
   * The monthly top-up for the month of `at`, at most once per month. Returns what it did, or
   * `skipped` when the month's run already happened (or is running elsewhere).
   */
  async runMonthlyTopUp(
    at = this.clock.now(),
  ): Promise<{ period: string; skipped: boolean; toppedUp: number; coins: number }> {
    const period = monthKey(at);
    const now = this.clock.now();
    if (!(await this.store.repos.runs.start(MONTHLY_TOPUP_JOB, period, now))) {
      const run = await this.store.repos.runs.get(MONTHLY_TOPUP_JOB, period);
      if (!run || run.finishedAt !== null || now - run.startedAt < STALE_RUN_MS)
        return { period, skipped: true, toppedUp: 0, coins: 0 };
      // Crashed run: resume (per-user grants keep it exact).
    }
    const r = await this.coins.monthlyTopUp(at);
    await this.store.repos.runs.finish(MONTHLY_TOPUP_JOB, period, this.clock.now(), JSON.stringify(r));
    return { period, skipped: false, toppedUp: r.toppedUp, coins: r.coins };
  }

  /** One pass of every scheduled job. */
  async tick(): Promise<void> {
    await this.accounts.expirePlans();
    await this.runMonthlyTopUp();
    await this.store.repos.tokens.purgeExpired(this.clock.now() - 7 * 86_400_000);
  }

  /** Runs `tick` now and every `everyMs` (default 10 min); errors go to `onError`. */
  start(everyMs = 600_000, onError: (e: unknown) => void = () => {}): void {
    if (this.timer) return;
    const run = () => {
      if (this.running) return;
      this.running = this.tick()
        .catch(onError)
        .finally(() => {
          this.running = undefined;
        });
    };
    run();
    this.timer = setInterval(run, everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
