/**
 * Upload grants shared by both stores: the session token that binds a direct upload to one key, owner, size
 * limit and content type, and the credentials shape the client receives (spec `/cos/sts/upload`). The stores
 * differ only in where the bytes go (`uploadUrl`, bucket, region).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { sign, TokenError, verify } from './signing.ts';
import {
  checkKey,
  StorageGrantError,
  type UploadCredentials,
  type UploadGrant,
  type UploadGrantOptions,
} from './types.ts';

export const UPLOAD_PURPOSE = 'storage-upload';

/** A new grant: its id, times and signed session token. */
export function newUploadGrant(secret: string, o: UploadGrantOptions) {
  const now = Math.floor(Date.now() / 1000);
  const expiresIn = o.expiresInS ?? 1800;
  const exp = now + expiresIn;
  const id = randomUUID();
  const token = sign(secret, UPLOAD_PURPOSE, {
    id,
    k: checkKey(o.key),
    o: String(o.owner),
    m: o.maxBytes,
    ct: o.contentType,
    exp,
  });
  return { id, now, exp, expiresIn, token, contentType: o.contentType ?? 'application/octet-stream' };
}

/** The credentials a client receives for a grant. */
export function uploadCredentialsOf(
  grant: ReturnType<typeof newUploadGrant>,
  o: UploadGrantOptions,
  where: { bucket: string; region: string; uploadUrl: string; sts?: UploadCredentials['sts'] },
): UploadCredentials {
  return {
    credentials: {
      tmpSecretId: grant.id,
      tmpSecretKey: randomBytes(18).toString('base64url'),
      sessionToken: grant.token,
    },
    startTime: grant.now,
    expiredTime: grant.exp,
    key: o.key,
    bucket: where.bucket,
    region: where.region,
    uploadUrl: where.uploadUrl,
    method: 'PUT',
    headers: { 'Content-Type': grant.contentType },
    maxBytes: o.maxBytes,
    sts: where.sts ?? null,
  };
}

/** Checks a session token; returns its grant or throws `StorageGrantError`. */
export function verifyUploadGrant(secret: string, sessionToken: string): UploadGrant {
  try {
    const p = verify<{ id: string; k: string; o: string; m: number; ct?: string; exp: number }>(
      secret,
      UPLOAD_PURPOSE,
      sessionToken,
    );
    return { id: p.id, key: checkKey(p.k), owner: p.o, maxBytes: p.m, contentType: p.ct, expiresAt: p.exp };
  } catch (err) {
    if (err instanceof TokenError) throw new StorageGrantError(err.message);
    throw err;
  }
}
