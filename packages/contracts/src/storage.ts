/**
 * Storage credentials (spec §3 "Cloud credentials"): what `GET /cos/sts/upload` and `GET /cos/sts/download`
 * answer, and the temporary S3 credentials (STS) they may carry. The server's storage port returns these; the
 * web app's credential caches keep them.
 */
import { z } from 'zod';

/** The spec's credential triple and its validity (unix seconds). */
export const CredentialsSchema = z.object({
  credentials: z.object({ tmpSecretId: z.string(), tmpSecretKey: z.string(), sessionToken: z.string() }),
  startTime: z.number().int().describe('unix seconds'),
  expiredTime: z.number().int().describe('unix seconds'),
});

/** Temporary S3 credentials (STS) and where they apply. */
export const BucketCredentialsSchema = z.object({
  accessKeyId: z.string(),
  secretAccessKey: z.string(),
  sessionToken: z.string(),
  expiredTime: z.number().int().describe('unix seconds'),
  bucket: z.string(),
  region: z.string(),
  endpoint: z.string().describe('the S3 endpoint; empty for AWS'),
  resource: z.string().describe('the bucket key (or key prefix ending in *) the session policy allows'),
});
export type BucketCredentials = z.infer<typeof BucketCredentialsSchema>;

const StsSchema = BucketCredentialsSchema.nullable().describe(
  'Real temporary S3 credentials from STS AssumeRole, limited by a session policy; null where the store offers no STS (local disk; S3 without S3_STS_ENDPOINT), where the pre-signed URLs are the way in',
);

/**
 * Temporary upload credentials (`GET /cos/sts/upload`): the spec's triple plus what a client needs to upload one
 * object directly — the object key and a URL to PUT the bytes to (with the headers to send).
 *
 * `sessionToken` is a server-signed upload grant (key, owner, limits, expiry); the client hands it back to the
 * confirm call, which is how the server knows the key was granted to that user. `tmpSecretId` is the grant's id;
 * `tmpSecretKey` is unused (the URL is pre-signed) and is a random value, never a real storage secret. `sts`:
 * real temporary storage credentials from STS AssumeRole, limited by a session policy to PutObject on exactly
 * `key` (S3 with `S3_STS_ENDPOINT` configured); null where the store offers no STS (local disk, plain S3).
 */
export const UploadCredentialsSchema = CredentialsSchema.extend({
  key: z.string(),
  bucket: z.string(),
  region: z.string(),
  uploadUrl: z.string(),
  method: z.literal('PUT'),
  headers: z.record(z.string(), z.string()),
  maxBytes: z.number().int(),
  sts: StsSchema,
});
export type UploadCredentials = z.infer<typeof UploadCredentialsSchema>;

/** Read credentials for my own files (`GET /cos/sts/download`): my prefix, where files live, and STS when offered. */
export const DownloadCredentialsSchema = CredentialsSchema.extend({
  prefix: z.string(),
  storage: z.enum(['local', 's3']),
  sts: StsSchema,
});
export type DownloadCredentials = z.infer<typeof DownloadCredentialsSchema>;
