/** /sysInfo/* (spec §7 "statistics and affiliate endpoints"): the briefing and extension reports, issue 21. */
import { requireAdmin } from '../../http/context.ts';
import { routePlugin } from '../../http/route.ts';
import { BriefingSchema, ExtensionSchema, PeriodBody } from './schemas.ts';

const routes = routePlugin(['sysInfo'], (r, { stats }) => {
  r.post(
    '/sysInfo/briefing',
    {
      auth: requireAdmin,
      summary:
        'Information report: new and active users, uploads, seconds processed, failures, revenue by plan and method, conversion free → paid, per day of the period',
      body: PeriodBody,
      data: BriefingSchema,
    },
    async (req) => stats.briefing(req.body),
  );

  r.post(
    '/sysInfo/extension',
    {
      auth: requireAdmin,
      summary:
        'Promotion report: referrals per day, and referrals and cash-back by inviter (extension staff first)',
      body: PeriodBody,
      data: ExtensionSchema,
    },
    async (req) => stats.extension(req.body),
  );
});

export default routes;
