/**
 * Coins: every change of a balance is one ledger row (reason, amount, balance after, reference) written in the
 * same transaction as the balance. Balances never go negative (a conditional update, and a CHECK constraint
 * underneath). A reference key can be used once, ever: retrying a change with the same ref returns the first
 * result instead of charging twice.
 */
import { Prices } from '@mocap/contracts';
import { AppError, Codes, Messages } from '../../errors.ts';
import type { Clock, Currency, LedgerEntry, LedgerQuery, Page, Repos, Store } from '../../ports.ts';

/** Why coins moved; stored in the ledger and shown in records. */
export const Reasons = {
  SIGNUP: 'signup',
  MONTHLY_TOPUP: 'monthly_topup',
  UPLOAD: 'upload',
  REMAKE: 'remake',
  SQUARE_DOWNLOAD: 'square_download',
  SQUARE_INCOME: 'square_income',
  COMPANY_UPLOAD: 'company_upload',
  REFUND: 'refund',
  REFERRAL_INVITER: 'referral_inviter',
  REFERRAL_INVITEE: 'referral_invitee',
  ADMIN: 'admin',
  PURCHASE: 'purchase',
} as const;
export type Reason = (typeof Reasons)[keyof typeof Reasons] | (string & {});

/** Spec §1/§9 prices: the contract's (`@mocap/contracts`, shown by the web app before the user confirms). */

export interface ChangeResult {
  entry: LedgerEntry;
  balance: number;
  /** True when `ref` had already been applied: nothing changed now. */
  duplicate: boolean;
}

export interface ChangeOptions {
  currency?: Currency;
  note?: string | null;
  /** Error message when the balance is insufficient (defaults to the spec's V-coin message). */
  insufficientMessage?: string;
}

/** A month key `YYYY-MM` in UTC. */
export const monthKey = (t: number): string => new Date(t).toISOString().slice(0, 7);

/** What a refusal for want of coins says: V coins, or CV coins (a company making a video or a dance). */
export const insufficientMessage = (currency: Currency): string =>
  currency === 'V' ? Messages.INSUFFICIENT_V : '你的CV币余额不足,无法制作视频';

/** A change of a balance: whose, by how much (negative to spend), why, its reference key, options. */
type Change = [userId: number, amount: number, reason: Reason, ref: string, opts?: ChangeOptions];

