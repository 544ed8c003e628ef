/**
 * The animation library end to end (issue 22) in Chromium against the real server: a user browses the library
 * (the shipped CMU takes, the credit), filters by keyword, previews a take in 3D (the character moves), collects
 * it (collected-only filter), buys it once (confirm → a Mixamo zip downloads, V balance down by the price,
 * once), downloads another bone type free; the administrator hides one on manageAnimation and the user no longer
 * sees it. Screenshots in en and zh.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { unzipSync } from 'three/examples/jsm/libs/fflate.module.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { downloadBy, e2eSkipped, shot, TESTDATA, useE2e, waitFor } from './e2e-harness.ts';

const ADMIN = { email: 'root@anim.test', password: 'anim-root-pass-1' };
const XBOT = join(TESTDATA, 'characters', 'mixamo_glb', 'Xbot.glb');

describe.skipIf(e2eSkipped())('animation library e2e (chromium + real server)', () => {
  let admin: string;
  const dir = mkdtempSync(join(tmpdir(), 'mocap-anim-e2e-'));
  const run = useE2e({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  const { call, register: registerAs, login } = run.api;
  const register = async (email: string) =>
    (await registerAs<{ token: string }>(email, 'anim-pass-123')).token;
  const context = (lang: 'en' | 'zh', token: string) =>
    run.context(lang, token, { acceptDownloads: true, noticesSeen: true });
  const suggested = (d: { suggestedFilename(): string }) => d.suggestedFilename();
  /** Collects the animation of `card`: its collect button pressed, waited for (`what`). */
  const collect = async (card: Locator, what: string) => {
    await card.locator('[data-action="collect"]').click();
    await waitFor(
      async () =>
        (await card.locator('[data-action="collect"]').getAttribute('aria-pressed')) === 'true' ? true : null,
      10_000,
      what,
    );
  };
  const canvasShot = (page: Page) =>
    page.evaluate(
      () =>
        (
          document.querySelector('[data-testid="anim-stage"] canvas') as HTMLCanvasElement | null
        )?.toDataURL() ?? '',
    );

  beforeAll(async () => {
    admin = await login(ADMIN.email, ADMIN.password);
  });

  it('browses, previews, collects, sells once; the administrator hides', async () => {
    const tokens: Record<string, string> = {};
    for (const lang of ['en', 'zh'] as const) {
      const token = await register(`anim-${lang}@example.com`);
      tokens[lang] = token;
      const balance = async () =>
        (await call<{ user: { surplus: number } }>('GET', '/auth/info', undefined, token)).user.surplus;
      const ctx = await context(lang, token);
      const page = await ctx.newPage();
      await page.goto(`${run.server().url}/capture/index/animation`);
      await page.getByTestId('anim-card').first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.getByTestId('anim-card').count()).toBe(12);
      expect(await page.locator('.music-credits').last().textContent()).toContain('mocap.cs.cmu.edu');
      // Every card shows its picture (an SVG drawn from the clip).
      await page.waitForFunction(() => {
        const imgs = [...document.querySelectorAll('[data-testid="anim-picture"]')] as HTMLImageElement[];
        return imgs.length > 0 && imgs.slice(0, 4).every((im) => im.complete && im.naturalWidth === 320);
      });
      await shot(page, `animation-library-${lang}`);

      // Keyword filter.
      await page.getByTestId('anim-keyword').fill('05_02');
      await page.getByTestId('anim-keyword').press('Enter');
      await waitFor(
        async () => ((await page.getByTestId('anim-card').count()) === 1 ? true : null),
        10_000,
        'filter',
      );
      const card = page.getByTestId('anim-card').first();
      expect(await card.textContent()).toContain('CMU dance 05_02');

      // 3D preview: the character moves.
      await card.locator('[data-action="preview"]').click();
      await page.locator('[data-testid="anim-stage"][data-state="ready"]').waitFor({ timeout: 60_000 });
      const first = await canvasShot(page);
      await waitFor(
        async () => ((await canvasShot(page)) !== first ? true : null),
        15_000,
        'the animation to move',
      );
      await shot(page, `animation-preview-${lang}`);
      await page.keyboard.press('Escape');
      if (await page.locator('.music-preview').count())
        await page.locator('.modal-close, [aria-label="Close"], [aria-label="关闭"]').first().click();
      await page.locator('.music-preview').waitFor({ state: 'detached' });

      // Collect, then the collected-only filter shows it.
      await collect(card, 'collected');
      await page.getByTestId('anim-keyword').fill('');
      await page.getByTestId('anim-keyword').press('Enter');
      await page.locator('.anim-filters input[type="checkbox"]').check();
      await waitFor(
        async () => ((await page.getByTestId('anim-card').count()) === 1 ? true : null),
        10_000,
        'collected only',
      );

      // Buy once (10 V for 9.4 s), a Mixamo zip downloads.
      const before = await balance();
      await card.getByTestId('anim-bonetype').selectOption('Mixamo');
      await card.locator('[data-action="buy"]').click();
      await page.locator('.modal').waitFor();
      await shot(page, `animation-buy-${lang}`);
      const [zip] = await downloadBy(
        page,
        page.locator('.modal .btn-primary').last(),
        join(dir, `anim-${lang}.zip`),
      );
      expect(zip.subarray(0, 2).toString()).toBe('PK');
      expect(zip.includes(Buffer.from('.fbx'))).toBe(true);
      await card.locator('[data-action="download"]').waitFor();
      expect(await balance()).toBe(before - 10);
      // Another bone type: free.
      await card.getByTestId('anim-bonetype').selectOption('Unreal5.6');
      const [d2] = await Promise.all([
        page.waitForEvent('download'),
        card.locator('[data-action="download"]').click(),
      ]);
      expect(await d2.path()).toBeTruthy();
      expect(await balance()).toBe(before - 10);
      await page.waitForLoadState('networkidle');
      await shot(page, `animation-bought-${lang}`);

      // The `zip` endpoint: collect 05_04 too; the collected ones download as one zip (05_04 bought on confirm).
      const p04 = (
        await call<{ list: { price: number }[] }>('POST', '/animation/search', { keyword: '05_04' }, token)
      ).list[0]!.price;
      await page.locator('.anim-filters input[type="checkbox"]').uncheck();
      const card04 = page.getByTestId('anim-card').filter({ hasText: 'CMU dance 05_04' });
      await collect(card04, 'collected 05_04');
      await page.locator('.anim-filters input[type="checkbox"]').check();
      await waitFor(
        async () => ((await page.getByTestId('anim-card').count()) === 2 ? true : null),
        10_000,
        'two collected',
      );
      await page.getByTestId('anim-bundle').locator('[data-action="bundle"]').click();
      await page.locator('.modal').waitFor();
      expect(await page.locator('.modal').textContent()).toContain(String(p04));
      await shot(page, `animation-bundle-${lang}`);
      const [bundleBytes, bundle] = await downloadBy(
        page,
        page.locator('.modal .btn-primary').last(),
        join(dir, `anim-bundle-${lang}.zip`),
      );
      // Two inner zips, each holding an FBX.
      const outer = unzipSync(new Uint8Array(bundleBytes));
      expect(Object.keys(outer).filter((n) => n.endsWith('.zip')).length).toBe(2);
      for (const inner of Object.values(outer))
        expect(Object.keys(unzipSync(inner)).some((n) => n.toLowerCase().endsWith('.fbx'))).toBe(true);
      expect(suggested(bundle)).toBe('animations_Mixamo_2.zip');
      await waitFor(
        async () => ((await page.locator('[data-action="buy"]').count()) === 0 ? true : null),
        10_000,
        'both bought',
      );
      expect(await balance()).toBe(before - 10 - p04);
      const spent = 10 + p04;

      // The bought animation drives a digital human (the apply picker lists it as a library animation).
      if (existsSync(XBOT)) {
        const id = (
          await call<{ list: { id: number }[] }>('POST', '/animation/search', { keyword: '05_02' }, token)
        ).list[0]!.id;
        await page.goto(`${run.server().url}/capture/index/tomokage`);
        await page.getByTestId('tomo-file').setInputFiles(XBOT);
        await page.locator('[data-action="tomo-upload"]').click();
        await page.locator('[data-testid="tomo-stage"][data-state="ready"]').waitFor({ timeout: 120_000 });
        await page.locator('[data-tab="apply"]').click();
        await page.getByTestId('tomo-motion').selectOption(`animation:${id}`);
        expect(
          await page.locator(`[data-testid="tomo-motion"] option[value="animation:${id}"]`).textContent(),
        ).toContain(lang === 'en' ? 'library animation' : '动画库');
        await page.locator('[data-action="tomo-apply"]').click();
        await page
          .locator('[data-testid="tomo-stage"][data-state="ready"][data-animated="true"]')
          .waitFor({ timeout: 120_000 });
        expect(await balance()).toBe(before - spent);
        await page.waitForLoadState('networkidle');
        await shot(page, `animation-tomokage-${lang}`);
      }
      await ctx.close();
    }

    // The administrator hides 05_03 on manageAnimation; users no longer see it.
    for (const lang of ['en', 'zh'] as const) {
      const ctx = await context(lang, admin);
      const page = await ctx.newPage();
      await page.goto(`${run.server().url}/capture/index/manageAnimation`);
      await page.locator('[data-testid=animation-table] tbody tr[data-row]').first().waitFor();
      if (lang === 'en') {
        const row = page.locator('[data-testid=animation-table] tbody tr[data-row]', {
          hasText: 'CMU dance 05_03',
        });
        await row.locator('[data-action="hide"]').click();
        await row.locator('[data-action="publish"]').waitFor();
        // Redo 05_02 from the shipped take: the zips its buyers had made are dropped (made anew on the next download).
        const zipsOf = async () =>
          (
            await call<{ zips: unknown[] }>(
              'GET',
              `/animation/cos_url/${
                (
                  await call<{ list: { id: number }[] }>(
                    'POST',
                    '/animation/search',
                    { keyword: '05_02' },
                    tokens.en,
                  )
                ).list[0]!.id
              }`,
              undefined,
              tokens.en,
            )
          ).zips.length;
        expect(await zipsOf()).toBe(2);
        await page
          .locator('[data-testid=animation-table] tbody tr[data-row]', { hasText: 'CMU dance 05_02' })
          .locator('[data-action="redone"]')
          .click();
        await waitFor(async () => ((await zipsOf()) === 0 ? true : null), 20_000, 'redone');
      }
      await page.waitForLoadState('networkidle');
      await shot(page, `admin-manageAnimation-${lang}`);
      await ctx.close();
    }
    const user = await register('anim-after@example.com');
    const list = await call<{ list: { name: string }[]; total: number }>(
      'POST',
      '/animation/search',
      { size: 100 },
      user,
    );
    expect(list.total).toBe(18);
    expect(list.list.some((x) => x.name === 'CMU dance 05_03')).toBe(false);
  }, 900_000);
});
