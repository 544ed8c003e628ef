/**
 * The response envelope `{code, message, data}` and what the app does with each code (spec §8).
 * Pure: decides, does not act — `api.ts` performs the logout / message the outcome asks for. The codes are the
 * contract's (`@mocap/contracts`, the server's catalogue).
 */
import { Codes } from '@mocap/contracts';

export interface Envelope<T = unknown> {
  code?: number | string | null;
  message?: string | null;
  data?: T;
}

/** Calls that handle code 300 themselves (spec §8: motion download, video upload, regen fbxs). */
export type QuietKind = 'motionDownload' | 'videoUpload' | 'regenFbxs';

export type Outcome<T> =
  | { kind: 'ok'; data: T }
  /** Forced logout: clear the token and caches, tell the user, go to the login page. */
  | { kind: 'logout'; code: number; message: string }
  /** Show `message` to the user and reject. */
  | { kind: 'show'; code: number | null; message: string }
  /** Reject without telling the user. */
  | { kind: 'silent'; code: number; message: string };

export const FORCED_LOGOUT_CODES: readonly number[] = [
  Codes.UNAUTHENTICATED,
  Codes.WRONG_CREDENTIALS_LOGOUT,
  Codes.ACCOUNT_DISABLED,
  Codes.LOGIN_TIMEOUT,
];
export const SHOW_SERVER_MESSAGE_CODES: readonly number[] = [
  Codes.EMAIL_TAKEN,
  Codes.REFUSED,
  Codes.TOO_MANY_REQUESTS,
];

export type Translate = (key: string, vars?: Record<string, string | number>) => string;
/** Whether a translation key exists (for `net.{code}`). */
export type HasKey = (key: string) => boolean;

const text = (m: string | null | undefined): string => (typeof m === 'string' ? m.trim() : '');

export function interpretEnvelope<T>(
  body: Envelope<T> | null | undefined,
  t: Translate,
  has: HasKey,
  quiet?: QuietKind,
): Outcome<T> {
  const raw = body?.code;
  const code = raw === null || raw === undefined || raw === '' ? Number.NaN : Number(raw);
  if (Number.isNaN(code)) return { kind: 'show', code: null, message: t('net.serverError') };
  const message = text(body?.message);
  if (code === 0) return { kind: 'ok', data: body?.data as T };
  if (FORCED_LOGOUT_CODES.includes(code)) {
    const fallback = code === 407 || code === 408 ? t(`net.${code}`) : t('net.loginTimeout');
    return { kind: 'logout', code, message: message || fallback };
  }
  if (code === 400) return { kind: 'silent', code, message: message || t('net.400') };
  if (code === 300) {
    const shown = message || t('net.300');
    return quiet ? { kind: 'silent', code, message: shown } : { kind: 'show', code, message: shown };
  }
  if (SHOW_SERVER_MESSAGE_CODES.includes(code))
    return {
      kind: 'show',
      code,
      message: message || (has(`net.${code}`) ? t(`net.${code}`) : t('net.unknown')),
    };
  if (has(`net.${code}`)) return { kind: 'show', code, message: t(`net.${code}`) };
  // A code with no catalogue text: the server's own message is the best we have.
  return { kind: 'show', code, message: message || t('net.unknown', { code }) };
}

/** Thrown by the client for every non-ok outcome; `shown` tells whether the user was already told. */
export class ApiError extends Error {
  constructor(
    readonly code: number | null,
    message: string,
    readonly shown: boolean,
    readonly kind: 'logout' | 'show' | 'silent' | 'timeout' | 'network' | 'aborted',
  ) {
    super(message);
    this.name = 'ApiError';
  }
}
