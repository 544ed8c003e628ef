/**
 * The one typed error every layer throws, over the code catalogue of spec §8 (`@mocap/contracts`). The HTTP error
 * handler turns an AppError into the envelope `{ code, message, data }`; code 0 is success.
 *
 * How the web client reacts (spec §8): 401/407/408/421 force a logout; 400 is silent; 300, 411, 307 and 1047
 * show the server's message; any other code shows the client's own translation of `net.{code}`.
 */

import { type Code, Codes, DefaultMessages, Messages } from '@mocap/contracts';

/** The code catalogue and the spec's messages are the contract's (`@mocap/contracts`, shared with the web app). */
export { type Code, Codes, DefaultMessages, Messages };

export class AppError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message?: string, data?: unknown) {
    super(message ?? DefaultMessages[code] ?? `error ${code}`);
    this.name = 'AppError';
    this.code = code;
    this.data = data ?? null;
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/** HTTP status sent with an error code (the envelope is the contract; the status helps proxies and logs). */
export function httpStatusOf(code: number): number {
  switch (code) {
    case Codes.OK:
      return 200;
    case Codes.PARAMETER_ERROR:
    case Codes.USERNAME_EMPTY:
    case Codes.PASSWORD_EMPTY:
    case Codes.HEADER_ERROR:
      return 400;
    case Codes.UNAUTHENTICATED:
    case Codes.AUTH_FAILED:
    case Codes.LOGIN_TIMEOUT:
    case Codes.IDENTITY_EXPIRED:
    case Codes.INVALID_TOKEN:
    case Codes.WRONG_CREDENTIALS_LOGOUT:
    case Codes.BAD_CREDENTIALS:
      return 401;
    case Codes.NO_PERMISSION:
    case Codes.INSUFFICIENT_PERMISSION:
    case Codes.ACCOUNT_DISABLED:
      return 403;
    case Codes.NOT_FOUND:
      return 404;
    case Codes.METHOD_NOT_SUPPORTED:
      return 405;
    case Codes.ACCOUNT_EXISTS:
    case Codes.EMAIL_TAKEN:
      return 409;
    case Codes.TOO_MANY_REQUESTS:
      return 429;
    case Codes.INTERNAL:
      return 500;
    case Codes.BUSY:
      return 503;
    default:
      return code >= 1000 || (code >= 300 && code < 500) ? 422 : 500;
  }
}
