/**
 * General file uploads and signed downloads (issue 25, spec §7 "Storage"):
 *
 * - `upload`: one image (PNG, JPEG, GIF, WebP — notice images, avatars, pictures, QR codes) or one text file
 *   (txt, json, csv, md, srt), checked by content — images must decode (sharp), text must be UTF-8 without
 *   control bytes and a .json must parse —, size-limited, and stored under the spec's key scheme: a random id plus
 *   the extension of what the content is, under `uploadZM/`. SVG is refused: it is a document that can carry
 *   script, not a picture.
 * - `writeText` (POST file/write/ext): the same for text the client sends as a string with its extension.
 * - `signedUrl`: an expiring URL of a stored object the caller may read, optionally converted to WebP (with an
 *   optional longest side); conversions are kept in storage under `webp/` and named after the original's size and
 *   time, so a replaced original gets a fresh conversion and an unchanged one is converted once.
 *
 * Who may read what: administrators anything; everyone logged in the shared uploads (`uploadZM/`, notice images
 * and QR codes are shown to all); a user his own prefixes (`videos|music|tomokage/u<id>/`). Uploads are limited to
 * 60 an hour and 200 MB a day per account.
 */
import { createHash, randomUUID } from 'node:crypto';
import { AppError, Codes } from '../../errors.ts';
import type { Clock, ObjectStorage, RateLimiter, UserRecord } from '../../ports.ts';
import { isAdmin } from '../auth/service.ts';
import type {
  FileKind,
  FilePurpose,
  ImageCodec,
  ImageInfo,
  UploadedFile,
  UploadedFileRepo,
} from './ports.ts';

export const FILE_PREFIX = 'uploadZM/';
export const TEXT_EXTENSIONS = ['txt', 'json', 'csv', 'md', 'srt'] as const;
export type TextExtension = (typeof TEXT_EXTENSIONS)[number];
const TEXT_TYPES: Record<TextExtension, string> = {
  txt: 'text/plain; charset=utf-8',
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  srt: 'application/x-subrip; charset=utf-8',
};
const IMAGE_TYPES: Record<ImageInfo['format'], { ext: string; type: string }> = {
  png: { ext: 'png', type: 'image/png' },
  jpeg: { ext: 'jpg', type: 'image/jpeg' },
  gif: { ext: 'gif', type: 'image/gif' },
  webp: { ext: 'webp', type: 'image/webp' },
};

export const FILE_LIMITS = {
  /** Largest image, in MB (avatars: `avatarMB`). */
  imageMB: 10,
  avatarMB: 2,
  textMB: 1,
  /** Longest side of an image, in pixels. */
  maxSide: 8192,
  perHour: 60,
  dailyMB: 200,
  /** Lifetime of the signed URLs, in seconds. */
  urlTtlS: 3600,
} as const;

/** Spec §5's wrong-format message, for any file that is not an accepted image or text. */
export const WRONG_FORMAT = '文件格式错误,请重新选择!';
export const tooLarge = (mb: number) => `文件上传大小不能大于${mb}M`;

/** Purposes whose files every user sees: only administrators upload them. */
const ADMIN_PURPOSES: ReadonlySet<FilePurpose> = new Set(['notice', 'qrcode']);
const OWN_PREFIX = /^(videos|music|tomokage)\/u(\d+)\//;
const SAFE_KEY = /^[A-Za-z0-9_\-./]+$/;
const MB = 1024 * 1024;

/** A file as the API answers it: the stored record without its owner, with a signed URL and the client's name. */
export type FileView = Omit<UploadedFile, 'userId' | 'originalName'> & { url: string; name: string };

export interface SignedFile {
  key: string;
  url: string;
  contentType: string;
  /** True when a stored WebP conversion was reused (false: converted now, or no conversion asked). */
  cached: boolean;
  expiresAt: number;
}

