// @vitest-environment happy-dom
/**
 * Spec §4 "A login response code 700 is rejected" (issue 25): a login answered 700 stores no token, loads no
 * user, stays on the login page and tells the user; the same form with code 0 logs in.
 */
import { generateKeyPairSync } from 'node:crypto';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getToken } from '../src/lib/cookies.ts';
import { setLangForTests } from '../src/lib/i18n.ts';
import { currentMessages } from '../src/lib/messages.ts';
import { LoginPage } from '../src/pages/Auth.tsx';
import { cleanSlate, fakeServer, ok, renderAt } from './helpers.tsx';

setLangForTests('en');
const { publicKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});

cleanSlate();

const submit = () => {
  const set = (name: string, value: string) =>
    fireEvent.change(document.querySelector(`form input[name="${name}"]`) as HTMLInputElement, {
      target: { value },
    });
  set('email', 'ann@example.com');
  set('password', 'secret-1');
  fireEvent.submit(document.querySelector('form') as HTMLFormElement);
};

describe('login response code 700', () => {
  it('is rejected: no token, no user info, the message is shown, the page stays', async () => {
    const srv = fakeServer({
      'GET /auth/publicKey': () => ok({ publicKey }),
      'POST /auth/login': () => ({
        code: 700,
        message: 'login rejected by the server',
        data: { token: 'never' },
      }),
      'GET /auth/info': () => ok({ user: { id: 1, email: 'ann@example.com' }, roles: [] }),
    });
    renderAt('/login', [
      { path: '/login', element: <LoginPage /> },
      { path: '/index/myPro', element: <div>home</div> },
    ]);
    submit();
    await waitFor(() => expect(srv.calls.some((c) => c.path === '/auth/login')).toBe(true));
    await waitFor(() =>
      expect(currentMessages().map((m) => m.text)).toContain('login rejected by the server'),
    );
    expect(getToken()).toBeUndefined();
    expect(srv.calls.some((c) => c.path === '/auth/info')).toBe(false);
    expect(screen.queryByText('home')).toBeNull();
  });

  it('code 0 with the same form logs in (the test can fail)', async () => {
    fakeServer({
      'GET /auth/publicKey': () => ok({ publicKey }),
      'POST /auth/login': () => ok({ token: 'tok-1' }),
      'GET /auth/info': () => ok({ user: { id: 1, email: 'ann@example.com', type: 1 }, roles: [] }),
      'POST /user/saveLastLogin': () => ok(null),
      'GET /auth/enhanced/purchasing': () => ok(0),
      'GET /user/sku/role': () => ok({ isMonthly: false, isYear: false }),
    });
    renderAt('/login', [
      { path: '/login', element: <LoginPage /> },
      { path: '/index/myPro', element: <div>home</div> },
    ]);
    submit();
    expect(await screen.findByText('home')).toBeTruthy();
    expect(getToken()).toBe('tok-1');
  });
});
