/**
 * A real S3-compatible server for tests: `s3rver` (npm) on 127.0.0.1, a fresh directory per start, one bucket.
 * Requests pass through a recorder first (how each was signed), then s3rver, which checks the access key, the
 * date and pre-signed expiry, stores objects on disk and implements multipart uploads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** s3rver's built-in account. */
export const S3_ACCESS_KEY_ID = 'S3RVER';
export const S3_SECRET_ACCESS_KEY = 'S3RVER';

/** The app's configuration for storing in `s3` (useServer's `env`). */
export const s3Env = (s3: { url: string; bucket: string }): Record<string, string> => ({
  S3_BUCKET: s3.bucket,
  S3_ENDPOINT: s3.url,
  S3_ACCESS_KEY_ID,
  S3_SECRET_ACCESS_KEY,
});

export interface S3TestServer {
  url: string;
  bucket: string;
  /** Every key in the bucket (listed through the S3 API). */
  keys(): Promise<string[]>;
  requests: { method: string; path: string; query: string; signed: 'header' | 'query' | 'none' }[];
  close(): Promise<void>;
}

/** A bucket CORS rule letting browsers PUT and GET from any origin (the web's direct uploads in e2e tests). */
const OPEN_CORS = `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>PUT</AllowedMethod><AllowedMethod>GET</AllowedMethod><AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader></CORSRule></CORSConfiguration>`;

export async function startS3Server(
  bucket = 'test-bucket',
  opts: { cors?: boolean } = {},
): Promise<S3TestServer> {
  const directory = mkdtempSync(join(tmpdir(), 'mocap-s3rver-'));
  const s3 = new S3rver({
    directory,
    silent: true,
    configureBuckets: [{ name: bucket, ...(opts.cors ? { configs: [OPEN_CORS] } : {}) }],
  });
  await s3.configureBuckets();
  const handle = s3.callback();
  const requests: S3TestServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://s3');
    const signed = req.headers.authorization?.startsWith('AWS4-HMAC-SHA256')
      ? 'header'
      : u.searchParams.has('X-Amz-Signature')
        ? 'query'
        : 'none';
    requests.push({ method: req.method ?? '', path: u.pathname, query: u.search, signed });
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: url,
    forcePathStyle: true,
    credentials: { accessKeyId: S3_ACCESS_KEY_ID, secretAccessKey: S3_SECRET_ACCESS_KEY },
  });
  return {
    url,
    bucket,
    requests,
    async keys() {
      const out: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const r = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken }));
        for (const o of r.Contents ?? []) out.push(o.Key!);
        ContinuationToken = r.NextContinuationToken;
      } while (ContinuationToken);
      return out;
    },
    async close() {
      client.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      s3.logger?.exceptions?.unhandle?.();
      s3.logger?.close?.();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
