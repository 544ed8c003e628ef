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
import { requireAdmin, requireUser, userOf } from '../../http/context.ts';
import { IdParam, pageOf } from '../../http/envelope.ts';
import { routesOf } from '../../http/route.ts';
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

const routes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const r = routesOf(app, { tags });
  const svc = app.ctx.services.tomokage;

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
      return await svc.upload(u, { name }, file);
    },
  );

  for (const path of ['/tomokage/center', '/tomokage/search']) {
    r.post(
      path,
      {
        auth: requireUser,
        summary: path.endsWith('center')
          ? 'My digital humans (collected first, then newest)'
          : 'Search my digital humans by name',
        body: CenterBody,
        data: pageOf(TomokageSchema),
      },
      async (req) => svc.center(userOf(req), req.body),
    );
  }

  r.get(
    '/tomokage/motions',
    {
      auth: requireUser,
      summary: 'My made motions that can be applied (video captures and music dances)',
      data: z.array(
        z.object({ kind: z.string(), id: z.number().int(), name: z.string(), duration: z.number() }),
      ),
    },
    async (req) => svc.motions(userOf(req)),
  );

  r.get(
    '/tomokage/:id',
    {
      auth: requireUser,
      summary: 'One digital human: skeleton, mapping (for the editor), applied motions',
      params: z.object({ id: IdParam }),
      data: TomokageDetailSchema,
    },
    async (req) => svc.detail(userOf(req), req.params.id),
  );

  r.delete(
    '/tomokage',
    {
      auth: requireUser,
      summary: 'Delete digital humans, their pictures and applied motions',
      body: IdsBody,
      data: z.object({ deleted: z.array(z.number().int()) }),
    },
    async (req) => svc.delete(userOf(req), req.body.ids),
  );

  r.post(
    '/tomokage/collect/:id',
    {
      auth: requireUser,
      summary: 'Collect (star) or un-collect a digital human',
      params: z.object({ id: IdParam }),
      body: z.object({ collect: z.boolean() }).default({ collect: true }),
      data: TomokageSchema,
    },
    async (req) => svc.collect(userOf(req), req.params.id, req.body.collect),
  );

  r.post(
    '/tomokage/redone/:id',
    {
      auth: requireUser,
      summary: 'Re-map the skeleton: automatically (no body), or save the mapping editor’s joints → bones',
      params: z.object({ id: IdParam }),
      body: RedoneBody,
      data: TomokageDetailSchema,
    },
    async (req) => svc.redone(userOf(req), req.params.id, req.body?.mapping),
  );

  r.get(
    '/tomokage/cos_url/:id',
    {
      auth: requireUser,
      summary: 'Signed URLs: the uploaded file, the rest-pose preview GLB, an applied motion’s GLB (applyId)',
      params: z.object({ id: IdParam }),
      query: z.object({ applyId: z.coerce.number().int().positive().optional() }),
      data: z.object({ source: z.string(), preview: z.string().nullable(), animated: z.string().nullable() }),
    },
    async (req) => svc.urls(userOf(req), req.params.id, req.query.applyId),
  );

  r.get(
    '/tomokage/pictures/:id',
    {
      auth: requireUser,
      summary: 'Signed URLs of the pictures rendered on the server (front, three-quarter)',
      params: z.object({ id: IdParam }),
      data: z.object({ front: z.string().nullable(), threeQuarter: z.string().nullable() }),
    },
    async (req) => svc.pictures(userOf(req), req.params.id),
  );

  r.post(
    '/tomokage/apply/:id',
    {
      auth: requireUser,
      summary: 'Apply a motion to the character: FBX (own mesh and materials), GLB, VRMA for VRM, zip',
      description:
        'An own capture or dance is free; a square video costs what downloading it costs (1 V per second, once per user and video).',
      params: z.object({ id: IdParam }),
      body: ApplyBody,
      data: ApplySchema,
    },
    async (req) => svc.apply(userOf(req), req.params.id, req.body),
  );

  r.get(
    '/tomokage/download/:applyId/:format',
    {
      auth: requireUser,
      summary: 'A signed URL of an applied motion’s file (fbx, glb, vrma)',
      params: z.object({ applyId: IdParam, format: z.enum(['fbx', 'glb', 'vrma']) }),
      data: DownloadSchema,
    },
    async (req) => svc.download(userOf(req), req.params.applyId, req.params.format),
  );

  r.get(
    '/tomokage/zip/:applyId',
    {
      auth: requireUser,
      summary: 'A signed URL of the zip of an applied motion (all its files)',
      params: z.object({ applyId: IdParam }),
      data: DownloadSchema,
    },
    async (req) => svc.zip(userOf(req), req.params.applyId),
  );

  // ---------------------------------------------------------------- administrators (manageTomokage)

  r.post(
    '/admin/tomokage/search',
    {
      auth: requireAdmin,
      summary: 'Every digital human with its owner and front picture (hidden ones included)',
      body: AdminSearchBody,
      data: pageOf(
        TomokageSchema.extend({
          userId: z.number().int(),
          ownerEmail: z.string().nullable(),
          front: z.string().nullable(),
        }),
      ),
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
      data: z.object({ deleted: z.array(z.number().int()) }),
    },
    async (req) => svc.adminDelete(req.body.ids),
  );
};

export default routes;
