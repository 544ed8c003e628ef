/**
 * Accounts as the API shows them: the user view (sessions, the console's user lists), ledger entries, and the
 * console's user detail (`GET /admin/user/:id`, `/admin/company/:id`).
 */
import { z } from 'zod';
import { listOf } from './common.ts';
import { SkuRoleSchema } from './pay.ts';

export const LevelSchema = z.enum(['free', 'monthly', 'yearly']);

export const UserViewSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  username: z.string(),
  type: z.number().int().describe('1 individual, 2 company'),
  roles: z.array(z.string()),
  surplus: z.number().int().describe('V coins'),
  cvCoin: z.number().int().describe('CV coins (company)'),
  level: LevelSchema.describe('plan in force (an expired plan reads free)'),
  vexpiredAt: z.number().nullable().describe('plan expiry, epoch ms'),
  phone: z.string().nullable(),
  contact: z.string().nullable(),
  company: z.string().nullable(),
  address: z.string().nullable(),
  ip: z.string().nullable(),
  enabled: z.boolean(),
  testFlag: z.boolean(),
  blackFlag: z.boolean(),
  extensionStaff: z.boolean(),
  beta: z.boolean(),
  inviteCode: z.string(),
  referralCount: z.number().int(),
  uploadCount: z.number().int(),
  isPursh: z.union([z.literal(0), z.literal(1)]),
  teachingConfirmed: z.boolean(),
  emailNotice: z.boolean().describe('wants e-mail notices'),
  lastLoginAt: z.number().nullable(),
  previousLoginAt: z
    .number()
    .nullable()
    .optional()
    .describe('the login before the current one (shown to the user as "last login"); null: first login'),
  createdAt: z.number(),
});

export const LedgerEntrySchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  currency: z.enum(['V', 'CV']),
  amount: z.number().int().describe('positive: credit, negative: debit'),
  balanceAfter: z.number().int(),
  reason: z.string(),
  ref: z.string(),
  note: z.string().nullable(),
  createdAt: z.number(),
});

/** `GET /admin/user/:id` (and `/admin/company/:id`): the account with its 50 newest of each. */
export const UserDetailSchema = z.object({
  user: UserViewSchema,
  ledger: listOf(LedgerEntrySchema),
  orders: listOf(
    z.object({
      orderNo: z.string(),
      title: z.string(),
      amount: z.number().int(),
      method: z.string(),
      status: z.string(),
      createAt: z.number(),
      paidAt: z.number().nullable(),
    }),
  ),
  videos: listOf(
    z.object({
      id: z.number().int(),
      name: z.string(),
      status: z.number().int(),
      duration: z.number(),
      createAt: z.number(),
      inSquare: z.boolean(),
    }),
  ),
  referrals: listOf(z.object({ id: z.number().int(), email: z.string(), createdAt: z.number() })),
  invitedBy: z.object({ id: z.number().int(), email: z.string() }).nullable(),
});

export type UserView = z.infer<typeof UserViewSchema>;
export type LedgerEntry = z.infer<typeof LedgerEntrySchema>;
export type UserDetail = z.infer<typeof UserDetailSchema>;

/** `GET /auth/info`: the logged-in account, its roles, uploads and plan flags. */
export const AuthInfoSchema = z.object({
  user: UserViewSchema,
  roles: z.array(z.string()),
  uploadCount: z.number().int(),
  isPursh: z.union([z.literal(0), z.literal(1)]),
  skuRole: SkuRoleSchema,
});
export type AuthInfo = z.infer<typeof AuthInfoSchema>;
