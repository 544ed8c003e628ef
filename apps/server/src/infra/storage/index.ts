/** Object storage: the interface and the factory choosing local disk or S3-compatible from config. */
import { join } from 'node:path';
import { LocalStorage, type LocalStorageOptions } from './local.ts';
import { S3Storage, type S3StorageOptions } from './s3.ts';
import type { ObjectStorage } from './types.ts';

export { LocalStorage, type LocalStorageOptions } from './local.ts';
export { S3Storage, type S3StorageOptions } from './s3.ts';
export { sign, TokenError, verify } from './signing.ts';
export { StsClient, StsError, sessionPolicy, type TemporaryCredentials } from './sts.ts';
export * from './types.ts';

/** Which store and its options: local disk or an S3-compatible bucket. */
export type StorageConfig = ({ kind: 'local' } & LocalStorageOptions) | ({ kind: 's3' } & S3StorageOptions);

export function createStorage(config: StorageConfig): ObjectStorage {
  if (config.kind === 's3') return new S3Storage(config);
  return new LocalStorage(config);
}

/** The default local root under DATA_DIR. */
export function localStorageRoot(dataDir: string): string {
  return join(dataDir, 'files');
}
