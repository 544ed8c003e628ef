/**
 * Live processing progress: one server-sent event stream per video being made
 * (`GET /product/video/progress/{id}?token=` — EventSource cannot send headers). Events `progress`
 * {id, status, progress, position} while it changes, then `done` with the final state. When a stream cannot be
 * opened the page polls instead.
 */
import { getToken } from './cookies.ts';
import { normaliseStatus, type VideoStatus } from './types.ts';

export interface ProgressEvent {
  id: string;
  status: VideoStatus;
  progress: number;
  /** Jobs ahead in the queue (0 = next), null when not waiting. */
  position: number | null;
}

export function parseProgressEvent(data: string): ProgressEvent | null {
  try {
    const r = JSON.parse(data) as Record<string, unknown>;
    if (r.id === undefined || r.id === null) return null;
    return {
      id: String(r.id),
      status: normaliseStatus(r.status),
      progress: Math.max(0, Math.min(100, Number(r.progress) || 0)),
      position: r.position === null || r.position === undefined ? null : Number(r.position),
    };
  } catch {
    return null;
  }
}

export const progressStreamUrl = (id: string | number, token: string): string =>
  `/product/video/progress/${encodeURIComponent(String(id))}?token=${encodeURIComponent(token)}`;

/**
 * Follows one video. `onEvent` for every update, `onDone` once at the end (made/failed/deleted),
 * `onFallback` when the stream fails (the caller then polls). Returns the unsubscriber.
 */
export function followVideo(
  id: string | number,
  handlers: {
    onEvent: (e: ProgressEvent) => void;
    onDone: (e: ProgressEvent | null) => void;
    onFallback: () => void;
  },
): () => void {
  const token = getToken();
  if (!token || typeof EventSource === 'undefined') {
    handlers.onFallback();
    return () => undefined;
  }
  let es: EventSource | null = new EventSource(progressStreamUrl(id, token));
  let opened = false;
  let failures = 0;
  const close = () => {
    es?.close();
    es = null;
  };
  es.onopen = () => {
    opened = true;
    failures = 0;
  };
  const onProgress = (m: MessageEvent) => {
    const e = parseProgressEvent(String(m.data));
    if (e) handlers.onEvent(e);
  };
  es.addEventListener('progress', onProgress as EventListener);
  es.onmessage = onProgress;
  es.addEventListener('done', ((m: MessageEvent) => {
    close();
    handlers.onDone(parseProgressEvent(String(m.data)));
  }) as EventListener);
  es.onerror = () => {
    failures++;
    if (!opened || failures > 3) {
      close();
      handlers.onFallback();
    }
  };
  return close;
}
