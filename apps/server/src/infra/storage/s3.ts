import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { newUploadGrant, uploadCredentialsOf, verifyUploadGrant } from './grants.ts';
import { byteLimiter } from './local.ts';
import { StsClient, sessionPolicy } from './sts.ts';
import {
  type BucketCredentials,
  checkKey,
  type ObjectInfo,
  type ObjectStorage,
  type PutOptions,
  type SignedUrlOptions,
  StorageNotFoundError,
  StorageTooLargeError,
  type UploadCredentials,
  type UploadGrant,
  type UploadGrantOptions,
} from './types.ts';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** Endpoint of an S3-compatible server (e.g. `http://127.0.0.1:9000`); omit for AWS. */
  endpoint?: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Path-style addressing (`endpoint/bucket/key`), needed by most self-hosted servers. Default true. */
  forcePathStyle?: boolean;
  /** Key prefix inside the bucket (e.g. `mocap/`). */
  prefix?: string;
  /** HMAC secret for upload grants. */
  secret: string;
  /**
   * An STS service to issue real temporary credentials (AssumeRole with a session policy): MinIO's STS API (the
   * S3 endpoint itself) or AWS STS. Without it the clients get pre-signed URLs only (`sts: null`).
   */
  sts?: { endpoint: string; region?: string; roleArn?: string };
}

function isNotFound(err: unknown): boolean {
  if (err instanceof S3ServiceException) {
    return err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404;
  }
  return (err as { name?: string })?.name === 'NoSuchKey';
}

export class S3Storage implements ObjectStorage {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  private readonly prefix: string;
  private readonly sts: StsClient | null;

