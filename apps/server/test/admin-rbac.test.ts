/**
 * Administrator roles enforced by the server per route from role data (issue 21): every administrator route is in
 * the permission table; a walk over every one of them as an ordinary user (406 everywhere), as an operator,
 * finance and support account (406 exactly where their roles grant nothing); role and menu edits change what a
 * role may do at once; and the audit log records each action with who, what, before and after.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ROLES, ROUTE_PERMISSIONS } from '../src/modules/rbac/permissions.ts';
import { databases, type TestServer, useServer } from './harness.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const fill = (route: string) =>
  route
    .replace(':level', 'monthly')
    .replace(':id', '999999')
    .replace(/:(days|num|amount|status)/g, '1')
    .replace(/:\w+/g, 'x');

/** Whether a role's default pages grant a route (the expected answer, computed from the tables independently). */
function granted(roleKey: string, key: string): boolean {
  const role = DEFAULT_ROLES.find((r) => r.key === roleKey)!;
  const need = ROUTE_PERMISSIONS[key]!;
  const moduleOfPage: Record<string, string> = {
    manageUser: 'user',
    manageCompany: 'company',
    block: 'block',
    briefing: 'finance',
    extension: 'finance',
    service: 'service',
    manageVideo: 'video',
    manageVideoTag: 'tag',
    videoDownHistory: 'video',
    manageModel: 'model',
    manageAnimation: 'animation',
    manageTomokage: 'tomokage',
    machineManage: 'machine',
    manageRole: 'role',
    manageRouter: 'menu',
    auditLog: 'audit',
  };
  return role.pages.some(
    (p) => moduleOfPage[p.path] === need.module && (need.access === 'read' || p.access === 'write'),
  );
}

async function staff(t: TestServer, admin: string, email: string, roles: string[]) {
  const u = await t.register(email);
  const r = await t.call('POST', '/product/role/assign', { token: admin, body: { userId: u.id, roles } });
  expect(r.code, r.message).toBe(0);
  return u;
}

