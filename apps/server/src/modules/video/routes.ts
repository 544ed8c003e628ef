/**
 * Video routes (spec §7 Video): upload (streamed multipart), direct-upload confirm (`/video/uploads`), lists,
 * edit, delete, square, collect, remake, 2D repair, feedback, queue, and live progress over SSE.
 */
import { join } from 'node:path';
import multipart from '@fastify/multipart';
import {
  BoneTypeSchema,
  DeletedSchema,
  SolveOptionsFields,
  SolveOptionsInput,
  SquarePage,
  VideoDetailSchema,
  VideoListQuery,
  VideoPage,
  VideoSchema,
  VideoUploadFields,
} from '@mocap/contracts';
import { z } from 'zod';
import { AppError, Codes } from '../../errors.ts';
import { requireUser, requireUserOrQueryToken, userOf } from '../../http/context.ts';
import { IdParam } from '../../http/envelope.ts';
import { readUpload, toTempFile } from '../../http/multipart.ts';
import { routePlugin } from '../../http/route.ts';
import type { QueueEvent } from '../../ports.ts';
import { idempotentUploadReplay } from '../company/routes.ts';
import { CompanyService } from '../company/service.ts';
import { captureJobId } from '../jobs/service.ts';
import { PLAN_LIMITS, UploadMessages } from './limits.ts';
import { CAPTURE_TYPES, type CaptureType, STATUS_NAMES, VideoStatus } from './ports.ts';
import { uploadPreflight } from './preflight.ts';
import type { UploadFields } from './service.ts';

const tags = ['video'];

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

