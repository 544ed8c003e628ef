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
