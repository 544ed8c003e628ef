/**
 * Payment endpoints' shapes (spec §7 Payment, Records, Referral and cash-back): goods, the payment methods, a
 * WeChat prepay, orders, invoices requested for them, and cash-back commissions. Money in fen.
 */
import { z } from 'zod';
import { pageOf } from './common.ts';

/** One of the goods (`GET /goods`, `POST /sysProduct/queryAll`). */
export const GoodsSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['plan', 'coins', 'company']),
  name: z.string(),
  title: z.string(),
  price: z.number().int().describe('fen'),
  listPrice: z.number().int().nullable().describe('fen, when shown as a discount'),
  offPercent: z.number().int().nullable(),
  level: z.enum(['monthly', 'yearly']).nullable(),
  days: z.number().int().nullable(),
  coins: z.number().int().describe('V coins (CV for company goods) granted'),
});
export type Goods = z.infer<typeof GoodsSchema>;

/** `GET /goods`: the personal goods and the pack bonus by plan. */
export const GoodsListSchema = z.object({
  list: z.array(GoodsSchema),
  packBonusPercent: z.object({ free: z.number(), monthly: z.number(), yearly: z.number() }),
});
export type GoodsList = z.infer<typeof GoodsListSchema>;

/** `GET /pay/methods`. */
export const PayMethodsSchema = z.object({
  wechat: z.boolean(),
  alipay: z.boolean(),
  mode: z.enum(['sandbox', 'live']),
});
export type PayMethods = z.infer<typeof PayMethodsSchema>;

/** `POST /wx/prepay/{goodsId}`, `POST /wx/company/prepay/{id}`. */
export const PrepaySchema = z.object({
  url: z.string().describe('code_url to show as a QR code'),
  orderNo: z.string(),
  amount: z.number().int().describe('fen'),
  expiresAt: z.number().describe('epoch ms: the QR code is valid until then (300 s)'),
  remainingMs: z
    .number()
    .int()
    .describe('ms the code stays valid by the server clock (300 000 for a new order; less for a reused one)'),
});
export type Prepay = z.infer<typeof PrepaySchema>;

/** An order (`/user/order/record`, `/user/order/{orderNo}`, company orders). */
export const OrderSchema = z.object({
  orderNo: z.string(),
  account: z.string().describe('e-mail of the buyer'),
  goodsId: z.number().int(),
  type: z.string().describe('plan | coins | company'),
  title: z.string(),
  amount: z.number().int().describe('fen'),
  method: z.enum(['wechat', 'alipay']),
  status: z.enum(['pending', 'paid', 'closed']),
  createAt: z.number(),
  updateAt: z.number(),
  expiresAt: z.number(),
  paidAt: z.number().nullable(),
  tradeNo: z.string().nullable(),
  coins: z.number().int().describe('coins credited (plan or pack + bonus)'),
  bonus: z.number().int(),
  currency: z.enum(['V', 'CV']),
  levelAfter: z.string().nullable(),
  expiryAfter: z.number().nullable(),
  carriedDays: z.number().nullable(),
  invoice: z.string().nullable().describe('invoice status when one was requested'),
});
export type Order = z.infer<typeof OrderSchema>;

/** An invoice request (`POST /code/personInvoice`, `/code/personInvoice/business` with `taxNo`). */
export const InvoiceBody = z.object({
  orderNo: z.string().regex(/^[A-Za-z0-9_-]{6,32}$/),
  title: z.string().trim().min(1).max(128).describe('invoice title: a person name or the company name'),
  taxNo: z
    .string()
    .trim()
    .regex(/^[0-9A-Z]{15,20}$/, 'tax number: 15–20 digits or capital letters')
    .optional(),
  email: z.email().max(191),
});
export type InvoiceInput = z.input<typeof InvoiceBody>;

/** A commission on an invitee's paid order (`POST /user/referral/cashBack`). */
export const CashbackSchema = z.object({
  id: z.number().int(),
  inviteeId: z.number().int(),
  invitee: z.string().describe('masked e-mail of the invitee'),
  orderNo: z.string(),
  orderAmount: z.number().int(),
  rateBp: z.number().int().describe('basis points (1000 = 10 %)'),
  amount: z.number().int().describe('commission in fen'),
  status: z.enum(['pending', 'paid']),
  createdAt: z.number(),
  paidAt: z.number().nullable(),
});
export type Cashback = z.infer<typeof CashbackSchema>;

/** `POST /user/referral/cash`: the cash-back totals. */
export const CashbackSummarySchema = z.object({
  code: z.string().nullable(),
  rateBp: z.number().int(),
  pending: z.number().int(),
  paid: z.number().int(),
});
export type CashbackSummary = z.infer<typeof CashbackSummarySchema>;

/** `GET /user/sku/role`: which paid plan is in force. */
export const SkuRoleSchema = z.object({ isMonthly: z.boolean(), isYear: z.boolean() });
export type SkuRole = z.infer<typeof SkuRoleSchema>;

/** An account I invited and the reward it earned me (10/15/20 V by rank). */
export const InviteeSchema = z.object({
  id: z.number().int(),
  email: z.string().describe('masked'),
  createdAt: z.number(),
  rank: z.number().int(),
  reward: z.number().int(),
});
export type Invitee = z.infer<typeof InviteeSchema>;

/** `POST /user/referral/record`: a page of my invitees, my invite code and how many I invited. */
export const ReferralRecordsSchema = pageOf(InviteeSchema).extend({
  inviteCode: z.string(),
  referralCount: z.number().int(),
});
export type ReferralRecords = z.infer<typeof ReferralRecordsSchema>;
