/** Object storage: the interface and the factory choosing local disk or S3-compatible from config. */
import { join } from 'node:path';
import { LocalStorage } from './local.ts';
import { S3Storage } from './s3.ts';
import type { ObjectStorage } from './types.ts';

export { LocalStorage, type LocalStorageOptions } from './local.ts';
export { S3Storage, type S3StorageOptions } from './s3.ts';
export { sign, TokenError, verify } from './signing.ts';
export { StsClient, StsError, sessionPolicy, type TemporaryCredentials } from './sts.ts';
export * from './types.ts';

export type StorageConfig =
  | { kind: 'local'; root: string; secret: string; publicUrl?: string; basePath?: string }
  | {
      kind: 's3';
      bucket: string;
      region: string;
      endpoint?: string;
      accessKeyId: string;
      secretAccessKey: string;
      forcePathStyle?: boolean;
      prefix?: string;
      secret: string;
      sts?: { endpoint: string; region?: string; roleArn?: string };
    };

export function createStorage(config: StorageConfig): ObjectStorage {
  if (config.kind === 's3') return new S3Storage(config);
  return new LocalStorage(config);
}

/** The default local root under DATA_DIR. */
export function localStorageRoot(dataDir: string): string {
  return join(dataDir, 'files');
}
