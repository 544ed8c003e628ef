/**
 * The administrator console end to end (issue 21) in Chromium against the real server: as the first-start
 * administrator every built console page loads real data (screenshots in en and zh); the actions take effect
 * where a user sees them (a top-up changes the user's top-bar balance, a maintenance text becomes the users'
 * tooltip, a new notice opens in a user's carousel, a blacklisted user's next request gets 408); the audit log
 * shows each action; an operator sees no finance pages and gets 406 from finance routes; an ordinary user sees no
 * console and gets 406.
 */
import { constants, publicEncrypt } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildWeb,
  codeFromOutbox,
  DESKTOP,
  e2eUnavailable,
  launchChromium,
  type RunningServer,
  setLang,
  shot,
  startServer,
  waitFor,
} from './e2e-harness.ts';

const missing = e2eUnavailable();
const CI = process.env.CI === 'true';
const ADMIN = { email: 'root@console.test', password: 'console-root-pass-1' };
const PAGES = ['manageUser', 'block', 'service', 'manageRole', 'manageRouter', 'auditLog'] as const;

describe.skipIf(missing !== null && !CI)('administrator console e2e (chromium + real server)', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: string;

  beforeAll(async () => {
    if (missing) throw new Error(`e2e cannot run: ${missing}`);
    await buildWeb();
    server = await startServer({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
    browser = await launchChromium();
    admin = (
      await call<{ token: string }>('POST', '/auth/login', {
        username: ADMIN.email,
        password: await encrypt(ADMIN.password),
      })
    ).token;
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const raw = async <T = unknown>(method: string, path: string, body?: unknown, token?: string) => {
    const r = await fetch(`${server.url}/product${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: method === 'GET' ? undefined : JSON.stringify(body ?? {}),
    });
    return (await r.json()) as { code: number; message: string; data: T };
  };
  const call = async <T = unknown>(method: string, path: string, body?: unknown, token?: string) => {
    const env = await raw<T>(method, path, body, token);
    if (env.code !== 0) throw new Error(`${method} ${path}: ${env.code} ${env.message}`);
    return env.data;
  };
  const encrypt = async (text: string) => {
    const { publicKey } = await call<{ publicKey: string }>('GET', '/auth/publicKey');
    return publicEncrypt(
      { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(text),
    ).toString('base64');
  };
  const register = async (email: string) => {
    await call('POST', `/code/${email}/1`);
    const code = await waitFor(() => codeFromOutbox(server.dataDir, email), 20_000, 'the code mail');
    const r = await call<{ token: string; user: { id: number } }>('POST', '/user/register', {
      email,
      password: await encrypt('console-user-pass'),
      code,
    });
    return { token: r.token, id: r.user.id };
  };
  const context = async (lang: 'en' | 'zh', token: string): Promise<BrowserContext> => {
    const ctx = await browser.newContext({ ...DESKTOP });
    await setLang(ctx, server.url, lang);
    await ctx.addCookies([{ name: 'mocap_v1_token', value: token, url: server.url }]);
    return ctx;
  };
  const settle = async (page: Page) => {
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(200);
  };
  /** Closes the start carousel when notices exist. */
  const closeCarousel = async (page: Page) => {
    const close = page.locator('.notice-close');
    if (await close.isVisible().catch(() => false)) await close.click();
  };

  it('every console page loads real data, and its actions take effect where users see them', async () => {
    const player = await register('player@example.com');
    await register('someone@example.com');
    // Real data on every page: a notice, a blacklisted account, an audit row.
    const spam = await register('spammer@example.com');
    await call('POST', '/sysConfig/blackListInfo/insert', { email: 'spammer@example.com' }, admin);
    expect((await raw('GET', '/auth/info', undefined, spam.token)).code).toBe(408);

    for (const lang of ['en', 'zh'] as const) {
      const ctx = await context(lang, admin);
      const page = await ctx.newPage();
      await page.goto(`${server.url}/capture/index/manageUser`);
      await closeCarousel(page);
      for (const path of PAGES) {
        await page.locator(`[data-admin-path=${path}]`).click();
        await page.locator(`[data-admin-page=${path}]`).waitFor();
        await settle(page);
        await shot(page, `admin-${path}-${lang}`);
      }
      // The console menu lists exactly the built pages for the super-administrator.
      expect(await page.locator('[data-admin-path]').count()).toBe(PAGES.length);
      await page.locator('[data-admin-path=manageUser]').click();
      await page.locator('[data-testid=user-table] tbody tr[data-row]').first().waitFor();
      const rows = await page.locator('[data-testid=user-table] tbody tr[data-row]').count();
      expect(rows).toBeGreaterThanOrEqual(4);
      await page.locator('[data-testid=user-table] .link-btn', { hasText: 'player@example.com' }).click();
      await page.getByTestId('user-detail').waitFor();
      await settle(page);
      await shot(page, `admin-userDetail-${lang}`);
      await ctx.close();
    }

    // --- top-up: the user's top bar shows the new balance ---
    const before = (await call<{ user: { surplus: number } }>('GET', '/auth/info', undefined, player.token))
      .user.surplus;
    const actx = await context('en', admin);
    const ap = await actx.newPage();
    await ap.goto(`${server.url}/capture/index/manageUser`);
    await ap.getByTestId('user-keyword').fill('player@');
    await ap.getByTestId('user-search').click();
    const row = ap.locator(`[data-testid=user-table] tr[data-row="${player.id}"]`);
    await row.waitFor();
    await waitFor(
      async () => (await ap.locator('[data-testid=user-table] tr[data-row]').count()) === 1,
      10_000,
      'the search',
    );
    await row.locator('[data-action=topUp]').click();
    await ap.getByTestId('topup-amount').fill('123');
    await shot(ap, 'admin-topup-en');
    await ap.locator('.modal-foot .btn-primary').click();
    await waitFor(
      async () => (await row.locator('td').nth(5).textContent()) === String(before + 123),
      10_000,
      'the new balance in the table',
    );

    const uctx = await context('en', player.token);
    const up = await uctx.newPage();
    await up.goto(`${server.url}/capture/index/square`);
    await up.getByTestId('coins').waitFor();
    expect((await up.getByTestId('coins').textContent())?.trim()).toBe(`${before + 123} V`);
    // An ordinary user has no console.
    expect(await up.getByTestId('admin-menu').count()).toBe(0);
    await up.goto(`${server.url}/capture/index/manageUser`);
    await up.waitForURL(/\/404$/);
    await uctx.close();

    // --- maintenance text: the users' tooltip ---
    await ap.locator('[data-admin-path=service]').click();
    await ap.getByTestId('maintain-text').waitFor();
    const text = `Upgrade tonight ${Date.now() % 10000}`;
    if (!(await ap.getByTestId('maintain-on').isChecked()))
      await ap.locator('.admin-switch', { has: ap.getByTestId('maintain-on') }).click();
    await ap.getByTestId('maintain-text').fill(text);
    await ap.getByTestId('maintain-save').click();
    await waitFor(
      async () =>
        (await call<{ maintainText: string }>('GET', '/sysConfig/maintainInfo')).maintainText === text,
      10_000,
      'the saved text',
    );

    // --- a new notice: opens in a user's carousel ---
    await ap.getByTestId('notice-new').click();
    await ap.getByTestId('notice-title').fill('Spring release');
    await ap.getByTestId('notice-button').fill('Try it');
    await ap.getByTestId('notice-content').fill('Faster captures for everyone.');
    await shot(ap, 'admin-notice-new-en');
    await ap.locator('.modal-foot .btn-primary').click();
    await ap.locator('[data-testid=notice-table] td', { hasText: 'Spring release' }).waitFor();
    await shot(ap, 'admin-service-after-en');

    const u2 = await context('en', player.token);
    const p2 = await u2.newPage();
    await p2.goto(`${server.url}/capture/index/square`);
    const slide = p2.locator('[data-testid=notice-slide]');
    await slide.waitFor();
    expect(await slide.textContent()).toContain('Spring release');
    await shot(p2, 'admin-effect-carousel-en');
    await p2.locator('.notice-close').click();
    const tip = p2.getByTestId('maintain-tip');
    await tip.waitFor();
    await tip.hover();
    expect(await p2.locator('#maintain-text').textContent()).toBe(text);
    expect(await p2.locator('#maintain-text').isVisible()).toBe(true);
    await shot(p2, 'admin-effect-tooltip-en');

    // --- blacklist: the user's next request gets 408 ---
    await ap.locator('[data-admin-path=manageUser]').click();
    await ap.getByTestId('user-keyword').fill('player@');
    await ap.getByTestId('user-search').click();
    await waitFor(
      async () => (await ap.locator('[data-testid=user-table] tr[data-row]').count()) === 1,
      10_000,
      'the search',
    );
    await ap.locator(`tr[data-row="${player.id}"] [data-action=black]`).click();
    await ap.locator('.modal-foot .btn-danger').click();
    await ap.locator(`tr[data-row="${player.id}"] [data-action=unblack]`).waitFor();
    const refused = await raw('POST', '/video/center', { page: 1, size: 10 }, player.token);
    expect(refused.code).toBe(408);
    // In the browser: the next request logs the user out.
    await p2.reload();
    await p2.waitForURL(/\/(home|login)/);
    await u2.close();

    // --- the audit log shows each action of the test ---
    await ap.locator('[data-admin-path=auditLog]').click();
    await ap.locator('[data-testid=audit-table] tbody tr[data-row]').first().waitFor();
    await settle(ap);
    const audit = (await ap.getByTestId('audit-table').textContent()) ?? '';
    for (const route of [
      'PUT /user/surplus/:id/:amount',
      'POST /sysConfig/saveMaintain',
      'POST /notice/save',
      'POST /user/blackFlag/:id',
      'POST /sysConfig/blackListInfo/insert',
    ])
      expect(audit).toContain(route);
    expect(audit).toContain(`surplus: ${before} → ${before + 123}`);
    expect(audit).toContain('blackFlag: false → true');
    await shot(ap, 'admin-auditLog-after-en');
    await ap.locator('[data-testid=audit-table] tbody tr[data-row]').first().click();
    await ap.locator('.admin-json').first().waitFor();
    await shot(ap, 'admin-audit-detail-en');
    await actx.close();
  });

  it('an operator sees no finance pages and gets 406 from finance routes; an ordinary user gets 406', async () => {
    const op = await register('operator@example.com');
    await call('POST', '/role/assign', { userId: op.id, roles: ['operator'] }, admin);
    const plain = await register('plain@example.com');

    for (const lang of ['en', 'zh'] as const) {
      const ctx = await context(lang, op.token);
      const page = await ctx.newPage();
      await page.goto(`${server.url}/capture/index/manageUser`);
      await closeCarousel(page);
      await page.locator('[data-admin-page=manageUser]').waitFor();
      await settle(page);
      const paths = await page
        .locator('[data-admin-path]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-admin-path')));
      expect(paths).toEqual(['manageUser', 'block', 'service']);
      await shot(page, `admin-operator-${lang}`);
      await page.goto(`${server.url}/capture/index/auditLog`);
      await page.waitForURL(/\/404$/);
      await ctx.close();
    }
    for (const [method, path] of [
      ['POST', '/invoice/search'],
      ['POST', '/sysConfig/setCashBack'],
      ['POST', '/companyOrder/sendCashBack'],
      ['POST', '/audit/search'],
      ['POST', '/role/list'],
    ] as const) {
      expect((await raw(method, path, {}, op.token)).code, `${path} as operator`).toBe(406);
      expect((await raw(method, path, {}, plain.token)).code, `${path} as user`).toBe(406);
    }
    expect((await raw('POST', '/user/search', {}, op.token)).code).toBe(0);
    expect((await raw('POST', '/user/search', {}, plain.token)).code).toBe(406);
  });
});
