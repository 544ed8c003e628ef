/**
 * Video and motion endpoints' shapes (`/video/*`, `/motion/*`): the video card and its detail, the capture's
 * judgement, solve options (as returned, as a JSON body, as multipart fields), the upload fields, the list query,
 * and what a motion download, a video's offer and the price check answer. The server validates with them; the web
 * app types its calls from them.
 */
import { z } from 'zod';
import { BoneTypeSchema } from './bone-types.ts';
import { FOOT_LOCK_MODES, HEIGHT_RANGE } from './solve-options.ts';

/** What a video captures. */
export type CaptureType = 'body' | 'hands' | 'face' | 'full';
export const CAPTURE_TYPES: readonly CaptureType[] = ['body', 'hands', 'face', 'full'];

/** Why a stretch of a result is weak (issue 15.3; the worker's `judgeTracks`). */
export const JUDGE_REASONS = ['lost', 'gap', 'weak', 'jump', 'pose', 'flip'] as const;
export type JudgeReason = (typeof JUDGE_REASONS)[number];

/** The solve options of a video as the API returns them (names as `mocap convert` and `@mocap/motion`). */
export const SolveOptionsSchema = z
  .object({
    smoothing: z.number().describe('temporal smoothing strength 0..1 (0 = none; default 0.5)'),
    footLock: z.enum(FOOT_LOCK_MODES).describe('foot locking: auto (default), always, never, grounding'),
    rootAtOrigin: z.boolean().describe('keep the hips over the origin (vertical motion kept)'),
    height: z.number().nullable().describe("the performer's standing height in metres; null = as measured"),
  })
  .meta({ id: 'SolveOptions' });

/** Solve options in a JSON body (upload confirm, remake): each optional; omitted = default (upload) or kept. */
export const SolveOptionsInput = z.object({
  smoothing: z.number().min(0).max(1).optional().describe('temporal smoothing strength 0..1 (0 = none)'),
  footLock: z.enum(FOOT_LOCK_MODES).optional().describe('foot locking mode'),
  rootAtOrigin: z.boolean().optional().describe('keep the hips over the origin'),
  height: z
    .number()
    .min(HEIGHT_RANGE.min)
    .max(HEIGHT_RANGE.max)
    .nullable()
    .optional()
    .describe(
      `the performer's height in metres (${HEIGHT_RANGE.min}..${HEIGHT_RANGE.max}); null = as measured`,
    ),
});

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/**
 * The same options as multipart text fields (`/video/upload`): numbers and booleans arrive as strings;
 * `rootAtOrigin` takes true/false/1/0/on/off; an empty `height` means "as measured".
 */
export const SolveOptionsFields = z.object({
  smoothing: z.preprocess(blankToUndefined, z.coerce.number().min(0).max(1).optional()),
  footLock: z.preprocess(blankToUndefined, z.enum(FOOT_LOCK_MODES).optional()),
  rootAtOrigin: z.preprocess((v) => {
    if (typeof v !== 'string') return v;
    const s = v.trim().toLowerCase();
    if (s === '') return undefined;
    if (s === 'true' || s === '1' || s === 'on') return true;
    if (s === 'false' || s === '0' || s === 'off') return false;
    return v;
  }, z.boolean().optional()),
  height: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    z.coerce.number().min(HEIGHT_RANGE.min).max(HEIGHT_RANGE.max).nullable().optional(),
  ),
});

/** The capture's judgement of a made result (issue 15.3). */
export const VideoJudgementSchema = z
  .object({
    confidence: z.number().describe('confidence of the whole clip, 0..1'),
    ranges: z
      .array(
        z.object({
          from: z.number().describe('seconds'),
          to: z.number().describe('seconds'),
          confidence: z.number().describe('mean confidence inside the range, 0..1'),
          reasons: z
            .array(z.enum(JUDGE_REASONS))
            .describe(
              'lost: nobody tracked; gap: lost for 1 s or more; weak: uncertain pose; jump: another person or a tracking swap; pose: impossible pose; flip: the 3D pose upside down',
            ),
        }),
      )
      .describe('time ranges whose confidence is under 0.5'),
    unusable: z
      .boolean()
      .describe('more than 40 % of the clip weak or confidence under 0.4: the run was refunded'),
    refundedCoins: z.number().int().describe('coins given back for this result (owner; 0 for others)'),
    judgeRemakes: z.number().int().describe('free remakes granted by flagged results so far (owner)'),
  })
  .meta({ id: 'VideoJudgement' });

