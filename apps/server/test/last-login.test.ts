/**
 * "Last login" (issue 25): each login moves the account's last login (time, IP) to the previous login, which the
 * session's user (GET /auth/info) carries as `previousLoginAt` for the account menu; POST /user/saveLastLogin,
 * which the web sends right after signing in, refreshes the last login without moving it again. SQLite and
 * PostgreSQL (the latter skipped without a local server unless CI=true).
 */
import { describe, expect, it } from 'vitest';
import { databases, useServer } from './harness.ts';

type Info = { user: { id: number; lastLoginAt: number | null; previousLoginAt: number | null } };

for (const kind of databases) {
  describe(`last login on ${kind}`, () => {
    const t = useServer(kind);
    const login = async (email: string, ip: string) => {
      const r = await t.call<{ token: string }>('POST', '/product/auth/login', {
        body: { username: email, password: t.encrypt('secret-pass') },
        ip,
      });
      expect(r.code, r.message).toBe(0);
      return r.data.token;
    };
    const info = async (token: string) =>
      (await t.call<Info>('GET', '/product/auth/info', { token })).data.user;

    it('shows the login before the current one, unchanged by saveLastLogin', async () => {
      const email = 'last-login@example.com';
      const reg = await t.register(email);
      expect((await info(reg.token)).previousLoginAt ?? null).toBeNull();

      t.clock.advance(3_600_000);
      const first = t.clock.now();
      const a = await login(email, '10.1.1.1');
      // The first login: nothing before it.
      expect((await info(a)).previousLoginAt).toBeNull();
      expect((await info(a)).lastLoginAt).toBe(first);

      t.clock.advance(86_400_000);
      const second = t.clock.now();
      const b = await login(email, '10.2.2.2');
      expect((await info(b)).previousLoginAt).toBe(first);
      expect((await info(b)).lastLoginAt).toBe(second);

      // The web's saveLastLogin after signing in refreshes the last login only.
      t.clock.advance(2_000);
      expect(
        (await t.call('POST', '/product/user/saveLastLogin', { token: b, body: {}, ip: '10.2.2.9' })).code,
      ).toBe(0);
      const after = await info(b);
      expect(after.previousLoginAt).toBe(first);
      expect(after.lastLoginAt).toBe(second + 2_000);
      const record = await t.infra.store.repos.users.findById(reg.id);
      expect(record?.previousLoginIp).toBe('10.1.1.1');

      // The next login shows the refreshed one.
      t.clock.advance(60_000);
      const c = await login(email, '10.3.3.3');
      expect((await info(c)).previousLoginAt).toBe(second + 2_000);
      expect((await t.infra.store.repos.users.findById(reg.id))?.previousLoginIp).toBe('10.2.2.9');
    });
  });
}
