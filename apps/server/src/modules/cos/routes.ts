/**
 * Storage routes: temporary upload credentials (`GET /cos/sts/upload`, spec §3 "Cloud credentials"), download
 * credentials (`GET /cos/sts/download`), and — for local-disk storage — the two URLs the signed tokens point
 * at: `PUT /cos/upload?token=` (a direct upload, size-limited by its grant) and `GET /files?token=` (a signed,
 * expiring download). With S3 the clients talk to the bucket through pre-signed URLs instead.
 */
import type { Readable } from 'node:stream';
import { DownloadCredentialsSchema, UploadCredentialsSchema } from '@mocap/contracts';
import { z } from 'zod';
import { AppError, Codes } from '../../errors.ts';
import { requireUser, userOf } from '../../http/context.ts';
import { routePlugin } from '../../http/route.ts';

const tags = ['storage'];

const routes = routePlugin(tags, (r, { videos, files }, app) => {
  r.get(
    '/cos/sts/upload',
    {
      auth: requireUser,
      summary: 'Temporary credentials to upload one MP4 directly to storage',
      description:
        'PUT the bytes to `uploadUrl` with `headers`, then confirm with POST /video/uploads {sessionToken, name, boneType, ...}. Valid 1800 s. Fetch new ones for every upload. With S3 and an STS service, `sts` also holds temporary S3 credentials allowing PutObject on exactly `key` (same lifetime).',
      query: z.object({
        fileName: z.string().max(255).optional(),
        size: z.coerce.number().int().min(0).optional(),
      }),
      data: UploadCredentialsSchema,
    },
    async (req) => videos.uploadGrant(userOf(req), req.query),
  );

  r.get(
    '/cos/sts/download',
    {
      auth: requireUser,
      summary: 'Temporary read credentials for my own files (300 s; the client refreshes after 290 s)',
      description:
        'The sessionToken reads objects under my prefix for 300 s: GET /product/cos/object?key=<key>&token=<sessionToken> (local storage serves the bytes; S3 answers 302 to a pre-signed URL of the bucket). With S3 and an STS service (S3_STS_ENDPOINT: MinIO, AWS STS), `sts` holds real temporary S3 credentials whose session policy allows GetObject and listing under my prefix only, for 3600 s; without one (plain S3 endpoints offer no AssumeRole) `sts` is null. Downloads of results use the signed URLs of /motion/*.',
      data: DownloadCredentialsSchema,
    },
    async (req) => files.readCredentials(userOf(req).id),
  );

  // Raw bodies for direct uploads (local storage).
  app.addContentTypeParser(['video/mp4', 'application/octet-stream'], (_req, payload, done) =>
    done(null, payload),
  );

  r.put(
    '/cos/upload',
    {
      summary: 'Direct upload target of local storage (the uploadUrl of /cos/sts/upload)',
      query: z.object({ token: z.string() }),
      data: z.object({ key: z.string(), size: z.number().int() }),
      options: { bodyLimit: 1024 * 1024 * 1024 },
    },
    async (req) => {
      const body = req.body as Readable | undefined;
      const stream = body && typeof body.pipe === 'function' ? body : undefined;
      return await files.receiveUpload(req.query.token, stream);
    },
  );

  /**
   * Sends a stored object, honouring a single `Range: bytes=...` (206 with Content-Range; 416 when it lies past the
   * end) so that browsers can seek in videos (issue 15.1); several ranges at once get the whole object (200).
   */
  const sendObject = async (
    key: string,
    req: import('fastify').FastifyRequest,
    reply: import('fastify').FastifyReply,
    fileName?: string,
    contentType?: string,
  ) => {
    const st = await files.stat(key);
    if (!st) throw new AppError(Codes.NOT_FOUND, 'file not found');
    const range = parseRange(req.headers.range, st.size);
    if (range === 'unsatisfiable') {
      reply.header('content-range', `bytes */${st.size}`);
      return reply
        .status(416)
        .send({ code: Codes.PARAMETER_ERROR, message: 'requested range not satisfiable', data: null });
    }
    const stream = await files.open(key, range ?? undefined);
    reply.header('content-type', contentType ?? guessType(key));
    reply.header('accept-ranges', 'bytes');
    reply.header('cache-control', 'private, max-age=300');
    if (fileName)
      reply.header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`);
    if (range) {
      reply.status(206);
      reply.header('content-range', `bytes ${range.start}-${range.end}/${st.size}`);
      reply.header('content-length', String(range.end - range.start + 1));
    } else reply.header('content-length', String(st.size));
    return reply.send(stream);
  };

  r.get(
    '/files',
    {
      summary: 'Signed, expiring download of a stored file (local storage; tokens come from the API)',
      query: z.object({ token: z.string() }),
    },
    async (req, reply) => {
      const t = files.downloadTarget(req.query.token);
      return sendObject(t.key, req, reply, t.fileName, t.contentType);
    },
  );

  r.get(
    '/cos/object',
    {
      summary:
        'Read one of my files with the sessionToken of /cos/sts/download (local storage: the bytes; S3: 302 to a pre-signed GET URL valid while the token is)',
      query: z.object({ key: z.string().max(512), token: z.string() }),
    },
    async (req, reply) => {
      if (!files.servesFiles) return reply.redirect(await files.readUrl(req.query.key, req.query.token), 302);
      return sendObject(files.readTarget(req.query.key, req.query.token), req, reply);
    },
  );
});

/**
 * One byte range of an object of `size` bytes from a Range header: `bytes=a-b`, `bytes=a-`, `bytes=-n`.
 * null: no (usable) range, send everything; 'unsatisfiable': starts past the end.
 */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return null;
  return { start, end };
}

function guessType(key: string): string {
  if (key.endsWith('.zip')) return 'application/zip';
  if (key.endsWith('.json')) return 'application/json';
  if (key.endsWith('.jpg')) return 'image/jpeg';
  if (key.endsWith('.mp4')) return 'video/mp4';
  return 'application/octet-stream';
}

export default routes;
