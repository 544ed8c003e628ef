/**
 * The product's sending mailbox (issue 25): POST /tencent-email/exchange (spec §7), GET and DELETE
 * /tencent-email/sender. Administrators only.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerSecurity, requireAdmin } from '../../http/context.ts';
import { envelope, ok } from '../../http/envelope.ts';

const Sender = z.object({
  email: z.string(),
  name: z.string(),
  host: z.string(),
  port: z.number().int(),
  secure: z.boolean(),
  verifiedAt: z.number(),
});
const tags = ['system'];

const routes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { mailbox } = app.ctx.services;

  app.post(
    '/tencent-email/exchange',
    {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: "Exchange a Tencent mailbox's authorisation code for the product's sending mailbox",
        description:
          "Logs in to the mailbox over SMTP (smtp.qq.com for qq.com/foxmail.com, smtp.exmail.qq.com otherwise; 465 TLS unless host/port are given) and, only if that succeeds, sends verification codes and company notices through it from now on. 307 with the server's answer when refused. The code is stored encrypted and never answered back.",
        security: bearerSecurity,
        body: z.object({
          email: z.email().max(191),
          authCode: z.string().min(1).max(128).describe('授权码 generated in the mailbox settings'),
          name: z.string().max(64).optional().describe('sender name shown to recipients'),
          host: z.string().max(191).optional(),
          port: z.number().int().min(1).max(65535).optional(),
          secure: z.boolean().optional(),
        }),
        response: { 200: envelope(Sender) },
      },
    },
    async (req) => ok(await mailbox.exchange(req.body)),
  );

  app.get(
    '/tencent-email/sender',
    {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: 'The sending mailbox in use (null: the configured mailer)',
        security: bearerSecurity,
        response: { 200: envelope(Sender.nullable()) },
      },
    },
    async () => ok(await mailbox.current()),
  );

  app.delete(
    '/tencent-email/sender',
    {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: 'Stop sending through the exchanged mailbox (back to the configured mailer)',
        security: bearerSecurity,
        response: { 200: envelope(z.object({ removed: z.boolean() })) },
      },
    },
    async () => ok(await mailbox.remove()),
  );
};

export default routes;
