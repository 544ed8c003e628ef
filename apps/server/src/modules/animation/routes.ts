/**
 * Animation library routes (spec §7 "Digital human, animation, music": center, search, collect, download; the
 * spec shows no exact paths, these are ours): POST /animation/center and /animation/search (published, by
 * keyword/category/tag, `collected` for mine), GET /animation/{id} (detail + clip URL for the 3D preview),
 * PUT /animation/collect/{id}, POST /animation/upload (an owner shares a square capture),
 * GET /animation/download/{bodyType}/{id}/{boneType} (bought once, then any bone type), GET /animation/cos_url/{id}
 * (clip, picture and the bought zips), GET /animation/pictures/{id}, POST /animation/redone/{id} (the owner of a
 * shared capture makes it again from the capture), POST /animation/zip (one zip of several animations);
 * administrators (manageAnimation): POST /admin/animation/search, /admin/animation/publish,
 * /admin/animation/redone, /admin/animation/delete.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, Codes } from '../../errors.ts';
import { bearerSecurity, requireAdmin, requireUser, userOf } from '../../http/context.ts';
import { envelope, IdParam, ok, pageOf } from '../../http/envelope.ts';
import {
  AnimationAdminSearchBody,
  AnimationBundleBody,
  AnimationBundleSchema,
  AnimationCategories,
  AnimationDetailSchema,
  AnimationDownloadSchema,
  AnimationSchema,
  AnimationSearchBody,
  AnimationUrlsSchema,
} from './schemas.ts';

const tags = ['animation'];
const security = bearerSecurity;

const routes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const svc = app.ctx.services.animation;

  for (const path of ['/animation/center', '/animation/search']) {
    app.post(
      path,
      {
        preHandler: requireUser,
        schema: {
          tags,
          summary: path.endsWith('center')
            ? 'The animation library: published animations with the categories and their counts'
            : 'Search the animation library by keyword, category or tag',
          security,
          body: AnimationSearchBody,
          response: {
            200: envelope(pageOf(AnimationSchema).extend({ categories: AnimationCategories })),
          },
        },
      },
      async (req) => ok(await svc.search(userOf(req), req.body)),
    );
  }

  app.get(
    '/animation/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'One animation and the signed URL of its clip (3D preview, free)',
        security,
        params: z.object({ id: IdParam }),
        response: { 200: envelope(AnimationDetailSchema) },
      },
    },
    async (req) => ok(await svc.detail(userOf(req), req.params.id)),
  );

  app.put(
    '/animation/collect/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Collect (or un-collect) an animation',
        security,
        params: z.object({ id: IdParam }),
        body: z.object({ collected: z.boolean() }),
        response: { 200: envelope(AnimationSchema) },
      },
    },
    async (req) => ok(await svc.collect(userOf(req), req.params.id, req.body.collected)),
  );

  app.get(
    '/animation/download/:bodyType/:id/:boneType',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Download an animation as a bone type zip (signed URL); the first download buys it (1 V per second, once), later ones are free. bodyType 0 = whole body',
        security,
        params: z.object({
          bodyType: z.coerce.number().int().min(0).max(1),
          id: IdParam,
          boneType: z.string().min(1).max(32),
        }),
        response: { 200: envelope(AnimationDownloadSchema) },
      },
    },
    async (req) => {
      if (req.params.bodyType !== 0)
        throw new AppError(Codes.REFUSED, 'library animations are whole-body motion (bodyType 0)');
      return ok(await svc.download(userOf(req), req.params.id, req.params.boneType));
    },
  );

  app.get(
    '/animation/cos_url/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Signed URLs of an animation: its clip (3D preview) and picture, and once bought the bone type zips already made',
        security,
        params: z.object({ id: IdParam }),
        response: { 200: envelope(AnimationUrlsSchema) },
      },
    },
    async (req) => ok(await svc.urls(userOf(req), req.params.id)),
  );

  app.get(
    '/animation/pictures/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'The signed URL of an animation’s picture (SVG: four poses drawn from its clip)',
        security,
        params: z.object({ id: IdParam }),
        response: { 200: envelope(z.object({ picture: z.string() })) },
      },
    },
    async (req) => ok(await svc.pictures(userOf(req), req.params.id)),
  );

  app.post(
    '/animation/redone/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Make a capture I shared again from the video’s current motion (after a remake or a 2D repair): new picture, zips made anew, hidden until an administrator publishes it again',
        security,
        params: z.object({ id: IdParam }),
        response: { 200: envelope(AnimationSchema) },
      },
    },
    async (req) => ok(await svc.redone(userOf(req), req.params.id)),
  );

  app.post(
    '/animation/zip',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'One zip holding a bone type’s zip of each animation given (up to 20); those not bought are bought once each, nothing charged when the coins do not cover them all',
        security,
        body: AnimationBundleBody,
        response: { 200: envelope(AnimationBundleSchema) },
      },
    },
    async (req) => ok(await svc.bundle(userOf(req), req.body.ids, req.body.boneType)),
  );

  app.post(
    '/animation/upload',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Share one of my made captures on the square to the library as an animation (hidden until an administrator publishes it)',
        security,
        body: z.object({ videoId: z.number().int().positive() }),
        response: { 200: envelope(AnimationSchema) },
      },
    },
    async (req) => ok(await svc.share(userOf(req), req.body.videoId)),
  );

  // ---------------------------------------------------------------- administrators (manageAnimation)

  app.post(
    '/admin/animation/search',
    {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: 'Every animation of the library, published and hidden',
        security,
        body: AnimationAdminSearchBody,
        response: { 200: envelope(pageOf(AnimationSchema)) },
      },
    },
    async (req) => ok(await svc.adminList(req.body)),
  );

  app.post(
    '/admin/animation/publish',
    {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: 'Publish (true) or hide (false) an animation',
        security,
        body: z.object({ id: z.number().int().positive(), published: z.boolean() }),
        response: { 200: envelope(AnimationSchema) },
      },
    },
    async (req) => ok(await svc.adminPublish(req.body.id, req.body.published)),
  );

  app.post(
    '/admin/animation/redone',
    {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary:
          'Make an animation again from its source (a shipped take from the product’s take, a shared capture from its video); status kept',
        security,
        body: z.object({ id: z.number().int().positive() }),
        response: { 200: envelope(AnimationSchema) },
      },
    },
    async (req) => ok(await svc.adminRedone(req.body.id)),
  );

  app.post(
    '/admin/animation/delete',
    {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: 'Delete animations and their files',
        security,
        body: z.object({ ids: z.array(z.number().int().positive()).min(1).max(100) }),
        response: { 200: envelope(z.object({ deleted: z.array(z.number().int()) })) },
      },
    },
    async (req) => ok(await svc.adminDelete(req.body.ids)),
  );
};

export default routes;
