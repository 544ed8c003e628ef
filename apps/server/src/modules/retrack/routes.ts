/** Re-track routes of the 2D repair editor (issue 23): start the job, follow it, get its frames. */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bearerSecurity, requireUser, userOf } from '../../http/context.ts';
import { envelope, ok } from '../../http/envelope.ts';
import { RetrackBody, RetrackQuery, RetrackSchema } from './schemas.ts';

const tags = ['video'];
const security = bearerSecurity;

const routes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { retrack } = app.ctx.services;

  app.post(
    '/video/2d/retrack',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Re-track from an edited frame: the tracker runs forward seeded with the corrected pose (paid plans)',
        description:
          'Body: the video id, the edited frame and its 33 corrected image landmarks ([x, y, z, visibility, presence], pixels). Queues a job; follow it with GET /video/2d/retrack.',
        security,
        body: RetrackBody,
        response: { 200: envelope(RetrackSchema) },
      },
    },
    async (req) => ok(await retrack.start(userOf(req), req.body.id, req.body.frame, req.body.pose)),
  );

  app.get(
    '/video/2d/retrack',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'State and progress of a re-track job; its new track frames once done (owner only)',
        security,
        querystring: RetrackQuery,
        response: { 200: envelope(RetrackSchema) },
      },
    },
    async (req) => ok(await retrack.state(userOf(req), req.query.jobId)),
  );
};

export default routes;
