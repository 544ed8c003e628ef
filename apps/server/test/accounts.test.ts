/**
 * Accounts through the HTTP API on SQLite and PostgreSQL: codes and their throttle, registration, RSA login,
 * info, logout revocation, rate limits, blacklist, reset, company accounts, user centre, referrals, third-party
 * login, validation errors in the envelope.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Codes, Messages } from '../src/errors.ts';
import { readOutbox } from '../src/infra/mail/index.ts';
import { databases, useServer } from './harness.ts';

interface Info {
  user: {
    id: number;
    email: string;
    surplus: number;
    level: string;
    type: number;
    uploadCount: number;
    username: string;
  };
  roles: string[];
}

describe.each(databases)('accounts on %s', (kind) => {
  const t = useServer(kind, { env: { TEST_LOGIN_PROVIDER: '1' } });

  it('publishes an RSA public key (SPKI PEM, RSA-OAEP-256)', async () => {
    const r = await t.call<{ publicKey: string; algorithm: string }>('GET', '/product/auth/publicKey');
    expect(r.code).toBe(0);
    expect(r.data.publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(r.data.algorithm).toBe('RSA-OAEP-256');
  });

  it('registers with a mailed 4-digit code and starts with 50 V and one ledger row', async () => {
    const email = 'Alice@Example.com';
    const sent = await t.call('POST', `/product/code/${encodeURIComponent(email)}/1`);
    expect(sent.code).toBe(0);
    const code = await t.lastCode('alice@example.com');
    expect(code).toMatch(/^\d{4}$/);

    // Resending at once is refused with the spec's message.
    const again = await t.call('POST', `/product/code/${encodeURIComponent(email)}/1`);
    expect(again).toMatchObject({ code: Codes.REFUSED, message: Messages.RESEND });

    const password = t.encrypt('correct horse');
    const bad = await t.call('POST', '/product/user/register', {
      body: { email, password, code: code === '0000' ? '0001' : '0000' },
    });
    expect(bad).toMatchObject({ code: Codes.WRONG_CODE, message: Messages.WRONG_CODE });
    const malformed = await t.call('POST', '/product/user/register', {
      body: { email, password, code: '12a' },
    });
    expect(malformed).toMatchObject({ code: Codes.REFUSED, message: Messages.CODE_FORMAT });
    const mismatch = await t.call('POST', '/product/user/register', {
      body: { email, password, confirmPassword: t.encrypt('other horse'), code },
    });
    expect(mismatch).toMatchObject({ code: Codes.REFUSED, message: Messages.PASSWORDS_DIFFER });

    const ok = await t.call<{ token: string; user: { email: string; surplus: number } }>(
      'POST',
      '/product/user/register',
      {
        body: { email, password, code },
      },
    );
    expect(ok.code).toBe(0);
    expect(ok.data.user).toMatchObject({ email: 'alice@example.com', surplus: 50 });

    // The code is single-use; the address is now taken, which only its mailbox is told (issue 13.6).
    const reuse = await t.call('POST', '/product/user/register', { body: { email, password, code } });
    expect(reuse.code).toBe(Codes.WRONG_CODE);
    t.clock.advance(61_000);
    expect((await t.call('POST', `/product/code/${encodeURIComponent(email)}/1`)).code).toBe(0);

    const info = await t.call<Info>('GET', '/product/auth/info', { token: ok.data.token });
    expect(info.code).toBe(0);
    expect(info.data.user).toMatchObject({
      email: 'alice@example.com',
      surplus: 50,
      level: 'free',
      type: 1,
      uploadCount: 0,
    });
    expect(info.data.roles).toEqual(['user']);
    const records = await t.call<{
      list: { reason: string; amount: number; balanceAfter: number }[];
      balance: number;
    }>('POST', '/product/user/surplus/record', { token: ok.data.token, body: {} });
    expect(records.data.balance).toBe(50);
    expect(records.data.list).toEqual([
      expect.objectContaining({ reason: 'signup', amount: 50, balanceAfter: 50 }),
    ]);
  });

  it('a wrong code burns an attempt; after 5 the code is dead', async () => {
    const email = 'tries@example.com';
    await t.call('POST', `/product/code/${email}/1`);
    const code = await t.lastCode(email);
    const wrong = code === '9999' ? '9998' : '9999';
    for (let i = 0; i < 5; i++)
      expect(
        (
          await t.call('POST', '/product/user/register', {
            body: { email, password: t.encrypt('pw123456'), code: wrong },
          })
        ).code,
      ).toBe(Codes.WRONG_CODE);
    const late = await t.call('POST', '/product/user/register', {
      body: { email, password: t.encrypt('pw123456'), code },
    });
    expect(late.code).toBe(Codes.WRONG_CODE);
  });

  it('logs in with the encrypted password, refuses wrong ones, and logout revokes the token', async () => {
    await t.register('bob@example.com', { password: 'bob-password' });
    const wrong = await t.call('POST', '/product/auth/login', {
      body: { username: 'bob@example.com', password: t.encrypt('nope-nope') },
    });
    expect(wrong.code).toBe(Codes.BAD_CREDENTIALS);
    const unknown = await t.call('POST', '/product/auth/login', {
      body: { username: 'nobody@example.com', password: t.encrypt('bob-password') },
    });
    expect(unknown.code).toBe(Codes.BAD_CREDENTIALS);
    expect(
      await t.call('POST', '/product/auth/login', { body: { username: '  ', password: t.encrypt('x') } }),
    ).toMatchObject({ code: Codes.USERNAME_EMPTY, message: Messages.USERNAME_REQUIRED });
    expect(
      await t.call('POST', '/product/auth/login', { body: { username: 'bob@example.com' } }),
    ).toMatchObject({
      code: Codes.PASSWORD_EMPTY,
      message: Messages.PASSWORD_REQUIRED,
    });
    // A clear-text password is not accepted.
    const clear = await t.call('POST', '/product/auth/login', {
      body: { username: 'bob@example.com', password: 'bob-password' },
    });
    expect(clear.code).toBe(Codes.AUTH_FAILED);

    const login = await t.call<{ token: string }>('POST', '/product/auth/login', {
      body: { username: ' Bob@Example.com ', password: t.encrypt('bob-password') },
    });
    expect(login).toMatchObject({ code: 0, message: Messages.LOGIN_SUCCESS });
    const token = login.data.token;
    expect((await t.call('GET', '/product/auth/info', { token })).code).toBe(0);
    expect((await t.call('DELETE', '/product/auth/logout', { token })).code).toBe(0);
    const after = await t.call('GET', '/product/auth/info', { token });
    expect(after.code).toBe(Codes.LOGIN_TIMEOUT);
    expect((await t.call('POST', '/product/user/surplus/record', { token, body: {} })).code).toBe(
      Codes.LOGIN_TIMEOUT,
    );

    expect((await t.call('GET', '/product/auth/info')).code).toBe(Codes.UNAUTHENTICATED);
    expect((await t.call('GET', '/product/auth/info', { token: 'made-up' })).code).toBe(
      Codes.UNAUTHENTICATED,
    );
    expect(
      (await t.call('GET', '/product/auth/info', { headers: { authorization: 'Basic abc' } })).code,
    ).toBe(Codes.HEADER_ERROR);
  });

  it('logout with all=true ends every session of the account', async () => {
    const { token } = await t.register('many@example.com', { password: 'many-password' });
    const other = await t.call<{ token: string }>('POST', '/product/auth/login', {
      body: { username: 'many@example.com', password: t.encrypt('many-password') },
    });
    const r = await t.call<{ revoked: number }>('DELETE', '/product/auth/logout?all=true', { token });
    expect(r.data.revoked).toBe(2);
    expect((await t.call('GET', '/product/auth/info', { token: other.data.token })).code).toBe(
      Codes.LOGIN_TIMEOUT,
    );
    expect((await t.call('GET', '/product/auth/info', { token })).code).toBe(Codes.LOGIN_TIMEOUT);
  });

  it('tokens expire', async () => {
    const { token } = await t.register('expiring@example.com');
    t.clock.advance(t.config.TOKEN_TTL_HOURS * 3_600_000 + 1);
    expect((await t.call('GET', '/product/auth/info', { token })).code).toBe(Codes.LOGIN_TIMEOUT);
  });

  it('rate-limits login attempts per address', async () => {
    await t.register('carol@example.com', { password: 'carol-password' });
    const attempt = (pw: string) =>
      t.call('POST', '/product/auth/login', {
        body: { username: 'carol@example.com', password: t.encrypt(pw) },
      });
    for (let i = 0; i < t.config.LOGIN_RATE_LIMIT; i++)
      expect((await attempt('wrong-one')).code).toBe(Codes.BAD_CREDENTIALS);
    // Even the right password is refused while limited.
    expect((await attempt('carol-password')).code).toBe(Codes.TOO_MANY_REQUESTS);
    t.clock.advance(15 * 60_000 + 1);
    expect((await attempt('carol-password')).code).toBe(0);
  });

  it('refuses blacklisted and disabled accounts with 408 and ends their sessions', async () => {
    const { token, id } = await t.register('dave@example.com', { password: 'dave-password' });
    const admin = await t.adminToken();
    const black = await t.call<{ blackFlag: boolean }>('POST', `/product/user/blackFlag/${id}`, {
      token: admin,
      body: {},
    });
    expect(black.data.blackFlag).toBe(true);
    expect((await t.call('GET', '/product/auth/info', { token })).code).toBe(Codes.ACCOUNT_DISABLED);
    const login = await t.call('POST', '/product/auth/login', {
      body: { username: 'dave@example.com', password: t.encrypt('dave-password') },
    });
    expect(login.code).toBe(Codes.ACCOUNT_DISABLED);
    await t.call('POST', `/product/user/blackFlag/${id}`, { token: admin, body: { flag: false } });
    expect(
      (
        await t.call('POST', '/product/auth/login', {
          body: { username: 'dave@example.com', password: t.encrypt('dave-password') },
        })
      ).code,
    ).toBe(0);
  });

  it('resets the password with a code in the body (never the URL) and ends every session', async () => {
    const { token } = await t.register('erin@example.com', { password: 'old-password' });
    t.clock.advance(61_000);
    // No account: answered like one (issue 13.6), the mailbox is told.
    expect((await t.call('POST', '/product/code/nobody@example.com/2')).code).toBe(0);
    expect((await t.call('POST', '/product/code/erin@example.com/2')).code).toBe(0);
    const code = await t.lastCode('erin@example.com');
    const wrong = await t.call('PUT', '/product/user/reset/erin@example.com/-/2', {
      body: { code: code === '1111' ? '2222' : '1111', password: t.encrypt('new-password') },
    });
    expect(wrong.code).toBe(Codes.WRONG_CODE);
    const ok = await t.call('PUT', '/product/user/reset/erin@example.com/-/2', {
      body: { code, password: t.encrypt('new-password') },
    });
    expect(ok.code).toBe(0);
    expect((await t.call('GET', '/product/auth/info', { token })).code).toBe(Codes.LOGIN_TIMEOUT);
    const oldLogin = await t.call('POST', '/product/auth/login', {
      body: { username: 'erin@example.com', password: t.encrypt('old-password') },
    });
    expect(oldLogin.code).toBe(Codes.BAD_CREDENTIALS);
    const newLogin = await t.call('POST', '/product/auth/login', {
      body: { username: 'erin@example.com', password: t.encrypt('new-password') },
    });
    expect(newLogin.code).toBe(0);
  });

  it('company accounts: separate register and login, role company, company info', async () => {
    const { token } = await t.register('acme@example.com', { company: true, password: 'acme-password' });
    const info = await t.call<Info>('GET', '/product/auth/company/info', { token });
    expect(info.code).toBe(0);
    expect(info.data.roles).toContain('company');
    expect(info.data.user.type).toBe(2);
    expect(info.data.user.surplus).toBe(0);
    // A company account does not log in as an individual, nor an individual as a company.
    const asUser = await t.call('POST', '/product/auth/login', {
      body: { username: 'acme@example.com', password: t.encrypt('acme-password') },
    });
    expect(asUser.code).toBe(Codes.BAD_CREDENTIALS);
    const asCompany = await t.call<{ roles: string[] }>('POST', '/product/auth/company/login', {
      body: { username: 'acme@example.com', password: t.encrypt('acme-password') },
    });
    expect(asCompany.code).toBe(0);
    expect(asCompany.data.roles).toContain('company');
    await t.services.coins.change(info.data.user.id, 30, 'admin', `cv:${info.data.user.id}`, {
      currency: 'CV',
    });
    await t.services.coins.change(info.data.user.id, -12, 'company_upload', `cu:${info.data.user.id}`, {
      currency: 'CV',
    });
    const cv = await t.call<{ list: { amount: number; currency: string }[]; balance: number }>(
      'POST',
      '/product/company/surplus/record',
      {
        token,
        body: {},
      },
    );
    expect(cv.data.balance).toBe(18);
    expect(cv.data.list.map((e) => [e.currency, e.amount])).toEqual([
      ['CV', -12],
      ['CV', 30],
    ]);
    const notice = await t.call('PUT', '/product/company/emailNotice', { token, body: { enabled: false } });
    expect(notice.data).toMatchObject({ emailNotice: false });
    const after = await t.call<{ user: { emailNotice: boolean } }>('GET', '/product/auth/company/info', {
      token,
    });
    expect(after.data.user.emailNotice).toBe(false);
    const person = await t.register('person@example.com');
    const refused = await t.call('PUT', '/product/company/emailNotice', {
      token: person.token,
      body: { enabled: false },
    });
    expect(refused.code).toBe(Codes.INSUFFICIENT_PERMISSION);
    expect(
      (await t.call('POST', '/product/company/surplus/record', { token: person.token, body: {} })).code,
    ).toBe(Codes.INSUFFICIENT_PERMISSION);
    expect((await t.call('GET', '/product/auth/company/info', { token: person.token })).code).toBe(
      Codes.INSUFFICIENT_PERMISSION,
    );
  });

  it('updates the user centre and changes the password with the old one', async () => {
    const { token } = await t.register('frank@example.com', { password: 'frank-password' });
    const other = await t.register('grace@example.com', { password: 'grace-password' });
    const r = await t.call<{ username: string; phone: string }>('PUT', '/product/user/center', {
      token,
      body: { username: 'Frank', phone: '123456' },
    });
    expect(r.data).toMatchObject({ username: 'Frank', phone: '123456' });
    const wrongOld = await t.call('PUT', '/product/user/center', {
      token,
      body: { oldPassword: t.encrypt('not-it'), password: t.encrypt('frank-new-pw') },
    });
    expect(wrongOld.code).toBe(Codes.BAD_CREDENTIALS);
    const second = await t.call<{ token: string }>('POST', '/product/auth/login', {
      body: { username: 'frank@example.com', password: t.encrypt('frank-password') },
    });
    const changed = await t.call('PUT', '/product/user/center', {
      token,
      body: { oldPassword: t.encrypt('frank-password'), password: t.encrypt('frank-new-pw') },
    });
    expect(changed.code).toBe(0);
    // This session stays, the other one ends.
    expect((await t.call('GET', '/product/auth/info', { token })).code).toBe(0);
    expect((await t.call('GET', '/product/auth/info', { token: second.data.token })).code).toBe(
      Codes.LOGIN_TIMEOUT,
    );
    // E-mail already used by someone else.
    // (the code request answers as for a free address; the mailbox is told, issue 13.6)
    const taken = await t.call('POST', '/product/code/grace@example.com/3');
    expect(taken.code).toBe(0);
    expect(other.id).toBeGreaterThan(0);
  });

  it('reports flags: saveLastLogin, getIsUse, sku role, purchase flag, tutorial confirmation', async () => {
    const { token, id } = await t.register('henry@example.com');
    expect((await t.call('POST', '/product/user/saveLastLogin', { token })).code).toBe(0);
    expect((await t.call('GET', '/product/user/getIsUse', { token })).data).toEqual({
      isUse: false,
      uploadCount: 0,
    });
    await t.infra.store.repos.users.incrementUploadCount(id);
    expect((await t.call('GET', '/product/user/getIsUse', { token })).data).toEqual({
      isUse: true,
      uploadCount: 1,
    });
    expect((await t.call('GET', '/product/user/sku/role', { token })).data).toEqual({
      isMonthly: false,
      isYear: false,
    });
    const admin = await t.adminToken();
    await t.call('POST', `/product/user/updateLevel/${id}/yearly/360`, { token: admin });
    expect((await t.call('GET', '/product/user/sku/role', { token })).data).toEqual({
      isMonthly: false,
      isYear: true,
    });
    expect((await t.call<Info>('GET', '/product/auth/info', { token })).data.user.level).toBe('yearly');
    expect((await t.call('GET', '/product/auth/enhanced/purchasing', { token })).data).toBe(0);
    expect((await t.call('POST', '/product/user/teaching/getConfirmationTeaching', { token })).data).toBe(
      false,
    );
    await t.call('POST', '/product/user/teaching/setConfirmationTeaching', {
      token,
      body: { confirmed: true },
    });
    expect((await t.call('POST', '/product/user/teaching/getConfirmationTeaching', { token })).data).toBe(
      true,
    );
  });

  it('rewards referrals by invitee rank (10/15/20) and gives the invitee 20', async () => {
    const inviter = await t.register('ivy@example.com');
    const info = await t.call<{ user: { inviteCode: string } }>('GET', '/product/auth/info', {
      token: inviter.token,
    });
    const inviteCode = info.data.user.inviteCode;
    let lastInvitee = { token: '', id: 0 };
    for (let i = 1; i <= 12; i++) lastInvitee = await t.register(`invitee${i}@example.com`, { inviteCode });
    const rec = await t.call<{
      list: { rank: number; reward: number }[];
      referralCount: number;
      total: number;
    }>('POST', '/product/user/referral/record', { token: inviter.token, body: { page: 1, size: 20 } });
    expect(rec.data.total).toBe(12);
    expect(rec.data.list.map((r) => r.reward)).toEqual([10, 10, 10, 10, 10, 15, 15, 15, 15, 15, 20, 20]);
    expect(await t.services.coins.balance(inviter.id)).toBe(50 + 5 * 10 + 5 * 15 + 2 * 20);
    expect(await t.services.coins.ledgerSum(inviter.id)).toBe(50 + 5 * 10 + 5 * 15 + 2 * 20);
    expect(await t.services.coins.balance(lastInvitee.id)).toBe(70);
    const award = await t.call('POST', '/product/user/referral/award', { token: inviter.token });
    expect(award.data).toEqual({
      inviterCoins: 5 * 10 + 5 * 15 + 2 * 20,
      inviteeCoins: 0,
      referralCount: 12,
    });
    const invitee = await t.call('POST', '/product/user/referral/award', { token: lastInvitee.token });
    expect(invitee.data).toMatchObject({ inviteeCoins: 20 });

    // Invitation mails carry the invite code; existing accounts and floods are refused.
    expect(
      (
        await t.call('POST', '/product/user/referral/email', {
          token: inviter.token,
          body: { email: 'friend@example.com' },
        })
      ).code,
    ).toBe(0);
    const mails = await readOutbox(join(t.dataDir, 'outbox'), 'friend@example.com');
    expect(mails.at(-1)?.text).toContain(inviteCode);
    expect(
      (
        await t.call('POST', '/product/user/referral/email', {
          token: inviter.token,
          body: { email: 'invitee1@example.com' },
        })
      ).code,
    ).toBe(0); // an existing account: same answer, its mailbox is told (issue 13.6)
    for (let i = 0; i < 4; i++)
      await t.call('POST', '/product/user/referral/email', {
        token: inviter.token,
        body: { email: `f${i}@example.com` },
      });
    expect(
      (
        await t.call('POST', '/product/user/referral/email', {
          token: inviter.token,
          body: { email: 'f9@example.com' },
        })
      ).code,
    ).toBe(Codes.REFUSED);

    const bad = await t.call('POST', '/product/user/register', {
      body: { email: 'x@example.com', password: t.encrypt('whatever1'), code: '1234', inviteCode: 'NOPE' },
    });
    expect(bad.code).toBe(Codes.REFUSED);
  });

  it('third-party login through the provider interface (dev provider, turned on by this test)', async () => {
    const first = await t.call<{ token: string; created: boolean; user: { email: string; surplus: number } }>(
      'POST',
      '/product/passport/3rd/login',
      { body: { provider: 'dev', code: 'dev:oauth@example.com:OAuth User' } },
    );
    expect(first.code).toBe(0);
    expect(first.data).toMatchObject({ created: true, user: { email: 'oauth@example.com', surplus: 50 } });
    const second = await t.call<{ created: boolean; user: { id: number } }>(
      'POST',
      '/product/passport/3rd/login',
      {
        body: { provider: 'dev', code: 'dev:oauth@example.com' },
      },
    );
    expect(second.data.created).toBe(false);
    expect(
      (await t.call('POST', '/product/passport/3rd/login', { body: { provider: 'dev', code: 'garbage' } }))
        .code,
    ).toBe(Codes.AUTH_FAILED);
    expect(
      (await t.call('POST', '/product/passport/3rd/login', { body: { provider: 'nope', code: 'x' } })).code,
    ).toBe(Codes.PARAMETER_ERROR);
  });

  it('reports validation errors in the envelope with code 400 and the issues', async () => {
    const r = await t.call<{ issues: { path: string; message: string }[] }>(
      'POST',
      '/product/user/register',
      { body: { email: 5 } },
    );
    expect(r.status).toBe(400);
    expect(r.code).toBe(Codes.PARAMETER_ERROR);
    expect(r.data.issues.length).toBeGreaterThan(0);
    expect(r.data.issues.map((i) => i.path).join(' ')).toMatch(/email|password|code/);
    const badId = await t.call('POST', '/product/user/test/abc', { token: await t.adminToken(), body: {} });
    expect(badId.code).toBe(Codes.PARAMETER_ERROR);
    const unknown = await t.call('GET', '/product/no/such/route');
    expect(unknown).toMatchObject({ status: 404, code: Codes.NOT_FOUND });
    const badJson = await t.app.inject({
      method: 'POST',
      url: '/product/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":',
    });
    expect(badJson.json()).toMatchObject({ code: Codes.PARAMETER_ERROR });
  });
});

describe('code mails per IP', () => {
  const t = useServer('sqlite', { env: { CODE_IP_LIMIT: '3' } });
  it('refuses the fourth code within an hour from one IP with 1047', async () => {
    for (let i = 0; i < 3; i++)
      expect((await t.call('POST', `/product/code/ip${i}@example.com/1`)).code).toBe(0);
    expect((await t.call('POST', '/product/code/ip9@example.com/1')).code).toBe(Codes.TOO_MANY_REQUESTS);
    t.clock.advance(3_600_001);
    expect((await t.call('POST', '/product/code/ip9@example.com/1')).code).toBe(0);
  });
});
