/**
 * The administrator console end to end (issue 21) in Chromium against the real server: as the first-start
 * administrator every built console page loads real data (screenshots in en and zh); the actions take effect
 * where a user sees them (a top-up changes the user's top-bar balance, a maintenance text becomes the users'
 * tooltip, a new notice opens in a user's carousel, a blacklisted user's next request gets 408); the audit log
 * shows each action; an operator sees no finance pages and gets 406 from finance routes; an ordinary user sees no
 * console and gets 406.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eSkipped, ROOT, shot, TESTDATA, trimClip, useE2e, waitFor } from './e2e-harness.ts';

const ADMIN = { email: 'root@console.test', password: 'console-root-pass-1' };
const PAGES = [
  'manageUser',
  'manageCompany',
  'block',
  'briefing',
  'extension',
  'service',
  'manageVideo',
  'manageVideoTag',
  'videoDownHistory',
  'manageModel',
  'manageAnimation',
  'manageTomokage',
  'machineManage',
  'manageRole',
  'manageRouter',
  'auditLog',
] as const;

describe.skipIf(e2eSkipped())('administrator console e2e (chromium + real server)', () => {
  const run = useE2e({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, CAPTURE_MODEL: 'lite' });
  let admin: string;
  beforeAll(async () => {
    admin = await login(ADMIN.email, ADMIN.password);
  });

  let second: ChildProcess | undefined;
  let secondLog = '';
  afterAll(async () => {
    if (second && second.exitCode === null) {
      const exited = new Promise((r) => second!.once('exit', r));
      second.kill('SIGTERM');
      const t = setTimeout(() => second!.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(t);
    }
  });

  const { raw, call, encrypt, register: registerAs, login } = run.api;
  const register = async (email: string) => {
    const r = await registerAs(email, 'console-user-pass');
    return { token: r.token, id: r.user.id };
  };
  const registerCompany = async (email: string) => {
    await registerAs(email, 'console-user-pass', true);
  };
  let clipFile: string | undefined;
  /** Uploads a 2 s testdata clip as `token`; returns the video id. */
  const upload = async (token: string, name: string) => {
    clipFile ??= trimClip(join(TESTDATA, 'videos', 'romp_sample_video2_studio_dance.mp4'), 2, 320);
    const form = new FormData();
    form.set('name', name);
    form.set('boneType', 'Mixamo');
    form.set('tags', 'dance');
    form.set('file', new Blob([readFileSync(clipFile)], { type: 'video/mp4' }), 'dance.mp4');
    const env = await run.api.post<{ id: number }>('/video/upload', form, token);
    if (env.code !== 0) throw new Error(`upload: ${env.code} ${env.message}`);
    return env.data.id;
  };
  const waitMade = (token: string, id: number) =>
    waitFor(
      async () => {
        const c = await call<{ list: { id: number; status: number }[] }>(
          'POST',
          '/video/center',
          { page: 1, size: 20 },
          token,
        );
        const v = c.list.find((x) => x.id === id);
        if (v?.status === 3) throw new Error(`video ${id} failed`);
        return v?.status === 2;
      },
      300_000,
      `video ${id} made`,
    );
  let uploads = 0;

  /** A browser context logged in as `token`; the start carousel only where a test looks at it. */
  const context = (lang: 'en' | 'zh', token: string, carousel = false): Promise<BrowserContext> =>
    run.context(lang, token, { noticesSeen: !carousel });
  const settle = async (page: Page) => {
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(200);
  };
  /** Fills the console filter `field` with `text`, presses `submit`, and waits until `table` shows `rows` rows. */
  const search = async (page: Page, [field, text, submit, table]: readonly string[], rows: number) => {
    await page.getByTestId(field).fill(text);
    await page.getByTestId(submit).click();
    const shown = page.locator(`[data-testid=${table}] tbody tr[data-row]`);
    await waitFor(async () => (await shown.count()) === rows, 10_000, `the search (${table}: ${rows} rows)`);
  };
  const playerSearch = ['user-keyword', 'player@', 'user-search', 'user-table'] as const;
  /** Closes the start carousel when notices exist. */
  const closeCarousel = async (page: Page) => {
    const close = page.locator('.notice-close');
    if (await close.isVisible().catch(() => false)) await close.click();
  };

  it('every console page loads real data, and its actions take effect where users see them', async () => {
    const player = await register('player@example.com');
    await register('someone@example.com');
    // Real data on every page: a blacklisted account, a company, categories and tags, a video made and
    // downloaded by its owner, a staff referral, audit rows.
    const spam = await register('spammer@example.com');
    await call('POST', '/sysConfig/blackListInfo/insert', { email: 'spammer@example.com' }, admin);
    expect((await raw('GET', '/auth/info', undefined, spam.token)).code).toBe(408);
    await registerCompany('studio@company.example');
    const cat = await call<{ id: number }>('POST', '/category', { name: 'Dance', kind: 'category' }, admin);
    await call('POST', '/category', { name: 'Street', kind: 'category', parentId: cat.id }, admin);
    await call('POST', '/category', { name: 'Sports', kind: 'category', sort: 2 }, admin);
    await call('POST', '/category', { name: 'hip-hop', kind: 'tag' }, admin);
    await call('POST', '/user/setExtensionStaff', { id: player.id, flag: true }, admin);
    const code = (await call<{ user: { inviteCode: string } }>('GET', '/auth/info', undefined, player.token))
      .user.inviteCode;
    await call('POST', '/code/friend@example.com/1');
    const fcode = await run.api.mailedCode('friend@example.com');
    await call('POST', '/user/register', {
      email: 'friend@example.com',
      password: await encrypt('console-user-pass'),
      code: fcode,
      inviteCode: code,
    });
    const human = new FormData();
    human.set('name', 'X Bot');
    human.set(
      'file',
      new Blob([readFileSync(join(TESTDATA, 'characters', 'mixamo_glb', 'Xbot.glb'))]),
      'Xbot.glb',
    );
    const hr = await run.api.post('/tomokage/upload', human, player.token);
    expect(hr.code, hr.message).toBe(0);
    const vid = await upload(player.token, 'studio dance');
    uploads++;
    await waitMade(player.token, vid);
    const dl = await fetch(`${run.server().url}/product/motion/download/video/${vid}/Mixamo`, {
      headers: { authorization: `Bearer ${player.token}` },
    });
    expect(dl.status).toBeLessThan(400);
    await call('POST', '/video/setFeedback', { id: vid, content: 'the hands jitter' }, player.token);

    for (const lang of ['en', 'zh'] as const) {
      const ctx = await context(lang, admin);
      const page = await ctx.newPage();
      await page.goto(`${run.server().url}/capture/index/manageUser`);
      await closeCarousel(page);
      for (const path of PAGES) {
        await page.locator(`[data-admin-path=${path}]`).click();
        await page.locator(`[data-admin-page=${path}]`).waitFor();
        await settle(page);
        // Real rows, not the empty state.
        const table = page.locator('[data-admin-page] table tbody tr[data-row]').first();
        if (!['service', 'manageVideoTag', 'briefing', 'extension'].includes(path)) await table.waitFor();
        await shot(page, `admin-${path}-${lang}`);
      }
      expect(await page.locator('[data-node="Street"]').count()).toBe(0); // the tag page was left
      await page.locator('[data-admin-path=manageVideoTag]').click();
      await page.locator('[data-node="Street"]').waitFor();
      await page.locator('[data-admin-path=videoDownHistory]').click();
      await page
        .locator('[data-testid=download-table] td', { hasText: 'player@example.com' })
        .first()
        .waitFor();
      await page.locator('[data-admin-path=manageVideo]').click();
      await page.locator('[data-testid=video-table] td', { hasText: 'the hands jitter' }).waitFor();
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
    await ap.goto(`${run.server().url}/capture/index/manageUser`);
    await search(ap, playerSearch, 1);
    const row = ap.locator(`[data-testid=user-table] tr[data-row="${player.id}"]`);
    await row.waitFor();
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
    await up.goto(`${run.server().url}/capture/index/square`);
    await up.getByTestId('coins').waitFor();
    expect((await up.getByTestId('coins').textContent())?.trim()).toBe(`${before + 123} V`);
    // An ordinary user has no console.
    expect(await up.getByTestId('admin-menu').count()).toBe(0);
    await up.goto(`${run.server().url}/capture/index/manageUser`);
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

    const u2 = await context('en', player.token, true);
    const p2 = await u2.newPage();
    await p2.goto(`${run.server().url}/capture/index/square`);
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
    await search(ap, playerSearch, 1);
    await ap.locator(`tr[data-row="${player.id}"] [data-action=black]`).click();
    await ap.locator('.modal-foot .btn-danger').click();
    await ap.locator(`tr[data-row="${player.id}"] [data-action=unblack]`).waitFor();
    const refused = await raw('POST', '/video/center', { page: 1, size: 10 }, player.token);
    expect(refused.code).toBe(408);
    // In the browser: the next request logs the user out.
    await p2.reload();
    await p2.waitForURL(/\/(home|login)/);
    await u2.close();

    // --- a blacklisted e-mail domain: its next code request gets 408 ---
    expect((await raw('POST', '/code/first@spam.example/1')).code).toBe(0);
    await ap.locator('[data-admin-path=block]').click();
    await ap.getByTestId('rule-value').fill('spam.example');
    await ap.getByTestId('rule-add').click();
    await ap.locator('[data-testid=rule-table] code', { hasText: 'spam.example' }).waitFor();
    await settle(ap);
    await shot(ap, 'admin-block-rules-en');
    const blocked = await raw('POST', '/code/second@spam.example/1');
    expect(blocked.code).toBe(408);

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
      'POST /sysConfig/blackListInfo/rules/insert',
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
      await page.goto(`${run.server().url}/capture/index/manageUser`);
      await closeCarousel(page);
      await page.locator('[data-admin-page=manageUser]').waitFor();
      await settle(page);
      const paths = await page
        .locator('[data-admin-path]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-admin-path')));
      expect(paths).toEqual([
        'manageUser',
        'block',
        'service',
        'manageVideo',
        'manageVideoTag',
        'videoDownHistory',
        'manageAnimation',
        'manageTomokage',
      ]);
      await shot(page, `admin-operator-${lang}`);
      await page.goto(`${run.server().url}/capture/index/auditLog`);
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
  it('a second worker process appears on machineManage with a live heartbeat; disabled, it gets no more jobs', async () => {
    const uploader = await register('uploader@example.com');
    second = spawn(
      join(ROOT, 'node_modules', '.bin', 'tsx'),
      [join(ROOT, 'apps', 'worker', 'src', 'main.ts')],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          DATA_DIR: run.server().dataDir,
          DATABASE_URL: '',
          REDIS_URL: '',
          NODE_ENV: 'test',
          LOG_LEVEL: 'warn',
          CAPTURE_MODEL: 'lite',
          WORKER_NAME: 'e2e-second',
          WORKER_HEARTBEAT_MS: '1000',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    second.stdout?.on('data', (d) => {
      secondLog += d;
    });
    second.stderr?.on('data', (d) => {
      secondLog += d;
    });

    const ctx = await context('en', admin);
    const page = await ctx.newPage();
    await page.goto(`${run.server().url}/capture/index/machineManage`);
    await closeCarousel(page);
    const row = page.locator('tr', { has: page.locator('[data-machine="e2e-second"]') });
    await row.waitFor({ timeout: 120_000 });
    // Live: the page's heartbeat time moves on without a reload.
    const beat = async () => Number(await row.locator('[data-heartbeat]').getAttribute('data-heartbeat'));
    const first = await beat();
    await waitFor(async () => (await beat()) > first, 20_000, 'a newer heartbeat on the page');
    expect(await row.locator('[data-state]').getAttribute('data-state')).toMatch(/online|busy/);
    expect(await row.textContent()).toContain('lite');
    // Both machines are listed: the server's embedded worker and the second process.
    expect(await page.locator('[data-machine]').count()).toBeGreaterThanOrEqual(2);
    await settle(page);
    await shot(page, 'admin-machineManage-live-en');

    await row.locator('[data-action=disable]').click();
    await page.locator('.modal-foot .btn-danger').click();
    await waitFor(
      async () => (await row.locator('[data-state]').getAttribute('data-state')) === 'disabled',
      20_000,
      'disabled on the page',
    );
    await waitFor(() => secondLog.includes('disabled by an administrator'), 20_000, 'the worker drained');
    const doneBefore = Number(await row.locator('[data-jobs-done]').getAttribute('data-jobs-done'));
    await shot(page, 'admin-machineManage-disabled-en');

    // A new upload is made by the embedded worker only.
    const vid = await upload(uploader.token, 'after disable');
    uploads++;
    await waitMade(uploader.token, vid);
    expect(secondLog).not.toMatch(new RegExp(`video ${vid}\\b`));
    await waitFor(async () => (await beat()) > Date.now() - 3000, 20_000, 'a fresh heartbeat');
    expect(Number(await row.locator('[data-jobs-done]').getAttribute('data-jobs-done'))).toBe(doneBefore);
    expect(await row.locator('[data-state]').getAttribute('data-state')).toBe('disabled');

    // Enabled again it reports online.
    await row.locator('[data-action=enable]').click();
    await waitFor(() => secondLog.includes('enabled again'), 20_000, 'the worker resumed');
    // Both actions are in the audit log, with the machine's enabled flag before and after.
    await page.locator('[data-admin-path=auditLog]').click();
    await search(page, ['audit-route', '/machineInfo/update', 'audit-search', 'audit-table'], 2);
    const rows = (await page.getByTestId('audit-table').textContent()) ?? '';
    expect(rows).toContain('enabled: true → false');
    expect(rows).toContain('enabled: false → true');
    await settle(page);
    await shot(page, 'admin-auditLog-machines-en');
    await ctx.close();
  });

  it('the briefing chart counts the uploads the test made; revenue and an invoice the finance side handles', async () => {
    // A purchase (WeChat sandbox) with an invoice request.
    const buyer = await register('buyer@example.com');
    const p = await call<{ url: string; orderNo: string }>('POST', '/wx/prepay/1', {}, buyer.token);
    expect(await (await fetch(`${p.url}/pay`, { method: 'POST' })).text()).toContain('data-state="paid"');
    // As the pay page does: ask whether the order is paid (a pending order is also asked of the provider, so a
    // notice that came late or not at all still settles it) before the invoice is requested.
    expect(await call<boolean>('GET', `/wx/order/${p.orderNo}`, undefined, buyer.token)).toBe(true);
    await call(
      'POST',
      '/code/personInvoice',
      { orderNo: p.orderNo, title: 'Buyer Name', email: 'buyer@example.com' },
      buyer.token,
    );
    const invoiceOf = async () =>
      (
        await call<{ list: { orderNo: string; invoice: string | null }[] }>(
          'POST',
          '/user/order/record',
          {},
          buyer.token,
        )
      ).list.find((o) => o.orderNo === p.orderNo)?.invoice;
    expect(await invoiceOf()).toBe('pending');
    for (const lang of ['en', 'zh'] as const) {
      const ctx = await context(lang, admin);
      const page = await ctx.newPage();
      await page.goto(`${run.server().url}/capture/index/briefing`);
      await closeCarousel(page);
      const chart = page.getByTestId('briefing-chart');
      await chart.waitFor();
      const values = JSON.parse((await chart.getAttribute('data-values')) ?? '[]') as number[];
      expect(values).toHaveLength(7);
      // Every upload of this test run happened today: the last bar.
      expect(values.at(-1)).toBe(uploads);
      expect(values.slice(0, -1).every((v) => v === 0)).toBe(true);
      expect(await page.getByTestId('kpi-uploads').textContent()).toBe(String(uploads));
      expect(await page.getByTestId('kpi-revenue').textContent()).toBe('99.00');
      if (lang === 'en') {
        const inv = page.locator('[data-testid=invoice-table] tr', { hasText: p.orderNo });
        await inv.waitFor();
        await inv.locator('button', { hasText: 'Mark issued' }).click();
        await waitFor(
          async () => (await invoiceOf()) === 'issued',
          10_000,
          "the buyer's order shows the invoice issued",
        );
      }
      await settle(page);
      await shot(page, `admin-briefing-after-${lang}`);
      await page.locator('[data-admin-path=extension]').click();
      await page.getByTestId('extension-chart').waitFor();
      expect(await page.getByTestId('extension-table').textContent()).toContain('player@example.com');
      await settle(page);
      await shot(page, `admin-extension-after-${lang}`);
      await ctx.close();
    }
  });
});
