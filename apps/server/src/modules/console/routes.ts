/**
 * Console routes for videos (manageVideo) and the download history (videoDownHistory), issue 21. Paths are ours
 * (spec §7 does not show them); every route is an administrator route checked from role data.
 */
import { DownloadSchema, VideoAdminSchema } from '@mocap/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerSecurity, requireAdmin, userOf } from '../../http/context.ts';
import { envelope, IdParam, ok, pageOf } from '../../http/envelope.ts';

const tags = ['console'];
const security = bearerSecurity;

const routes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { console: svc } = app.ctx.services;
  const opts = { preHandler: requireAdmin };

  app.post(
    '/admin/video/search',
    {
      ...opts,
      schema: {
        tags,
        summary: 'Every video with its owner, status, square flag and feedback (newest first)',
        security,
        body: z
          .object({
            keyword: z.string().max(254).optional().describe('video name, serial number or owner e-mail'),
            id: z.number().int().positive().optional(),
            userId: z.number().int().positive().optional(),
            status: z.number().int().min(0).max(3).optional(),
            inSquare: z.boolean().optional(),
            feedback: z.enum(['open', 'handled', 'any']).optional(),
            page: z.coerce.number().int().min(1).default(1),
            size: z.coerce.number().int().min(1).max(100).default(20),
          })
          .default({ page: 1, size: 20 }),
        response: { 200: envelope(pageOf(VideoAdminSchema)) },
      },
    },
    async (req) => ok(await svc.videos(req.body)),
  );

  app.get(
    '/admin/video/:id/preview',
    {
      ...opts,
      schema: {
        tags,
        summary: 'Signed URL of any video for the preview',
        security,
        params: z.object({ id: IdParam }),
        response: { 200: envelope(z.object({ source: z.string(), thumbnail: z.string().nullable() })) },
      },
    },
    async (req) => ok(await svc.preview(req.params.id)),
  );

  app.post(
    '/admin/video/feedbackStatus',
    {
      ...opts,
      schema: {
        tags,
        summary: "Mark a video's feedback handled (1) or open (0)",
        security,
        body: z.object({ id: z.number().int().positive(), status: z.number().int().min(0).max(1) }),
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await svc.setFeedbackStatus(req.body.id, req.body.status);
      return ok(null);
    },
  );

  app.post(
    '/admin/video/square',
    {
      ...opts,
      schema: {
        tags,
        summary: 'Take a video off the square (false) or put a made one back (true)',
        security,
        body: z.object({ id: z.number().int().positive(), flag: z.boolean() }),
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await svc.setSquare(req.body.id, req.body.flag);
      return ok(null);
    },
  );

  app.post(
    '/admin/video/rerun',
    {
      ...opts,
      schema: {
        tags,
        summary: 'Run the capture of a made or failed video again, at no cost to its owner',
        security,
        body: z.object({ id: z.number().int().positive() }),
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await svc.rerun(req.body.id);
      return ok(null);
    },
  );

  app.post(
    '/admin/video/delete',
    {
      ...opts,
      schema: {
        tags,
        summary: 'Delete videos of any owner (not while being made)',
        security,
        body: z.object({ ids: z.array(z.number().int().positive()).min(1).max(100) }),
        response: { 200: envelope(z.object({ deleted: z.array(z.number().int()) })) },
      },
    },
    async (req) => ok(await svc.deleteVideos(userOf(req).id, req.body.ids)),
  );

  app.post(
    '/admin/download/search',
    {
      ...opts,
      schema: {
        tags,
        summary: 'Download history: who downloaded what, when, for how many coins (newest first)',
        security,
        body: z
          .object({
            keyword: z.string().max(254).optional().describe('account e-mail or video name'),
            userId: z.number().int().positive().optional(),
            videoId: z.number().int().positive().optional(),
            from: z.number().int().optional(),
            to: z.number().int().optional(),
            page: z.coerce.number().int().min(1).default(1),
            size: z.coerce.number().int().min(1).max(200).default(20),
          })
          .default({ page: 1, size: 20 }),
        response: { 200: envelope(pageOf(DownloadSchema).extend({ coins: z.number() })) },
      },
    },
    async (req) => ok(await svc.downloads(req.body)),
  );
};

export default routes;
