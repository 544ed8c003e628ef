/** Component-test helpers: a fake /product server behind fetch and XHR, a session, a router. */
import { cleanup, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, vi } from 'vitest';
import { Guard } from '../src/components/Guard.tsx';
import { Messages } from '../src/components/Messages.tsx';
import { currentMessages, dismissMessage } from '../src/lib/messages.ts';
import { SessionProvider } from '../src/lib/session.tsx';
import { normaliseUser, normaliseVideo, type User } from '../src/lib/types.ts';

export type Handler = (body: unknown, url: URL) => unknown;

/** Envelope helpers. */
export const ok = (data: unknown) => ({ code: 0, message: 'success', data });

/** Routes `METHOD /path` (without /product) to handlers returning an envelope; records calls. */
export function fakeServer(routes: Record<string, Handler>) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const handle = (method: string, rawUrl: string, body: unknown) => {
    const url = new URL(rawUrl, 'http://localhost');
    const path = decodeURIComponent(url.pathname.replace(/^\/product/, ''));
    calls.push({ method, path, body });
    const h = routes[`${method} ${path}`];
    return h ? h(body, url) : { code: 404, message: 'interface does not exist' };
  };
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    const res = handle(init?.method ?? 'GET', String(input), body);
    return new Response(JSON.stringify(res), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock, handle };
}

export function makeUser(over: Partial<Record<string, unknown>> = {}, uploadCount = 1): User {
  return normaliseUser({
    user: { id: 1, email: 'ann@example.com', username: 'ann', surplus: 50, level: 'free', type: 1, ...over },
    roles: [],
    uploadCount,
  });
}

/** Renders `ui` at `path` inside the guard, a session and the message outlet. */
export function renderAt(path: string, routes: { path: string; element: ReactNode }[], user?: User | null) {
  const router = createMemoryRouter(
    routes.map((r) => ({ path: r.path, element: <Guard>{r.element}</Guard> })),
    { initialEntries: [path] },
  );
  const view = render(
    <SessionProvider initialUser={user ?? null}>
      <RouterProvider router={router} />
      <Messages />
    </SessionProvider>,
  );
  return { ...view, router };
}

export function setTokenCookie(token: string | null): void {
  // biome-ignore lint/suspicious/noDocumentCookie: test setup of the product's token cookie
  document.cookie = token
    ? `mocap_v1_token=${token}; path=/`
    : 'mocap_v1_token=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
}

/**
 * A made video (id 9, "Dance", 5 s, one free remake) of `boneType`, as the list answers it, with `over` on top:
 * the video the dialog and card tests open.
 */
export const madeVideo = (boneType: string, over: Record<string, unknown> = {}) =>
  normaliseVideo(
    { id: 9, name: 'Dance', status: 2, duration: 5, boneType, creatorId: 1, freeRemakes: 1, ...over },
    makeUser(),
  );

/**
 * A clean page around each test of a file: no message shown and no token before it; after it, the DOM unmounted,
 * stubbed globals (the fake server) and spies restored.
 */
export function cleanSlate(): void {
  beforeEach(() => {
    for (const m of currentMessages()) dismissMessage(m.id);
    setTokenCookie(null);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
}

/**
 * `nav` (the sidebar or the phone tab bar) at `at` for `user`, logged in, beside placeholder pages (path → the
 * text each shows), so that a test sees where an entry leads.
 */
export function renderNav(nav: ReactNode, user: User, pages: Record<string, string> = {}, at = '/x') {
  setTokenCookie('t');
  const placeholders = Object.entries(pages).map(([path, text]) => ({ path, element: <div>{text}</div> }));
  return renderAt(at, [{ path: at, element: nav }, ...placeholders], user);
}

/**
 * The routes of the download dialog for someone else's square video 9 (bone types, its Mixamo zip, the offer:
 * 5 s at 5 V with `offer` on top).
 */
export const squareVideoRoutes = (offer: Record<string, unknown>): Record<string, Handler> => ({
  'GET /motion/boneTypes': () => ok([]),
  'GET /motion/video/9': () => ok({ zips: [{ boneType: 'Mixamo', format: 'fbx', allowed: true }] }),
  'GET /motion/preMotionDownload/9': () => ok({ id: 9, duration: 5, price: 5, ...offer }),
});

/**
 * A logged-in fake server for the remake dialog: `POST /video/videoRedo` answers `answer(body)` and records each
 * body in the returned list; the account has 47 V after.
 */
export function remakeServer(answer: (body: unknown) => unknown): unknown[] {
  setTokenCookie('t');
  const bodies: unknown[] = [];
  fakeServer({
    'GET /motion/boneTypes': () => ok([]),
    'POST /video/videoRedo': (b) => {
      bodies.push(b);
      return answer(b);
    },
    'GET /auth/info': () => ok({ user: { id: 1, surplus: 47, level: 'free' }, roles: [], uploadCount: 1 }),
  });
  return bodies;
}

/** URL.createObjectURL/revokeObjectURL stubbed (happy-dom has none): every object URL is `blob:x`. */
export const stubObjectUrls = (): void => {
  vi.stubGlobal(
    'URL',
    Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined }),
  );
};
