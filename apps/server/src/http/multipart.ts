/**
 * The one multipart loop of the upload routes (videos, music, digital humans): one file part (a second is
 * refused), every text field collected, the size limit of the caller's plan, and one error path — too many
 * files or too large answer 307 with the slice's own words, too many fields or a malformed body 301, a missing
 * file 301. A file that was (partly) stored is removed again when the upload is refused.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError, Codes } from '../errors.ts';

/** Where the file part goes: `stored` is what the route gets; `truncated`: it passed the size limit. */
export interface FileSink<T> {
  store(part: MultipartFile): Promise<{ stored: T; truncated: boolean }>;
  /** Removes what `store` left behind (a refused upload). */
  discard(stored: T): Promise<void>;
}

/** Streams the file to a new temp file under `dir` (`<prefix>-<time>-<random>.bin`). */
export const toTempFile = (
  dir: string,
  prefix: string,
  defaultName: string,
): FileSink<{ path: string; fileName: string }> => ({
  async store(part) {
    await mkdir(dir, { recursive: true });
    const path = join(dir, `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2)}.bin`);
    const stored = { path, fileName: part.filename || defaultName };
    try {
      await pipeline(part.file, createWriteStream(path));
    } catch (err) {
      await rm(path, { force: true });
      throw err;
    }
    return { stored, truncated: part.file.truncated };
  },
  discard: (f) => rm(f.path, { force: true }),
});

/** Reads the file into memory (over the limit the parser throws, answered as too large). */
export const toMemory = (defaultName: string): FileSink<{ bytes: Uint8Array; fileName: string }> => ({
  async store(part) {
    const b = await part.toBuffer();
    const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    return { stored: { bytes, fileName: part.filename || defaultName }, truncated: part.file.truncated };
  },
  discard: async () => {},
});

export interface UploadRules<T> {
  maxBytes: number;
  sink: FileSink<T>;
  /** 307 when a second file is sent. */
  oneFile: string;
  /** 307 when the file is over `maxBytes` (the plan's limit in the caller's words). */
  tooLarge: () => string;
  /** 301 when no file part came. */
  missing: string;
}

/** The file and the text fields (each field's values in order) of a multipart upload. */
export async function readUpload<T>(
  req: FastifyRequest,
  rules: UploadRules<T>,
): Promise<{ file: T; fields: Record<string, string[]> }> {
  if (!req.isMultipart()) throw new AppError(Codes.PARAMETER_ERROR, 'send multipart/form-data with a file');
  const fields: Record<string, string[]> = {};
  let file: T | undefined;
  let tooLarge = false;
  let extra = false;
  try {
    for await (const part of req.parts({ limits: { fileSize: Math.max(1, rules.maxBytes), files: 1 } })) {
      if (part.type === 'file') {
        if (file !== undefined) {
          extra = true;
          part.file.resume();
          continue;
        }
        const r = await rules.sink.store(part);
        file = r.stored;
        if (r.truncated) tooLarge = true;
      } else {
        const v = typeof part.value === 'string' ? part.value : String(part.value ?? '');
        fields[part.fieldname] = [...(fields[part.fieldname] ?? []), v];
      }
    }
  } catch (err) {
    if (file !== undefined) await rules.sink.discard(file);
    const code = (err as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw new AppError(Codes.REFUSED, rules.oneFile);
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(Codes.REFUSED, rules.tooLarge());
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw new AppError(Codes.PARAMETER_ERROR, 'too many form fields');
    }
    // Anything else the parser throws is bad input (issue 13.8); file-system errors stay server errors.
    if (err instanceof AppError || (err as NodeJS.ErrnoException).syscall) throw err;
    throw new AppError(
      Codes.PARAMETER_ERROR,
      `malformed multipart/form-data: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  if (extra || tooLarge) {
    if (file !== undefined) await rules.sink.discard(file);
    throw new AppError(Codes.REFUSED, extra ? rules.oneFile : rules.tooLarge());
  }
  if (file === undefined) throw new AppError(Codes.PARAMETER_ERROR, rules.missing);
  return { file, fields };
}
