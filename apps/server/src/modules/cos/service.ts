/**
 * Storage seen by the API: read credentials for a user's own prefix, and — for local-disk storage — the two
 * targets its signed tokens point at (a size-limited direct upload, a signed expiring download). With S3 the
 * clients talk to the bucket through pre-signed URLs and those targets answer 404; a read token of
 * /cos/sts/download is exchanged for a pre-signed URL of the object asked for (see `readUrl`).
 */
import type { Readable } from 'node:stream';
import { AppError, Codes } from '../../errors.ts';
import {
  type BucketCredentials,
  type ObjectInfo,
  type ObjectStorage,
  type SignedTokens,
  StorageGrantError,
  StorageNotFoundError,
  StorageTooLargeError,
} from '../../ports.ts';
import { UploadMessages } from '../video/limits.ts';

const READ_PURPOSE = 'storage-read';
const READ_TTL_S = 300;
/**
 * Lifetime of the STS credentials of /cos/sts/download: longer than the web's cloud-auth reuse (1800000 ms,
 * spec §4) so that reused credentials are still valid; STS itself allows 900 s to 12 h.
 */
export const READ_STS_TTL_S = 3600;

export interface ReadCredentials {
  credentials: { tmpSecretId: string; tmpSecretKey: string; sessionToken: string };
  startTime: number;
  expiredTime: number;
  prefix: string;
  /** Where files live: the API serves them (`local`) or an S3 bucket does. */
  storage: 'local' | 's3';
  /** Real temporary S3 credentials for the prefix (STS), or null where the store offers none. */
  sts: BucketCredentials | null;
}

export class FileService {
  constructor(
    private readonly storage: ObjectStorage,
    private readonly tokens: SignedTokens,
  ) {}

  /** Whether the API itself serves uploads and downloads (local disk) rather than the bucket (S3). */
  get servesFiles(): boolean {
    return this.storage.kind === 'local';
  }

  private requireLocal(): void {
    if (!this.servesFiles) throw new AppError(Codes.NOT_FOUND);
  }

  /**
   * Read credentials for the user's own prefix: a signed read token (300 s) for GET /cos/object, and — on S3 with
   * an STS service — real temporary credentials whose session policy allows GetObject (and listing) under the
   * prefix only, for `READ_STS_TTL_S`.
   */
  async readCredentials(userId: number): Promise<ReadCredentials> {
    const now = Math.floor(Date.now() / 1000);
    const prefix = `videos/u${userId}/`;
    const sts = (await this.storage.readCredentials?.(prefix, READ_STS_TTL_S, userId)) ?? null;
    const token = this.tokens.sign(READ_PURPOSE, { p: prefix, u: userId, exp: now + READ_TTL_S });
    return {
      credentials: {
        tmpSecretId: `read-${userId}`,
        tmpSecretKey: token.split('.')[1]!.slice(0, 16),
        sessionToken: token,
      },
      startTime: now,
      expiredTime: now + READ_TTL_S,
      prefix,
      storage: this.storage.kind,
      sts,
    };
  }

  /** Stores a direct upload under its grant's key, within its size limit (local storage). */
  async receiveUpload(token: string, body: Readable | undefined): Promise<{ key: string; size: number }> {
    this.requireLocal();
    let grant: ReturnType<ObjectStorage['verifyUploadGrant']>;
    try {
      grant = this.storage.verifyUploadGrant(token);
    } catch (err) {
      if (err instanceof StorageGrantError)
        throw new AppError(Codes.AUTH_FAILED, `upload refused: ${err.message}`);
      throw err;
    }
    if (!body)
      throw new AppError(
        Codes.PARAMETER_ERROR,
        'send the file bytes as video/mp4 or application/octet-stream',
      );
    try {
      const info = await this.storage.put(grant.key, body, {
        maxBytes: grant.maxBytes,
        contentType: grant.contentType,
      });
      return { key: grant.key, size: info.size };
    } catch (err) {
      if (err instanceof StorageTooLargeError) {
        throw new AppError(Codes.REFUSED, UploadMessages.tooLarge(Math.round(grant.maxBytes / 1024 / 1024)));
      }
      throw err;
    }
  }

  /** The object a signed download token names (local storage), with its file name and type. */
  downloadTarget(token: string): { key: string; fileName?: string; contentType?: string } {
    this.requireLocal();
    try {
      const p = this.storage.verifyDownloadToken!(token);
      return { key: p.k, fileName: p.fn, contentType: p.ct };
    } catch (err) {
      throw new AppError(Codes.AUTH_FAILED, `download refused: ${(err as Error).message}`);
    }
  }

  /**
   * Checks a read token of /cos/sts/download against the key asked for. Local storage: the key, which the API
   * serves. S3: the object is served by the bucket through a pre-signed GET URL (`readUrl`).
   */
  readTarget(key: string, token: string): string {
    let p: { p: string; exp: number };
    try {
      p = this.tokens.verify<{ p: string; exp: number }>(READ_PURPOSE, token);
    } catch (err) {
      throw new AppError(Codes.AUTH_FAILED, `read refused: ${(err as Error).message}`);
    }
    if (!key.startsWith(p.p) || key.includes('..')) throw new AppError(Codes.INSUFFICIENT_PERMISSION);
    return key;
  }

  /**
   * S3: where a read token of /cos/sts/download leads — a pre-signed GET URL of the object, valid as long as the
   * token still is (at most 300 s). This works on every S3-compatible store; real temporary S3 credentials (the
   * `sts` part of /cos/sts/download) exist only where an STS service is configured (S3_STS_ENDPOINT: MinIO's
   * AssumeRole, AWS STS), which plain S3 endpoints (and the test server, s3rver) do not offer.
   */
  async readUrl(key: string, token: string): Promise<string> {
    const target = this.readTarget(key, token);
    const p = this.tokens.verify<{ exp: number }>(READ_PURPOSE, token);
    const left = Math.max(1, Math.min(READ_TTL_S, p.exp - Math.floor(Date.now() / 1000)));
    if (!(await this.storage.exists(target))) throw new AppError(Codes.NOT_FOUND, 'file not found');
    return this.storage.signedUrl(target, { expiresInS: left });
  }

  stat(key: string): Promise<ObjectInfo | null> {
    return this.storage.stat(key);
  }

  /** The object's bytes (or one range of them); 404 in the envelope when it is gone. */
  async open(key: string, range?: { start: number; end: number }): Promise<Readable> {
    return this.storage.get(key, range).catch((err) => {
      if (err instanceof StorageNotFoundError) throw new AppError(Codes.NOT_FOUND, 'file not found');
      throw err;
    });
  }
}
