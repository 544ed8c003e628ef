/**
 * Crypto adapters: argon2id password hashes, the RSA-OAEP (SHA-256) key pair for password transport, opaque
 * session tokens (only their SHA-256 is stored), keyed code hashes.
 */
import {
  createHash,
  createHmac,
  createPublicKey,
  generateKeyPairSync,
  privateDecrypt,
  randomBytes,
  constants as rsa,
} from 'node:crypto';
import { hash as argonHash, verify as argonVerify } from '@node-rs/argon2';

/** `Algorithm.Argon2id` of @node-rs/argon2 (a const enum, not importable under verbatimModuleSyntax). */
const ARGON2ID = 2;

import type { PasswordHasher, PasswordTransport } from '../../ports.ts';

/** argon2id, OWASP's second recommended profile (19 MiB, t=2, p=1). Tests may pass cheaper parameters. */
export function createArgon2Hasher(opts: { memoryCost?: number; timeCost?: number } = {}): PasswordHasher {
  const params = {
    algorithm: ARGON2ID,
    memoryCost: opts.memoryCost ?? 19_456,
    timeCost: opts.timeCost ?? 2,
    parallelism: 1,
  };
  return {
    hash: (password) => argonHash(password, params),
    verify: async (hash, password) => {
      try {
        return await argonVerify(hash, password);
      } catch {
        return false;
      }
    },
  };
}

export function generateRsaPrivateKeyPem(): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/** RSA-OAEP with SHA-256 (what WebCrypto's `RSA-OAEP` + `SHA-256` produces); ciphertext in base64. */
export function createRsaTransport(privateKeyPem: string): PasswordTransport {
  const publicKeyPem = createPublicKey(privateKeyPem).export({ type: 'spki', format: 'pem' }).toString();
  return {
    publicKeyPem,
    algorithm: 'RSA-OAEP-256',
    decrypt(ciphertextB64: string) {
      const buf = Buffer.from(ciphertextB64, 'base64');
      if (buf.length === 0) throw new Error('empty ciphertext');
      return privateDecrypt(
        { key: privateKeyPem, padding: rsa.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
        buf,
      ).toString('utf8');
    },
  };
}

export const sha256Hex = (s: string): string => createHash('sha256').update(s).digest('hex');
export const hmacHex = (key: string, s: string): string => createHmac('sha256', key).update(s).digest('hex');
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');
