/**
 * A minimal in-test S3-compatible HTTP server (path-style): PutObject, GetObject, HeadObject, DeleteObject,
 * DeleteObjects, ListObjectsV2. It checks that every request is signed (SigV4 header or pre-signed query)
 * and that pre-signed URLs have not expired, but does not verify signatures. Multipart uploads are not
 * supported (our objects in tests stay under the single-PUT size).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface S3Stub {
  url: string;
  bucket: string;
  objects: Map<string, { body: Buffer; contentType?: string }>;
  requests: { method: string; path: string; query: string; signed: 'header' | 'query' | 'none' }[];
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const xml = (s: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${s}`;

export async function startS3Stub(bucket = 'test-bucket'): Promise<S3Stub> {
  const objects: S3Stub['objects'] = new Map();
  const requests: S3Stub['requests'] = [];
  const server: Server = createServer(async (req, res) => {
    const u = new URL(req.url ?? '/', 'http://stub');
    const signed = req.headers.authorization?.startsWith('AWS4-HMAC-SHA256')
      ? 'header'
      : u.searchParams.has('X-Amz-Signature')
        ? 'query'
        : 'none';
    requests.push({ method: req.method ?? '', path: u.pathname, query: u.search, signed });
    const send = (status: number, text = '', headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/xml', ...headers });
      res.end(text);
    };
    if (signed === 'none') return send(403, xml('<Error><Code>AccessDenied</Code></Error>'));
    if (signed === 'query') {
      const date = u.searchParams.get('X-Amz-Date')!;
      const t = Date.UTC(
        +date.slice(0, 4),
        +date.slice(4, 6) - 1,
        +date.slice(6, 8),
        +date.slice(9, 11),
        +date.slice(11, 13),
        +date.slice(13, 15),
      );
      if (Date.now() > t + Number(u.searchParams.get('X-Amz-Expires')) * 1000) {
        return send(
          403,
          xml('<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>'),
        );
      }
    }
    const parts = u.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (parts[0] !== bucket) return send(404, xml('<Error><Code>NoSuchBucket</Code></Error>'));
    const key = parts.slice(1).join('/');
    const method = req.method ?? 'GET';
    if (method === 'PUT' && key) {
      objects.set(key, { body: await body(req), contentType: req.headers['content-type'] });
      return send(200, '', { etag: '"stub"' });
    }
    if ((method === 'GET' || method === 'HEAD') && key) {
      const o = objects.get(key);
      if (!o) return send(404, method === 'HEAD' ? '' : xml('<Error><Code>NoSuchKey</Code></Error>'));
      const headers: Record<string, string> = {
        'content-type':
          u.searchParams.get('response-content-type') ?? o.contentType ?? 'application/octet-stream',
        'content-length': String(o.body.length),
        etag: '"stub"',
        'last-modified': new Date().toUTCString(),
      };
      const cd = u.searchParams.get('response-content-disposition');
      if (cd) headers['content-disposition'] = cd;
      res.writeHead(200, headers);
      return res.end(method === 'HEAD' ? undefined : o.body);
    }
    if (method === 'DELETE' && key) {
      objects.delete(key);
      return send(204);
    }
    if (method === 'POST' && !key && u.searchParams.has('delete')) {
      const text = (await body(req)).toString('utf8');
      for (const m of text.matchAll(/<Key>([^<]*)<\/Key>/g)) objects.delete(m[1]!);
      return send(200, xml('<DeleteResult></DeleteResult>'));
    }
    if (method === 'GET' && !key && u.searchParams.get('list-type') === '2') {
      const prefix = u.searchParams.get('prefix') ?? '';
      const keys = [...objects.keys()].filter((k) => k.startsWith(prefix)).sort();
      const contents = keys
        .map((k) => `<Contents><Key>${k}</Key><Size>${objects.get(k)!.body.length}</Size></Contents>`)
        .join('');
      return send(
        200,
        xml(
          `<ListBucketResult><Name>${bucket}</Name><Prefix>${prefix}</Prefix><KeyCount>${keys.length}</KeyCount><IsTruncated>false</IsTruncated>${contents}</ListBucketResult>`,
        ),
      );
    }
    return send(501, xml('<Error><Code>NotImplemented</Code></Error>'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bucket,
    objects,
    requests,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
