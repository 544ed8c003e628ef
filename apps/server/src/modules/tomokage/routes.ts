/**
 * Digital-human routes (spec §7 "Digital human, animation, music": center, search, upload, delete, collect,
 * redone, cos_url, pictures, zip, download; GET /tomokage/checkMaintain is in the system slice). Paths are ours
 * where the spec does not show them:
 * POST /tomokage/upload (multipart: file + name), POST /tomokage/center, POST /tomokage/search,
 * GET /tomokage/motions, GET /tomokage/{id}, DELETE /tomokage (ids), POST /tomokage/collect/{id},
 * POST /tomokage/redone/{id} (re-map: automatic, or the editor's mapping), GET /tomokage/cos_url/{id},
 * GET /tomokage/pictures/{id}, POST /tomokage/apply/{id}, GET /tomokage/download/{applyId}/{format},
 * GET /tomokage/zip/{applyId}; administrators (manageTomokage): POST /admin/tomokage/search,
 * POST /admin/tomokage/hide, POST /admin/tomokage/delete.
 */
import multipart from '@fastify/multipart';
import {
  AdminTomokageSchema,
  AdminTomokageSearchBody,
  ApplyBody,
  ApplySchema,
  DeletedSchema,
  IdsBody,
  RedoneBody,
  TomokageCenterBody,
  TomokageDetailSchema,
  TomokageDownloadSchema,
  TomokageMotionSchema,
  TomokagePicturesSchema,
  TomokageSchema,
  TomokageUrlsSchema,
} from '@mocap/contracts';
import { z } from 'zod';
import { requireAdmin, requireUser, userOf } from '../../http/context.ts';
import { IdParam, pageOf } from '../../http/envelope.ts';
import { readUpload, toMemory } from '../../http/multipart.ts';
import { routePlugin } from '../../http/route.ts';
import { TomokageMessages } from './service.ts';

const tags = ['tomokage'];

