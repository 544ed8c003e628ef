/**
 * The block page's e-mail domains and IPs (issue 21): a blacklisted domain cannot ask for a code, register or log
 * in (408, sub-domains too); a blacklisted address or range gets 408 on every API call; rules are validated,
 * a rule blocking the administrator's own address is refused; removing a rule lifts it; audited; roles without
 * the block page (support) are refused.
 */
import { describe, expect, it } from 'vitest';
import { databases, useServer } from './harness.ts';

describe.each(databases)('blacklisted domains and IPs on %s', (kind) => {
  const t = useServer(kind);

  it('refuses blacklisted domains and addresses with 408 until the rule is removed', async () => {
    const admin = await t.adminToken();
    const known = await t.register(`k-${kind}@old.spam.test`, { password: 'secret-pass', ip: '10.20.0.5' });
    const sup = await t.register(`sup-${kind}@ok.test`);
    await t.call('POST', '/product/role/assign', {
      token: admin,
      body: { userId: sup.id, roles: ['support'] },
    });

    const add = (body: unknown, token = admin, ip?: string) =>
      t.call<{ id: number; value: string }>('POST', '/product/sysConfig/blackListInfo/rules/insert', {
        token,
        body,
        ip,
      });
    // Validation.
    expect((await add({ kind: 'domain', value: 'not a domain' })).code).toBe(400);
    expect((await add({ kind: 'ip', value: '10.0.0.0/4' })).code).toBe(400);
    expect((await add({ kind: 'ip', value: '999.1.1.1' })).code).toBe(400);
    // The administrator cannot lock themself out.
    const self = await add({ kind: 'ip', value: '10.30.0.0/16' }, admin, '10.30.4.4');
    expect(self.code).toBe(307);
    // Support has no block page: neither list nor change.
    expect((await add({ kind: 'domain', value: 'spam.test' }, sup.token)).code).toBe(406);
    expect((await t.call('POST', '/product/sysConfig/blackListInfo/rules', { token: sup.token })).code).toBe(
      406,
    );

    const dom = await add({ kind: 'domain', value: '@Spam.TEST', note: 'bulk sign-ups' });
    expect(dom.code, dom.message).toBe(0);
    expect(dom.data.value).toBe('spam.test');
    expect((await add({ kind: 'domain', value: 'spam.test' })).code).toBe(307);
    // Codes, registration and login of the domain and its sub-domains: 408.
    const code = await t.call('POST', `/product/code/${encodeURIComponent(`new-${kind}@spam.test`)}/1`, {
      ip: '10.20.0.6',
    });
    expect(code.code).toBe(408);
    expect(code.message).toBe('account disabled, contact administrator');
    const login = await t.call('POST', '/product/auth/login', {
      body: { username: `k-${kind}@old.spam.test`, password: t.encrypt('secret-pass') },
      ip: '10.20.0.5',
    });
    expect(login.code).toBe(408);
    // Another domain is not affected; a look-alike is not a sub-domain.
    expect(
      (
        await t.call('POST', `/product/code/${encodeURIComponent(`x-${kind}@notspam.test`)}/1`, {
          ip: '10.20.0.7',
        })
      ).code,
    ).toBe(0);

    // An address range: every call from it is refused, even with a valid session.
    const ipRule = await add({ kind: 'ip', value: '10.66.0.0/16' });
    expect(ipRule.code, ipRule.message).toBe(0);
    const other = await t.register(`o-${kind}@ok.test`);
    expect((await t.call('GET', '/product/auth/info', { token: other.token, ip: '10.66.7.8' })).code).toBe(
      408,
    );
    expect((await t.call('GET', '/product/sysConfig/maintainInfo', { ip: '10.66.7.8' })).code).toBe(408);
    expect((await t.call('GET', '/product/auth/info', { token: other.token, ip: '10.67.0.1' })).code).toBe(0);

    // Listed; removed rules stop applying.
    const list = await t.call<{ id: number; kind: string; value: string }[]>(
      'POST',
      '/product/sysConfig/blackListInfo/rules',
      { token: admin },
    );
    expect(list.data.map((r) => `${r.kind}:${r.value}`).sort()).toEqual([
      'domain:spam.test',
      'ip:10.66.0.0/16',
    ]);
    expect(
      (await t.call('DELETE', `/product/sysConfig/blackListInfo/rules/${ipRule.data.id}`, { token: admin }))
        .code,
    ).toBe(0);
    expect((await t.call('GET', '/product/auth/info', { token: other.token, ip: '10.66.7.8' })).code).toBe(0);
    expect(
      (await t.call('DELETE', `/product/sysConfig/blackListInfo/rules/${ipRule.data.id}`, { token: admin }))
        .code,
    ).toBe(404);
    expect(known.id).toBeGreaterThan(0);

    // Audited.
    const audit = await t.call<{
      list: { route: string; code: number; before: { value?: string } | null }[];
    }>('POST', '/product/audit/search', {
      token: admin,
      body: { route: 'blackListInfo/rules', page: 1, size: 50 },
    });
    const del = audit.data.list.find((r) => r.route === '/sysConfig/blackListInfo/rules/:id' && r.code === 0);
    expect(del?.before?.value).toBe('10.66.0.0/16');
  });
});
