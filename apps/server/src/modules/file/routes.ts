/**
 * File routes (issue 25, spec §7 "Storage"): POST /file/upload (multipart image or text), POST /file/write/ext
 * (text as JSON) and GET /file/url (a signed download, optionally converted to webp).
 */
import multipart from '@fastify/multipart';
import { AppError, Codes } from '../../errors.ts';
import { requireUser, userOf } from '../../http/context.ts';
import { routePlugin } from '../../http/route.ts';
import type { FilePurpose } from './ports.ts';
import { FileViewSchema, Purpose, SignedFileSchema, SignQuery, WriteExtBody } from './schemas.ts';
import { FILE_LIMITS, TEXT_EXTENSIONS, tooLarge } from './service.ts';

const tags = ['storage'];
const MB = 1024 * 1024;

const routes = routePlugin(tags, async (r, { uploads }, app) => {
  await app.register(multipart, { limits: { files: 1, fields: 4, fieldSize: 1024, parts: 6 } });

  r.post(
    '/file/upload',
    {
      auth: requireUser,
      summary: 'Upload one image or text file (multipart/form-data: file + optional purpose)',
      description: `Images (PNG, JPEG, GIF, WebP; at most ${FILE_LIMITS.imageMB}M, avatars ${FILE_LIMITS.avatarMB}M, ${FILE_LIMITS.maxSide} px a side) must decode; text files (${TEXT_EXTENSIONS.join(', ')}; at most ${FILE_LIMITS.textMB}M) must be UTF-8 without control bytes, and .json must parse. Anything else: 307 文件格式错误,请重新选择!. Stored as uploadZM/<random id>.<extension of the content>. purpose notice and qrcode: administrators, and console staff who may change the notices (notice) or the community panel (qrcode). ${FILE_LIMITS.perHour} uploads an hour, ${FILE_LIMITS.dailyMB}M a day.`,
      consumes: ['multipart/form-data'],
      data: FileViewSchema,
    },
    async (req) => {
      const u = userOf(req);
      if (!req.isMultipart())
        throw new AppError(Codes.PARAMETER_ERROR, 'send multipart/form-data with a file');
      let file: { fileName: string; bytes: Buffer; truncated: boolean } | undefined;
      let purpose: FilePurpose | undefined;
      try {
        for await (const part of req.parts({ limits: { fileSize: FILE_LIMITS.imageMB * MB, files: 1 } })) {
          if (part.type === 'file') {
            const bytes = await part.toBuffer();
            file = { fileName: part.filename || 'file', bytes, truncated: part.file.truncated };
          } else if (part.fieldname === 'purpose') {
            const p = Purpose.safeParse(part.value);
            if (!p.success)
              throw new AppError(Codes.PARAMETER_ERROR, `purpose: one of ${Purpose.options.join(', ')}`);
            purpose = p.data;
          }
        }
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'FST_FILES_LIMIT') throw new AppError(Codes.REFUSED, '当前限制选择 最多1 个文件');
        if (code === 'FST_REQ_FILE_TOO_LARGE')
          throw new AppError(Codes.REFUSED, tooLarge(FILE_LIMITS.imageMB));
        throw err;
      }
      if (!file) throw new AppError(Codes.PARAMETER_ERROR, 'a file is required (form field "file")');
      return await uploads.upload(u, { ...file, purpose });
    },
  );

  r.post(
    '/file/write/ext',
    {
      auth: requireUser,
      summary: 'Store text as a file with the given extension (spec "file/write/ext")',
      description: `ext: ${TEXT_EXTENSIONS.join(', ')}. Same checks and key scheme as POST /file/upload.`,
      body: WriteExtBody,
      data: FileViewSchema,
    },
    async (req) => uploads.writeText(userOf(req), req.body),
  );

  r.get(
    '/file/url',
    {
      auth: requireUser,
      summary: 'A signed download URL of a stored file, optionally converted to webp',
      description:
        'Readable: shared uploads (uploadZM/), my own files (videos|music|tomokage/u<my id>/), anything for administrators. format=webp converts a PNG, JPEG, GIF or WebP (optionally to maxSide pixels) once and keeps the conversion.',
      query: SignQuery,
      data: SignedFileSchema,
    },
    async (req) => uploads.signedUrl(userOf(req), req.query),
  );
});

export default routes;
