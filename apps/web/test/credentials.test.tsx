// @vitest-environment happy-dom
/**
 * Spec §4 "Credential caches" in the web client (issue 25): download credentials are fetched again only once older
 * than 290000 ms, upload credentials for every upload, the cloud auth reused for 1800000 ms — timed with a fake
 * clock, no waiting. And the video upload's route by storage: S3 → upload credentials, a PUT of the bytes to their
 * pre-signed URL, POST /video/uploads with the session token; local storage → one multipart POST /video/upload.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CLOUD_AUTH_REUSE_MS,
  CredentialCache,
  credentials,
  DOWNLOAD_REFRESH_MS,
  type DownloadCredentials,
  type UploadCredentials,
} from '../src/lib/credentials.ts';
import { uploadVideo } from '../src/lib/endpoints.ts';
import { setLangForTests } from '../src/lib/i18n.ts';
import { fakeServer, ok } from './helpers.tsx';

setLangForTests('en');

function source(storage: 'local' | 's3' = 's3') {
  let clock = 1_000_000;
  let n = 0;
  const calls = { download: 0, upload: 0 };
  /** The next numbered credentials (`${id}n`, `${token}-n`), valid for `expiredTime` s. */
  const grant = (id: string, token: string, expiredTime: number) => {
    n++;
    return {
      credentials: { tmpSecretId: `${id}${n}`, tmpSecretKey: 'k', sessionToken: `${token}-${n}` },
      startTime: 0,
      expiredTime,
    };
  };
  const src = {
    now: () => clock,
    download: async (): Promise<DownloadCredentials> => {
      calls.download++;
      return {
        ...grant('id', 'read', 300),
        prefix: 'videos/u1/',
        storage,
        sts: null,
      };
    },
    upload: async (q: { fileName?: string }): Promise<UploadCredentials> => {
      calls.upload++;
      return {
        ...grant('g', 'grant', 1800),
        key: `uploadZM/${n}-${q.fileName}`,
        bucket: 'b',
        region: 'r',
        uploadUrl: `http://bucket.test/${n}`,
        method: 'PUT',
        headers: { 'Content-Type': 'video/mp4' },
        maxBytes: 1,
        sts: null,
      };
    },
  };
  return { src, calls, advance: (ms: number) => (clock += ms) };
}

describe('the credential cache', () => {
  it('reuses download credentials up to 290000 ms and fetches new ones after', async () => {
    const { src, calls, advance } = source();
    const cache = new CredentialCache(src);
    const first = await cache.download();
    expect(calls.download).toBe(1);
    advance(DOWNLOAD_REFRESH_MS);
    expect(await cache.download()).toBe(first);
    expect(calls.download).toBe(1);
    advance(1);
    const second = await cache.download();
    expect(calls.download).toBe(2);
    expect(second.credentials.sessionToken).not.toBe(first.credentials.sessionToken);
    expect(await cache.ownFileUrl('videos/u1/a/b.json')).toBe(
      `/product/cos/object?key=videos%2Fu1%2Fa%2Fb.json&token=${second.credentials.sessionToken}`,
    );
    expect(DOWNLOAD_REFRESH_MS).toBe(290000);
  });

  it('fetches upload credentials for every upload', async () => {
    const { src, calls } = source();
    const cache = new CredentialCache(src);
    const a = await cache.upload({ fileName: 'a.mp4' });
    const b = await cache.upload({ fileName: 'a.mp4' });
    expect(calls.upload).toBe(2);
    expect(a.key).not.toBe(b.key);
  });

  it('reuses the cloud auth for 1800000 ms, across download refreshes', async () => {
    const { src, calls, advance } = source();
    const cache = new CredentialCache(src);
    const auth = await cache.cloudAuth();
    expect(auth.storage).toBe('s3');
    expect(calls.download).toBe(1);
    advance(CLOUD_AUTH_REUSE_MS - 1);
    expect(await cache.cloudAuth()).toBe(auth);
    expect(calls.download).toBe(1);
    advance(1);
    expect(await cache.cloudAuth()).not.toBe(auth);
    expect(calls.download).toBe(2);
    expect(CLOUD_AUTH_REUSE_MS).toBe(1800000);
  });

  it('does not keep a failed fetch, and clear() forgets everything', async () => {
    const { src, calls } = source();
    let fail = true;
    const cache = new CredentialCache({
      ...src,
      download: () => (fail ? Promise.reject(new Error('down')) : src.download()),
    });
    await expect(cache.download()).rejects.toThrow('down');
    fail = false;
    await cache.download();
    expect(calls.download).toBe(1);
    cache.clear();
    await cache.download();
    expect(calls.download).toBe(2);
  });
});