export interface FileDeps {
  repo: UploadedFileRepo;
  storage: ObjectStorage;
  codec: ImageCodec;
  limiter: RateLimiter;
  clock: Clock;
  /**
   * Whether a console user (not the super-administrator) may upload pictures of an administrators' purpose: the
   * write access of the console page they are for (notice → the notices', qrcode → the community panel's).
   */
  mayUploadFor?(user: UserRecord, purpose: FilePurpose): Promise<boolean>;
}

/** Whether the bytes start like one of the accepted image formats (the decoder then has the last word). */
export function sniffImage(b: Uint8Array): boolean {
  const at = (i: number, s: string) => [...s].every((c, j) => b[i + j] === c.charCodeAt(0));
  return (
    (b[0] === 0x89 && at(1, 'PNG')) ||
    (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) ||
    at(0, 'GIF87a') ||
    at(0, 'GIF89a') ||
    (at(0, 'RIFF') && at(8, 'WEBP'))
  );
}

/** The text of UTF-8 bytes without control characters other than tab, newline and carriage return, or null. */
export function readText(b: Uint8Array): string | null {
  let s: string;
  try {
    s = new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    return null;
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control bytes is the point.
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s) ? null : s;
}

const extOf = (name: string): string => {
  const m = /\.([A-Za-z0-9]{1,8})$/.exec(name.trim());
  return m ? m[1]!.toLowerCase() : '';
};

/** The content type of a stored object by its extension (local storage keeps none). */
export function typeByExtension(key: string): string {
  const ext = extOf(key);
  if (ext === 'jpg' || ext === 'jpeg') return 'image/jpeg';
  if (ext === 'png' || ext === 'gif' || ext === 'webp') return `image/${ext}`;
  if ((TEXT_EXTENSIONS as readonly string[]).includes(ext)) return TEXT_TYPES[ext as TextExtension];
  if (ext === 'mp4') return 'video/mp4';
  if (ext === 'zip') return 'application/zip';
  return 'application/octet-stream';
}

export class FileUploadService {
  private readonly converting = new Map<string, Promise<void>>();
  constructor(private readonly deps: FileDeps) {}

  /** POST /file/upload: one image or text file, checked by its content. */
  async upload(
    user: UserRecord,
    input: { fileName: string; bytes: Uint8Array; purpose?: FilePurpose | undefined; truncated?: boolean },
  ): Promise<FileView> {
    if (input.bytes.length === 0 && !input.truncated)
      throw new AppError(Codes.PARAMETER_ERROR, 'the file is empty');
    const purpose = input.purpose ?? 'picture';
    if (sniffImage(input.bytes)) {
      if (purpose === 'text') throw new AppError(Codes.REFUSED, WRONG_FORMAT);
      const limitMB = purpose === 'avatar' ? FILE_LIMITS.avatarMB : FILE_LIMITS.imageMB;
      if (input.truncated || input.bytes.length > limitMB * MB)
        throw new AppError(Codes.REFUSED, tooLarge(limitMB));
      await this.admit(user, purpose, input.bytes.length);
      const info = await this.deps.codec.probe(input.bytes);
      if (!info) throw new AppError(Codes.REFUSED, WRONG_FORMAT);
      if (info.width > FILE_LIMITS.maxSide || info.height > FILE_LIMITS.maxSide)
        throw new AppError(
          Codes.REFUSED,
          `image is ${info.width}x${info.height}: at most ${FILE_LIMITS.maxSide} pixels a side`,
        );
      const t = IMAGE_TYPES[info.format];
      return this.store(user, {
        bytes: input.bytes,
        ext: t.ext,
        kind: 'image',
        purpose,
        contentType: t.type,
        width: info.width,
        height: info.height,
        originalName: input.fileName,
      });
    }
    const ext = extOf(input.fileName);
    if (!(TEXT_EXTENSIONS as readonly string[]).includes(ext))
      throw new AppError(Codes.REFUSED, WRONG_FORMAT);
    return this.storeText(user, input.bytes, ext as TextExtension, input.fileName, input.truncated);
  }

