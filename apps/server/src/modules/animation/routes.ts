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
  DeletedSchema,
} from '@mocap/contracts';
import { z } from 'zod';
import { requireAdmin, requireUser, userOf } from '../../http/context.ts';
import { WholeBodyDownloadParams, wholeBodyOnly } from '../../http/downloads.ts';
import { pageOf } from '../../http/envelope.ts';
import { routePlugin } from '../../http/route.ts';

const tags = ['animation'];

const routes = routePlugin(tags, (r, { animation: svc }) => {
  r.centerAndSearch(
    '/animation',
    {
      center: 'The animation library: published animations with the categories and their counts',
      search: 'Search the animation library by keyword, category or tag',
    },
    { body: AnimationSearchBody, data: pageOf(AnimationSchema).extend({ categories: AnimationCategories }) },
    (u, body) => svc.search(u, body),
  );

  r.byId(
    'GET',
    '/animation/:id',
    {
      summary: 'One animation and the signed URL of its clip (3D preview, free)',
      data: AnimationDetailSchema,
    },
    (u, id) => svc.detail(u, id),
  );

  r.byId(
    'PUT',
    '/animation/collect/:id',
    {
      summary: 'Collect (or un-collect) an animation',
      body: z.object({ collected: z.boolean() }),
      data: AnimationSchema,
    },
    (u, id, req) => svc.collect(u, id, req.body.collected),
  );

  r.get(
    '/animation/download/:bodyType/:id/:boneType',
    {
      auth: requireUser,
      summary:
        'Download an animation as a bone type zip (signed URL); the first download buys it (1 V per second, once), later ones are free. bodyType 0 = whole body',
      params: WholeBodyDownloadParams,
      data: AnimationDownloadSchema,
    },
    async (req) => {
      wholeBodyOnly(req.params.bodyType, 'library animations');
      return await svc.download(userOf(req), req.params.id, req.params.boneType);
    },
  );

  r.byId(
    'GET',
    '/animation/cos_url/:id',
    {
      summary:
        'Signed URLs of an animation: its clip (3D preview) and picture, and once bought the bone type zips already made',
      data: AnimationUrlsSchema,
    },
    (u, id) => svc.urls(u, id),
  );

  r.byId(
    'GET',
    '/animation/pictures/:id',
    {
      summary: 'The signed URL of an animation’s picture (SVG: four poses drawn from its clip)',
      data: z.object({ picture: z.string() }),
    },
    (u, id) => svc.pictures(u, id),
  );

  r.byId(
    'POST',
    '/animation/redone/:id',
    {
      summary:
        'Make a capture I shared again from the video’s current motion (after a remake or a 2D repair): new picture, zips made anew, hidden until an administrator publishes it again',
      data: AnimationSchema,
    },
    (u, id) => svc.redone(u, id),
  );

  r.post(
    '/animation/zip',
    {
      auth: requireUser,
      summary:
        'One zip holding a bone type’s zip of each animation given (up to 20); those not bought are bought once each, nothing charged when the coins do not cover them all',
      body: AnimationBundleBody,
      data: AnimationBundleSchema,
    },
    async (req) => svc.bundle(userOf(req), req.body.ids, req.body.boneType),
  );

  r.post(
    '/animation/upload',
    {
      auth: requireUser,
      summary:
        'Share one of my made captures on the square to the library as an animation (hidden until an administrator publishes it)',
      body: z.object({ videoId: z.number().int().positive() }),
      data: AnimationSchema,
    },
    async (req) => svc.share(userOf(req), req.body.videoId),
  );

  // ---------------------------------------------------------------- administrators (manageAnimation)

  r.post(
    '/admin/animation/search',
    {
      auth: requireAdmin,
      summary: 'Every animation of the library, published and hidden',
      body: AnimationAdminSearchBody,
      data: pageOf(AnimationSchema),
    },
    async (req) => svc.adminList(req.body),
  );

  r.post(
    '/admin/animation/publish',
    {
      auth: requireAdmin,
      summary: 'Publish (true) or hide (false) an animation',
      body: z.object({ id: z.number().int().positive(), published: z.boolean() }),
      data: AnimationSchema,
    },
    async (req) => svc.adminPublish(req.body.id, req.body.published),
  );

  r.post(
    '/admin/animation/redone',
    {
      auth: requireAdmin,
      summary:
        'Make an animation again from its source (a shipped take from the product’s take, a shared capture from its video); status kept',
      body: z.object({ id: z.number().int().positive() }),
      data: AnimationSchema,
    },
    async (req) => svc.adminRedone(req.body.id),
  );

  r.post(
    '/admin/animation/delete',
    {
      auth: requireAdmin,
      summary: 'Delete animations and their files',
      body: z.object({ ids: z.array(z.number().int().positive()).min(1).max(100) }),
      data: DeletedSchema,
    },
    async (req) => svc.adminDelete(req.body.ids),
  );
});

export default routes;
