/** Motion routes (spec §7 Motion): downloads through signed, expiring URLs, price check, regen, history. */

import {
  BONE_TYPE_FORMAT,
  BONE_TYPES,
  BoneTypeInfoSchema,
  BoneTypeSchema,
  MotionOfferSchema,
  MotionPriceSchema,
  MotionResultSchema,
  UrlResultSchema,
  VideoSchema,
} from '@mocap/contracts';
import { z } from 'zod';
import { requireUser, userOf } from '../../http/context.ts';
import { IdParam } from '../../http/envelope.ts';
import { routePlugin } from '../../http/route.ts';
import { formatAllowed } from '../video/limits.ts';

const tags = ['motion'];
const Id = z.object({ id: IdParam });
const UrlResult = UrlResultSchema;

const routes = routePlugin(tags, (r, { motion, videos }) => {
  r.get(
    '/motion/download/:bodyType/:id/:boneType',
    {
      auth: requireUser,
      summary: 'DownLoadMotion(bodyType, id, boneType): signed URL of one bone type’s zip',
      description:
        'bodyType `video` (or `body`). Own videos are free; a square video costs a non-owner 1 V per second, once. Free accounts: FBX bone types only.',
      params: z.object({ bodyType: z.string(), id: IdParam, boneType: BoneTypeSchema }),
      data: MotionResultSchema,
    },
    async (req) => motion.download(userOf(req), req.params.bodyType, req.params.id, req.params.boneType),
  );

  r.post(
    '/motion/zip/:id',
    {
      auth: requireUser,
      summary: 'Signed URL of a bone type’s zip (default: the video’s chosen bone type)',
      params: Id,
      body: z.object({ boneType: BoneTypeSchema.optional() }).nullish(),
      data: MotionResultSchema,
    },
    async (req) => {
      const u = userOf(req);
      const boneType = req.body?.boneType ?? (await videos.visible(u, req.params.id)).boneType;
      return await motion.download(u, 'video', req.params.id, boneType);
    },
  );

  r.post(
    '/motion/MotionBulkDownload',
    {
      auth: requireUser,
      summary: 'One zip holding the chosen bone type’s zip of each video (up to 20)',
      body: z.object({
        ids: z.array(z.coerce.number().int().positive()).min(1).max(20),
        boneType: BoneTypeSchema,
      }),
      data: MotionResultSchema.extend({ count: z.number().int() }),
    },
    async (req) => motion.bulk(userOf(req), req.body.ids, req.body.boneType),
  );

  r.post(
    '/motion/lowerBodyDownload',
    {
      auth: requireUser,
      summary: 'Lower body only (hips and legs keyed): made on first request, then kept',
      body: z.object({ id: z.coerce.number().int().positive(), boneType: BoneTypeSchema }),
      data: MotionResultSchema,
    },
    async (req) => motion.lowerBody(userOf(req), req.body.id, req.body.boneType),
  );

  r.get(
    '/motion/boneTypes',
    {
      summary:
        'Bone types: main format, whether a free plan may choose it, what it needs (OnlyFace: face capture)',
      data: z.array(BoneTypeInfoSchema),
    },
    async () =>
      BONE_TYPES.map((name) => ({
        name,
        format: BONE_TYPE_FORMAT[name].toUpperCase(),
        free: formatAllowed('free', name),
        needs: name === 'OnlyFace' ? ('face' as const) : null,
      })),
  );

  r.get(
    '/motion/video/:id/pose_url',
    {
      auth: requireUser,
      summary: 'Signed URL of the tracks (mocap-tracks JSON) for the repair editor (owner only)',
      params: Id,
      data: UrlResult,
    },
    async (req) => motion.poseUrl(userOf(req), req.params.id),
  );

  r.get(
    '/motion/video/:id',
    {
      auth: requireUser,
      summary: 'What a video offers: the bone types made, sizes, whether my plan allows each',
      params: Id,
      data: MotionOfferSchema,
    },
    async (req) => motion.info(userOf(req), req.params.id),
  );

  for (const kind of ['fbx', 'vmd'] as const) {
    r.get(
      `/motion/${kind}/:id/anm`,
      {
        auth: requireUser,
        summary: `Signed URL of the ${kind === 'fbx' ? 'FBX' : 'VMD'} zip a preview loads`,
        description:
          (kind === 'fbx'
            ? 'Default: the video’s FBX bone type (Mixamo when it has none). `boneType` picks another FBX rig of the same capture; previews record no download.'
            : 'The VMD-TDA zip (not on a free plan: FBX only).') +
          ' A file the product sells: only the owner, an administrator or a buyer of the square video, within their plan’s formats (307 otherwise; others preview the clip).',
        params: Id,
        query: z.object({ boneType: BoneTypeSchema.optional() }),
        data: UrlResult.extend({ boneType: z.string() }),
      },
      async (req) => motion.preview(userOf(req), req.params.id, kind, req.query.boneType),
    );
  }

  r.get(
    '/motion/video/:id/clip_url',
    {
      auth: requireUser,
      summary: 'Signed URL of the solved clip (mocap-motion JSON) a preview draws',
      description:
        'Owner, administrator or buyer: the solved clip. Anyone else who may see it (square): a preview-grade copy (≤ 10 fps, rounded, no face). Made videos only.',
      params: Id,
      data: UrlResult,
    },
    async (req) => motion.clipUrl(userOf(req), req.params.id),
  );

  r.action(
    'PUT',
    '/motion/model/:id',
    {
      auth: requireUser,
      summary: 'Choose the bone type (model) of a video',
      params: Id,
      body: z.object({ boneType: BoneTypeSchema }),
    },
    (req) => videos.setBoneType(userOf(req), req.params.id, req.body.boneType),
  );

  r.get(
    '/motion/has_download/:id',
    {
      auth: requireUser,
      summary: 'Whether I downloaded (or bought) this video, and which bone types',
      params: Id,
      data: z.object({
        hasDownload: z.boolean(),
        purchased: z.boolean(),
        count: z.number().int(),
        boneTypes: z.array(z.string()),
      }),
    },
    async (req) => motion.hasDownload(userOf(req), req.params.id),
  );

  r.get(
    '/motion/regen/:id/cnt',
    {
      auth: requireUser,
      summary: 'Regen, remake and repair counts of my video, with the free ones left',
      params: Id,
      data: z.object({
        count: z.number().int(),
        free: z.number().int(),
        remakeCount: z.number().int(),
        freeRemakes: z.number().int(),
        repairCount: z.number().int(),
      }),
    },
    async (req) => motion.regenCount(userOf(req), req.params.id),
  );

  r.put(
    '/motion/:id/regen/fbxs',
    {
      auth: requireUser,
      summary: 'Regenerate the zips from the solved motion (free, a few times per video)',
      params: Id,
      data: VideoSchema,
    },
    async (req) => videos.regen(userOf(req), req.params.id, 'export'),
  );

  r.get(
    '/motion/preMotionDownload/:id',
    {
      auth: requireUser,
      summary: 'Price check before a download: price, what is due now, balance',
      params: Id,
      data: MotionPriceSchema,
    },
    async (req) => motion.price(userOf(req), req.params.id),
  );

  r.deleteIds(
    'POST',
    '/motion/DeleteBatch',
    {
      summary: 'Delete several of my videos',
    },
    (u, ids) => videos.delete(u, ids),
  );
});

export default routes;
