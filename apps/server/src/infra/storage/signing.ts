/**
 * Compact signed tokens: `base64url(JSON payload) + '.' + base64url(HMAC-SHA256(secret, purpose + payload))`.
 * The purpose string keeps a token made for one use (a download URL) from being accepted for another (an
 * upload grant). Expiry (`exp`, unix seconds) is checked by `verify`. Comparison is constant-time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export class TokenError extends Error {
  override readonly name = 'TokenError';
}

function mac(secret: string, purpose: string, body: string): string {
  return createHmac('sha256', secret).update(`${purpose}\n${body}`).digest('base64url');
}

export function sign(secret: string, purpose: string, payload: Record<string, unknown>): string {
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${body}.${mac(secret, purpose, body)}`;
}

/** Returns the payload of a valid, unexpired token; throws `TokenError` otherwise. */
export function verify<T extends { exp: number }>(
  secret: string,
  purpose: string,
  token: string,
  nowS = Math.floor(Date.now() / 1000),
): T {
  if (typeof token !== 'string' || token.length > 4096) throw new TokenError('malformed token');
  const dot = token.indexOf('.');
  if (dot <= 0) throw new TokenError('malformed token');
  const body = token.slice(0, dot);
  const sig = Buffer.from(token.slice(dot + 1), 'utf8');
  const want = Buffer.from(mac(secret, purpose, body), 'utf8');
  if (sig.length !== want.length || !timingSafeEqual(sig, want)) throw new TokenError('bad signature');
  let payload: T;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
  } catch {
    throw new TokenError('malformed token');
  }
  if (typeof payload.exp !== 'number' || payload.exp < nowS) throw new TokenError('token expired');
  return payload;
}
