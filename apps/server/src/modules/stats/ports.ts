/** The stats slice's ports: its records and the repository interface its service uses (`repo.ts` implements it). */
export interface Period {
  from: number;
  to: number;
  /** Minutes east of UTC of the caller's calendar (e.g. 480 for China). */
  tzOffsetMin: number;
}

/** Count (and optional sum) per day index (days since the epoch in the caller's calendar). */
export type DayCounts = Map<number, { n: number; sum: number }>;

export interface RevenueRow {
  day: number;
  kind: string;
  method: string;
  orders: number;
  amount: number;
}

export interface InviterRow {
  inviterId: number;
  email: string;
  extensionStaff: boolean;
  referrals: number;
  paidReferrals: number;
  cashbackOrders: number;
  orderAmount: number;
  cashback: number;
  cashbackPaid: number;
}

export interface StatsRepo {
  newUsers(p: Period): Promise<DayCounts>;
  activeUsers(p: Period): Promise<DayCounts>;
  /** Distinct active accounts over the whole period (not the sum of the days). */
  activeUsersTotal(p: Period): Promise<number>;
  uploads(p: Period): Promise<DayCounts>;
  /** Videos made in the period (by finish day): n and seconds of video. */
  made(p: Period): Promise<DayCounts>;
  failed(p: Period): Promise<DayCounts>;
  revenue(p: Period): Promise<RevenueRow[]>;
  /** Accounts made in the period, and how many of them paid an order by `to`. */
  conversion(p: Period): Promise<{ registered: number; paid: number }>;
  /** First paid order of an account, per day. */
  firstPaid(p: Period): Promise<DayCounts>;
  referrals(p: Period): Promise<DayCounts>;
  inviters(p: Period): Promise<InviterRow[]>;
}