/** A stand-in for XMLHttpRequest recording what is sent and answering 200 with `body`. */
function fakeXhr(answer: (method: string, url: string) => { status: number; body: string }) {
  const sent: { method: string; url: string; headers: Record<string, string>; body: unknown }[] = [];
  class Xhr {
    status = 0;
    responseText = '';
    upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private m = '';
    private u = '';
    private h: Record<string, string> = {};
    open(m: string, u: string) {
      this.m = m;
      this.u = u;
    }
    setRequestHeader(k: string, v: string) {
      this.h[k] = v;
    }
    send(body: unknown) {
      sent.push({ method: this.m, url: this.u, headers: this.h, body });
      const a = answer(this.m, this.u);
      queueMicrotask(() => {
        this.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 1 } as ProgressEvent);
        this.status = a.status;
        this.responseText = a.body;
        this.onload?.();
      });
    }
    abort() {
      this.onabort?.();
    }
  }
  vi.stubGlobal('XMLHttpRequest', Xhr);
  return sent;
}

describe('video uploads through the cache', () => {
  beforeEach(() => credentials.clear());
  afterEach(() => vi.unstubAllGlobals());
  const fields = () => ({
    file: new File([new Uint8Array([1, 2, 3])], 'walk.mp4', { type: 'video/mp4' }),
    name: ' walk ',
    category: '2',
    tags: ['a', 'b'],
    boneType: 'Mixamo',
    description: 'd',
  });
  const video = { id: 9, name: 'walk', status: 0 };

  it('S3: new upload credentials, a PUT to the bucket, then POST /video/uploads with the session token', async () => {
    let grants = 0;
    const server = fakeServer({
      'GET /cos/sts/download': () =>
        ok({ credentials: { sessionToken: 'r' }, storage: 's3', sts: null, prefix: 'videos/u1/' }),
      'GET /cos/sts/upload': () => {
        grants++;
        return ok({
          credentials: { tmpSecretId: 'g', tmpSecretKey: 'k', sessionToken: `grant-token-${grants}` },
          key: `uploadZM/${grants}.mp4`,
          uploadUrl: `http://bucket.test/uploadZM/${grants}.mp4?X-Amz-Signature=s`,
          headers: { 'Content-Type': 'video/mp4' },
        });
      },
      'POST /video/uploads': () => ok(video),
    });
    const sent = fakeXhr(() => ({ status: 200, body: '' }));
    const progress: number[] = [];
    const v = await uploadVideo(fields(), (f) => progress.push(f)).promise;
    expect(v.id).toBe(9);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.method).toBe('PUT');
    expect(sent[0]!.url).toBe('http://bucket.test/uploadZM/1.mp4?X-Amz-Signature=s');
    expect(sent[0]!.headers['Content-Type']).toBe('video/mp4');
    expect((sent[0]!.body as File).name).toBe('walk.mp4');
    expect(progress.at(-1)).toBe(1);
    const confirm = server.calls.find((c) => c.path === '/video/uploads')!;
    expect(confirm.body).toMatchObject({
      sessionToken: 'grant-token-1',
      fileName: 'walk.mp4',
      name: 'walk',
      categoryId: 2,
      tags: 'a,b',
      boneType: 'Mixamo',
    });
    // A second upload: the cloud auth is reused, the upload credentials are new.
    await uploadVideo(fields(), () => {}).promise;
    expect(server.calls.filter((c) => c.path === '/cos/sts/download')).toHaveLength(1);
    expect(server.calls.filter((c) => c.path === '/cos/sts/upload')).toHaveLength(2);
    expect(server.calls.filter((c) => c.path === '/video/uploads').at(-1)!.body).toMatchObject({
      sessionToken: 'grant-token-2',
    });
  });

  it('S3: a refused PUT stops before the confirm and says so', async () => {
    const server = fakeServer({
      'GET /cos/sts/download': () => ok({ credentials: { sessionToken: 'r' }, storage: 's3', sts: null }),
      'GET /cos/sts/upload': () =>
        ok({ credentials: { sessionToken: 'grant-token' }, uploadUrl: 'http://bucket.test/x', headers: {} }),
      'POST /video/uploads': () => ok(video),
    });
    fakeXhr(() => ({ status: 403, body: '<Error><Message>Request has expired</Message></Error>' }));
    await expect(uploadVideo(fields(), () => {}).promise).rejects.toThrow(
      'Cloud upload failed: Request has expired',
    );
    expect(server.calls.some((c) => c.path === '/video/uploads')).toBe(false);
  });

  it('local storage: one multipart POST /video/upload, no upload credentials', async () => {
    const server = fakeServer({
      'GET /cos/sts/download': () => ok({ credentials: { sessionToken: 'r' }, storage: 'local', sts: null }),
    });
    const sent = fakeXhr(() => ({ status: 200, body: JSON.stringify(ok(video)) }));
    const v = await uploadVideo(fields(), () => {}).promise;
    expect(v.id).toBe(9);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.method).toBe('POST');
    expect(sent[0]!.url).toBe('/product/video/upload');
    expect((sent[0]!.body as FormData).get('boneType')).toBe('Mixamo');
    expect(server.calls.some((c) => c.path === '/cos/sts/upload')).toBe(false);
  });
});
