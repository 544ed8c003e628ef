/**
 * The blacklist's e-mail domains and IPs (issue 21; spec §7 /sysConfig/blackListInfo plus insert, update — the
 * account part is in modules/admin), and the guard that refuses blocked addresses and domains with 408.
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, Codes } from '../../errors.ts';
import { requireAdmin, userOf } from '../../http/context.ts';
import { routePlugin } from '../../http/route.ts';

const RuleSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['domain', 'ip']),
  value: z.string(),
  note: z.string(),
  createdBy: z.number().int().nullable(),
  createdAt: z.number(),
});

/** Routes where a blocked e-mail domain is refused: asking for a code, registering, logging in. */
const EMAIL_ROUTES = new Set([
  'POST /product/code/:email/:type',
  'POST /product/code/company/:email/:type',
  'POST /product/user/register',
  'POST /product/company/register',
  'POST /product/auth/login',
  'POST /product/auth/company/login',
]);

function emailOf(req: FastifyRequest): string | undefined {
  const p = req.params as Record<string, unknown> | undefined;
  const b = req.body as Record<string, unknown> | undefined;
  for (const v of [p?.email, b?.email, b?.username]) if (typeof v === 'string' && v.includes('@')) return v;
  return undefined;
}

/** A request from a blacklisted address (any API route), or for a blacklisted e-mail domain: 408. */
export async function blocklistGuard(req: FastifyRequest): Promise<void> {
  const { blocklist } = req.server.ctx.services;
  if (await blocklist.ipBlocked(req.ip)) throw new AppError(Codes.ACCOUNT_DISABLED);
  const key = `${req.method} ${req.routeOptions.url ?? ''}`;
  if (EMAIL_ROUTES.has(key) && (await blocklist.emailBlocked(emailOf(req))))
    throw new AppError(Codes.ACCOUNT_DISABLED);
}

const tags = ['admin'];

const routes = routePlugin(tags, (r, { blocklist }) => {
  r.post(
    '/sysConfig/blackListInfo/rules',
    {
      auth: requireAdmin,
      summary: 'Blacklisted e-mail domains and IP addresses or ranges',
      data: z.array(RuleSchema),
    },
    async () => blocklist.list(),
  );

  r.post(
    '/sysConfig/blackListInfo/rules/insert',
    {
      auth: requireAdmin,
      summary:
        'Blacklist an e-mail domain (no code, registration or login; sub-domains too) or an IP address / CIDR range (every request 408)',
      body: z.object({
        kind: z.enum(['domain', 'ip']),
        value: z.string().min(1).max(191),
        note: z.string().max(255).default(''),
      }),
      data: RuleSchema,
    },
    async (req) =>
      blocklist.add(req.body.kind, req.body.value, req.body.note, userOf(req).id, req.ip ?? null),
  );

  r.deleteById(
    '/sysConfig/blackListInfo/rules/:id',
    {
      auth: requireAdmin,
      summary: 'Remove a domain or IP rule',
    },
    (_, id) => blocklist.remove(id),
  );
});

export default routes;
