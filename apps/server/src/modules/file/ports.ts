/**
 * Ports of the file slice (issue 25, spec §7 "Storage": POST /file/upload, POST file/write/ext, signed downloads
 * optionally converted to webp): the uploaded-file records and the image codec (sharp, in infra/media/images.ts).
 */

/** What a decodable image is, read from its content (never from its name). */
export interface ImageInfo {
  format: 'png' | 'jpeg' | 'gif' | 'webp';
  width: number;
  height: number;
}

export interface ImageCodec {
  /** The image's format and size, or null when the bytes are not a decodable PNG, JPEG, GIF or WebP. */
  probe(bytes: Uint8Array): Promise<ImageInfo | null>;
  /** The image as WebP (first frame of an animation), at most `maxSide` pixels on its longer side when given. */
  toWebp(bytes: Uint8Array, options?: { maxSide?: number; quality?: number }): Promise<Buffer>;
}

export type FileKind = 'image' | 'text';
export type FilePurpose = 'notice' | 'avatar' | 'picture' | 'qrcode' | 'text';

export interface UploadedFile {
  id: number;
  key: string;
  userId: number;
  kind: FileKind;
  purpose: FilePurpose;
  contentType: string;
  size: number;
  width: number | null;
  height: number | null;
  /** The name the client gave (display only; the key never uses it). */
  originalName: string;
  createdAt: number;
}

export interface UploadedFileRepo {
  create(f: Omit<UploadedFile, 'id'>): Promise<UploadedFile>;
  findByKey(key: string): Promise<UploadedFile | undefined>;
  /** Bytes the user stored since `since` (the daily quota). */
  bytesSince(userId: number, since: number): Promise<number>;
}
