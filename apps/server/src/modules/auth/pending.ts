/**
 * The pending third-party authorization (state, nonce, PKCE verifier) kept by the browser that started it, in an
 * HttpOnly cookie sealed with AES-256-GCM: only the server can read or forge it.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { PendingAuthorization } from '../../ports.ts';

const b64url = (b: Buffer) => b.toString('base64url');

/** Name of the cookie holding a sealed pending authorization (HttpOnly; only /product/passport/3rd sees it). */
export const PENDING_COOKIE = 'mocap_oauth_pending';

/** AES-256-GCM sealing of a pending authorization (the browser keeps it; only the server can read or forge it). */
export function sealPending(secret: string, p: PendingAuthorization): string {
  const key = createHash('sha256').update(`oauth-pending:${secret}`).digest();
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([c.update(JSON.stringify(p), 'utf8'), c.final()]);
  return b64url(Buffer.concat([iv, c.getAuthTag(), body]));
}

export function unsealPending(secret: string, sealed: string | undefined): PendingAuthorization | undefined {
  if (!sealed) return undefined;
  try {
    const raw = Buffer.from(sealed, 'base64url');
    const key = createHash('sha256').update(`oauth-pending:${secret}`).digest();
    const d = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    d.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
    return JSON.parse(text) as PendingAuthorization;
  } catch {
    return undefined;
  }
}