  /** POST file/write/ext: text sent as a string, stored as a file with the given extension. */
  async writeText(
    user: UserRecord,
    input: { content: string; ext: string; name?: string },
  ): Promise<FileView> {
    const ext = input.ext.replace(/^\./, '').toLowerCase();
    if (!(TEXT_EXTENSIONS as readonly string[]).includes(ext))
      throw new AppError(Codes.REFUSED, WRONG_FORMAT);
    const bytes = new TextEncoder().encode(input.content);
    if (bytes.length === 0) throw new AppError(Codes.PARAMETER_ERROR, 'the content is empty');
    return this.storeText(user, bytes, ext as TextExtension, input.name ?? `text.${ext}`);
  }

  private async storeText(
    user: UserRecord,
    bytes: Uint8Array,
    ext: TextExtension,
    originalName: string,
    truncated = false,
  ): Promise<FileView> {
    if (truncated || bytes.length > FILE_LIMITS.textMB * MB)
      throw new AppError(Codes.REFUSED, tooLarge(FILE_LIMITS.textMB));
    const text = readText(bytes);
    if (text === null) throw new AppError(Codes.REFUSED, WRONG_FORMAT);
    if (ext === 'json') {
      try {
        JSON.parse(text);
      } catch (err) {
        throw new AppError(Codes.REFUSED, `not valid JSON: ${(err as Error).message}`);
      }
    }
    await this.admit(user, 'text', bytes.length);
    return this.store(user, {
      bytes,
      ext,
      kind: 'text',
      purpose: 'text',
      contentType: TEXT_TYPES[ext],
      width: null,
      height: null,
      originalName,
    });
  }

  /** Purpose allowed, hourly count and daily bytes within the limits. */
  private async admit(user: UserRecord, purpose: FilePurpose, size: number): Promise<void> {
    if (ADMIN_PURPOSES.has(purpose) && !isAdmin(user) && !(await this.deps.mayUploadFor?.(user, purpose)))
      throw new AppError(Codes.INSUFFICIENT_PERMISSION, `only administrators upload ${purpose} images`);
    const hit = await this.deps.limiter.hit(`file-upload:${user.id}`, FILE_LIMITS.perHour, 3_600_000);
    if (!hit.allowed)
      throw new AppError(
        Codes.TOO_MANY_REQUESTS,
        `too many uploads: try again in ${Math.ceil(hit.retryAfterMs / 60_000)} min`,
      );
    const now = this.deps.clock.now();
    const used = await this.deps.repo.bytesSince(user.id, now - 86_400_000);
    if (used + size > FILE_LIMITS.dailyMB * MB)
      throw new AppError(Codes.REFUSED, `daily upload allowance of ${FILE_LIMITS.dailyMB}M used up`);
  }

  private async store(
    user: UserRecord,
    f: {
      bytes: Uint8Array;
      ext: string;
      kind: FileKind;
      purpose: FilePurpose;
      contentType: string;
      width: number | null;
      height: number | null;
      originalName: string;
    },
  ): Promise<FileView> {
    const key = `${FILE_PREFIX}${randomUUID().replace(/-/g, '')}.${f.ext}`;
    await this.deps.storage.put(key, f.bytes, { contentType: f.contentType });
    const rec = await this.deps.repo.create({
      key,
      userId: user.id,
      kind: f.kind,
      purpose: f.purpose,
      contentType: f.contentType,
      size: f.bytes.length,
      width: f.width,
      height: f.height,
      originalName: f.originalName.slice(0, 255),
      createdAt: this.deps.clock.now(),
    });
    return this.view(rec);
  }