export const VideoSchema = z
  .object({
    id: z.number().int(),
    name: z.string().describe('title (at most 15 characters)'),
    titleInSquare: z.string().nullable(),
    path: z.string().nullable().describe('signed URL of the uploaded video (owner, or a square video)'),
    thumbnail: z.string().nullable().describe('signed URL of the card thumbnail (JPEG)'),
    md5: z.string(),
    captureType: z.string().describe('body | hands | face | full'),
    boneType: z.string().describe('the bone type chosen at upload (spec §1 display names)'),
    format: z.string().describe('file family of the bone type: fbx, vmd, anim, bip, bvh, csm'),
    serialNumber: z.string(),
    duration: z.number().describe('seconds'),
    createAt: z.number().describe('epoch ms'),
    description: z.string(),
    status: z.number().int().describe('0 not made, 1 in progress, 2 made, 3 failed'),
    statusName: z.string(),
    progress: z.number().int().describe('0..100'),
    error: z.string().nullable(),
    creatorId: z.number().int(),
    creatorName: z.string(),
    inSquare: z.number().int().describe('1 when shared on the square'),
    repairCount: z.number().int().describe('2D repairs'),
    downloadCount: z.number().int(),
    collectCount: z.number().int(),
    category: z.number().int().nullable(),
    tags: z.array(z.string()),
    width: z.number().int(),
    height: z.number().int(),
    fps: z.number(),
    size: z.number().int().describe('bytes'),
    remakeCount: z.number().int(),
    freeRemakes: z.number().int().describe('free remakes left'),
    judgement: VideoJudgementSchema.nullable().describe(
      "the capture's judgement of the current result (issue 15.3); null before a judged result exists",
    ),
    price: z.number().int().describe('V coins a non-owner pays to download it from the square'),
    solveOptions: SolveOptionsSchema.nullable().describe(
      'how the motion is solved (owner only; null for others)',
    ),
  })
  .meta({ id: 'Video' });

export const VideoDetailSchema = VideoSchema.extend({
  collected: z.boolean(),
  position: z.number().int().nullable().describe('jobs ahead in the queue (0 = next), null when not waiting'),
}).meta({ id: 'VideoDetail' });

export const VideoPage = z.object({
  list: z.array(VideoSchema),
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
});

/** A square page: each item says whether I collected it. */
export const SquarePage = VideoPage.extend({
  list: z.array(VideoSchema.extend({ collected: z.boolean() })),
});

const Tags = z
  .union([z.array(z.string()), z.string()])
  .optional()
  .nullable()
  .describe('tags (no comma inside a tag); category or tag is required');

export const VideoUploadFields = z.object({
  name: z.string().describe('title, at most 15 characters'),
  description: z.string().max(2000).optional(),
  categoryId: z.coerce.number().int().positive().optional().nullable(),
  tags: Tags,
  boneType: BoneTypeSchema.describe('bone type (free accounts: FBX bone types only)'),
  captureType: z.enum(CAPTURE_TYPES as [string, ...string[]]).optional(),
  titleInSquare: z.string().max(64).optional().nullable(),
  ...SolveOptionsInput.shape,
});

export const VideoListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  keyword: z.string().max(64).optional(),
  status: z.array(z.number().int().min(0).max(3)).optional(),
  categoryId: z.number().int().positive().optional(),
  tag: z.string().max(20).optional(),
  from: z.number().optional(),
  to: z.number().optional(),
  sort: z.enum(['new', 'old', 'downloads', 'collects']).optional(),
});

export const MotionResultSchema = z.object({
  paths: z.array(z.string()).describe('signed, expiring download URLs'),
  name: z.string(),
  bonetype: z.string(),
  motionsName: z.string().describe('file name of the zip'),
  charged: z.number().int().describe('V coins charged by this call'),
  expiresIn: z.number().int().describe('seconds the URLs stay valid'),
});

/** `GET /motion/video/{id}`: what a video offers, the bone types made, whether my plan allows each. */
export const MotionOfferSchema = z.object({
  id: z.number().int(),
  status: z.number().int(),
  boneType: z.string(),
  frameCount: z.number().int().nullable(),
  fps: z.number().nullable(),
  zips: z.array(
    z.object({
      boneType: z.string(),
      format: z.string(),
      fileName: z.string(),
      size: z.number().int(),
      allowed: z.boolean(),
    }),
  ),
  warnings: z.array(z.string()),
});

/** A signed URL and how long it stays valid (clip, tracks, preview zips). */
export const UrlResultSchema = z.object({ url: z.string(), expiresIn: z.number().int() });

/** `GET /motion/preMotionDownload/{id}`: the price check before a download. */
export const MotionPriceSchema = z.object({
  id: z.number().int(),
  duration: z.number(),
  price: z.number().int(),
  due: z.number().int(),
  owned: z.boolean(),
  purchased: z.boolean(),
  balance: z.number().int(),
  enough: z.boolean(),
});

export type SolveOptionsView = z.infer<typeof SolveOptionsSchema>;
export type VideoJudgementView = z.infer<typeof VideoJudgementSchema>;
export type VideoRecord = z.infer<typeof VideoSchema>;
export type VideoDetail = z.infer<typeof VideoDetailSchema>;
export type SquareVideo = z.infer<typeof SquarePage>['list'][number];
export type MotionResult = z.infer<typeof MotionResultSchema>;
export type MotionOffer = z.infer<typeof MotionOfferSchema>;
export type UrlResult = z.infer<typeof UrlResultSchema>;
export type MotionPrice = z.infer<typeof MotionPriceSchema>;
