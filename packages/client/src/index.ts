/**
 * @mocap/client — the typed client of the mocap public API (issue 20). `paths` (src/schema.ts) is generated from
 * docs/public-api.json, the public API's own OpenAPI document; calls go through openapi-fetch, so every path,
 * parameter, body and answer is checked by the TypeScript compiler against the server's schemas.
 *
 *   const mocap = createMocapClient({ baseUrl: 'https://host', apiKey: process.env.MOCAP_KEY });
 *   const video = await uploadVideo(mocap, { file, fileName: 'walk.mp4', fields: { name: 'walk', boneType: 'Mixamo' } });
 *   const v = data(await mocap.POST('/product/video/queryVideoById', { body: { id: video.id } }));
 *
 * Runs in Node 20 and in browsers (fetch, FormData, Blob, Web Crypto only).
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.ts';

export type { paths } from './schema.ts';
export type MocapClient = Client<paths>;

export interface MocapClientOptions {
  /** The server's origin, e.g. `https://mocap.example.com` (the paths start with `/product`). */
  baseUrl: string;
  /** An API key (`mck_…`) made on the company info page. */
  apiKey: string;
  fetch?: typeof globalThis.fetch;
}

const BASE = Symbol('mocap.baseUrl');
const FETCH = Symbol('mocap.fetch');

/** A client whose every request carries `Authorization: Bearer <apiKey>`. */
export function createMocapClient(o: MocapClientOptions): MocapClient {
  const client = createClient<paths>({
    baseUrl: o.baseUrl.replace(/\/+$/, ''),
    ...(o.fetch ? { fetch: o.fetch } : {}),
  });
  client.use({
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${o.apiKey}`);
      return request;
    },
  });
  Object.defineProperty(client, BASE, { value: o.baseUrl.replace(/\/+$/, ''), enumerable: false });
  Object.defineProperty(client, FETCH, { value: o.fetch ?? globalThis.fetch, enumerable: false });
  return client;
}

const baseOf = (c: MocapClient) => (c as unknown as Record<symbol, string>)[BASE] ?? '';
const fetchOf = (c: MocapClient) =>
  (c as unknown as Record<symbol, typeof fetch>)[FETCH] ?? globalThis.fetch.bind(globalThis);

/** An answer whose `code` was not 0 (the server's `{code, message, data}`), or an HTTP failure without one. */
export class MocapApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly status: number,
    readonly data: unknown = null,
  ) {
    super(`${code}: ${message}`);
    this.name = 'MocapApiError';
  }
}

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

/**
 * The `data` of an openapi-fetch result: throws `MocapApiError` unless the answer is `{code: 0}`. The server answers
 * errors with a non-2xx status and the same envelope, so both the typed `data` and the `error` side are read.
 */
export function data<T>(r: { data?: Envelope<T>; error?: unknown; response: Response }): T {
  const body = (r.data ?? r.error) as Partial<Envelope<unknown>> | undefined;
  if (r.data && r.data.code === 0) return r.data.data;
  throw new MocapApiError(
    typeof body?.code === 'number' ? body.code : r.response.status,
    typeof body?.message === 'string' ? body.message : r.response.statusText || 'request failed',
    r.response.status,
    body?.data ?? null,
  );
}

type VideoView =
  paths['/product/video/uploads']['post']['responses'][200]['content']['application/json']['data'];
/** The fields of an upload besides the file: name, bone type, tags, solve options … (as the server's form). */
export type UploadFields = Omit<
  paths['/product/video/uploads']['post']['requestBody']['content']['application/json'],
  'sessionToken' | 'fileName'
>;

export interface UploadInput {
  file: Blob;
  fileName: string;
  fields: UploadFields;
  /** Sent as `Idempotency-Key`: a retry with the same key answers the first video and is charged once. */
  idempotencyKey?: string;
}

const idem = (k: string | undefined): Record<string, string> => (k ? { 'Idempotency-Key': k } : {});

/** Uploads a video in one multipart request (`POST /product/video/upload`); charged 1 CV per second. */
export async function uploadVideo(client: MocapClient, input: UploadInput): Promise<VideoView> {
  const form = new FormData();
  for (const [k, v] of Object.entries(input.fields)) {
    if (v === undefined || v === null) continue;
    form.set(k, Array.isArray(v) ? JSON.stringify(v) : String(v)); // tags: a JSON array
  }
  form.set('file', input.file, input.fileName);
  const r = await client.POST('/product/video/upload', {
    // multipart: the document names no JSON body for this operation; FormData is sent as it is
    body: form as never,
    bodySerializer: (b: unknown) => b as FormData,
    headers: idem(input.idempotencyKey),
  });
  return data(r as { data?: Envelope<VideoView>; error?: unknown; response: Response });
}

/**
 * Uploads a large video with an upload grant: `GET /product/cos/sts/upload` (credentials for one object), a PUT of
 * the bytes straight to the grant's `uploadUrl` (storage, or the server's own upload target), then the confirm
 * `POST /product/video/uploads` — the same checks, charge and capture as `uploadVideo`.
 */
export async function uploadLargeVideo(client: MocapClient, input: UploadInput): Promise<VideoView> {
  const grant = data(
    await client.GET('/product/cos/sts/upload', {
      params: { query: { fileName: input.fileName, size: input.file.size } },
    }),
  );
  const put = await fetchOf(client)(new URL(grant.uploadUrl, `${baseOf(client)}/`).toString(), {
    method: 'PUT',
    headers: grant.headers,
    body: input.file,
  });
  if (!put.ok) {
    const body = (await put.json().catch(() => null)) as Partial<Envelope<unknown>> | null;
    throw new MocapApiError(
      body?.code ?? put.status,
      body?.message ?? `upload PUT: HTTP ${put.status}`,
      put.status,
    );
  }
  return data(
    await client.POST('/product/video/uploads', {
      body: { ...input.fields, sessionToken: grant.credentials.sessionToken, fileName: input.fileName },
      headers: idem(input.idempotencyKey),
    }),
  );
}

const hex = (b: ArrayBuffer) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, '0')).join('');

/**
 * For webhook receivers: true when `header` (`Mocap-Signature: t=<unix s>,v1=<hex>`) signs the raw `body` with the
 * webhook's secret — HMAC-SHA256 of `"<t>.<body>"` — and `t` lies within `toleranceS` of `nowS` (a body replayed
 * later fails; a `Mocap-Delivery` id seen before is the receiver's to refuse).
 */
export async function verifyWebhook(
  secret: string,
  header: string | null | undefined,
  body: string,
  nowS = Date.now() / 1000,
  toleranceS = 300,
): Promise<boolean> {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec((header ?? '').trim());
  if (!m || Math.abs(nowS - Number(m[1])) > toleranceS) return false;
  const enc = new TextEncoder();
  const key = await globalThis.crypto.subtle.importKey(
    'raw',
    enc.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const want = hex(await globalThis.crypto.subtle.sign('HMAC', key, enc.encode(`${m[1]}.${body}`)));
  let diff = 0;
  for (let i = 0; i < 64; i++) diff |= want.charCodeAt(i) ^ m[2]!.charCodeAt(i);
  return diff === 0;
}