const routes = routePlugin(tags, async (r, { tomokage: svc }, app) => {
  await app.register(multipart, { limits: { files: 1, fields: 5, fieldSize: 4 * 1024, parts: 6 } });

  r.post(
    '/tomokage/upload',
    {
      auth: requireUser,
      summary: 'Upload a rigged humanoid character (multipart/form-data: file + optional name)',
      description:
        'FBX (binary or ASCII), GLB/glTF (embedded buffers) or VRM 0.x/1.0, checked by content. Size and count by plan (free 30M / 3, monthly 100M / 20, yearly 200M / 100); not for company accounts; refused while the digital-human maintenance flag is on. The skeleton is mapped automatically and the front / three-quarter pictures are rendered.',
      consumes: ['multipart/form-data'],
      data: TomokageSchema,
    },
    async (req) => {
      const u = userOf(req);
      await svc.assertOpen(u);
      const { file, fields } = await readUpload(req, {
        maxBytes: svc.maxUploadBytes(u),
        sink: toMemory('character'),
        oneFile: 'one character file at a time',
        tooLarge: () => TomokageMessages.tooLarge(svc.limits(u).sizeMB),
        missing: 'a character file is required (form field "file")',
      });
      const name = fields.name?.at(-1);
      return await svc.upload(u, { name }, file);
    },
  );

  r.centerAndSearch(
    '/tomokage',
    {
      center: 'My digital humans (collected first, then newest)',
      search: 'Search my digital humans by name',
    },
    { body: TomokageCenterBody, data: pageOf(TomokageSchema) },
    (u, body) => svc.center(u, body),
  );

  r.get(
    '/tomokage/motions',
    {
      auth: requireUser,
      summary: 'My made motions that can be applied (video captures and music dances)',
      data: z.array(TomokageMotionSchema),
    },
    async (req) => svc.motions(userOf(req)),
  );

  r.byId(
    'GET',
    '/tomokage/:id',
    {
      summary: 'One digital human: skeleton, mapping (for the editor), applied motions',
      data: TomokageDetailSchema,
    },
    (u, id) => svc.detail(u, id),
  );

  r.deleteIds(
    'DELETE',
    '/tomokage',
    {
      summary: 'Delete digital humans, their pictures and applied motions',
    },
    (u, ids) => svc.delete(u, ids),
  );

  r.byId(
    'POST',
    '/tomokage/collect/:id',
    {
      summary: 'Collect (star) or un-collect a digital human',
      body: z.object({ collect: z.boolean() }).default({ collect: true }),
      data: TomokageSchema,
    },
    (u, id, req) => svc.collect(u, id, req.body.collect),
  );

  r.byId(
    'POST',
    '/tomokage/redone/:id',
    {
      summary: 'Re-map the skeleton: automatically (no body), or save the mapping editor’s joints → bones',
      body: RedoneBody,
      data: TomokageDetailSchema,
    },
    (u, id, req) => svc.redone(u, id, req.body?.mapping),
  );

  r.byId(
    'GET',
    '/tomokage/cos_url/:id',
    {
      summary: 'Signed URLs: the uploaded file, the rest-pose preview GLB, an applied motion’s GLB (applyId)',
      query: z.object({ applyId: z.coerce.number().int().positive().optional() }),
      data: TomokageUrlsSchema,
    },
    (u, id, req) => svc.urls(u, id, req.query.applyId),
  );

  r.byId(
    'GET',
    '/tomokage/pictures/:id',
    {
      summary: 'Signed URLs of the pictures rendered on the server (front, three-quarter)',
      data: TomokagePicturesSchema,
    },
    (u, id) => svc.pictures(u, id),
  );

  r.byId(
    'POST',
    '/tomokage/apply/:id',
    {
      summary: 'Apply a motion to the character: FBX (own mesh and materials), GLB, VRMA for VRM, zip',
      description:
        'An own capture or dance is free; a square video costs what downloading it costs (1 V per second, once per user and video).',
      body: ApplyBody,
      data: ApplySchema,
    },
    (u, id, req) => svc.apply(u, id, req.body),
  );

  r.get(
    '/tomokage/download/:applyId/:format',
    {
      auth: requireUser,
      summary: 'A signed URL of an applied motion’s file (fbx, glb, vrma)',
      params: z.object({ applyId: IdParam, format: z.enum(['fbx', 'glb', 'vrma']) }),
      data: TomokageDownloadSchema,
    },
    async (req) => svc.download(userOf(req), req.params.applyId, req.params.format),
  );

  r.get(
    '/tomokage/zip/:applyId',
    {
      auth: requireUser,
      summary: 'A signed URL of the zip of an applied motion (all its files)',
      params: z.object({ applyId: IdParam }),
      data: TomokageDownloadSchema,
    },
    async (req) => svc.zip(userOf(req), req.params.applyId),
  );

  // ---------------------------------------------------------------- administrators (manageTomokage)

  r.post(
    '/admin/tomokage/search',
    {
      auth: requireAdmin,
      summary: 'Every digital human with its owner and front picture (hidden ones included)',
      body: AdminTomokageSearchBody,
      data: pageOf(AdminTomokageSchema),
    },
    async (req) => svc.adminList(req.body),
  );

  r.post(
    '/admin/tomokage/hide',
    {
      auth: requireAdmin,
      summary: 'Hide (or show again) a digital human from its owner',
      body: z.object({ id: z.number().int().positive(), hidden: z.boolean() }),
      data: TomokageSchema,
    },
    async (req) => svc.adminHide(req.body.id, req.body.hidden),
  );

  r.post(
    '/admin/tomokage/delete',
    {
      auth: requireAdmin,
      summary: 'Delete digital humans and their files',
      body: IdsBody,
      data: DeletedSchema,
    },
    async (req) => svc.adminDelete(req.body.ids),
  );
});

export default routes;
