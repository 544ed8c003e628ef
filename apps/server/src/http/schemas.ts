/** Zod schemas shared by route modules (they also document the API). */
import { UserViewSchema } from '@mocap/contracts';
import { z } from 'zod';

export { LedgerEntrySchema, LevelSchema, UserViewSchema } from '@mocap/contracts';

export const SessionSchema = z.object({
  token: z.string(),
  expiresAt: z.number().describe('epoch ms'),
  user: UserViewSchema,
  roles: z.array(z.string()),
});

/** An RSA-OAEP(SHA-256) ciphertext, base64. */
export const Encrypted = z.string().min(1).max(2048).describe('RSA-OAEP (SHA-256) ciphertext, base64');
