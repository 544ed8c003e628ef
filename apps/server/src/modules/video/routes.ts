/**
 * Video routes (spec §7 Video): upload (streamed multipart), direct-upload confirm (`/video/uploads`), lists,
 * edit, delete, square, collect, remake, 2D repair, feedback, queue, and live progress over SSE.
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import { BoneTypeSchema } from '@mocap/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, Codes } from '../../errors.ts';
import { bearerSecurity, requireUser, requireUserOrQueryToken, userOf } from '../../http/context.ts';
import { envelope, IdParam, ok } from '../../http/envelope.ts';
import type { QueueEvent } from '../../ports.ts';
import { idempotentUploadReplay } from '../company/routes.ts';
import { CompanyService } from '../company/service.ts';
import { captureJobId } from '../jobs/service.ts';
import { PLAN_LIMITS, UploadMessages } from './limits.ts';
import { CAPTURE_TYPES, type CaptureType, STATUS_NAMES, VideoStatus } from './ports.ts';
import { uploadPreflight } from './preflight.ts';
import {
  IdsBody,
  ListQuerySchema,
  SolveOptionsFields,
  SolveOptionsInput,
  SquarePage,
  UploadFieldsSchema,
  VideoDetailSchema,
  VideoPage,
  VideoSchema,
} from './schemas.ts';
import type { UploadFields } from './service.ts';

const tags = ['video'];
const security = bearerSecurity;

/** Solve options of a JSON body (only the fields sent: a remake keeps the others). */
function pickSolveOptions(b: z.infer<typeof SolveOptionsInput>): UploadFields['solveOptions'] {
  const out: NonNullable<UploadFields['solveOptions']> = {};
  if (b.smoothing !== undefined) out.smoothing = b.smoothing;
  if (b.footLock !== undefined) out.footLock = b.footLock;
  if (b.rootAtOrigin !== undefined) out.rootAtOrigin = b.rootAtOrigin;
  if (b.height !== undefined) out.height = b.height;
  return out;
}

/** Multipart solve-option fields, validated by `SolveOptionsFields` (the envelope's 400 on a bad value). */
function solveOptionsOfFields(one: (k: string) => string | undefined): UploadFields['solveOptions'] {
  const r = SolveOptionsFields.safeParse({
    smoothing: one('smoothing'),
    footLock: one('footLock'),
    rootAtOrigin: one('rootAtOrigin'),
    height: one('height'),
  });
  if (!r.success) {
    const issues = r.error.issues.map((i) => ({ path: `body/${i.path.join('/')}`, message: i.message }));
    throw new AppError(Codes.PARAMETER_ERROR, `parameter error: ${issues[0]!.path} ${issues[0]!.message}`, {
      issues,
    });
  }
  return pickSolveOptions(r.data);
}

/** Multipart text fields → upload fields (tags: repeated fields, a JSON array, or one tag). */
function toFields(raw: Record<string, string[]>): UploadFields {
  const one = (k: string) => raw[k]?.[raw[k].length - 1];
  let tagList: string[] | undefined;
  const t = raw.tags ?? raw['tags[]'];
  if (t && t.length > 1) tagList = t;
  else if (t && t.length === 1) {
    const s = t[0]!.trim();
    if (s.startsWith('[')) {
      try {
        const arr = JSON.parse(s) as unknown;
        if (Array.isArray(arr)) tagList = arr.map(String);
      } catch {
        throw new AppError(Codes.PARAMETER_ERROR, 'tags: not a JSON array');
      }
    } else if (s) tagList = [s];
  }
  const cat = one('categoryId');
  const categoryId = cat === undefined || cat === '' ? null : Number(cat);
  if (categoryId !== null && !(Number.isInteger(categoryId) && categoryId > 0)) {
    throw new AppError(Codes.PARAMETER_ERROR, 'categoryId must be a positive integer');
  }
  const captureType = one('captureType');
  if (captureType !== undefined && !CAPTURE_TYPES.includes(captureType as CaptureType)) {
    throw new AppError(Codes.PARAMETER_ERROR, `captureType must be one of ${CAPTURE_TYPES.join(', ')}`);
  }
  const boneType = BoneTypeSchema.safeParse(one('boneType') ?? '');
  if (!boneType.success) throw new AppError(Codes.PARAMETER_ERROR, boneType.error.issues[0]!.message);
  return {
    name: one('name') ?? '',
    description: one('description'),
    categoryId,
    tags: tagList,
    boneType: boneType.data,
    captureType: captureType as CaptureType | undefined,
    titleInSquare: one('titleInSquare') ?? null,
    solveOptions: solveOptionsOfFields(one),
  };
}