  async view(f: UploadedFile): Promise<FileView> {
    return {
      id: f.id,
      key: f.key,
      url: await this.deps.storage.signedUrl(f.key, {
        expiresInS: FILE_LIMITS.urlTtlS,
        contentType: f.contentType,
      }),
      kind: f.kind,
      purpose: f.purpose,
      contentType: f.contentType,
      size: f.size,
      width: f.width,
      height: f.height,
      name: f.originalName,
      createdAt: f.createdAt,
    };
  }

  /** Whether `user` may read the object `key`. */
  mayRead(user: UserRecord, key: string): boolean {
    if (!SAFE_KEY.test(key) || key.includes('..') || key.startsWith('/')) return false;
    if (isAdmin(user) || key.startsWith(FILE_PREFIX)) return true;
    const m = OWN_PREFIX.exec(key);
    return !!m && Number(m[2]) === user.id;
  }

  /** A signed, expiring URL of `key`; with `format: 'webp'` an image is served converted (and kept converted). */
  async signedUrl(
    user: UserRecord,
    input: { key: string; format?: 'original' | 'webp' | undefined; maxSide?: number | undefined },
  ): Promise<SignedFile> {
    const key = input.key.replace(/^\/+/, '');
    if (!this.mayRead(user, key)) throw new AppError(Codes.INSUFFICIENT_PERMISSION);
    return this.sign(key, input.format, input.maxSide);
  }

  /** A signed URL of a shared upload (uploadZM/: notice images, QR pictures), for pages anyone may see. */
  async sharedUrl(key: string, options: { format?: 'original' | 'webp'; maxSide?: number } = {}) {
    if (!key.startsWith(FILE_PREFIX) || !SAFE_KEY.test(key) || key.includes('..'))
      throw new AppError(Codes.INSUFFICIENT_PERMISSION);
    return this.sign(key, options.format, options.maxSide);
  }

  async exists(key: string): Promise<boolean> {
    return (await this.deps.repo.findByKey(key)) !== undefined && (await this.deps.storage.exists(key));
  }

  private async sign(key: string, format: 'original' | 'webp' | undefined, maxSide: number | undefined) {
    const input = { format, maxSide };
    const st = await this.deps.storage.stat(key);
    if (!st) throw new AppError(Codes.NOT_FOUND, 'file not found');
    const expiresAt = Math.floor(this.deps.clock.now() / 1000) + FILE_LIMITS.urlTtlS;
    const type = st.contentType ?? typeByExtension(key);
    const isImage = /^image\/(png|jpeg|gif|webp)$/.test(type);
    if (input.format !== 'webp') {
      const url = await this.deps.storage.signedUrl(key, {
        expiresInS: FILE_LIMITS.urlTtlS,
        contentType: type,
      });
      return { key, url, contentType: type, cached: false, expiresAt };
    }
    if (!isImage) throw new AppError(Codes.REFUSED, 'only images convert to webp');
    const tag = createHash('sha1')
      .update(`${st.size}:${st.modifiedAt?.getTime() ?? 0}:${input.maxSide ?? 0}`)
      .digest('hex')
      .slice(0, 12);
    const webpKey = `webp/${key}.${tag}.webp`;
    let cached = true;
    if (!(await this.deps.storage.exists(webpKey))) {
      cached = false;
      let job = this.converting.get(webpKey);
      if (!job) {
        job = (async () => {
          const bytes = await this.deps.storage.getBytes(key);
          let out: Buffer;
          try {
            out = await this.deps.codec.toWebp(bytes, input.maxSide ? { maxSide: input.maxSide } : {});
          } catch {
            throw new AppError(Codes.REFUSED, 'the image could not be converted');
          }
          await this.deps.storage.put(webpKey, out, { contentType: 'image/webp' });
        })().finally(() => this.converting.delete(webpKey));
        this.converting.set(webpKey, job);
      }
      await job;
    }
    const url = await this.deps.storage.signedUrl(webpKey, {
      expiresInS: FILE_LIMITS.urlTtlS,
      contentType: 'image/webp',
    });
    return { key: webpKey, url, contentType: 'image/webp', cached, expiresAt };
  }
}
