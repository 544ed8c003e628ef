/**
 * Routes of the 2D repair editor (issue 23) besides `GET/PUT /video/2d`: re-track from an edited frame (start the
 * job, follow it, get its frames) and the editor's autosaved draft (read, save, discard).
 */
import { z } from 'zod';
import { requireUser, userOf } from '../../http/context.ts';
import { routePlugin } from '../../http/route.ts';
import { DraftPut, DraftQuery, DraftSchema, RetrackBody, RetrackQuery, RetrackSchema } from './schemas.ts';

const tags = ['video'];

const routes = routePlugin(tags, (r, { retrack }) => {
  r.post(
    '/video/2d/retrack',
    {
      auth: requireUser,
      summary:
        'Re-track from an edited frame: the tracker runs forward seeded with the corrected pose (paid plans)',
      description:
        'Body: the video id, the edited frame and its 33 corrected image landmarks ([x, y, z, visibility, presence], pixels). Queues a job; follow it with GET /video/2d/retrack.',
      body: RetrackBody,
      data: RetrackSchema,
    },
    async (req) => retrack.start(userOf(req), req.body.id, req.body.frame, req.body.pose),
  );

  r.get(
    '/video/2d/retrack',
    {
      auth: requireUser,
      summary: 'State and progress of a re-track job; its new track frames once done (owner only)',
      query: RetrackQuery,
      data: RetrackSchema,
    },
    async (req) => retrack.state(userOf(req), req.query.jobId),
  );

  r.get(
    '/video/2d/draft',
    {
      auth: requireUser,
      summary: 'The 2D repair editor’s saved draft of a video (null when none; paid plans, owner only)',
      query: DraftQuery,
      data: DraftSchema.nullable(),
    },
    async (req) => retrack.draft(userOf(req), req.query.id),
  );

  r.put(
    '/video/2d/draft',
    {
      auth: requireUser,
      summary: 'Autosave of the 2D repair editor’s draft (unsaved edits), kept on the server',
      description:
        '`rev` is the revision the editor’s copy started from (0 when it had none). A save over a newer revision (saved meanwhile from another window or device) is refused with code 307; its `data` is the stored draft.',
      body: DraftPut,
      data: DraftSchema,
      options: { bodyLimit: 24 * 1024 * 1024 },
    },
    async (req) =>
      retrack.saveDraft(userOf(req), req.body.id, {
        base: req.body.base,
        rev: req.body.rev,
        draft: req.body.draft,
      }),
  );

  r.delete(
    '/video/2d/draft',
    {
      auth: requireUser,
      summary: 'Discards the 2D repair editor’s draft of a video',
      query: DraftQuery,
      data: z.object({ deleted: z.boolean() }),
    },
    async (req) => retrack.deleteDraft(userOf(req), req.query.id),
  );
});

export default routes;
