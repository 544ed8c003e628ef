/**
 * Music routes (spec §7 "Digital human, animation, music": center, search, upload, delete, redone, cos_url,
 * download; `DownLoadMusicMotion`). Paths are ours where the spec does not show them:
 * POST /music/upload (multipart: file + name), POST /music/center, POST /music/search, GET /music/{id},
 * DELETE /music (ids), POST /music/redone/{id}, GET /music/cos_url/{id},
 * GET /music/download/{bodyType}/{id}/{boneType} (DownLoadMusicMotion: bodyType 0 = whole body).
 */
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, Codes } from '../../errors.ts';
import { requireUser, userOf } from '../../http/context.ts';
import { IdParam, pageOf } from '../../http/envelope.ts';
import { routesOf } from '../../http/route.ts';
import { PLAN_LIMITS, planOf } from '../video/limits.ts';
import {
  MusicCenterBody,
  MusicDownloadSchema,
  MusicIdsBody,
  MusicSchema,
  MusicUrlsSchema,
} from './schemas.ts';
import { MusicMessages } from './service.ts';

const tags = ['music'];

const routes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const r = routesOf(app, { tags });
  const music = app.ctx.services.music;
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
      if (!req.isMultipart())
        throw new AppError(Codes.PARAMETER_ERROR, 'send multipart/form-data with a file');
      const maxBytes = music.maxUploadBytes(u);
      await mkdir(tmpDir, { recursive: true });
      let file: { path: string; fileName: string } | undefined;
      let name: string | undefined;
      let tooLarge = false;
      let extra = false;
      try {
        for await (const part of req.parts({ limits: { fileSize: maxBytes, files: 1 } })) {
          if (part.type === 'file') {
            if (file) {
              extra = true;
              part.file.resume();
              continue;
            }
            const path = join(tmpDir, `music-${Date.now()}-${Math.random().toString(36).slice(2)}.bin`);
            file = { path, fileName: part.filename || 'music.wav' };
            await pipeline(part.file, createWriteStream(path));
            if (part.file.truncated) tooLarge = true;
          } else if (part.fieldname === 'name') {
            name = typeof part.value === 'string' ? part.value : String(part.value ?? '');
          }
        }
      } catch (err) {
        if (file) await rm(file.path, { force: true });
        const code = (err as { code?: string }).code;
        if (code === 'FST_FILES_LIMIT') throw new AppError(Codes.REFUSED, MusicMessages.ONE_FILE);
        if (code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new AppError(
            Codes.REFUSED,
            MusicMessages.tooLarge(PLAN_LIMITS[planOf(u, Date.now())].sizeMB),
          );
        }
        throw err;
      }
      if (extra || tooLarge) {
        if (file) await rm(file.path, { force: true });
        if (extra) throw new AppError(Codes.REFUSED, MusicMessages.ONE_FILE);
        throw new AppError(Codes.REFUSED, MusicMessages.tooLarge(PLAN_LIMITS[planOf(u, Date.now())].sizeMB));
      }
      if (!file) throw new AppError(Codes.PARAMETER_ERROR, 'a music file is required (form field "file")');
      return await music.createFromFile(u, { name }, file);
    },
  );

  for (const path of ['/music/center', '/music/search']) {
    r.post(
      path,
      {
        auth: requireUser,
        summary: path.endsWith('center')
          ? 'My music cards (My Projects), newest first'
          : 'Search my music cards by name',
        body: MusicCenterBody,
        data: pageOf(MusicSchema),
      },
      async (req) =>
        music.center(userOf(req), {
          page: req.body.page,
          size: req.body.size,
          name: req.body.keyword,
        }),
    );
  }

  r.get(
    '/music/:id',
    {
      auth: requireUser,
      summary: 'One music card: status and progress (poll it while the dance is made)',
      params: z.object({ id: IdParam }),
      data: MusicSchema,
    },
    async (req) => music.get(userOf(req), req.params.id),
  );

  r.delete(
    '/music',
    {
      auth: requireUser,
      summary: 'Delete music cards and their files (refunded when the dance was not made yet)',
      body: MusicIdsBody,
      data: z.object({ deleted: z.array(z.number().int()) }),
    },
    async (req) => music.delete(userOf(req), req.body.ids),
  );

  r.post(
    '/music/redone/:id',
    {
      auth: requireUser,
      summary: 'A new dance for the same music (new seed); the first is free, then 1 V per 2 s',
      params: z.object({ id: IdParam }),
      data: MusicSchema,
    },
    async (req) => music.redone(userOf(req), req.params.id),
  );

  r.get(
    '/music/cos_url/:id',
    {
      auth: requireUser,
      summary: 'Signed URLs of the music and of its dance (for the preview)',
      params: z.object({ id: IdParam }),
      data: MusicUrlsSchema,
    },
    async (req) => music.urls(userOf(req), req.params.id),
  );

  r.get(
    '/music/download/:bodyType/:id/:boneType',
    {
      auth: requireUser,
      summary: 'DownLoadMusicMotion: the dance as a bone type zip (signed URL); bodyType 0 = whole body',
      params: z.object({
        bodyType: z.coerce.number().int().min(0).max(1),
        id: IdParam,
        boneType: z.string().min(1).max(32),
      }),
      data: MusicDownloadSchema,
    },
    async (req) => {
      if (req.params.bodyType !== 0)
        throw new AppError(Codes.REFUSED, 'dances are whole-body motion (bodyType 0)');
      return await music.download(userOf(req), req.params.id, req.params.boneType);
    },
  );
};

export default routes;
