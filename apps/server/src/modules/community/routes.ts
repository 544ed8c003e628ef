/**
 * The community panel (issue 25): GET /sysConfig/community (what the sidebar shows: QR codes of the official
 * account and the two chat groups, the tutorial link, the browser recommendation) and POST
 * /sysConfig/saveCommunity (administrators).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerSecurity, requireAdmin } from '../../http/context.ts';
import { envelope, ok } from '../../http/envelope.ts';

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
  const { community } = app.ctx.services;

  app.get(
    '/sysConfig/community',
    {
      schema: {
        tags: ['system'],
        summary:
          'The community panel: QR codes (link and/or signed webp picture), tutorial link, browser tip',
        response: {
          200: envelope(
            z.object({
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
          ),
        },
      },
    },
    async () => ok(await community.view()),
  );

  app.post(
    '/sysConfig/communityInfo',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['system'],
        summary: 'The community settings as stored (administrators)',
        security: bearerSecurity,
        response: { 200: envelope(SettingsSchema) },
      },
    },
    async () => ok(await community.settings()),
  );

  app.post(
    '/sysConfig/saveCommunity',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['system'],
        summary:
          'Set the community panel: group links (https), QR pictures (uploadZM/ keys), tutorial link, browser tip',
        security: bearerSecurity,
        body: z.object({
          groups: z
            .object({ official: Entry.partial(), group: Entry.partial(), group2: Entry.partial() })
            .partial()
            .optional(),
          tutorialUrl: z.string().max(1024).optional(),
          browserTip: z.boolean().optional(),
        }),
        response: { 200: envelope(SettingsSchema) },
      },
    },
    async (req) => ok(await community.save(req.body)),
  );
};

export default routes;
