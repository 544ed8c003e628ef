/**
 * Object storage: one interface, two implementations chosen by config — local disk under DATA_DIR
 * (`local.ts`) and S3-compatible (`s3.ts`). Keys are `/`-separated relative paths of safe characters
 * (`[A-Za-z0-9._-]` per segment, no `..`), e.g. `videos/42/source.mp4`.
 *
 * Writes are all-or-nothing: an interrupted or rejected `put` leaves no object behind (local: temp file +
 * rename; S3: single PUT or multipart upload aborted on error).
 */
import type { Readable } from 'node:stream';

export interface PutOptions {
  contentType?: string;
  /** Reject (and store nothing) when the body is larger than this many bytes. */
  maxBytes?: number;
}

export interface ObjectInfo {
  size: number;
  contentType?: string;
  modifiedAt?: Date;
}

export interface SignedUrlOptions {
  /** Lifetime of the URL in seconds (default 300). */
  expiresInS?: number;
  /** File name offered to the browser (`Content-Disposition: attachment`). */
  fileName?: string;
  contentType?: string;
}

/**
 * Temporary upload credentials, shaped as spec §3 "Cloud credentials" (credentials {tmpSecretId,
 * tmpSecretKey, sessionToken}, startTime, expiredTime — unix seconds) plus what a client needs to upload
 * one object directly: the object key and a URL to PUT the bytes to (with the headers to send).
 *
 * `sessionToken` is a server-signed upload grant (key, owner, limits, expiry); the client hands it back to
 * the confirm call, which is how the server knows the key was granted to that user. `tmpSecretId` is the
 * grant's id; `tmpSecretKey` is unused by both implementations (the URL is pre-signed) and is a random value,
 * never a real storage secret.
 */
export interface UploadCredentials {
  credentials: { tmpSecretId: string; tmpSecretKey: string; sessionToken: string };
  startTime: number;
  expiredTime: number;
  key: string;
  bucket: string;
  region: string;
  uploadUrl: string;
  method: 'PUT';
  headers: Record<string, string>;
  maxBytes: number;
}

export interface UploadGrantOptions {
  key: string;
  /** Owner of the grant (a user id), bound into the session token. */
  owner: string | number;
  maxBytes: number;
  contentType?: string;
  /** Lifetime in seconds (default 1800, the spec's cloud-auth reuse time). */
  expiresInS?: number;
}

export interface ObjectStorage {
  readonly kind: 'local' | 's3';
  /** Stores bytes or a stream under `key` (replacing any object there). Returns the stored size. */
  put(key: string, body: Uint8Array | Readable | string, options?: PutOptions): Promise<ObjectInfo>;
  /** Stores a local file. */
  putFile(key: string, path: string, options?: PutOptions): Promise<ObjectInfo>;
  /**
   * A stream of the object (or of bytes `start..end` inclusive, for HTTP Range requests); throws
   * `StorageNotFoundError` when absent.
   */
  get(key: string, range?: { start: number; end: number }): Promise<Readable>;
  getBytes(key: string): Promise<Buffer>;
  /** Copies the object to a local file (creating folders). */
  download(key: string, path: string): Promise<void>;
  stat(key: string): Promise<ObjectInfo | null>;
  exists(key: string): Promise<boolean>;
  /** Deletes one object; absent keys are fine. */
  delete(key: string): Promise<void>;
  /** Deletes every object whose key starts with `prefix/`. */
  deletePrefix(prefix: string): Promise<number>;
  /** An expiring URL that downloads the object without other credentials. */
  signedUrl(key: string, options?: SignedUrlOptions): Promise<string>;
  /** Temporary credentials to upload one object directly (see `UploadCredentials`). */
  uploadCredentials(options: UploadGrantOptions): Promise<UploadCredentials>;
  /** Checks a session token from `uploadCredentials`; returns its grant or throws `StorageGrantError`. */
  verifyUploadGrant(sessionToken: string): UploadGrant;
  close(): Promise<void>;
}

export interface UploadGrant {
  id: string;
  key: string;
  owner: string;
  maxBytes: number;
  contentType?: string;
  expiresAt: number;
}

export class StorageNotFoundError extends Error {
  override readonly name = 'StorageNotFoundError';
  constructor(readonly key: string) {
    super(`no stored object "${key}"`);
  }
}

export class StorageTooLargeError extends Error {
  override readonly name = 'StorageTooLargeError';
  constructor(
    readonly key: string,
    readonly maxBytes: number,
  ) {
    super(`object "${key}" is larger than ${maxBytes} bytes`);
  }
}

export class StorageGrantError extends Error {
  override readonly name = 'StorageGrantError';
}

const SEGMENT = /^[A-Za-z0-9._-]+$/;

/** Throws unless `key` is a safe relative key (no `..`, no empty or odd segments). */
export function checkKey(key: string): string {
  if (typeof key !== 'string' || key.length === 0 || key.length > 512) throw new Error(`bad storage key`);
  const parts = key.split('/');
  for (const p of parts) {
    if (!SEGMENT.test(p) || p === '.' || p === '..') throw new Error(`bad storage key "${key}"`);
  }
  return key;
}
