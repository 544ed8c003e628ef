import path from 'node:path';

/** Why a video could not be read. */
export type VideoErrorCode =
  | 'not_found'
  | 'empty_file'
  | 'not_a_video'
  | 'no_video_stream'
  | 'decode_failed'
  | 'timeout';

export const VIDEO_ERROR_CODES: readonly VideoErrorCode[] = [
  'not_found',
  'empty_file',
  'not_a_video',
  'no_video_stream',
  'decode_failed',
  'timeout',
];

function describe(code: VideoErrorCode, file: string, detail: string | undefined): string {
  const why = detail ? ` (${detail})` : '';
  switch (code) {
    case 'not_found':
      return `Video file "${file}" was not found${why}.`;
    case 'empty_file':
      return `"${file}" is empty (0 bytes), so it contains no video.`;
    case 'not_a_video':
      return `"${file}" is not a video file that can be read${why}.`;
    case 'no_video_stream':
      return `"${file}" contains no video stream${why}.`;
    case 'decode_failed':
      return `No frame of "${file}" could be decoded${why}.`;
    case 'timeout':
      return `Reading "${file}" took too long and was stopped${why}.`;
  }
}

/**
 * A video input problem the user can act on. `message` names the file (base name only, no directories)
 * and says what is wrong; `code` is stable for programs; `detail` is the underlying reason, when known
 * (e.g. ffprobe's own message).
 */
export class VideoError extends Error {
  override readonly name = 'VideoError';
  readonly code: VideoErrorCode;
  /** Base name of the file. */
  readonly file: string;
  readonly detail: string | undefined;

  constructor(code: VideoErrorCode, filePath: string, detail?: string, options?: { cause?: unknown }) {
    const file = path.basename(filePath);
    super(describe(code, file, detail), options);
    this.code = code;
    this.file = file;
    this.detail = detail;
  }
}

/** True when `err` is a VideoError (with the given code, when one is passed). */
export function isVideoError(err: unknown, code?: VideoErrorCode): err is VideoError {
  return err instanceof VideoError && (code === undefined || err.code === code);
}
