/** zod schemas of the /sysInfo report routes. */
import { z } from 'zod';

export const PeriodBody = z.object({
  from: z.number().int().describe('start, epoch ms (inclusive)'),
  to: z.number().int().describe('end, epoch ms (exclusive)'),
  tzOffsetMin: z
    .number()
    .int()
    .min(-14 * 60)
    .max(14 * 60)
    .default(0)
    .describe("minutes east of UTC of the report's calendar days (480 for China)"),
});

const Sum = z.object({ key: z.string(), orders: z.number().int(), amount: z.number().int().describe('fen') });

export const BriefingSchema = z.object({
  days: z.array(
    z.object({
      date: z.string().describe('YYYY-MM-DD in the given offset'),
      newUsers: z.number().int(),
      activeUsers: z.number().int().describe('accounts that logged in or uploaded that day'),
      uploads: z.number().int(),
      made: z.number().int(),
      secondsProcessed: z.number().int(),
      failures: z.number().int(),
      orders: z.number().int(),
      revenue: z.number().int().describe('fen'),
      firstPaid: z.number().int().describe('accounts paying for the first time'),
    }),
  ),
  totals: z.object({
    newUsers: z.number().int(),
    activeUsers: z.number().int().describe('distinct over the period'),
    uploads: z.number().int(),
    made: z.number().int(),
    secondsProcessed: z.number().int(),
    failures: z.number().int(),
    orders: z.number().int(),
    revenue: z.number().int(),
    firstPaid: z.number().int(),
  }),
  revenueByPlan: z.array(Sum),
  revenueByMethod: z.array(Sum),
  conversion: z.object({
    registered: z.number().int().describe('individual accounts made in the period'),
    paid: z.number().int().describe('of them, those who paid an order'),
    rate: z.number(),
  }),
});

export const ExtensionSchema = z.object({
  days: z.array(z.object({ date: z.string(), referrals: z.number().int() })),
  inviters: z.array(
    z.object({
      inviterId: z.number().int(),
      email: z.string(),
      extensionStaff: z.boolean(),
      referrals: z.number().int(),
      paidReferrals: z.number().int(),
      cashbackOrders: z.number().int(),
      orderAmount: z.number().int(),
      cashback: z.number().int(),
      cashbackPaid: z.number().int(),
    }),
  ),
  totals: z.object({
    referrals: z.number().int(),
    paidReferrals: z.number().int(),
    cashback: z.number().int(),
    cashbackPaid: z.number().int(),
    orderAmount: z.number().int(),
    staff: z.number().int(),
  }),
});
