/**
 * Local-disk object storage under a root folder (DATA_DIR/files by default). Objects are plain files at
 * `root/<key>`; writes go to `root/.tmp/<random>` first and are renamed into place, so a failed or oversized
 * upload leaves nothing behind. Signed URLs point at routes of this server (`/product/files?token=` to
 * download, `/product/cos/upload?token=` to upload) whose tokens carry an HMAC and an expiry
 * (`signing.ts`); `modules/cos` serves them.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { newUploadGrant, uploadCredentialsOf, verifyUploadGrant } from './grants.ts';
import { sign, verify } from './signing.ts';
import * as S from './types.ts';

export type DownloadTokenPayload = S.DownloadTokenPayload;

export interface LocalStorageOptions {
  root: string;
  /** HMAC secret for signed URLs and upload grants. */
  secret: string;
  /** Public base URL of the server (e.g. `http://localhost:8080`); empty → URLs are root-relative. */
  publicUrl?: string;
  /** API base path (default `/product`). */
  basePath?: string;
}

export const DOWNLOAD_PURPOSE = 'storage-download';
/** Signed download URLs remembered (see `signedUrl`). */
const URL_MEMO_MAX = 10_000;

/** Counts bytes and fails once `max` is exceeded. */
export function byteLimiter(max: number | undefined, onTooLarge: () => Error): Transform & { bytes: number } {
  let n = 0;
  const t = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      n += chunk.length;
      (t as Transform & { bytes: number }).bytes = n;
      if (max !== undefined && n > max) cb(onTooLarge());
      else cb(null, chunk);
    },
  }) as Transform & { bytes: number };
  t.bytes = 0;
  return t;
}

export class LocalStorage implements S.ObjectStorage {
  readonly kind = 'local' as const;
  private readonly tmp: string;
  private readonly base: string;
  private readonly urlMemo = new Map<string, string>();

  constructor(private readonly opts: LocalStorageOptions) {
    this.tmp = join(opts.root, '.tmp');
    this.base = `${(opts.publicUrl ?? '').replace(/\/+$/, '')}${opts.basePath ?? '/product'}`;
  }

  private path(key: string): string {
    return join(this.opts.root, S.checkKey(key));
  }

  async put(
    key: string,
    body: Uint8Array | Readable | string,
    options: S.PutOptions = {},
  ): Promise<S.ObjectInfo> {
    const source =
      typeof body === 'string' || body instanceof Uint8Array ? Readable.from([Buffer.from(body)]) : body;
    const limiter = byteLimiter(options.maxBytes, () => new S.StorageTooLargeError(key, options.maxBytes!));
    await this.writeAtomically(key, (tmp) => pipeline(source, limiter, createWriteStream(tmp)));
    return { size: limiter.bytes, contentType: options.contentType };
  }

  /** Writes `key` through a temp file (`write` fills it) renamed into place; the temp file goes on failure. */
  private async writeAtomically(key: string, write: (tmp: string) => Promise<void>): Promise<void> {
    const dest = this.path(key);
    await mkdir(this.tmp, { recursive: true });
    const tmp = join(this.tmp, randomUUID());
    try {
      await write(tmp);
      await mkdir(dirname(dest), { recursive: true });
      await rename(tmp, dest);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async putFile(key: string, path: string, options: S.PutOptions = {}): Promise<S.ObjectInfo> {
    const st = await stat(path);
    if (options.maxBytes !== undefined && st.size > options.maxBytes) {
      throw new S.StorageTooLargeError(key, options.maxBytes);
    }
    await this.writeAtomically(key, (tmp) => copyFile(path, tmp));
    return { size: st.size, contentType: options.contentType };
  }

  async get(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const p = this.path(key);
    try {
      const st = await stat(p);
      if (!st.isFile()) throw new S.StorageNotFoundError(key);
    } catch (err) {
      if (err instanceof S.StorageNotFoundError) throw err;
      throw new S.StorageNotFoundError(key);
    }
    return createReadStream(p, range ? { start: range.start, end: range.end } : undefined);
  }

  async getBytes(key: string): Promise<Buffer> {
    try {
      return await readFile(this.path(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new S.StorageNotFoundError(key);
      throw err;
    }
  }

  async download(key: string, path: string): Promise<void> {
    const src = await this.get(key);
    await mkdir(dirname(path), { recursive: true });
    await pipeline(src, createWriteStream(path));
  }

  async stat(key: string): Promise<S.ObjectInfo | null> {
    try {
      const st = await stat(this.path(key));
      return st.isFile() ? { size: st.size, modifiedAt: st.mtime } : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(this.path(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }

  async deletePrefix(prefix: string): Promise<number> {
    const dir = this.path(prefix.replace(/\/+$/, ''));
    let n = 0;
    const walk = async (d: string): Promise<void> => {
      let entries: import('node:fs').Dirent[];
      try {
        entries = await readdir(d, { withFileTypes: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw err;
      }
      for (const e of entries) {
        if (e.isDirectory()) await walk(join(d, e.name));
        else n++;
      }
    };
    await walk(dir);
    await rm(dir, { recursive: true, force: true });
    return n;
  }

  /**
   * A token carries `exp` rounded up to a step of a tenth of the lifetime (1..60 s), so the URL stays valid at
   * least `expiresInS` and at most one step longer, and the same (key, name, type) asked again within a step gets
   * the same URL from a memo instead of a new HMAC: a page of 20 projects signs 20-40 URLs per request.
   */
  async signedUrl(key: string, options: S.SignedUrlOptions = {}): Promise<string> {
    const ttl = options.expiresInS ?? 300;
    const step = Math.max(1, Math.min(60, Math.floor(ttl / 10)));
    const exp = Math.ceil((Math.floor(Date.now() / 1000) + ttl) / step) * step;
    const fn = options.fileName || '';
    // Length-prefixed parts: no two (key, name, type) share a memo key whatever characters they hold.
    const memoKey = `${exp}:${key.length}:${key}${fn.length}:${fn}${options.contentType || ''}`;
    const hit = this.urlMemo.get(memoKey);
    if (hit !== undefined) return hit;
    S.checkKey(key);
    const payload: S.DownloadTokenPayload = { k: key, exp };
    if (options.fileName) payload.fn = options.fileName;
    if (options.contentType) payload.ct = options.contentType;
    const url = `${this.base}/files?token=${sign(this.opts.secret, DOWNLOAD_PURPOSE, { ...payload })}`;
    // Oldest first out: entries of past steps are never asked for again.
    if (this.urlMemo.size >= URL_MEMO_MAX) this.urlMemo.delete(this.urlMemo.keys().next().value as string);
    this.urlMemo.set(memoKey, url);
    return url;
  }

  /** Checks a download token from `signedUrl` (throws `TokenError`). */
  verifyDownloadToken(token: string): S.DownloadTokenPayload {
    const p = verify<S.DownloadTokenPayload>(this.opts.secret, DOWNLOAD_PURPOSE, token);
    S.checkKey(p.k);
    return p;
  }

  async uploadCredentials(o: S.UploadGrantOptions): Promise<S.UploadCredentials> {
    S.checkKey(o.key);
    const grant = newUploadGrant(this.opts.secret, o);
    return uploadCredentialsOf(grant, o, {
      bucket: 'local',
      region: 'local',
      uploadUrl: `${this.base}/cos/upload?token=${grant.token}`,
    });
  }

  verifyUploadGrant(sessionToken: string): S.UploadGrant {
    return verifyUploadGrant(this.opts.secret, sessionToken);
  }

  async close(): Promise<void> {}
}
