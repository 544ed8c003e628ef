/**
 * Music routes (spec §7 "Digital human, animation, music": center, search, upload, delete, redone, cos_url,
 * download; `DownLoadMusicMotion`). Paths are ours where the spec does not show them:
 * POST /music/upload (multipart: file + name), POST /music/center, POST /music/search, GET /music/{id},
 * DELETE /music (ids), POST /music/redone/{id}, GET /music/cos_url/{id},
 * GET /music/download/{bodyType}/{id}/{boneType} (DownLoadMusicMotion: bodyType 0 = whole body).
 */
import { join } from 'node:path';
import multipart from '@fastify/multipart';
import { requireUser, userOf } from '../../http/context.ts';
import { WholeBodyDownloadParams, wholeBodyOnly } from '../../http/downloads.ts';
import { pageOf } from '../../http/envelope.ts';
import { readUpload, toTempFile } from '../../http/multipart.ts';
import { routePlugin } from '../../http/route.ts';
import { PLAN_LIMITS, planOf } from '../video/limits.ts';
import { MusicCenterBody, MusicDownloadSchema, MusicSchema, MusicUrlsSchema } from './schemas.ts';
import { MusicMessages } from './service.ts';

const tags = ['music'];

const routes = routePlugin(tags, async (r, { music }, app) => {
  const tmpDir = join(app.ctx.config.dataDir, 'tmp');

  await app.register(multipart, { limits: { files: 1, fields: 10, fieldSize: 16 * 1024, parts: 12 } });

  r.post(
    '/music/upload',
    {
      auth: requireUser,
      summary: 'Upload one music track (multipart/form-data: file + optional name)',
      description:
        'WAV, MP3, M4A/AAC, OGG or FLAC, checked by content (ffprobe). Limits by plan as for videos (queue 2/5/10, 30/60/120 s, 100/200/400M). Charges 1 V per second of audio, rounded up (company: 1 CV), with the card in one transaction, stores the audio under uploadMusic/, and queues the dance.',
      consumes: ['multipart/form-data'],
      data: MusicSchema,
    },
    async (req) => {
      const u = userOf(req);
      const { file, fields } = await readUpload(req, {
        maxBytes: music.maxUploadBytes(u),
        sink: toTempFile(tmpDir, 'music', 'music.wav'),
        oneFile: MusicMessages.ONE_FILE,
        tooLarge: () => MusicMessages.tooLarge(PLAN_LIMITS[planOf(u, Date.now())].sizeMB),
        missing: 'a music file is required (form field "file")',
      });
      const name = fields.name?.at(-1);
      return await music.createFromFile(u, { name }, file);
    },
  );

  r.centerAndSearch(
    '/music',
    { center: 'My music cards (My Projects), newest first', search: 'Search my music cards by name' },
    { body: MusicCenterBody, data: pageOf(MusicSchema) },
    (u, body) => music.center(u, { page: body.page, size: body.size, name: body.keyword }),
  );

  r.byId(
    'GET',
    '/music/:id',
    {
      summary: 'One music card: status and progress (poll it while the dance is made)',
      data: MusicSchema,
    },
    (u, id) => music.get(u, id),
  );

  r.deleteIds(
    'DELETE',
    '/music',
    {
      summary: 'Delete music cards and their files (refunded when the dance was not made yet)',
    },
    (u, ids) => music.delete(u, ids),
  );

  r.byId(
    'POST',
    '/music/redone/:id',
    {
      summary: 'A new dance for the same music (new seed); the first is free, then 1 V per 2 s',
      data: MusicSchema,
    },
    (u, id) => music.redone(u, id),
  );

  r.byId(
    'GET',
    '/music/cos_url/:id',
    {
      summary: 'Signed URLs of the music and of its dance (for the preview)',
      data: MusicUrlsSchema,
    },
    (u, id) => music.urls(u, id),
  );

  r.get(
    '/music/download/:bodyType/:id/:boneType',
    {
      auth: requireUser,
      summary: 'DownLoadMusicMotion: the dance as a bone type zip (signed URL); bodyType 0 = whole body',
      params: WholeBodyDownloadParams,
      data: MusicDownloadSchema,
    },
    async (req) => {
      wholeBodyOnly(req.params.bodyType, 'dances');
      return await music.download(userOf(req), req.params.id, req.params.boneType);
    },
  );
});

export default routes;
