/**
 * Console routes for videos (manageVideo) and the download history (videoDownHistory), issue 21. Paths are ours
 * (spec §7 does not show them); every route is an administrator route checked from role data.
 */
import { DeletedSchema, DownloadSchema, VideoAdminSchema, VideoPreviewSchema } from '@mocap/contracts';
import { z } from 'zod';
import { requireAdmin, userOf } from '../../http/context.ts';
import { IdParam, PageQuery, pageOf } from '../../http/envelope.ts';
import { routePlugin } from '../../http/route.ts';

const tags = ['console'];

const routes = routePlugin(tags, (r, { console: svc }) => {
  r.post(
    '/admin/video/search',
    {
      auth: requireAdmin,
      summary: 'Every video with its owner, status, square flag and feedback (newest first)',
      body: PageQuery.extend({
        keyword: z.string().max(254).optional().describe('video name, serial number or owner e-mail'),
        id: z.number().int().positive().optional(),
        userId: z.number().int().positive().optional(),
        status: z.number().int().min(0).max(3).optional(),
        inSquare: z.boolean().optional(),
        feedback: z.enum(['open', 'handled', 'any']).optional(),
      }).default({ page: 1, size: 20 }),
      data: pageOf(VideoAdminSchema),
    },
    async (req) => svc.videos(req.body),
  );

  r.get(
    '/admin/video/:id/preview',
    {
      auth: requireAdmin,
      summary: 'Signed URL of any video for the preview',
      params: z.object({ id: IdParam }),
      data: VideoPreviewSchema,
    },
    async (req) => svc.preview(req.params.id),
  );

  r.action(
    'POST',
    '/admin/video/feedbackStatus',
    {
      auth: requireAdmin,
      summary: "Mark a video's feedback handled (1) or open (0)",
      body: z.object({ id: z.number().int().positive(), status: z.number().int().min(0).max(1) }),
    },
    (req) => svc.setFeedbackStatus(req.body.id, req.body.status),
  );

  r.action(
    'POST',
    '/admin/video/square',
    {
      auth: requireAdmin,
      summary: 'Take a video off the square (false) or put a made one back (true)',
      body: z.object({ id: z.number().int().positive(), flag: z.boolean() }),
    },
    (req) => svc.setSquare(req.body.id, req.body.flag),
  );

  r.action(
    'POST',
    '/admin/video/rerun',
    {
      auth: requireAdmin,
      summary: 'Run the capture of a made or failed video again, at no cost to its owner',
      body: z.object({ id: z.number().int().positive() }),
    },
    (req) => svc.rerun(req.body.id),
  );

  r.post(
    '/admin/video/delete',
    {
      auth: requireAdmin,
      summary: 'Delete videos of any owner (not while being made)',
      body: z.object({ ids: z.array(z.number().int().positive()).min(1).max(100) }),
      data: DeletedSchema,
    },
    async (req) => svc.deleteVideos(userOf(req).id, req.body.ids),
  );

  r.post(
    '/admin/download/search',
    {
      auth: requireAdmin,
      summary: 'Download history: who downloaded what, when, for how many coins (newest first)',
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
      data: pageOf(DownloadSchema).extend({ coins: z.number() }),
    },
    async (req) => svc.downloads(req.body),
  );
});

export default routes;
