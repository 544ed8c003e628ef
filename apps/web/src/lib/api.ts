/**
 * The shared API client (spec §7/§8): base `/product`, 60 s timeout, JSON bodies, `Authorization: Bearer` when
 * logged in, every answer read through the envelope rules of `envelope.ts`. Uploads go through XHR so the page
 * can show a progress bar.
 */
import { clearToken, getToken } from './cookies.ts';
import { ApiError, type Envelope, interpretEnvelope, type Outcome, type QuietKind } from './envelope.ts';
import { getLang, hasKey, localiseServerMessage, t } from './i18n.ts';
import { showMessage } from './messages.ts';

export const API_BASE = '/product';
export const API_TIMEOUT_MS = 60_000;

/** Where a forced logout sends the user (full reload, caches gone). */
export const APP_BASE = '/capture';
export const loginUrl = (): string => `${APP_BASE}/login`;

let logoutInProgress = false;
let redirect: (url: string) => void = (u) => location.assign(u);

/** Tests replace the full-page navigation of a forced logout. */
export function setLogoutRedirect(fn: (url: string) => void): void {
  redirect = fn;
  logoutInProgress = false;
}

/** Clears the token and every cache, then reloads on the login page (spec §4 Logout). */
export function forceLogout(message?: string, go: (url: string) => void = redirect): void {
  clearToken();
  try {
    sessionStorage.clear();
  } catch {
    /* storage may be unavailable */
  }
  for (const fn of cacheClearers) fn();
  if (message) showMessage(message, { type: 'error' });
  if (logoutInProgress) return;
  logoutInProgress = true;
  // Let the message be seen for a moment before the reload.
  setTimeout(() => go(loginUrl()), message ? 1200 : 0);
}

const cacheClearers: (() => void)[] = [];
export const onCachesCleared = (fn: () => void): void => {
  cacheClearers.push(fn);
};

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  /** This call handles code 300 itself (spec §8). */
  quiet?: QuietKind;
  /** A background call whose failure the user need not hear about (optional data); forced logout still acts. */
  silent?: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export function buildUrl(path: string, query?: RequestOptions['query']): string {
  const p = path.startsWith('/') ? path : `/${path}`;
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) qs.set(k, String(v));
  const s = qs.toString();
  return `${API_BASE}${p}${s ? `?${s}` : ''}`;
}

export function authHeaders(): Record<string, string> {
  const token = getToken();
  return {
    'Accept-Language': getLang() === 'zh' ? 'zh-CN' : 'en',
    ...(token ? { Authorization: `Bearer ${token}` } : {}),
  };
}

/** Acts on an outcome: logs out, shows the message or stays silent; returns data or throws ApiError. */
export function settle<T>(outcome: Outcome<T>, silent = false): T {
  switch (outcome.kind) {
    case 'ok':
      return outcome.data;
    case 'logout': {
      const msg = localiseServerMessage(outcome.message);
      forceLogout(msg);
      throw new ApiError(outcome.code, msg, true, 'logout');
    }
    case 'show': {
      const msg = localiseServerMessage(outcome.message);
      if (silent) throw new ApiError(outcome.code, msg, false, 'silent');
      showMessage(msg, { type: 'error' });
      throw new ApiError(outcome.code, msg, true, 'show');
    }
    case 'silent':
      throw new ApiError(outcome.code, localiseServerMessage(outcome.message), false, 'silent');
  }
}

function timeoutError(silent = false): ApiError {
  const msg = t('net.timeout');
  if (!silent) showMessage(msg, { type: 'error' });
  return new ApiError(null, msg, !silent, 'timeout');
}

export async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const ctrl = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ctrl.abort();
  }, opts.timeoutMs ?? API_TIMEOUT_MS);
  const onOuterAbort = () => ctrl.abort();
  opts.signal?.addEventListener('abort', onOuterAbort);
  let res: Response;
  try {
    res = await fetch(buildUrl(path, opts.query), {
      method,
      headers: {
        ...authHeaders(),
        ...(opts.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
      signal: ctrl.signal,
    });
  } catch {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onOuterAbort);
    if (timedOut) throw timeoutError(opts.silent);
    if (opts.signal?.aborted) throw new ApiError(null, 'aborted', false, 'aborted');
    const msg = t('net.network');
    if (!opts.silent) showMessage(msg, { type: 'error' });
    throw new ApiError(null, msg, !opts.silent, 'network');
  }
  let body: Envelope<T> | null = null;
  try {
    body = (await res.json()) as Envelope<T>;
  } catch {
    if (timedOut) throw timeoutError(opts.silent);
    body = null;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onOuterAbort);
  }
  return settle(interpretEnvelope<T>(body, t, hasKey, opts.quiet), opts.silent);
}

export const api = {
  get: <T>(path: string, opts?: RequestOptions) => request<T>('GET', path, opts),
  post: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
    request<T>('POST', path, { ...opts, body: body ?? {} }),
  put: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
    request<T>('PUT', path, { ...opts, body: body ?? {} }),
  del: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
    request<T>('DELETE', path, body === undefined ? opts : { ...opts, body }),
};

export interface UploadHandle<T> {
  promise: Promise<T>;
  abort: () => void;
}

/**
 * Sends `body` with an opened `xhr` and settles by `on`: `load` gives the result (or throws to reject), `error` and
 * `timeout` the error to reject with; a user's abort rejects as 'aborted'. The 60 s timeout is an idle timeout: it
 * restarts on every progress event (reported as a fraction), so a large file on a slow line is not cut off while
 * bytes still move.
 */
export function sendWithProgress<T>(
  xhr: XMLHttpRequest,
  body: XMLHttpRequestBodyInit,
  onProgress: (fraction: number) => void,
  on: { load: () => T; error: () => Error; timeout: () => Error },
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timedOut = false;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      xhr.abort();
    }, API_TIMEOUT_MS);
  };
  return new Promise<T>((resolve, reject) => {
    const settled = (f: () => void) => () => {
      clearTimeout(timer);
      f();
    };
    xhr.upload.onprogress = (e) => {
      arm();
      if (e.lengthComputable && e.total > 0) onProgress(Math.min(1, e.loaded / e.total));
    };
    xhr.onload = settled(() => {
      try {
        resolve(on.load());
      } catch (e) {
        reject(e);
      }
    });
    xhr.onerror = settled(() => reject(on.error()));
    xhr.onabort = settled(() =>
      reject(timedOut ? on.timeout() : new ApiError(null, 'aborted', false, 'aborted')),
    );
    arm();
    xhr.send(body);
  });
}

/**
 * Multipart upload with progress. The 60 s timeout is an idle timeout here: it restarts on every progress
 * event, so a large file on a slow line is not cut off while bytes still move.
 */
export function upload<T>(
  path: string,
  form: FormData,
  onProgress: (fraction: number) => void,
  quiet?: QuietKind,
): UploadHandle<T> {
  const xhr = new XMLHttpRequest();
  xhr.open('POST', buildUrl(path));
  for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
  const promise = sendWithProgress<T>(xhr, form, onProgress, {
    load: () => {
      let body: Envelope<T> | null = null;
      try {
        body = JSON.parse(xhr.responseText) as Envelope<T>;
      } catch {
        body = null;
      }
      return settle(interpretEnvelope<T>(body, t, hasKey, quiet));
    },
    error: () => {
      const msg = t('net.network');
      showMessage(msg, { type: 'error' });
      return new ApiError(null, msg, true, 'network');
    },
    timeout: () => timeoutError(),
  });
  return { promise, abort: () => xhr.abort() };
}
