/** Motion routes (spec §7 Motion): downloads through signed, expiring URLs, price check, regen, history. */

import { BONE_TYPE_FORMAT, BONE_TYPES, BoneTypeInfoSchema, BoneTypeSchema } from '@mocap/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerSecurity, requireUser, userOf } from '../../http/context.ts';
import { envelope, IdParam, ok } from '../../http/envelope.ts';
import { formatAllowed } from '../video/limits.ts';
import { IdsBody, MotionResultSchema, VideoSchema } from '../video/schemas.ts';

const tags = ['motion'];
const security = bearerSecurity;
const Id = z.object({ id: IdParam });
const UrlResult = z.object({ url: z.string(), expiresIn: z.number().int() });

const routes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { motion, videos } = app.ctx.services;

  app.get(
    '/motion/download/:bodyType/:id/:boneType',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'DownLoadMotion(bodyType, id, boneType): signed URL of one bone type’s zip',
        description:
          'bodyType `video` (or `body`). Own videos are free; a square video costs a non-owner 1 V per second, once. Free accounts: FBX bone types only.',
        security,
        params: z.object({ bodyType: z.string(), id: IdParam, boneType: BoneTypeSchema }),
        response: { 200: envelope(MotionResultSchema) },
      },
    },
    async (req) =>
      ok(await motion.download(userOf(req), req.params.bodyType, req.params.id, req.params.boneType)),
  );

  app.post(
    '/motion/zip/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Signed URL of a bone type’s zip (default: the video’s chosen bone type)',
        security,
        params: Id,
        body: z.object({ boneType: BoneTypeSchema.optional() }).nullish(),
        response: { 200: envelope(MotionResultSchema) },
      },
    },
    async (req) => {
      const u = userOf(req);
      const boneType = req.body?.boneType ?? (await videos.visible(u, req.params.id)).boneType;
      return ok(await motion.download(u, 'video', req.params.id, boneType));
    },
  );

  app.post(
    '/motion/MotionBulkDownload',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'One zip holding the chosen bone type’s zip of each video (up to 20)',
        security,
        body: z.object({
          ids: z.array(z.coerce.number().int().positive()).min(1).max(20),
          boneType: BoneTypeSchema,
        }),
        response: { 200: envelope(MotionResultSchema.extend({ count: z.number().int() })) },
      },
    },
    async (req) => ok(await motion.bulk(userOf(req), req.body.ids, req.body.boneType)),
  );

  app.post(
    '/motion/lowerBodyDownload',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Lower body only (hips and legs keyed): made on first request, then kept',
        security,
        body: z.object({ id: z.coerce.number().int().positive(), boneType: BoneTypeSchema }),
        response: { 200: envelope(MotionResultSchema) },
      },
    },
    async (req) => ok(await motion.lowerBody(userOf(req), req.body.id, req.body.boneType)),
  );

  app.get(
    '/motion/boneTypes',
    {
      schema: {
        tags,
        summary:
          'Bone types: main format, whether a free plan may choose it, what it needs (OnlyFace: face capture)',
        response: {
          200: envelope(z.array(BoneTypeInfoSchema)),
        },
      },
    },
    async () =>
      ok(
        BONE_TYPES.map((name) => ({
          name,
          format: BONE_TYPE_FORMAT[name].toUpperCase(),
          free: formatAllowed('free', name),
          needs: name === 'OnlyFace' ? ('face' as const) : null,
        })),
      ),
  );

  app.get(
    '/motion/video/:id/pose_url',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Signed URL of the tracks (mocap-tracks JSON) for the repair editor (owner only)',
        security,
        params: Id,
        response: { 200: envelope(UrlResult) },
      },
    },
    async (req) => ok(await motion.poseUrl(userOf(req), req.params.id)),
  );

  app.get(
    '/motion/video/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'What a video offers: the bone types made, sizes, whether my plan allows each',
        security,
        params: Id,
        response: {
          200: envelope(
            z.object({
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
            }),
          ),
        },
      },
    },
    async (req) => ok(await motion.info(userOf(req), req.params.id)),
  );

  for (const kind of ['fbx', 'vmd'] as const) {
    app.get(
      `/motion/${kind}/:id/anm`,
      {
        preHandler: requireUser,
        schema: {
          tags,
          summary: `Signed URL of the ${kind === 'fbx' ? 'FBX' : 'VMD'} zip a preview loads`,
          description:
            (kind === 'fbx'
              ? 'Default: the video’s FBX bone type (Mixamo when it has none). `boneType` picks another FBX rig of the same capture; previews record no download.'
              : 'The VMD-TDA zip (not on a free plan: FBX only).') +
            ' A file the product sells: only the owner, an administrator or a buyer of the square video, within their plan’s formats (307 otherwise; others preview the clip).',
          security,
          params: Id,
          querystring: z.object({ boneType: BoneTypeSchema.optional() }),
          response: { 200: envelope(UrlResult.extend({ boneType: z.string() })) },
        },
      },
      async (req) => ok(await motion.preview(userOf(req), req.params.id, kind, req.query.boneType)),
    );
  }

  app.get(
    '/motion/video/:id/clip_url',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Signed URL of the solved clip (mocap-motion JSON) a preview draws',
        description:
          'Owner, administrator or buyer: the solved clip. Anyone else who may see it (square): a preview-grade copy (≤ 10 fps, rounded, no face). Made videos only.',
        security,
        params: Id,
        response: { 200: envelope(UrlResult) },
      },
    },
    async (req) => ok(await motion.clipUrl(userOf(req), req.params.id)),
  );

  app.put(
    '/motion/model/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Choose the bone type (model) of a video',
        security,
        params: Id,
        body: z.object({ boneType: BoneTypeSchema }),
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await videos.setBoneType(userOf(req), req.params.id, req.body.boneType);
      return ok(null);
    },
  );

  app.get(
    '/motion/has_download/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Whether I downloaded (or bought) this video, and which bone types',
        security,
        params: Id,
        response: {
          200: envelope(
            z.object({
              hasDownload: z.boolean(),
              purchased: z.boolean(),
              count: z.number().int(),
              boneTypes: z.array(z.string()),
            }),
          ),
        },
      },
    },
    async (req) => ok(await motion.hasDownload(userOf(req), req.params.id)),
  );

  app.get(
    '/motion/regen/:id/cnt',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Regen, remake and repair counts of my video, with the free ones left',
        security,
        params: Id,
        response: {
          200: envelope(
            z.object({
              count: z.number().int(),
              free: z.number().int(),
              remakeCount: z.number().int(),
              freeRemakes: z.number().int(),
              repairCount: z.number().int(),
            }),
          ),
        },
      },
    },
    async (req) => ok(await motion.regenCount(userOf(req), req.params.id)),
  );

  app.put(
    '/motion/:id/regen/fbxs',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Regenerate the zips from the solved motion (free, a few times per video)',
        security,
        params: Id,
        response: { 200: envelope(VideoSchema) },
      },
    },
    async (req) => ok(await videos.regen(userOf(req), req.params.id, 'export')),
  );

  app.get(
    '/motion/preMotionDownload/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Price check before a download: price, what is due now, balance',
        security,
        params: Id,
        response: {
          200: envelope(
            z.object({
              id: z.number().int(),
              duration: z.number(),
              price: z.number().int(),
              due: z.number().int(),
              owned: z.boolean(),
              purchased: z.boolean(),
              balance: z.number().int(),
              enough: z.boolean(),
            }),
          ),
        },
      },
    },
    async (req) => ok(await motion.price(userOf(req), req.params.id)),
  );

  app.post(
    '/motion/DeleteBatch',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Delete several of my videos',
        security,
        body: IdsBody,
        response: { 200: envelope(z.object({ deleted: z.array(z.number().int()) })) },
      },
    },
    async (req) => ok(await videos.delete(userOf(req), req.body.ids)),
  );
};

export default routes;