  constructor(private readonly opts: S3StorageOptions) {
    this.client = new S3Client({
      region: opts.region,
      endpoint: opts.endpoint,
      forcePathStyle: opts.forcePathStyle ?? true,
      credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.prefix = (opts.prefix ?? '').replace(/^\/+/, '');
    this.sts = opts.sts
      ? new StsClient({
          endpoint: opts.sts.endpoint,
          region: opts.sts.region ?? opts.region,
          accessKeyId: opts.accessKeyId,
          secretAccessKey: opts.secretAccessKey,
          roleArn: opts.sts.roleArn,
        })
      : null;
  }

  /** STS credentials limited to `statements` (bucket keys relative to the storage prefix), or null without STS. */
  private async assume(
    resource: string,
    actions: string[],
    durationS: number,
    owner: string | number,
    listPrefix?: string,
  ): Promise<BucketCredentials | null> {
    if (!this.sts) return null;
    const bucketArn = `arn:aws:s3:::${this.opts.bucket}`;
    const statements: Parameters<typeof sessionPolicy>[0] = [
      { actions, resources: [`${bucketArn}/${resource}`] },
    ];
    if (listPrefix !== undefined) {
      statements.push({
        actions: ['s3:ListBucket'],
        resources: [bucketArn],
        condition: { StringLike: { 's3:prefix': [`${listPrefix}*`] } },
      });
    }
    const c = await this.sts.assumeRole({
      policy: sessionPolicy(statements),
      durationS,
      sessionName: `mocap-${String(owner).replace(/[^\w+=,.@-]/g, '')}`.slice(0, 64),
    });
    return {
      accessKeyId: c.accessKeyId,
      secretAccessKey: c.secretAccessKey,
      sessionToken: c.sessionToken,
      expiredTime: c.expiration,
      bucket: this.opts.bucket,
      region: this.opts.region,
      endpoint: this.opts.endpoint ?? '',
      resource,
    };
  }

  async readCredentials(
    prefix: string,
    durationS: number,
    owner: string | number,
  ): Promise<BucketCredentials | null> {
    const p = this.prefix + checkKey(prefix.replace(/\/+$/, '')) + '/';
    return this.assume(`${p}*`, ['s3:GetObject'], durationS, owner, p);
  }

  private k(key: string): string {
    return this.prefix + checkKey(key);
  }

  async put(
    key: string,
    body: Uint8Array | Readable | string,
    options: PutOptions = {},
  ): Promise<ObjectInfo> {
    const Key = this.k(key);
    if (typeof body === 'string' || body instanceof Uint8Array) {
      const bytes = Buffer.from(body);
      if (options.maxBytes !== undefined && bytes.length > options.maxBytes) {
        throw new StorageTooLargeError(key, options.maxBytes);
      }
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.opts.bucket,
          Key,
          Body: bytes,
          ContentLength: bytes.length,
          ContentType: options.contentType,
        }),
      );
      return { size: bytes.length, contentType: options.contentType };
    }
    const limiter = byteLimiter(options.maxBytes, () => new StorageTooLargeError(key, options.maxBytes!));
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.opts.bucket, Key, Body: limiter, ContentType: options.contentType },
      leavePartsOnError: false,
    });
    body.on('error', (e) => limiter.destroy(e));
    body.pipe(limiter);
    try {
      await upload.done();
    } catch (err) {
      await upload.abort().catch(() => {});
      // A single-part upload may have completed before the limiter failed: remove it.
      await this.client.send(new DeleteObjectCommand({ Bucket: this.opts.bucket, Key })).catch(() => {});
      throw limiter.errored ?? err;
    }
    return { size: limiter.bytes, contentType: options.contentType };
  }

  async putFile(key: string, path: string, options: PutOptions = {}): Promise<ObjectInfo> {
    const st = await stat(path);
    if (options.maxBytes !== undefined && st.size > options.maxBytes) {
      throw new StorageTooLargeError(key, options.maxBytes);
    }
    if (st.size <= 8 * 1024 * 1024) {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.opts.bucket,
          Key: this.k(key),
          Body: createReadStream(path),
          ContentLength: st.size,
          ContentType: options.contentType,
        }),
      );
      return { size: st.size, contentType: options.contentType };
    }
    return this.put(key, createReadStream(path), options);
  }

  async get(key: string, range?: { start: number; end: number }): Promise<Readable> {
    try {
      const r = await this.client.send(
        new GetObjectCommand({
          Bucket: this.opts.bucket,
          Key: this.k(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      if (!r.Body) throw new StorageNotFoundError(key);
      return r.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) throw new StorageNotFoundError(key);
      throw err;
    }
  }

  async getBytes(key: string): Promise<Buffer> {
    const s = await this.get(key);
    const chunks: Buffer[] = [];
    for await (const c of s) chunks.push(Buffer.from(c as Buffer));
    return Buffer.concat(chunks);
  }

  async download(key: string, path: string): Promise<void> {
    const s = await this.get(key);
    await mkdir(dirname(path), { recursive: true });
    await pipeline(s, createWriteStream(path));
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    try {
      const r = await this.client.send(new HeadObjectCommand({ Bucket: this.opts.bucket, Key: this.k(key) }));
      return { size: Number(r.ContentLength ?? 0), contentType: r.ContentType, modifiedAt: r.LastModified };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.opts.bucket, Key: this.k(key) }));
  }

  async deletePrefix(prefix: string): Promise<number> {
    const Prefix = `${this.k(prefix.replace(/\/+$/, ''))}/`;
    let n = 0;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.opts.bucket, Prefix, ContinuationToken: token }),
      );
      const keys = (page.Contents ?? []).map((c) => ({ Key: c.Key! }));
      if (keys.length > 0) {
        await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.opts.bucket, Delete: { Objects: keys, Quiet: true } }),
        );
        n += keys.length;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return n;
  }

  async signedUrl(key: string, options: SignedUrlOptions = {}): Promise<string> {
    const cmd = new GetObjectCommand({
      Bucket: this.opts.bucket,
      Key: this.k(key),
      ResponseContentDisposition: options.fileName
        ? `attachment; filename*=UTF-8''${encodeURIComponent(options.fileName)}`
        : undefined,
      ResponseContentType: options.contentType,
    });
    return getSignedUrl(this.client, cmd, { expiresIn: options.expiresInS ?? 300 });
  }

  async uploadCredentials(o: UploadGrantOptions): Promise<UploadCredentials> {
    const grant = newUploadGrant(this.opts.secret, o);
    const uploadUrl = await getSignedUrl(
      this.client,
      new PutObjectCommand({ Bucket: this.opts.bucket, Key: this.k(o.key), ContentType: grant.contentType }),
      { expiresIn: grant.expiresIn, signableHeaders: new Set(['content-type']) },
    );
    const sts = await this.assume(this.k(o.key), ['s3:PutObject'], grant.expiresIn, o.owner);
    return uploadCredentialsOf(grant, o, {
      bucket: this.opts.bucket,
      region: this.opts.region,
      uploadUrl,
      sts,
    });
  }

  verifyUploadGrant(sessionToken: string): UploadGrant {
    return verifyUploadGrant(this.opts.secret, sessionToken);
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
