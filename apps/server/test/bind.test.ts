/**
 * `/user/bind/{provider}/-` (spec §7 lists `POST and GET /user/bind/{a}/{b}` without more): binding a
 * third-party account through the provider interface behind `/passport/3rd/login` (the dev provider here), on
 * SQLite and PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import { Codes } from '../src/errors.ts';
import { BindMessages } from '../src/modules/user/service.ts';
import { databases, useServer } from './harness.ts';

interface Binding {
  provider: string;
  bound: boolean;
  externalId: string | null;
  boundAt: number | null;
  created?: boolean;
}

describe.each(databases)('binding third-party accounts on %s', (kind) => {
  const t = useServer(kind, { env: { TEST_LOGIN_PROVIDER: '1' } });

  it('binds, then third-party login with that account logs into mine; again is a no-op', async () => {
    const a = await t.register('binder-a@example.com');
    const before = await t.call<Binding>('GET', '/product/user/bind/dev/-', { token: a.token });
    expect(before).toMatchObject({
      code: 0,
      data: { provider: 'dev', bound: false, externalId: null, boundAt: null },
    });

    // The code travels in the body; the third-party e-mail differs from the account's.
    const bound = await t.call<Binding>('POST', '/product/user/bind/dev/-', {
      token: a.token,
      body: { code: 'dev:A.Elsewhere@example.org:A at the provider' },
    });
    expect(bound).toMatchObject({
      code: 0,
      data: { provider: 'dev', bound: true, externalId: 'a.elsewhere@example.org', created: true },
    });
    expect(bound.data.boundAt).toBe(t.clock.now());
    const again = await t.call<Binding>('POST', '/product/user/bind/dev/-', {
      token: a.token,
      body: { code: 'dev:a.elsewhere@example.org' },
    });
    expect(again).toMatchObject({ code: 0, data: { bound: true, created: false } });
    expect((await t.call<Binding>('GET', '/product/user/bind/dev/-', { token: a.token })).data).toMatchObject(
      {
        bound: true,
        externalId: 'a.elsewhere@example.org',
      },
    );

    // Logging in with the bound third-party account opens A's account (no new account for that e-mail).
    const login = await t.call<{ created: boolean; user: { id: number; email: string } }>(
      'POST',
      '/product/passport/3rd/login',
      { body: { provider: 'dev', code: 'dev:a.elsewhere@example.org' } },
    );
    expect(login).toMatchObject({
      code: 0,
      data: { created: false, user: { id: a.id, email: 'binder-a@example.com' } },
    });
  });

  it('refuses a third-party account bound elsewhere, and a second one of the same provider; unbinding frees it', async () => {
    const a = await t.register('owner-a@example.com');
    const b = await t.register('owner-b@example.com');
    const code = 'dev:shared@example.org';
    expect((await t.call('POST', '/product/user/bind/dev/-', { token: a.token, body: { code } })).code).toBe(
      0,
    );

    const taken = await t.call('POST', '/product/user/bind/dev/-', { token: b.token, body: { code } });
    expect(taken).toMatchObject({ code: Codes.REFUSED, message: BindMessages.TAKEN });
    const second = await t.call('POST', '/product/user/bind/dev/-', {
      token: a.token,
      body: { code: 'dev:another@example.org' },
    });
    expect(second).toMatchObject({ code: Codes.REFUSED, message: BindMessages.OTHER_BOUND });
    // Nothing was bound by the refused calls.
    expect((await t.call<Binding>('GET', '/product/user/bind/dev/-', { token: b.token })).data.bound).toBe(
      false,
    );
    expect(
      (await t.call<Binding>('GET', '/product/user/bind/dev/-', { token: a.token })).data.externalId,
    ).toBe('shared@example.org');

    const removed = await t.call<{ removed: boolean }>('DELETE', '/product/user/bind/dev/-', {
      token: a.token,
    });
    expect(removed).toMatchObject({ code: 0, data: { removed: true } });
    expect(
      (await t.call<{ removed: boolean }>('DELETE', '/product/user/bind/dev/-', { token: a.token })).data
        .removed,
    ).toBe(false);
    expect((await t.call<Binding>('GET', '/product/user/bind/dev/-', { token: a.token })).data.bound).toBe(
      false,
    );
    const nowB = await t.call<Binding>('POST', '/product/user/bind/dev/-', {
      token: b.token,
      body: { code },
    });
    expect(nowB).toMatchObject({ code: 0, data: { bound: true, created: true } });
    const login = await t.call<{ user: { id: number } }>('POST', '/product/passport/3rd/login', {
      body: { provider: 'dev', code },
    });
    expect(login.data.user.id).toBe(b.id);
  });

  it('needs a live session, a known provider and a valid code', async () => {
    const u = await t.register('binder-c@example.com');
    const body = { code: 'dev:c-elsewhere@example.org' };
    expect((await t.call('POST', '/product/user/bind/dev/-', { body })).code).toBe(Codes.UNAUTHENTICATED);
    expect((await t.call('GET', '/product/user/bind/dev/-')).code).toBe(Codes.UNAUTHENTICATED);
    const unknown = await t.call('POST', '/product/user/bind/nope/-', { token: u.token, body });
    expect(unknown.code).toBe(Codes.PARAMETER_ERROR);
    const garbage = await t.call('POST', '/product/user/bind/dev/-', {
      token: u.token,
      body: { code: 'not-a-dev-code' },
    });
    expect(garbage.code).toBe(Codes.AUTH_FAILED);
    expect((await t.call('POST', '/product/user/bind/dev/-', { token: u.token, body: {} })).code).toBe(
      Codes.PARAMETER_ERROR,
    );
    expect((await t.call('GET', '/product/user/bind/bad%20name/-', { token: u.token })).code).toBe(
      Codes.PARAMETER_ERROR,
    );
    // A logged-out token binds nothing.
    expect((await t.call('DELETE', '/product/auth/logout', { token: u.token })).code).toBe(0);
    const after = await t.call('POST', '/product/user/bind/dev/-', { token: u.token, body });
    expect(after.code).toBe(Codes.LOGIN_TIMEOUT);
    const login = await t.call<{ created: boolean; user: { id: number } }>(
      'POST',
      '/product/passport/3rd/login',
      {
        body: { provider: 'dev', code: body.code },
      },
    );
    expect(login.data.created).toBe(true);
    expect(login.data.user.id).not.toBe(u.id);
  });
});