const routes = routePlugin(tags, async (r, { videos, captureJobs }, app) => {
  const tmpDir = join(app.ctx.config.dataDir, 'tmp');

  await app.register(multipart, { limits: { files: 1, fields: 30, fieldSize: 16 * 1024, parts: 40 } });

  r.post(
    '/video/upload',
    {
      auth: [requireUser, idempotentUploadReplay, uploadPreflight],
      summary: 'Upload one MP4 (multipart/form-data: file + name, boneType, categoryId and/or tags, ...)',
      description:
        'Streamed to a temp file with the plan size limit, then checked by content (ffprobe): MP4 only, size, duration, picture size, queue limit, duplicate. Charges 1 V per second (company: 1 CV) with the video row in one transaction and queues the capture. Optional solve options (text fields): smoothing 0..1, footLock auto|always|never|grounding, rootAtOrigin true|false, height (metres, 0.5..3; empty = as measured); stored with the video and used by every solve of it.',
      consumes: ['multipart/form-data'],
      data: VideoSchema,
    },
    async (req) => {
      const u = userOf(req);
      const { file: upload, fields: raw } = await readUpload(req, {
        maxBytes: videos.maxUploadBytes(u),
        sink: toTempFile(tmpDir, 'up', 'video.mp4'),
        oneFile: UploadMessages.ONE_VIDEO,
        tooLarge: () => UploadMessages.tooLarge(PLAN_LIMITS[videos.planOf(u)].sizeMB),
        missing: 'a video file is required (form field "file")',
      });
      const idem = CompanyService.idempotencyKey(req.headers['idempotency-key']);
      return await app.ctx.services.company.once(u.id, 'video.upload', idem, () =>
        videos.createFromFile(u, toFields(raw), upload),
      );
    },
  );

  r.post(
    '/video/checkMd5',
    {
      auth: requireUser,
      summary:
        'Whether I already uploaded a file with this MD5 (checked by the upload page before its confirm step)',
      body: z.object({ md5: z.string().regex(/^[0-9a-fA-F]{32}$/, 'md5: 32 hex digits') }),
      data: z.object({
        duplicate: z.boolean(),
        id: z.number().int().nullable(),
        name: z.string().nullable(),
      }),
    },
    async (req) => {
      const d = await videos.duplicateOf(userOf(req), req.body.md5);
      return { duplicate: d !== null, id: d?.id ?? null, name: d?.name ?? null };
    },
  );

  r.post(
    '/video/uploads',
    {
      auth: requireUser,
      summary: 'Confirm a direct-to-storage upload (after GET /cos/sts/upload and the PUT to uploadUrl)',
      description:
        'Same checks, charge and capture as /video/upload; the uploaded object is removed from the upload area afterwards. With an `Idempotency-Key` header a retry answers the first result (charged once).',
      body: VideoUploadFields.extend({
        sessionToken: z.string().min(10).describe('credentials.sessionToken from /cos/sts/upload'),
        fileName: z.string().max(255).optional(),
      }),
      data: VideoSchema,
    },
    async (req) => {
      const { sessionToken, fileName, smoothing, footLock, rootAtOrigin, height, ...fields } = req.body;
      const u = userOf(req);
      const idem = CompanyService.idempotencyKey(req.headers['idempotency-key']);
      return await app.ctx.services.company.once(u.id, 'video.uploads', idem, () =>
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
      );
    },
  );

  r.post(
    '/video/center',
    {
      auth: requireUser,
      summary: 'My projects, newest first (paginated, filterable)',
      body: VideoListQuery.default({ page: 1, size: 20 }),
      data: VideoPage,
    },
    async (req) => videos.center(userOf(req), req.body),
  );

  r.post(
    '/video/square',
    {
      auth: requireUser,
      summary: 'The square: made videos shared by everyone (browse and search)',
      body: VideoListQuery.omit({ status: true })
        .extend({
          mine: z.boolean().optional().describe('only my shared videos'),
          collected: z.boolean().optional().describe('only videos I collected'),
        })
        .default({ page: 1, size: 20 }),
      data: SquarePage,
    },
    async (req) => videos.square(userOf(req), req.body),
  );

  r.post(
    '/video/search',
    {
      auth: requireUser,
      summary: 'Search my videos (administrators: everyone’s, optionally by userId)',
      body: VideoListQuery.extend({ userId: z.number().int().positive().optional() }).default({
        page: 1,
        size: 20,
      }),
      data: VideoPage,
    },
    async (req) => videos.search(userOf(req), req.body),
  );

  r.post(
    '/video/searchQueue',
    {
      auth: requireUser,
      summary: 'My waiting and running videos with queue positions, and my plan’s queue limit',
      data: z.object({
        list: z.array(VideoSchema.extend({ position: z.number().int().nullable() })),
        total: z.number().int(),
        limit: z.number().int(),
      }),
    },
    async (req) => videos.queue(userOf(req)),
  );

  r.post(
    '/video/queryVideoById',
    {
      auth: requireUser,
      summary: 'One video (mine, or a square video)',
      body: z.object({ id: z.coerce.number().int().positive() }),
      data: VideoDetailSchema,
    },
    async (req) => videos.byId(userOf(req), req.body.id),
  );

  r.byId(
    'POST',
    '/video/checkWaiting/:id',
    {
      summary: 'Status, progress and queue position of my video',
      data: z.object({
        id: z.number().int(),
        status: z.number().int(),
        statusName: z.string(),
        progress: z.number().int(),
        position: z.number().int().nullable(),
      }),
    },
    (u, id) => videos.waiting(u, id),
  );

  r.get(
    '/video/getLastModelType',
    {
      auth: requireUser,
      summary: 'Bone type and capture type of my latest upload (null before the first)',
      data: z.object({ boneType: z.string(), captureType: z.string(), modelType: z.string() }).nullable(),
    },
    async (req) => videos.lastModelType(userOf(req)),
  );

  r.put(
    '/video',
    {
      auth: requireUser,
      summary: 'Edit a video (title, description, category, tags, square title)',
      body: z.object({
        id: z.coerce.number().int().positive(),
        name: z.string().optional(),
        description: z.string().max(2000).optional(),
        categoryId: z.number().int().positive().nullable().optional(),
        tags: z.array(z.string()).optional(),
        titleInSquare: z.string().max(64).nullable().optional(),
      }),
      data: VideoSchema,
    },
    async (req) => {
      const { id, ...patch } = req.body;
      return await videos.edit(userOf(req), id, patch);
    },
  );

  r.action(
    'PUT',
    '/video/fbxs',
    {
      auth: requireUser,
      summary: 'Choose the bone type my downloads default to',
      body: z.object({ id: z.coerce.number().int().positive(), boneType: BoneTypeSchema }),
    },
    (req) => videos.setBoneType(userOf(req), req.body.id, req.body.boneType),
  );

  r.deleteIds(
    'DELETE',
    '/video',
    {
      summary: 'Delete videos (files and queued jobs); a video not yet made is refunded',
    },
    (u, ids) => videos.delete(u, ids),
  );

  r.byId(
    'DELETE',
    '/video/center/:id',
    { summary: 'Delete one of my videos', data: DeletedSchema },
    (u, id) => videos.delete(u, [id]),
  );

  r.put(
    '/video/square/:id/:flag',
    {
      auth: requireUser,
      summary: 'Share (flag 1) or withdraw (flag 0) a made video on the square',
      params: z.object({ id: IdParam, flag: z.coerce.number().int().min(0).max(1) }),
      body: z.object({ titleInSquare: z.string().max(64).optional() }).nullish(),
      data: VideoSchema,
    },
    async (req) =>
      videos.setSquare(userOf(req), req.params.id, req.params.flag, req.body?.titleInSquare ?? null),
  );

  r.byId(
    'PUT',
    '/video/collect/:id',
    {
      summary: 'Collect or un-collect a video (toggle)',
      data: z.object({ collected: z.boolean() }),
    },
    (u, id) => videos.collect(u, id),
  );

  r.post(
    '/video/videoRedo',
    {
      auth: requireUser,
      summary: 'Remake: capture again (a free remake, or paid: 1 V per 2 s rounded up to a multiple of 2 s)',
      description:
        'Without `paid` a free remake is used; when none is left the answer is 307 您的视频免费制作次数已用完 and the client may confirm a paid remake. Solve options sent (smoothing, footLock, rootAtOrigin, height; null height = as measured) replace the stored ones; the others are kept.',
      body: z.object({
        id: z.coerce.number().int().positive(),
        paid: z.boolean().optional(),
        captureType: z.enum(CAPTURE_TYPES as [string, ...string[]]).optional(),
        boneType: BoneTypeSchema.optional(),
        ...SolveOptionsInput.shape,
      }),
      data: VideoSchema.extend({ charged: z.number().int() }),
    },
    async (req) =>
      videos.remake(userOf(req), req.body.id, {
        paid: req.body.paid,
        captureType: req.body.captureType as CaptureType | undefined,
        boneType: req.body.boneType,
        solveOptions: pickSolveOptions(req.body),
      }),
  );

  r.get(
    '/video/2d',
    {
      auth: requireUser,
      summary: 'What the 2D repair editor loads: signed URLs of the tracks and the video',
      query: z.object({ id: z.coerce.number().int().positive() }),
      data: z.object({
        id: z.number().int(),
        repairCount: z.number().int(),
        poseUrl: z.string(),
        videoUrl: z.string(),
      }),
    },
    async (req) => videos.get2d(userOf(req), req.query.id),
  );

  r.put(
    '/video/2d',
    {
      auth: requireUser,
      summary: 'Save repaired tracks (mocap-tracks JSON) and solve the motion again (paid plans)',
      body: z.object({ id: z.coerce.number().int().positive(), tracks: z.record(z.string(), z.unknown()) }),
      data: VideoSchema,
      options: { bodyLimit: 64 * 1024 * 1024 },
    },
    async (req) => videos.repair2d(userOf(req), req.body.id, req.body.tracks),
  );

  r.action(
    'POST',
    '/video/setFeedback',
    {
      auth: requireUser,
      summary: 'Send feedback about a video’s result',
      body: z.object({ id: z.coerce.number().int().positive(), content: z.string().min(1).max(2000) }),
    },
    (req) => videos.setFeedback(userOf(req), req.body.id, req.body.content),
  );

  r.action(
    'POST',
    '/video/setFeedbackStatus',
    {
      auth: requireUser,
      summary: 'Administrators: mark feedback handled (1) or open (0)',
      body: z.object({ id: z.coerce.number().int().positive(), status: z.number().int().min(0).max(1) }),
    },
    (req) => videos.setFeedbackStatus(userOf(req), req.body.id, req.body.status),
  );

  r.get(
    '/video/progress/:id',
    {
      auth: requireUserOrQueryToken,
      summary: 'Live progress of my video (Server-Sent Events; EventSource may pass ?token=)',
      description:
        'Events: `progress` {id, status, statusName, progress, position} whenever something changes, then `done` with the final state (made or failed). A comment line every 15 s keeps proxies from closing the stream.',
      params: z.object({ id: IdParam }),
      query: z.object({ token: z.string().optional() }),
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
});

export default routes;
