/**
 * The community panel (issue 25): GET /sysConfig/community (what the sidebar shows: QR codes of the official
 * account and the two chat groups, the tutorial link, the browser recommendation) and POST
 * /sysConfig/saveCommunity (administrators).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAdmin } from '../../http/context.ts';
import { routesOf } from '../../http/route.ts';

const Group = z.enum(['official', 'group', 'group2']);
const Entry = z.object({
  url: z.string().max(1024),
  imageKey: z.string().max(191),
  note: z.string().max(64),
});
const SettingsSchema = z.object({
  groups: z.object({ official: Entry, group: Entry, group2: Entry }),
  tutorialUrl: z.string(),
  browserTip: z.boolean(),
});

const routes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const r = routesOf(app, { tags: ['system'] });
  const { community } = app.ctx.services;

  r.get(
    '/sysConfig/community',
    {
      summary: 'The community panel: QR codes (link and/or signed webp picture), tutorial link, browser tip',
      data: z.object({
        groups: z.array(
          z.object({
            key: Group,
            url: z.string(),
            imageUrl: z.string().nullable(),
            note: z.string(),
          }),
        ),
        tutorialUrl: z.string(),
        browserTip: z.boolean(),
      }),
    },
    async () => community.view(),
  );

  r.post(
    '/sysConfig/communityInfo',
    {
      auth: requireAdmin,
      summary: 'The community settings as stored (administrators)',
      data: SettingsSchema,
    },
    async () => community.settings(),
  );

  r.post(
    '/sysConfig/saveCommunity',
    {
      auth: requireAdmin,
      summary:
        'Set the community panel: group links (https), QR pictures (uploadZM/ keys), tutorial link, browser tip',
      body: z.object({
        groups: z
          .object({ official: Entry.partial(), group: Entry.partial(), group2: Entry.partial() })
          .partial()
          .optional(),
        tutorialUrl: z.string().max(1024).optional(),
        browserTip: z.boolean().optional(),
      }),
      data: SettingsSchema,
    },
    async (req) => community.save(req.body),
  );
};

export default routes;
