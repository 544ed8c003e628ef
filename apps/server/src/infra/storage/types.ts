/** The object-storage port (defined in `src/ports.ts`), as the adapters here import it. */
export {
  type BucketCredentials,
  checkKey,
  type DownloadTokenPayload,
  type ObjectInfo,
  type ObjectStorage,
  type PutOptions,
  type SignedTokens,
  type SignedUrlOptions,
  StorageGrantError,
  StorageNotFoundError,
  StorageTooLargeError,
  type UploadCredentials,
  type UploadGrant,
  type UploadGrantOptions,
} from '../../ports.ts';