export class CoinService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /**
   * Adds `amount` (negative to spend) to the user's balance with a ledger row, in one transaction.
   * Throws AppError(307, 你的V币余额不足...) when the balance would go negative. Idempotent by `ref`.
   */
  async change(...change: Change): Promise<ChangeResult> {
    return this.store.transaction((repos) => this.changeIn(repos, ...change));
  }

  /** `change` inside a transaction the caller already holds (so other writes commit or roll back with it). */
  async changeIn(repos: Repos, ...[userId, amount, reason, ref, opts = {}]: Change): Promise<ChangeResult> {
    if (!Number.isSafeInteger(amount)) throw new AppError(Codes.PARAMETER_ERROR, 'amount must be an integer');
    if (!ref || ref.length > 191)
      throw new AppError(Codes.PARAMETER_ERROR, 'a reference key (≤191 chars) is required');
    const currency = opts.currency ?? 'V';
    const now = this.clock.now();
    // Lock the account row first (FOR NO KEY UPDATE on PostgreSQL): concurrent changes of one account queue here
    // in one order, so they cannot deadlock, and the balance read is the one the update will see.
    const before = await repos.users.balanceForUpdate(userId, currency);
    if (before === undefined) throw new AppError(Codes.NOT_FOUND, 'user not found');
    const id = await repos.ledger.claim({
      userId,
      currency,
      amount,
      balanceAfter: 0,
      reason,
      ref,
      note: opts.note ?? null,
      createdAt: now,
    });
    if (id === undefined) {
      const existing = await repos.ledger.findByRef(ref);
      if (!existing) throw new AppError(Codes.BUSY);
      if (existing.userId !== userId || existing.amount !== amount || existing.currency !== currency)
        throw new AppError(Codes.PARAMETER_ERROR, `reference ${ref} was already used for another change`);
      return { entry: existing, balance: before, duplicate: true };
    }
    const insufficient = () =>
      new AppError(Codes.REFUSED, opts.insufficientMessage ?? Messages.INSUFFICIENT_V, {
        balance: before,
        required: -amount,
      });
    // Throwing rolls the claimed ledger row back with the transaction.
    if (before + amount < 0) throw insufficient();
    const balance = await repos.users.addToBalance(userId, currency, amount);
    if (balance === undefined) throw insufficient();
    await repos.ledger.setBalanceAfter(id, balance);
    return {
      entry: {
        id,
        userId,
        currency,
        amount,
        balanceAfter: balance,
        reason,
        ref,
        note: opts.note ?? null,
        createdAt: now,
      },
      balance,
      duplicate: false,
    };
  }

  /**
   * Raises the balance to `target` if it is below, with a ledger row; nothing when already at or above.
   * Returns the amount added (0 when none).
   */
  async topUpToIn(
    repos: Repos,
    userId: number,
    target: number,
    reason: Reason,
    ref: string,
    currency: Currency = 'V',
  ): Promise<number> {
    const balance = await repos.users.balanceForUpdate(userId, currency);
    if (balance === undefined || balance >= target) return 0;
    const r = await this.changeIn(repos, userId, target - balance, reason, ref, { currency });
    return r.duplicate ? 0 : r.entry.amount;
  }

  /** Refunds a previous charge (by its ref) once; a refund of an unknown or already refunded charge does nothing. */
  async refund(chargeRef: string, note?: string): Promise<ChangeResult | undefined> {
    return this.store.transaction((repos) => this.refundIn(repos, chargeRef, note));
  }

  /** `refund` inside a transaction the caller already holds. */
  async refundIn(repos: Repos, chargeRef: string, note?: string): Promise<ChangeResult | undefined> {
    const charge = await repos.ledger.findByRef(chargeRef);
    if (!charge || charge.amount >= 0) return undefined;
    return this.changeIn(repos, charge.userId, -charge.amount, Reasons.REFUND, `refund:${chargeRef}`, {
      currency: charge.currency,
      note: note ?? `refund of ${charge.reason}`,
    });
  }

  async balance(userId: number, currency: Currency = 'V'): Promise<number> {
    const u = await this.store.repos.users.findById(userId);
    if (!u) throw new AppError(Codes.NOT_FOUND, 'user not found');
    return currency === 'V' ? u.surplus : u.cvCoin;
  }

  /**
   * Refuses (REFUSED, with the balance and the amount required) when the user holds fewer than `amount` coins
   * of `currency`: the check before anything is stored or charged (the charge itself checks again).
   */
  async requireBalance(userId: number, currency: Currency, amount: number): Promise<void> {
    const balance = await this.balance(userId, currency);
    if (balance < amount)
      throw new AppError(Codes.REFUSED, insufficientMessage(currency), { balance, required: amount });
  }

  records(q: LedgerQuery): Promise<Page<LedgerEntry>> {
    return this.store.repos.ledger.list(q);
  }

  /** The sum of the user's ledger rows (equals the balance when every change went through the ledger). */
  ledgerSum(userId: number, currency: Currency = 'V'): Promise<number> {
    return this.store.repos.ledger.sum(userId, currency);
  }

  /**
   * The monthly top-up (spec §1): every free individual account below 50 V is raised to 50, once per month per
   * user (a grant marker is written with the top-up, so re-running the job in the same month does nothing even if
   * the user spent meanwhile). Returns how many accounts were topped up.
   */
  async monthlyTopUp(
    at: number = this.clock.now(),
  ): Promise<{ period: string; toppedUp: number; coins: number }> {
    const period = monthKey(at);
    const target = Prices.freeMonthlyCoins;
    let afterId = 0;
    let toppedUp = 0;
    let coins = 0;
    for (;;) {
      const batch = await this.store.repos.users.freeUsersBelow(target, afterId, 500);
      if (batch.length === 0) break;
      for (const u of batch) {
        afterId = u.id;
        const added = await this.store.transaction(async (repos) => {
          if (!(await repos.grants.claim(Reasons.MONTHLY_TOPUP, period, u.id, this.clock.now()))) return 0;
          return this.topUpToIn(repos, u.id, target, Reasons.MONTHLY_TOPUP, `monthly:${period}:${u.id}`);
        });
        if (added > 0) {
          toppedUp++;
          coins += added;
        }
      }
    }
    return { period, toppedUp, coins };
  }
}
