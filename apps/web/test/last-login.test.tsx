// @vitest-environment happy-dom
/**
 * "Last login" in the account menu (issue 25): the login before the current one, from the session's user
 * (`previousLoginAt` of GET /auth/info), in local time; "first login" when there was none; nothing when the
 * server does not say.
 */
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { UserMenu } from '../src/components/TopBar.tsx';
import { setLangForTests } from '../src/lib/i18n.ts';
import { normaliseUser } from '../src/lib/types.ts';
import { renderAt } from './helpers.tsx';

afterEach(() => cleanup());

const userWith = (extra: Record<string, unknown>) =>
  normaliseUser({ user: { id: 7, email: 'ann@example.com', username: 'ann', type: 1, ...extra }, roles: [] });

const open = () => fireEvent.click(screen.getByTestId('user-email'));

describe('the account menu’s last login', () => {
  it('shows the previous login in local time (en and zh)', () => {
    const at = new Date(2026, 10, 25, 9, 5).getTime();
    setLangForTests('en');
    renderAt('/', [{ path: '/', element: <UserMenu /> }], userWith({ previousLoginAt: at }));
    open();
    expect(screen.getByTestId('last-login').textContent).toBe('Last login: 2026-11-25 09:05');
    cleanup();
    setLangForTests('zh');
    renderAt('/', [{ path: '/', element: <UserMenu /> }], userWith({ previousLoginAt: at }));
    open();
    expect(screen.getByTestId('last-login').textContent).toBe('上次登录：2026-11-25 09:05');
    setLangForTests('en');
  });

  it('says first login when there was none, and nothing when the server does not tell', () => {
    setLangForTests('en');
    renderAt('/', [{ path: '/', element: <UserMenu /> }], userWith({ previousLoginAt: null }));
    open();
    expect(screen.getByTestId('last-login').textContent).toBe('First login to this account');
    cleanup();
    renderAt('/', [{ path: '/', element: <UserMenu /> }], userWith({}));
    open();
    expect(screen.queryByTestId('last-login')).toBeNull();
  });
});
