/**
 * Routes of the 2D repair editor (issue 23) besides `GET/PUT /video/2d`: re-track from an edited frame (start the
 * job, follow it, get its frames) and the editor's autosaved draft (read, save, discard).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerSecurity, requireUser, userOf } from '../../http/context.ts';
import { envelope, ok } from '../../http/envelope.ts';
import { DraftPut, DraftQuery, DraftSchema, RetrackBody, RetrackQuery, RetrackSchema } from './schemas.ts';

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

  app.get(
    '/video/2d/draft',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'The 2D repair editor’s saved draft of a video (null when none; paid plans, owner only)',
        security,
        querystring: DraftQuery,
        response: { 200: envelope(DraftSchema.nullable()) },
      },
    },
    async (req) => ok(await retrack.draft(userOf(req), req.query.id)),
  );

  app.put(
    '/video/2d/draft',
    {
      preHandler: requireUser,
      bodyLimit: 24 * 1024 * 1024,
      schema: {
        tags,
        summary: 'Autosave of the 2D repair editor’s draft (unsaved edits), kept on the server',
        description:
          '`rev` is the revision the editor’s copy started from (0 when it had none). A save over a newer revision (saved meanwhile from another window or device) is refused with code 307; its `data` is the stored draft.',
        security,
        body: DraftPut,
        response: { 200: envelope(DraftSchema) },
      },
    },
    async (req) =>
      ok(
        await retrack.saveDraft(userOf(req), req.body.id, {
          base: req.body.base,
          rev: req.body.rev,
          draft: req.body.draft,
        }),
      ),
  );

  app.delete(
    '/video/2d/draft',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Discards the 2D repair editor’s draft of a video',
        security,
        querystring: DraftQuery,
        response: { 200: envelope(z.object({ deleted: z.boolean() })) },
      },
    },
    async (req) => ok(await retrack.deleteDraft(userOf(req), req.query.id)),
  );
};

export default routes;
