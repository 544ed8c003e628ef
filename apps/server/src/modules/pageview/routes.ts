/**
 * Page-view analytics (issue 25): POST /pageView/addBehavior and POST /pageView/addDigitalHumanBehavior (spec §7;
 * with or without a session), and the administrators' report POST /sysInfo/pageView (the /sysInfo statistics).
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireAdmin } from '../../http/context.ts';
import { envelope, ok } from '../../http/envelope.ts';
import { routePlugin } from '../../http/route.ts';
import { PeriodBody } from '../stats/schemas.ts';

const Body = z.object({
  page: z.string().min(1).max(200).describe('route path of the screen, without query: /index/myPro'),
  action: z.string().max(64).optional().describe('what was done there: upload.start, tour.dismiss, ...'),
});
const Recorded = envelope(z.object({ recorded: z.literal(true) }));

const ReportSchema = z.object({
  days: z.array(
    z.object({
      date: z.string(),
      views: z.number().int(),
      actions: z.number().int(),
      digitalHuman: z.number().int(),
      users: z.number().int().describe('lower bound: most accounts on one page or action that day'),
    }),
  ),
  pages: z.array(
    z.object({
      page: z.string(),
      views: z.number().int(),
      users: z.number().int().describe('accounts per day, added over the days'),
      anonymous: z.number().int().describe('views without a session'),
    }),
  ),
  actions: z.array(
    z.object({
      kind: z.enum(['page', 'action', 'digital_human']),
      page: z.string(),
      action: z.string(),
      count: z.number().int(),
      users: z.number().int(),
    }),
  ),
});

const routes = routePlugin(['analytics'], (r, { behavior, auth }) => {
  /** The account of a valid session, else anonymous: analytics never refuse or log anyone out over a token. */
  const who = async (req: FastifyRequest) => {
    const h = req.headers.authorization;
    const m = h ? /^Bearer\s+(\S+)\s*$/i.exec(h) : null;
    let userId: number | null = null;
    if (m)
      userId = await auth.authenticate(m[1]).then(
        (a) => a.user.id,
        () => null,
      );
    return { userId, visitor: req.ip ?? 'unknown' };
  };

  r.post(
    '/pageView/addBehavior',
    {
      summary: 'Count a page view (no action) or an action on a page; with or without a session',
      description:
        'Keeps the kind, path, action, time and the account id when logged in: no IP address, user agent or query. 120 a minute per visitor (1047 beyond).',
      body: Body,
      response: { 200: Recorded },
    },
    async (req) => ok(await behavior.add('site', req.body, await who(req))),
  );

  r.post(
    '/pageView/addDigitalHumanBehavior',
    {
      summary: 'Count an action of the digital-human product (open, upload, apply, download, ...)',
      body: Body.extend({ action: z.string().min(1).max(64) }),
      response: { 200: Recorded },
    },
    async (req) => ok(await behavior.add('digital_human', req.body, await who(req))),
  );

  r.post(
    '/sysInfo/pageView',
    {
      auth: requireAdmin,
      tags: ['sysInfo'],
      summary: 'Page-view report: views, actions and digital-human actions per day, per page and per action',
      body: PeriodBody,
      data: ReportSchema,
    },
    async (req) => behavior.report(req.body),
  );
});

export default routes;
