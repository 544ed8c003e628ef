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

/** The codes with an HTTP status of their own, by status; every other code: see `httpStatusOf`. */
const STATUS_CODES: readonly (readonly [status: number, codes: readonly number[]])[] = [
  [200, [Codes.OK]],
  [400, [Codes.PARAMETER_ERROR, Codes.USERNAME_EMPTY, Codes.PASSWORD_EMPTY, Codes.HEADER_ERROR]],
  [
    401,
    [
      Codes.UNAUTHENTICATED,
      Codes.AUTH_FAILED,
      Codes.LOGIN_TIMEOUT,
      Codes.IDENTITY_EXPIRED,
      Codes.INVALID_TOKEN,
      Codes.WRONG_CREDENTIALS_LOGOUT,
      Codes.BAD_CREDENTIALS,
    ],
  ],
  [403, [Codes.NO_PERMISSION, Codes.INSUFFICIENT_PERMISSION, Codes.ACCOUNT_DISABLED]],
  [404, [Codes.NOT_FOUND]],
  [405, [Codes.METHOD_NOT_SUPPORTED]],
  [409, [Codes.ACCOUNT_EXISTS, Codes.EMAIL_TAKEN]],
  [429, [Codes.TOO_MANY_REQUESTS]],
  [500, [Codes.INTERNAL]],
  [503, [Codes.BUSY]],
];
const statusOfCode = new Map(
  STATUS_CODES.flatMap(([status, codes]) => codes.map((c) => [c, status] as const)),
);

/**
 * HTTP status sent with an error code (the envelope is the contract; the status helps proxies and logs): the
 * code's own (STATUS_CODES), else 422 for the spec's refusals (300-499 and 1000 up), 500 for the rest.
 */
export function httpStatusOf(code: number): number {
  return statusOfCode.get(code) ?? (code >= 1000 || (code >= 300 && code < 500) ? 422 : 500);
}
