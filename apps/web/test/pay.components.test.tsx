// @vitest-environment happy-dom
/**
 * The payment modal's rules (spec §4) against a fake /product: not logged in → Login; the same price keeps the QR,
 * a new price makes a new order; the 2 s poll turns ok; the countdown runs out → fail → closed, price reset, and the
 * next opening starts at 300 s with WeChat; a refused payment closes the modal; closing refreshes the user.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Messages } from '../src/components/Messages.tsx';
import { FAIL_CLOSE_MS, PayModal } from '../src/components/PayModal.tsx';
import { setLangForTests } from '../src/lib/i18n.ts';
import type { Goods } from '../src/lib/pay.ts';
import { SessionProvider } from '../src/lib/session.tsx';
import { fakeServer, makeUser, ok, setTokenCookie } from './helpers.tsx';

setLangForTests('en');

const goods = (id: number, price: number): Goods => ({
  id,
  kind: 'plan',
  name: id === 1 ? 'monthly' : 'yearly',
  title: `plan ${id}`,
  price,
  listPrice: null,
  offPercent: null,
  level: id === 1 ? 'monthly' : 'yearly',
  days: 30,
  coins: 1000,
});
const MONTHLY = goods(1, 9900);
const YEARLY = goods(2, 77900);

let expired = 0;
function Host() {
  const [g, setG] = useState<Goods | null>(null);
  const [open, setOpen] = useState(false);
  return (
    <>
      {(
        [
          ['open-monthly', MONTHLY],
          ['open-yearly', YEARLY],
        ] as const
      ).map(([label, goods]) => (
        <button
          key={label}
          type="button"
          onClick={() => {
            setG(goods);
            setOpen(true);
          }}
        >
          {label}
        </button>
      ))}
      <span data-testid="selected">{g ? g.id : 'none'}</span>
      <PayModal
        goods={g}
        open={open}
        onClose={() => setOpen(false)}
        onExpired={() => {
          expired++;
          setG(null);
        }}
      />
    </>
  );
}

function mount(loggedIn = true) {
  setTokenCookie(loggedIn ? 'tok' : null);
  const router = createMemoryRouter(
    [
      { path: '/pay', element: <Host /> },
      { path: '/login', element: <div>login page</div> },
    ],
    { initialEntries: ['/pay'] },
  );
  render(
    <SessionProvider initialUser={loggedIn ? makeUser() : null}>
      <RouterProvider router={router} />
      <Messages />
    </SessionProvider>,
  );
  return router;
}

const flush = async (ms = 0) => {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
};

/** The QR once the order and its image are made (real async work: the fake clock does not move meanwhile). */
async function qrShown(): Promise<HTMLElement> {
  for (let i = 0; i < 5000; i++) {
    const el = screen.queryByTestId('pay-qr');
    if (el) return el;
    await act(async () => {
      await new Promise((r) => setImmediate(r));
    });
  }
  throw new Error('no QR');
}

