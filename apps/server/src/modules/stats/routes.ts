/** /sysInfo/* (spec §7 "statistics and affiliate endpoints"): the briefing and extension reports, issue 21. */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bearerSecurity, requireAdmin } from '../../http/context.ts';
import { envelope, ok } from '../../http/envelope.ts';
import { BriefingSchema, ExtensionSchema, PeriodBody } from './schemas.ts';

const routes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { stats } = app.ctx.services;

  app.post(
    '/sysInfo/briefing',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['sysInfo'],
        summary:
          'Information report: new and active users, uploads, seconds processed, failures, revenue by plan and method, conversion free → paid, per day of the period',
        security: bearerSecurity,
        body: PeriodBody,
        response: { 200: envelope(BriefingSchema) },
      },
    },
    async (req) => ok(await stats.briefing(req.body)),
  );

  app.post(
    '/sysInfo/extension',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['sysInfo'],
        summary:
          'Promotion report: referrals per day, and referrals and cash-back by inviter (extension staff first)',
        security: bearerSecurity,
        body: PeriodBody,
        response: { 200: envelope(ExtensionSchema) },
      },
    },
    async (req) => ok(await stats.extension(req.body)),
  );
};

export default routes;
