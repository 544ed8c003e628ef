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
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, Codes } from '../../errors.ts';
import { bearerSecurity, requireAdmin, requireUser, userOf } from '../../http/context.ts';
import { envelope, IdParam, ok, pageOf } from '../../http/envelope.ts';
import {
  AdminSearchBody,
  ApplyBody,
  ApplySchema,
  CenterBody,
  DownloadSchema,
  IdsBody,
  RedoneBody,
  TomokageDetailSchema,
  TomokageSchema,
} from './schemas.ts';
import { TomokageMessages } from './service.ts';

const tags = ['tomokage'];
const security = bearerSecurity;

const routes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const svc = app.ctx.services.tomokage;

  await app.register(multipart, { limits: { files: 1, fields: 5, fieldSize: 4 * 1024, parts: 6 } });

  app.post(
    '/tomokage/upload',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Upload a rigged humanoid character (multipart/form-data: file + optional name)',
        description:
          'FBX (binary or ASCII), GLB/glTF (embedded buffers) or VRM 0.x/1.0, checked by content. Size and count by plan (free 30M / 3, monthly 100M / 20, yearly 200M / 100); not for company accounts; refused while the digital-human maintenance flag is on. The skeleton is mapped automatically and the front / three-quarter pictures are rendered.',
        security,
        consumes: ['multipart/form-data'],
        response: { 200: envelope(TomokageSchema) },
      },
    },
    async (req) => {
      const u = userOf(req);
      await svc.assertOpen(u);
      if (!req.isMultipart())
        throw new AppError(Codes.PARAMETER_ERROR, 'send multipart/form-data with a file');
      const maxBytes = svc.maxUploadBytes(u);
      let file: { bytes: Uint8Array; fileName: string } | undefined;
      let name: string | undefined;
      let extra = false;
      try {
        for await (const part of req.parts({ limits: { fileSize: Math.max(1, maxBytes), files: 1 } })) {
          if (part.type === 'file') {
            if (file) {
              extra = true;
              part.file.resume();
              continue;
            }
            const bytes = await part.toBuffer();
            file = {
              bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
              fileName: part.filename || 'character',
            };
          } else if (part.fieldname === 'name') name = String(part.value ?? '');
        }
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'FST_FILES_LIMIT') throw new AppError(Codes.REFUSED, 'one character file at a time');
        if (code === 'FST_REQ_FILE_TOO_LARGE')
          throw new AppError(Codes.REFUSED, TomokageMessages.tooLarge(svc.limits(u).sizeMB));
        throw err;
      }
      if (extra) throw new AppError(Codes.REFUSED, 'one character file at a time');
      if (!file)
        throw new AppError(Codes.PARAMETER_ERROR, 'a character file is required (form field "file")');
      return ok(await svc.upload(u, { name }, file));
    },
  );

  for (const path of ['/tomokage/center', '/tomokage/search']) {
    app.post(
      path,
      {
        preHandler: requireUser,
        schema: {
          tags,
          summary: path.endsWith('center')
            ? 'My digital humans (collected first, then newest)'
            : 'Search my digital humans by name',
          security,
          body: CenterBody,
          response: { 200: envelope(pageOf(TomokageSchema)) },
        },
      },
      async (req) => ok(await svc.center(userOf(req), req.body)),
    );
  }

  app.get(
    '/tomokage/motions',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'My made motions that can be applied (video captures and music dances)',
        security,
        response: {
          200: envelope(
            z.array(
              z.object({ kind: z.string(), id: z.number().int(), name: z.string(), duration: z.number() }),
            ),
          ),
        },
      },
    },
    async (req) => ok(await svc.motions(userOf(req))),
  );

  app.get(
    '/tomokage/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'One digital human: skeleton, mapping (for the editor), applied motions',
        security,
        params: z.object({ id: IdParam }),
        response: { 200: envelope(TomokageDetailSchema) },
      },
    },
    async (req) => ok(await svc.detail(userOf(req), req.params.id)),
  );

  app.delete(
    '/tomokage',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Delete digital humans, their pictures and applied motions',
        security,
        body: IdsBody,
        response: { 200: envelope(z.object({ deleted: z.array(z.number().int()) })) },
      },
    },
    async (req) => ok(await svc.delete(userOf(req), req.body.ids)),
  );

  app.post(
    '/tomokage/collect/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Collect (star) or un-collect a digital human',
        security,
        params: z.object({ id: IdParam }),
        body: z.object({ collect: z.boolean() }).default({ collect: true }),
        response: { 200: envelope(TomokageSchema) },
      },
    },
    async (req) => ok(await svc.collect(userOf(req), req.params.id, req.body.collect)),
  );

  app.post(
    '/tomokage/redone/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Re-map the skeleton: automatically (no body), or save the mapping editor’s joints → bones',
        security,
        params: z.object({ id: IdParam }),
        body: RedoneBody,
        response: { 200: envelope(TomokageDetailSchema) },
      },
    },
    async (req) => ok(await svc.redone(userOf(req), req.params.id, req.body?.mapping)),
  );

  app.get(
    '/tomokage/cos_url/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Signed URLs: the uploaded file, the rest-pose preview GLB, an applied motion’s GLB (applyId)',
        security,
        params: z.object({ id: IdParam }),
        querystring: z.object({ applyId: z.coerce.number().int().positive().optional() }),
        response: {
          200: envelope(
            z.object({ source: z.string(), preview: z.string().nullable(), animated: z.string().nullable() }),
          ),
        },
      },
    },
    async (req) => ok(await svc.urls(userOf(req), req.params.id, req.query.applyId)),
  );

  app.get(
    '/tomokage/pictures/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Signed URLs of the pictures rendered on the server (front, three-quarter)',
        security,
        params: z.object({ id: IdParam }),
        response: {
          200: envelope(z.object({ front: z.string().nullable(), threeQuarter: z.string().nullable() })),
        },
      },
    },
    async (req) => ok(await svc.pictures(userOf(req), req.params.id)),
  );

  app.post(
    '/tomokage/apply/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Apply a motion to the character: FBX (own mesh and materials), GLB, VRMA for VRM, zip',
        description:
          'An own capture or dance is free; a square video costs what downloading it costs (1 V per second, once per user and video).',
        security,
        params: z.object({ id: IdParam }),
        body: ApplyBody,
        response: { 200: envelope(ApplySchema) },
      },
    },
    async (req) => ok(await svc.apply(userOf(req), req.params.id, req.body)),
  );

  app.get(
    '/tomokage/download/:applyId/:format',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'A signed URL of an applied motion’s file (fbx, glb, vrma)',
        security,
        params: z.object({ applyId: IdParam, format: z.enum(['fbx', 'glb', 'vrma']) }),
        response: { 200: envelope(DownloadSchema) },
      },
    },
    async (req) => ok(await svc.download(userOf(req), req.params.applyId, req.params.format)),
  );

  app.get(
    '/tomokage/zip/:applyId',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'A signed URL of the zip of an applied motion (all its files)',
        security,
        params: z.object({ applyId: IdParam }),
        response: { 200: envelope(DownloadSchema) },
      },
    },
    async (req) => ok(await svc.zip(userOf(req), req.params.applyId)),
  );

  // ---------------------------------------------------------------- administrators (manageTomokage)

  app.post(
    '/admin/tomokage/search',
    {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: 'Every digital human with its owner and front picture (hidden ones included)',
        security,
        body: AdminSearchBody,
        response: {
          200: envelope(
            pageOf(
              TomokageSchema.extend({
                userId: z.number().int(),
                ownerEmail: z.string().nullable(),
                front: z.string().nullable(),
              }),
            ),
          ),
        },
      },
    },
    async (req) => ok(await svc.adminList(req.body)),
  );

  app.post(
    '/admin/tomokage/hide',
    {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: 'Hide (or show again) a digital human from its owner',
        security,
        body: z.object({ id: z.number().int().positive(), hidden: z.boolean() }),
        response: { 200: envelope(TomokageSchema) },
      },
    },
    async (req) => ok(await svc.adminHide(req.body.id, req.body.hidden)),
  );

  app.post(
    '/admin/tomokage/delete',
    {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: 'Delete digital humans and their files',
        security,
        body: IdsBody,
        response: { 200: envelope(z.object({ deleted: z.array(z.number().int()) })) },
      },
    },
    async (req) => ok(await svc.adminDelete(req.body.ids)),
  );
};

export default routes;