describe.each(databases)('administrator roles on %s', (kind) => {
  const t = useServer(kind);

  it('every administrator route is in the permission table, and every table entry is a guarded route', () => {
    const guarded = new Set(t.app.ctx.adminRoutes);
    const table = new Set(Object.keys(ROUTE_PERMISSIONS));
    expect([...guarded].filter((k) => !table.has(k))).toEqual([]);
    // The heartbeat takes the worker token or an administrator (its own guard calls requireAdmin).
    expect([...table].filter((k) => !guarded.has(k))).toEqual(['POST /machineInfo/heartbeat']);
    expect(guarded.size).toBeGreaterThan(40);
  });

  it('walks every administrator route as an ordinary user, operator, finance and support account', async () => {
    const admin = await t.adminToken();
    const user = await t.register('plain@rbac.test');
    const accounts = {
      operator: await staff(t, admin, 'op@rbac.test', ['operator']),
      finance: await staff(t, admin, 'fin@rbac.test', ['finance']),
      support: await staff(t, admin, 'sup@rbac.test', ['support']),
    };
    const refused: Record<string, string[]> = { operator: [], finance: [], support: [] };
    for (const key of Object.keys(ROUTE_PERMISSIONS)) {
      const [method, route] = key.split(' ') as [Method, string];
      const url = `/product${fill(route)}`;
      // The heartbeat's guard runs after validation (worker token or administrator): give it a valid body.
      const body =
        method === 'GET' ? undefined : key === 'POST /machineInfo/heartbeat' ? { name: 'walk' } : {};
      const anon = await t.call(method, url, { body });
      expect([401, 402], `${key} without a token`).toContain(anon.code);
      const plain = await t.call(method, url, { token: user.token, body });
      expect(plain.code, `${key} as an ordinary user`).toBe(406);
      expect(plain.message).toBe('insufficient permission');
      for (const [role, acc] of Object.entries(accounts)) {
        if (key === 'POST /machineInfo/heartbeat') continue;
        const r = await t.call(method, url, { token: acc.token, body });
        if (r.code === 406) refused[role]!.push(key);
        expect(r.code === 406, `${key} as ${role} (answered ${r.code} ${r.message})`).toBe(
          !granted(role, key),
        );
      }
    }
    // The operator never reaches finance; finance cannot change users; support changes nothing.
    const finance = Object.keys(ROUTE_PERMISSIONS).filter((k) => ROUTE_PERMISSIONS[k]!.module === 'finance');
    expect(finance.length).toBeGreaterThan(3);
    for (const k of finance) expect(refused.operator).toContain(k);
    expect(refused.finance).toContain('PUT /user/surplus/:id/:amount');
    expect(refused.finance).not.toContain('POST /user/search');
    const supportWrites = Object.keys(ROUTE_PERMISSIONS).filter(
      (k) => ROUTE_PERMISSIONS[k]!.access === 'write' && k !== 'POST /machineInfo/heartbeat',
    );
    for (const k of supportWrites) expect(refused.support).toContain(k);
    // myPages: what each sees in the console.
    const pages = async (token: string) =>
      (await t.call<{ path: string }[]>('GET', '/product/role/myPages', { token })).data.map((p) => p.path);
    expect(await pages(user.token)).toEqual([]);
    const op = await pages(accounts.operator.token);
    expect(op).toContain('manageUser');
    expect(op).not.toContain('briefing');
    expect(op).not.toContain('extension');
    expect(await pages(admin)).toHaveLength(16);
    // An operator cannot touch a super-administrator's account.
    const me = (await t.call<{ user: { id: number } }>('GET', '/product/auth/info', { token: admin })).data
      .user;
    const hit = await t.call('POST', `/product/user/blackFlag/${me.id}`, {
      token: accounts.operator.token,
      body: { flag: true },
    });
    expect(hit.code).toBe(406);
    expect((await t.call('GET', '/product/auth/info', { token: admin })).code).toBe(0);
  });

  it('role data decides at once: disabling a role, granting a page, renaming its menu', async () => {
    const admin = await t.adminToken();
    const op = await staff(t, admin, 'op2@rbac.test', ['operator']);
    const roles = (
      await t.call<{ id: number; key: string; pages: unknown[] }[]>('POST', '/product/role/list', {
        token: admin,
      })
    ).data;
    const operator = roles.find((r) => r.key === 'operator')!;
    expect((await t.call('POST', '/product/user/search', { token: op.token, body: {} })).code).toBe(0);
    expect((await t.call('POST', '/product/invoice/search', { token: op.token, body: {} })).code).toBe(406);

    // Disabled: nothing.
    expect(
      (await t.call('POST', '/product/role/save', { token: admin, body: { id: operator.id, state: false } }))
        .code,
    ).toBe(0);
    expect((await t.call('POST', '/product/user/search', { token: op.token, body: {} })).code).toBe(406);
    // Enabled again with the briefing page (finance module) read-only: invoices readable, not changeable.
    const r = await t.call('POST', '/product/role/save', {
      token: admin,
      body: {
        id: operator.id,
        state: true,
        pages: [...operator.pages, { path: 'briefing', access: 'read' }],
      },
    });
    expect(r.code, r.message).toBe(0);
    expect((await t.call('POST', '/product/invoice/search', { token: op.token, body: {} })).code).toBe(0);
    expect((await t.call('PUT', '/product/invoice/1/1', { token: op.token, body: {} })).code).toBe(406);

    // Bad page names and the super role's protection.
    const bad = await t.call('POST', '/product/role/save', {
      token: admin,
      body: { id: operator.id, pages: [{ path: 'nope', access: 'read' }] },
    });
    expect(bad.code).toBe(400);
    expect(bad.message).toContain('nope');
    const sup = roles.find((x) => x.key === 'admin')!;
    expect(
      (await t.call('POST', '/product/role/save', { token: admin, body: { id: sup.id, state: false } })).code,
    ).toBe(307);
    expect((await t.call('DELETE', `/product/role/${sup.id}`, { token: admin })).code).toBe(307);
    // A role someone holds cannot be deleted.
    const del = await t.call('DELETE', `/product/role/${operator.id}`, { token: admin });
    expect(del.code).toBe(307);
    expect(del.message).toContain('op2@rbac.test');

    // Renaming a page's path carries the grants over.
    const menus = (
      await t.call<{ id: number; path: string }[]>('POST', '/product/menu/list', { token: admin })
    ).data;
    const userMenu = menus.find((m) => m.path === 'manageUser')!;
    const saveUserMenu = (change: { path?: string; module?: string }) =>
      t.code('POST', '/product/menu/save', { token: admin, body: { id: userMenu.id, ...change } });
    expect(await saveUserMenu({ path: 'manageUsers' })).toBe(0);
    expect((await t.call('POST', '/product/user/search', { token: op.token, body: {} })).code).toBe(0);
    // The menu's module decides which routes it opens: pointing it elsewhere takes the user routes away.
    expect(await saveUserMenu({ module: 'other' })).toBe(0);
    expect((await t.call('POST', '/product/user/search', { token: op.token, body: {} })).code).toBe(406);
    await saveUserMenu({ module: 'user', path: 'manageUser' });
    expect((await t.call('POST', '/product/user/search', { token: op.token, body: {} })).code).toBe(0);
    // A granted menu cannot be deleted.
    expect((await t.call('DELETE', `/product/menu/${userMenu.id}`, { token: admin })).code).toBe(307);
  });

  it('audits each administrator action: who, what, before and after; filterable', async () => {
    const admin = await t.adminToken();
    const u = await t.register('audited@rbac.test');
    const op = await staff(t, admin, 'op3@rbac.test', ['operator']);
    expect(
      (await t.call('PUT', `/product/user/surplus/${u.id}/25`, { token: op.token, body: {} })).code,
    ).toBe(0);
    expect(
      (await t.call('POST', `/product/user/blackFlag/${u.id}`, { token: op.token, body: { flag: true } }))
        .code,
    ).toBe(0);
    expect(
      (
        await t.call('POST', '/product/sysConfig/saveMaintain', {
          token: admin,
          body: { maintainText: 'Down at 3' },
        })
      ).code,
    ).toBe(0);
    // Reads are not audited; a refused attempt is not an action.
    await t.call('POST', '/product/user/search', { token: op.token, body: {} });
    expect((await t.call('POST', '/product/sysConfig/setCashBack', { token: op.token, body: {} })).code).toBe(
      406,
    );

    type Row = {
      actorEmail: string;
      route: string;
      targetId: string | null;
      before: Record<string, unknown>;
      after: Record<string, unknown>;
      code: number;
      module: string;
    };
    const mine = await t.call<{ list: Row[]; total: number }>('POST', '/product/audit/search', {
      token: admin,
      body: { actor: 'op3@rbac', page: 1, size: 50 },
    });
    expect(mine.code).toBe(0);
    expect(mine.data.list.map((r) => r.route)).toEqual(['/user/blackFlag/:id', '/user/surplus/:id/:amount']);
    const [black, topup] = mine.data.list;
    expect(topup!.targetId).toBe(String(u.id));
    expect(topup!.after.surplus).toBe((topup!.before.surplus as number) + 25);
    expect(black!.before.blackFlag).toBe(false);
    expect(black!.after.blackFlag).toBe(true);
    expect(black!.actorEmail).toBe('op3@rbac.test');

    const service = await t.call<{ list: Row[] }>('POST', '/product/audit/search', {
      token: admin,
      body: { module: 'service', page: 1, size: 50 },
    });
    const maint = service.data.list.find((r) => r.route === '/sysConfig/saveMaintain')!;
    expect(maint.after.maintainText).toBe('Down at 3');
    expect(maint.before.maintainText).not.toBe('Down at 3');
    // The operator's role does not include the audit log.
    expect((await t.call('POST', '/product/audit/search', { token: op.token, body: {} })).code).toBe(406);
    // A failed action is recorded with its code.
    await t.call('PUT', '/product/user/surplus/999999/5', { token: admin, body: {} });
    const failed = await t.call<{ list: Row[] }>('POST', '/product/audit/search', {
      token: admin,
      body: { failedOnly: true, page: 1, size: 50 },
    });
    expect(failed.data.list.some((r) => r.route === '/user/surplus/:id/:amount' && r.code === 404)).toBe(
      true,
    );
  });
});