describe('payment modal', () => {
  let n = 0;
  let paid = new Set<string>();
  let server: ReturnType<typeof fakeServer>;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval', 'Date'] });
    n = 0;
    expired = 0;
    paid = new Set();
    server = fakeServer({
      'POST /wx/prepay/1': () =>
        ok({ url: `http://sandbox/phone/${++n}`, orderNo: `MC${n}`, amount: 9900, expiresAt: 0 }),
      'POST /wx/prepay/2': () =>
        ok({ url: `http://sandbox/phone/${++n}`, orderNo: `MC${n}`, amount: 77900, expiresAt: 0 }),
      'GET /auth/info': () =>
        ok({ user: { id: 1, email: 'ann@example.com', level: 'monthly', surplus: 1050 }, roles: [] }),
    });
    // Orders are paid when the test says so.
    const orig = server.handle;
    server.fetchMock.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const m = /\/wx\/order\/(\w+)/.exec(String(input));
      const res = m
        ? ok(paid.has(m[1]))
        : orig(init?.method ?? 'GET', String(input), init?.body ? JSON.parse(String(init.body)) : undefined);
      return new Response(JSON.stringify(res), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    });
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  const prepays = () => server.calls.filter((c) => c.path.startsWith('/wx/prepay')).length;
  const polls = () => server.fetchMock.mock.calls.filter(([u]) => /\/wx\/order\//.test(String(u))).length;

  it('not logged in: opening goes to Login', async () => {
    const router = mount(false);
    fireEvent.click(screen.getByText('open-monthly'));
    await flush();
    expect(router.state.location.pathname).toBe('/login');
    expect(prepays()).toBe(0);
  });

  it('same price keeps the QR; a new price makes a new order; the 2 s poll turns ok; closing refreshes the user', async () => {
    mount();
    fireEvent.click(screen.getByText('open-monthly'));
    await flush(10);
    const qr = await qrShown();
    expect(qr.getAttribute('data-url')).toBe('http://sandbox/phone/1');
    expect(screen.getByTestId('pay-countdown').textContent).toContain('05:00');
    fireEvent.click(screen.getByLabelText('Close'));
    await flush(10);
    expect(server.calls.some((c) => c.path === '/auth/info')).toBe(true);
    fireEvent.click(screen.getByText('open-monthly'));
    await flush(10);
    expect(screen.getByTestId('pay-qr').getAttribute('data-url')).toBe('http://sandbox/phone/1');
    expect(prepays()).toBe(1);
    fireEvent.click(screen.getByLabelText('Close'));
    fireEvent.click(screen.getByText('open-yearly'));
    await flush(10);
    expect((await qrShown()).getAttribute('data-url')).toBe('http://sandbox/phone/2');
    expect(prepays()).toBe(2);
    // Polled every 2 s while waiting.
    const before = polls();
    await flush(6000);
    expect(polls() - before).toBe(3);
    paid.add('MC2');
    await flush(2000);
    expect(screen.getByTestId('pay-ok')).toBeTruthy();
    // No more polls once ok.
    const after = polls();
    await flush(6000);
    expect(polls()).toBe(after);
  });

  it('the countdown runs out: fail, then closed with the price reset; reopening starts at 300 s with WeChat', async () => {
    mount();
    fireEvent.click(screen.getByText('open-monthly'));
    await flush(10);
    await qrShown();
    fireEvent.click(screen.getByRole('radio', { name: /Alipay/ }));
    await flush(299_000);
    expect(screen.queryByTestId('pay-fail')).toBeNull();
    expect(screen.getByTestId('pay-wait')).toBeTruthy();
    await flush(1_000);
    expect(screen.getByTestId('pay-fail')).toBeTruthy();
    await flush(FAIL_CLOSE_MS);
    expect(screen.queryByTestId('pay-fail')).toBeNull();
    expect(document.querySelector('.pay-modal')).toBeNull();
    expect(expired).toBe(1);
    expect(screen.getByTestId('selected').textContent).toBe('none');
    fireEvent.click(screen.getByText('open-monthly'));
    await flush(10);
    await qrShown();
    expect(screen.getByRole('radio', { name: /WeChat/ }).getAttribute('aria-checked')).toBe('true');
    expect(screen.getByTestId('pay-countdown').textContent).toContain('05:00');
    expect(prepays()).toBe(2);
    // The new opening asks for a fresh order: the first one was not renewed, the second is.
    const urls = server.fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => u.includes('/wx/prepay/'));
    expect(urls.map((u) => u.includes('renew=1'))).toEqual([false, true]);
  });

  it('a refused payment closes the modal with the message and starts no timers', async () => {
    server.fetchMock.mockImplementation(
      async () =>
        new Response(JSON.stringify({ code: 307, message: '企业用户无法购买该类型商品', data: null }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
    );
    mount();
    fireEvent.click(screen.getByText('open-monthly'));
    await flush(10);
    expect(document.querySelector('.pay-modal')).toBeNull();
    expect(document.body.textContent).toContain('Company accounts cannot buy this type of goods.');
    const calls = server.fetchMock.mock.calls.length;
    await flush(10_000);
    expect(server.fetchMock.mock.calls.filter(([u]) => /\/wx\/order\//.test(String(u))).length).toBe(0);
    expect(server.fetchMock.mock.calls.length - calls).toBeLessThanOrEqual(1);
  });
});
