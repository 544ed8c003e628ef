/**
 * The product's sending mailbox (issue 25): POST /tencent-email/exchange (spec §7), GET and DELETE
 * /tencent-email/sender. Administrators only.
 */
import { z } from 'zod';
import { requireAdmin } from '../../http/context.ts';
import { routePlugin } from '../../http/route.ts';

const Sender = z.object({
  email: z.string(),
  name: z.string(),
  host: z.string(),
  port: z.number().int(),
  secure: z.boolean(),
  verifiedAt: z.number(),
});
const tags = ['system'];

const routes = routePlugin(tags, (r, { mailbox }) => {
  r.post(
    '/tencent-email/exchange',
    {
      auth: requireAdmin,
      summary: "Exchange a Tencent mailbox's authorisation code for the product's sending mailbox",
      description:
        "Logs in to the mailbox over SMTP (smtp.qq.com for qq.com/foxmail.com, smtp.exmail.qq.com otherwise; 465 TLS unless host/port are given) and, only if that succeeds, sends verification codes and company notices through it from now on. 307 with the server's answer when refused. The code is stored encrypted and never answered back.",
      body: z.object({
        email: z.email().max(191),
        authCode: z.string().min(1).max(128).describe('授权码 generated in the mailbox settings'),
        name: z.string().max(64).optional().describe('sender name shown to recipients'),
        host: z.string().max(191).optional(),
        port: z.number().int().min(1).max(65535).optional(),
        secure: z.boolean().optional(),
      }),
      data: Sender,
    },
    async (req) => mailbox.exchange(req.body),
  );

  r.get(
    '/tencent-email/sender',
    {
      auth: requireAdmin,
      summary: 'The sending mailbox in use (null: the configured mailer)',
      data: Sender.nullable(),
    },
    async () => mailbox.current(),
  );

  r.delete(
    '/tencent-email/sender',
    {
      auth: requireAdmin,
      summary: 'Stop sending through the exchanged mailbox (back to the configured mailer)',
      data: z.object({ removed: z.boolean() }),
    },
    async () => mailbox.remove(),
  );
});

export default routes;
