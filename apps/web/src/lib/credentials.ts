/**
 * The credential caches of spec §4: download credentials (GET /cos/sts/download) are reused until they are older
 * than 290000 ms, upload credentials (GET /cos/sts/upload) are fetched for every upload, and the cloud auth — where
 * files live (the API itself or an S3 bucket) and the bucket's temporary STS credentials when the server has an
 * STS service — is reused for 1800000 ms. The clock and the calls are injected so tests can move time without
 * waiting. Logout clears the caches (onCachesCleared).
 */
import type { BucketCredentials, DownloadCredentials, UploadCredentials } from '@mocap/contracts';
import { api, buildUrl, onCachesCleared, sendWithProgress, type UploadHandle } from './api.ts';
import { ApiError } from './envelope.ts';
import { t } from './i18n.ts';
import { showMessage } from './messages.ts';

export const DOWNLOAD_REFRESH_MS = 290_000;
export const CLOUD_AUTH_REUSE_MS = 1_800_000;

/** What `GET /cos/sts/download` and `GET /cos/sts/upload` answer: the contract's (`@mocap/contracts` storage.ts). */
export type { BucketCredentials, DownloadCredentials, UploadCredentials };

export interface CloudAuth {
  storage: 'local' | 's3';
  sts: BucketCredentials | null;
}

export interface CredentialSource {
  download: () => Promise<DownloadCredentials>;
  upload: (q: { fileName?: string; size?: number }) => Promise<UploadCredentials>;
  now: () => number;
}

interface Entry<T> {
  at: number;
  value: Promise<T>;
}

export class CredentialCache {
  private dl: Entry<DownloadCredentials> | null = null;
  private auth: Entry<CloudAuth> | null = null;

  constructor(private readonly src: CredentialSource) {}

  /** Download credentials, fetched again once older than 290000 ms (a failed fetch is not kept). */
  download(): Promise<DownloadCredentials> {
    const now = this.src.now();
    if (this.dl && now - this.dl.at <= DOWNLOAD_REFRESH_MS) return this.dl.value;
    const entry: Entry<DownloadCredentials> = { at: now, value: this.src.download() };
    this.dl = entry;
    entry.value.catch(() => {
      if (this.dl === entry) this.dl = null;
    });
    return entry.value;
  }

  /** Upload credentials: new ones for every upload (each names its own key). */
  upload(q: { fileName?: string; size?: number } = {}): Promise<UploadCredentials> {
    return this.src.upload(q);
  }

  /** The cloud auth (storage kind, bucket STS credentials), reused for 1800000 ms. */
  cloudAuth(): Promise<CloudAuth> {
    const now = this.src.now();
    if (this.auth && now - this.auth.at < CLOUD_AUTH_REUSE_MS) return this.auth.value;
    const entry: Entry<CloudAuth> = {
      at: now,
      value: this.download().then((d) => ({ storage: d.storage, sts: d.sts })),
    };
    this.auth = entry;
    entry.value.catch(() => {
      if (this.auth === entry) this.auth = null;
    });
    return entry.value;
  }

  /** A URL that opens one of my own files (under my prefix) with the cached download credentials. */
  async ownFileUrl(key: string): Promise<string> {
    const d = await this.download();
    return buildUrl('/cos/object', { key, token: d.credentials.sessionToken });
  }

  clear(): void {
    this.dl = null;
    this.auth = null;
  }
}

/** The app's cache over the real calls and clock. */
export const credentials = new CredentialCache({
  download: () => api.get<DownloadCredentials>('/cos/sts/download', { silent: true }),
  upload: (q) => api.get<UploadCredentials>('/cos/sts/upload', { query: q, quiet: 'videoUpload' }),
  now: () => Date.now(),
});
onCachesCleared(() => credentials.clear());

/**
 * PUTs a file to the pre-signed `uploadUrl` of upload credentials, straight to the bucket, with progress (the 60 s
 * timeout restarts on progress). A failure shows the storage's error or "cos上传失败" for 3 s (spec §8).
 */
export function putToStorage(
  c: Pick<UploadCredentials, 'uploadUrl' | 'headers'>,
  file: Blob,
  onProgress: (fraction: number) => void,
): UploadHandle<void> {
  const xhr = new XMLHttpRequest();
  const fail = (detail?: string) => {
    const msg = detail || t('net.cosUpload');
    showMessage(msg, { type: 'error', duration: 3000 });
    return new ApiError(null, msg, true, 'network');
  };
  xhr.open('PUT', c.uploadUrl);
  for (const [k, v] of Object.entries(c.headers)) xhr.setRequestHeader(k, v);
  const promise = sendWithProgress<void>(xhr, file, onProgress, {
    load: () => {
      if (xhr.status >= 200 && xhr.status < 300) return;
      const code = /<Message>([^<]*)<\/Message>/.exec(xhr.responseText ?? '')?.[1];
      throw fail(code ? `${t('net.cosUpload')}: ${code}` : undefined);
    },
    error: () => fail(),
    timeout: () => fail(t('net.timeout')),
  });
  return { promise, abort: () => xhr.abort() };
}
