/**
 * The code catalogue of spec §8 and the spec's user-facing messages, shared by the server (which throws them in the
 * envelope `{ code, message, data }`) and the web app (which reacts to them: 401/407/408/421 log out; 400 is silent;
 * 300, 411, 307 and 1047 show the server's message; any other code shows the client's own `net.{code}`).
 */
import { z } from 'zod';

export const Codes = {
  OK: 0,
  /** Wrong user name or password (login); business refusals whose message is shown. */
  BAD_CREDENTIALS: 300,
  NO_PERMISSION: 306,
  /** A business rule refused the request; the message (spec wording) is shown to the user. */
  REFUSED: 307,
  PARAMETER_ERROR: 400,
  UNAUTHENTICATED: 401,
  AUTH_FAILED: 402,
  METHOD_NOT_SUPPORTED: 403,
  NOT_FOUND: 404,
  REQUEST_EXCEPTION: 405,
  INSUFFICIENT_PERMISSION: 406,
  /** Forces a logout: the credentials of the session are no longer valid (password changed). */
  WRONG_CREDENTIALS_LOGOUT: 407,
  ACCOUNT_DISABLED: 408,
  ACCOUNT_EXISTS: 409,
  WRONG_CODE: 410,
  EMAIL_TAKEN: 411,
  /** Forces a logout: the session expired or was revoked (the client's "login timeout"). */
  LOGIN_TIMEOUT: 421,
  TOO_MANY_REQUESTS: 1047,
  IDENTITY_EXPIRED: 1401,
  INVALID_TOKEN: 1402,
  HEADER_ERROR: 1403,
  USERNAME_EMPTY: 1405,
  PASSWORD_EMPTY: 1406,
  INTERNAL: 500,
  BUSY: 501,
} as const;

export type Code = (typeof Codes)[keyof typeof Codes];

/** Default messages (spec §8 "Network code messages"). */
export const DefaultMessages: Record<number, string> = {
  0: 'success',
  300: 'wrong user name or password',
  306: 'no permission, contact administrator',
  307: 'request refused',
  400: 'parameter error',
  401: 'authenticate first',
  402: 'authentication failed',
  403: 'request method not supported',
  404: 'interface does not exist',
  405: 'request exception',
  406: 'insufficient permission',
  407: 'wrong user name or password',
  408: 'account disabled, contact administrator',
  409: 'account already exists',
  410: 'wrong verification code',
  411: 'email already registered by another user',
  421: 'login timeout, log in again',
  1047: 'too many requests, retry later',
  1401: 'identity expired, log in again',
  1402: 'invalid token',
  1403: 'request header error',
  1405: 'user name empty',
  1406: 'password empty',
  500: 'server internal error',
  501: 'server busy, retry later',
};

/** User-facing texts the spec gives word for word. */
export const Messages = {
  LOGIN_SUCCESS: '登录成功!',
  USERNAME_REQUIRED: '请输入邮箱!',
  PASSWORD_REQUIRED: '请输入密码!',
  CODE_FORMAT: '请输入四位数验证码~',
  WRONG_CODE: '验证码错误,请确认',
  RESEND: '请勿重复发送!',
  PASSWORDS_DIFFER: '两个密码不一致。请检查并再次输入',
  CATEGORY_HAS_CHILDREN: '所选分类存在子分类，请处理子分类再重试!',
  INSUFFICIENT_V: '你的V币余额不足,无法制作视频',
  COMPANY_CANNOT_BUY: '企业用户无法购买该类型商品',
  FREE_CLOSED: '此功能不向免费用户开放',
  PAID_FEATURE: '此功能为付费功能',
  VIDEO_FAILED: '你的视频制作失败,请重新上传',
  FREE_REMAKES_USED: '您的视频免费制作次数已用完',
  NO_FILE: '此视频无该文件',
} as const;

/** The envelope every answer of the API has; `data` is the endpoint's payload (null on errors unless stated). */
export const envelopeOf = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.number().int(), message: z.string(), data });