const routes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { videos, captureJobs } = app.ctx.services;
  const tmpDir = join(app.ctx.config.dataDir, 'tmp');

  await app.register(multipart, { limits: { files: 1, fields: 30, fieldSize: 16 * 1024, parts: 40 } });

  app.post(
    '/video/upload',
    {
      // Cheap checks before the body is read (issue 13.4): account, declared size, queue, coins, one at a time.
      // Idempotency-Key (issue 20): a retry of a finished upload gets the first answer before any other check.
      preHandler: [requireUser, idempotentUploadReplay, uploadPreflight],
      schema: {
        tags,
        summary: 'Upload one MP4 (multipart/form-data: file + name, boneType, categoryId and/or tags, ...)',
        description:
          'Streamed to a temp file with the plan size limit, then checked by content (ffprobe): MP4 only, size, duration, picture size, queue limit, duplicate. Charges 1 V per second (company: 1 CV) with the video row in one transaction and queues the capture. Optional solve options (text fields): smoothing 0..1, footLock auto|always|never|grounding, rootAtOrigin true|false, height (metres, 0.5..3; empty = as measured); stored with the video and used by every solve of it.',
        security,
        consumes: ['multipart/form-data'],
        response: { 200: envelope(VideoSchema) },
      },
    },
    async (req) => {
      const u = userOf(req);
      if (!req.isMultipart())
        throw new AppError(Codes.PARAMETER_ERROR, 'send multipart/form-data with a file');
      const maxBytes = videos.maxUploadBytes(u);
      const raw: Record<string, string[]> = {};
      let file: { path: string; fileName: string } | undefined;
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
            const path = join(tmpDir, `up-${Date.now()}-${Math.random().toString(36).slice(2)}.bin`);
            file = { path, fileName: part.filename || 'video.mp4' };
            await pipeline(part.file, createWriteStream(path));
            if (part.file.truncated) tooLarge = true;
          } else {
            const v = typeof part.value === 'string' ? part.value : String(part.value ?? '');
            if (!raw[part.fieldname]) raw[part.fieldname] = [];
            raw[part.fieldname]!.push(v);
          }
        }
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (file) await rm(file.path, { force: true });
        if (code === 'FST_FILES_LIMIT') throw new AppError(Codes.REFUSED, UploadMessages.ONE_VIDEO);
        if (code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new AppError(Codes.REFUSED, UploadMessages.tooLarge(PLAN_LIMITS[videos.planOf(u)].sizeMB));
        }
        if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
          throw new AppError(Codes.PARAMETER_ERROR, 'too many form fields');
        }
        // Anything else the parser throws is bad input (issue 13.8); file-system errors stay server errors.
        if (err instanceof AppError || (err as NodeJS.ErrnoException).syscall) throw err;
        throw new AppError(
          Codes.PARAMETER_ERROR,
          `malformed multipart/form-data: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      if (extra || tooLarge) {
        if (file) await rm(file.path, { force: true });
        if (extra) throw new AppError(Codes.REFUSED, UploadMessages.ONE_VIDEO);
        throw new AppError(Codes.REFUSED, UploadMessages.tooLarge(PLAN_LIMITS[videos.planOf(u)].sizeMB));
      }
      if (!file) throw new AppError(Codes.PARAMETER_ERROR, 'a video file is required (form field "file")');
      const upload = file;
      const idem = CompanyService.idempotencyKey(req.headers['idempotency-key']);
      return ok(
        await app.ctx.services.company.once(u.id, 'video.upload', idem, () =>
          videos.createFromFile(u, toFields(raw), upload),
        ),
      );
    },
  );

  app.post(
    '/video/checkMd5',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Whether I already uploaded a file with this MD5 (checked by the upload page before its confirm step)',
        security,
        body: z.object({ md5: z.string().regex(/^[0-9a-fA-F]{32}$/, 'md5: 32 hex digits') }),
        response: {
          200: envelope(
            z.object({
              duplicate: z.boolean(),
              id: z.number().int().nullable(),
              name: z.string().nullable(),
            }),
          ),
        },
      },
    },
    async (req) => {
      const d = await videos.duplicateOf(userOf(req), req.body.md5);
      return ok({ duplicate: d !== null, id: d?.id ?? null, name: d?.name ?? null });
    },
  );

  app.post(
    '/video/uploads',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Confirm a direct-to-storage upload (after GET /cos/sts/upload and the PUT to uploadUrl)',
        description:
          'Same checks, charge and capture as /video/upload; the uploaded object is removed from the upload area afterwards. With an `Idempotency-Key` header a retry answers the first result (charged once).',
        security,
        body: UploadFieldsSchema.extend({
          sessionToken: z.string().min(10).describe('credentials.sessionToken from /cos/sts/upload'),
          fileName: z.string().max(255).optional(),
        }),
        response: { 200: envelope(VideoSchema) },
      },
    },
    async (req) => {
      const { sessionToken, fileName, smoothing, footLock, rootAtOrigin, height, ...fields } = req.body;
      const u = userOf(req);
      const idem = CompanyService.idempotencyKey(req.headers['idempotency-key']);
      return ok(
        await app.ctx.services.company.once(u.id, 'video.uploads', idem, () =>
          videos.confirmDirect(
            u,
            sessionToken,
            {
              ...fields,
              captureType: fields.captureType as CaptureType | undefined,
              solveOptions: pickSolveOptions({ smoothing, footLock, rootAtOrigin, height }),
            },
            fileName,
          ),
        ),
      );
    },
  );

  app.post(
    '/video/center',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'My projects, newest first (paginated, filterable)',
        security,
        body: ListQuerySchema.default({ page: 1, size: 20 }),
        response: { 200: envelope(VideoPage) },
      },
    },
    async (req) => ok(await videos.center(userOf(req), req.body)),
  );

  app.post(
    '/video/square',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'The square: made videos shared by everyone (browse and search)',
        security,
        body: ListQuerySchema.omit({ status: true })
          .extend({
            mine: z.boolean().optional().describe('only my shared videos'),
            collected: z.boolean().optional().describe('only videos I collected'),
          })
          .default({ page: 1, size: 20 }),
        response: { 200: envelope(SquarePage) },
      },
    },
    async (req) => ok(await videos.square(userOf(req), req.body)),
  );

  app.post(
    '/video/search',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Search my videos (administrators: everyone’s, optionally by userId)',
        security,
        body: ListQuerySchema.extend({ userId: z.number().int().positive().optional() }).default({
          page: 1,
          size: 20,
        }),
        response: { 200: envelope(VideoPage) },
      },
    },
    async (req) => ok(await videos.search(userOf(req), req.body)),
  );

  app.post(
    '/video/searchQueue',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'My waiting and running videos with queue positions, and my plan’s queue limit',
        security,
        response: {
          200: envelope(
            z.object({
              list: z.array(VideoSchema.extend({ position: z.number().int().nullable() })),
              total: z.number().int(),
              limit: z.number().int(),
            }),
          ),
        },
      },
    },
    async (req) => ok(await videos.queue(userOf(req))),
  );

  app.post(
    '/video/queryVideoById',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'One video (mine, or a square video)',
        security,
        body: z.object({ id: z.coerce.number().int().positive() }),
        response: { 200: envelope(VideoDetailSchema) },
      },
    },
    async (req) => ok(await videos.byId(userOf(req), req.body.id)),
  );

  app.post(
    '/video/checkWaiting/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Status, progress and queue position of my video',
        security,
        params: z.object({ id: IdParam }),
        response: {
          200: envelope(
            z.object({
              id: z.number().int(),
              status: z.number().int(),
              statusName: z.string(),
              progress: z.number().int(),
              position: z.number().int().nullable(),
            }),
          ),
        },
      },
    },
    async (req) => ok(await videos.waiting(userOf(req), req.params.id)),
  );

  app.get(
    '/video/getLastModelType',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Bone type and capture type of my latest upload (null before the first)',
        security,
        response: {
          200: envelope(
            z.object({ boneType: z.string(), captureType: z.string(), modelType: z.string() }).nullable(),
          ),
        },
      },
    },
    async (req) => ok(await videos.lastModelType(userOf(req))),
  );

  app.put(
    '/video',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Edit a video (title, description, category, tags, square title)',
        security,
        body: z.object({
          id: z.coerce.number().int().positive(),
          name: z.string().optional(),
          description: z.string().max(2000).optional(),
          categoryId: z.number().int().positive().nullable().optional(),
          tags: z.array(z.string()).optional(),
          titleInSquare: z.string().max(64).nullable().optional(),
        }),
        response: { 200: envelope(VideoSchema) },
      },
    },
    async (req) => {
      const { id, ...patch } = req.body;
      return ok(await videos.edit(userOf(req), id, patch));
    },
  );

  app.put(
    '/video/fbxs',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Choose the bone type my downloads default to',
        security,
        body: z.object({ id: z.coerce.number().int().positive(), boneType: BoneTypeSchema }),
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await videos.setBoneType(userOf(req), req.body.id, req.body.boneType);
      return ok(null);
    },
  );

  app.delete(
    '/video',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Delete videos (files and queued jobs); a video not yet made is refunded',
        security,
        body: IdsBody,
        response: { 200: envelope(z.object({ deleted: z.array(z.number().int()) })) },
      },
    },
    async (req) => ok(await videos.delete(userOf(req), req.body.ids)),
  );

  app.delete(
    '/video/center/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Delete one of my videos',
        security,
        params: z.object({ id: IdParam }),
        response: { 200: envelope(z.object({ deleted: z.array(z.number().int()) })) },
      },
    },
    async (req) => ok(await videos.delete(userOf(req), [req.params.id])),
  );

  app.put(
    '/video/square/:id/:flag',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Share (flag 1) or withdraw (flag 0) a made video on the square',
        security,
        params: z.object({ id: IdParam, flag: z.coerce.number().int().min(0).max(1) }),
        body: z.object({ titleInSquare: z.string().max(64).optional() }).nullish(),
        response: { 200: envelope(VideoSchema) },
      },
    },
    async (req) =>
      ok(
        await videos.setSquare(userOf(req), req.params.id, req.params.flag, req.body?.titleInSquare ?? null),
      ),
  );

  app.put(
    '/video/collect/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Collect or un-collect a video (toggle)',
        security,
        params: z.object({ id: IdParam }),
        response: { 200: envelope(z.object({ collected: z.boolean() })) },
      },
    },
    async (req) => ok(await videos.collect(userOf(req), req.params.id)),
  );

  app.post(
    '/video/videoRedo',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Remake: capture again (a free remake, or paid: 1 V per 2 s rounded up to a multiple of 2 s)',
        description:
          'Without `paid` a free remake is used; when none is left the answer is 307 您的视频免费制作次数已用完 and the client may confirm a paid remake. Solve options sent (smoothing, footLock, rootAtOrigin, height; null height = as measured) replace the stored ones; the others are kept.',
        security,
        body: z.object({
          id: z.coerce.number().int().positive(),
          paid: z.boolean().optional(),
          captureType: z.enum(CAPTURE_TYPES as [string, ...string[]]).optional(),
          boneType: BoneTypeSchema.optional(),
          ...SolveOptionsInput.shape,
        }),
        response: { 200: envelope(VideoSchema.extend({ charged: z.number().int() })) },
      },
    },
    async (req) =>
      ok(
        await videos.remake(userOf(req), req.body.id, {
          paid: req.body.paid,
          captureType: req.body.captureType as CaptureType | undefined,
          boneType: req.body.boneType,
          solveOptions: pickSolveOptions(req.body),
        }),
      ),
  );

  app.get(
    '/video/2d',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'What the 2D repair editor loads: signed URLs of the tracks and the video',
        security,
        querystring: z.object({ id: z.coerce.number().int().positive() }),
        response: {
          200: envelope(
            z.object({
              id: z.number().int(),
              repairCount: z.number().int(),
              poseUrl: z.string(),
              videoUrl: z.string(),
            }),
          ),
        },
      },
    },
    async (req) => ok(await videos.get2d(userOf(req), req.query.id)),
  );

  app.put(
    '/video/2d',
    {
      preHandler: requireUser,
      bodyLimit: 64 * 1024 * 1024,
      schema: {
        tags,
        summary: 'Save repaired tracks (mocap-tracks JSON) and solve the motion again (paid plans)',
        security,
        body: z.object({ id: z.coerce.number().int().positive(), tracks: z.record(z.string(), z.unknown()) }),
        response: { 200: envelope(VideoSchema) },
      },
    },
    async (req) => ok(await videos.repair2d(userOf(req), req.body.id, req.body.tracks)),
  );

  app.post(
    '/video/setFeedback',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Send feedback about a video’s result',
        security,
        body: z.object({ id: z.coerce.number().int().positive(), content: z.string().min(1).max(2000) }),
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await videos.setFeedback(userOf(req), req.body.id, req.body.content);
      return ok(null);
    },
  );

  app.post(
    '/video/setFeedbackStatus',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Administrators: mark feedback handled (1) or open (0)',
        security,
        body: z.object({ id: z.coerce.number().int().positive(), status: z.number().int().min(0).max(1) }),
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await videos.setFeedbackStatus(userOf(req), req.body.id, req.body.status);
      return ok(null);
    },
  );

  app.get(
    '/video/progress/:id',
    {
      preHandler: requireUserOrQueryToken,
      schema: {
        tags,
        summary: 'Live progress of my video (Server-Sent Events; EventSource may pass ?token=)',
        description:
          'Events: `progress` {id, status, statusName, progress, position} whenever something changes, then `done` with the final state (made or failed). A comment line every 15 s keeps proxies from closing the stream.',
        security,
        params: z.object({ id: IdParam }),
        querystring: z.object({ token: z.string().optional() }),
      },
    },
    async (req, reply) => {
      const u = userOf(req);
      const id = req.params.id;
      await videos.owned(u, id);
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      let closed = false;
      let lastSent = '';
      const send = (event: string, data: unknown) => {
        if (closed) return;
        const text = JSON.stringify(data);
        if (event === 'progress' && text === lastSent) return;
        if (event === 'progress') lastSent = text;
        res.write(`event: ${event}\ndata: ${text}\n\n`);
      };
      let jobId = '';
      const refresh = async () => {
        const v = await videos.owned(u, id).catch(() => null);
        if (!v) {
          send('done', { id, status: -1, statusName: 'deleted', progress: 0, position: null });
          return stop();
        }
        jobId = captureJobId(v.id, v.jobSeq);
        const state = {
          id: v.id,
          status: v.status,
          statusName: STATUS_NAMES[v.status],
          progress: v.progress,
          position: v.status === VideoStatus.NOT_MADE ? await captureJobs.position(v) : null,
        };
        send('progress', state);
        if (v.status === VideoStatus.MADE || v.status === VideoStatus.FAILED) {
          send('done', state);
          stop();
        }
      };
      const onEvent = (e: QueueEvent) => {
        if (e.jobId !== jobId || closed) return;
        if (e.type === 'progress') {
          send('progress', {
            id,
            status: VideoStatus.IN_PROGRESS,
            statusName: STATUS_NAMES[1],
            progress: e.progress,
            position: null,
          });
        } else void refresh();
      };
      const unsubscribe = captureJobs.queue.subscribe(onEvent);
      const poll = setInterval(() => void refresh(), 2000);
      const ping = setInterval(() => !closed && res.write(': ping\n\n'), 15_000);
      function stop() {
        if (closed) return;
        closed = true;
        clearInterval(poll);
        clearInterval(ping);
        unsubscribe();
        res.end();
      }
      req.raw.on('close', stop);
      await refresh();
    },
  );
};

export default routes;
