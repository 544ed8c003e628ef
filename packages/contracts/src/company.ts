/** Company endpoints' shapes (issue 20): e-mail notices, API keys, webhooks and their deliveries. */
import { z } from 'zod';

/** The events a company's webhooks can subscribe to. */
export const WEBHOOK_EVENTS = ['video.made', 'video.failed', 'balance.low'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const CompanyNoticeBody = z
  .object({
    enabled: z
      .boolean()
      .optional()
      .describe('every e-mail notice of the account on/off (the original switch)'),
    made: z.boolean().optional().describe('e-mail when a video is made'),
    failed: z.boolean().optional().describe('e-mail when a video failed'),
    lowBalance: z.boolean().optional().describe('e-mail when the CV balance falls below lowBalanceThreshold'),
    lowBalanceThreshold: z.number().int().min(0).max(10_000_000).optional().describe('CV coins'),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'nothing to change');

export const CompanyNoticeSchema = z.object({
  emailNotice: z.boolean().describe('e-mails on at all'),
  made: z.boolean(),
  failed: z.boolean(),
  lowBalance: z.boolean(),
  lowBalanceThreshold: z.number().int(),
});

export const ApiKeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  prefix: z.string().describe('the first 12 characters of the key'),
  ratePerMinute: z.number().int(),
  routes: z
    .array(z.string())
    .nullable()
    .describe('the public-API operations the key may call ("GET /product/…"); null: all of them'),
  createdAt: z.number(),
  lastUsedAt: z.number().nullable(),
  revokedAt: z.number().nullable(),
});
export const CreateKeyBody = z.object({
  name: z.string().trim().min(1).max(64),
  ratePerMinute: z.number().int().min(1).max(600).default(120),
  routes: z
    .array(z.string().max(128))
    .max(64)
    .nullable()
    .optional()
    .describe(
      'the public-API operations the key may call, e.g. "GET /product/motion/boneTypes"; absent: all',
    ),
});
export const CreatedKeySchema = ApiKeySchema.extend({
  key: z.string().describe('the key itself: shown this once only, stored hashed'),
});

export const WebhookEventSchema = z.enum(WEBHOOK_EVENTS);
export const WebhookSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  secret: z.string().describe('HMAC-SHA256 key of the Mocap-Signature header'),
  events: z.array(WebhookEventSchema),
  createdAt: z.number(),
});
export const CreateWebhookBody = z.object({
  url: z.string().trim().min(1).max(1024),
  events: z.array(WebhookEventSchema).min(1).default(['video.made', 'video.failed']),
});
export const DeliverySchema = z.object({
  id: z.number().int(),
  webhookId: z.number().int(),
  event: WebhookEventSchema,
  body: z.string(),
  state: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  nextAt: z.number().nullable(),
  responseCode: z.number().int().nullable(),
  error: z.string().nullable(),
  createdAt: z.number(),
  deliveredAt: z.number().nullable(),
});

export type CompanyNotice = z.infer<typeof CompanyNoticeSchema>;
export type ApiKey = z.infer<typeof ApiKeySchema>;
export type CreatedKey = z.infer<typeof CreatedKeySchema>;
export type Webhook = z.infer<typeof WebhookSchema>;
export type Delivery = z.infer<typeof DeliverySchema>;
