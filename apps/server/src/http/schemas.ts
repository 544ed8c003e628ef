/** Zod schemas shared by route modules (they also document the API). */
import { z } from 'zod';

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
  createdAt: z.number(),
});

export const SessionSchema = z.object({
  token: z.string(),
  expiresAt: z.number().describe('epoch ms'),
  user: UserViewSchema,
  roles: z.array(z.string()),
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

/** An RSA-OAEP(SHA-256) ciphertext, base64. */
export const Encrypted = z.string().min(1).max(2048).describe('RSA-OAEP (SHA-256) ciphertext, base64');
