/**
 * Payments end to end (issue 19) in Chromium against the real server with its payment sandbox:
 * a free user buys monthly by WeChat QR (the test pays on the sandbox's phone page) and the modal turns ok on
 * its next poll; plan, expiry, coins, order record and the A4 PDF are checked; then the user upgrades to yearly
 * through the Alipay sandbox cashier and comes back with payStatus/orderNo; a countdown that runs out shows
 * fail and resets; a company account gets the refusal. Every page is screenshotted in en and zh.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2eSkipped, PHONE, shot, useE2e } from './e2e-harness.ts';

const DAY = 86_400_000;

describe.skipIf(e2eSkipped())('payments e2e (chromium + real server + payment sandbox)', () => {
  const run = useE2e();
  const { call, register: registerAs } = run.api;
  const register = async (email: string, company = false) =>
    (await registerAs<{ token: string }>(email, 'pay-pass-123', company)).token;
  const context = (lang: 'en' | 'zh', token: string) => run.context(lang, token, { acceptDownloads: true });
  const settle = async (page: Page) => {
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(300);
  };
  const info = async (token: string) =>
    (
      await call<{ user: { level: string; vexpiredAt: number; surplus: number } }>(
        'GET',
        '/auth/info',
        undefined,
        token,
      )
    ).user;

  it('buys monthly by WeChat QR on the sandbox phone, then upgrades to yearly through the Alipay cashier', async () => {
    for (const lang of ['en', 'zh'] as const) {
      const token = await register(`buyer-${lang}@example.com`);
      const before = await info(token);
      const ctx = await context(lang, token);
      const page = await ctx.newPage();
      await page.goto(`${run.server().url}/capture/asPay/index`);
      await page.getByTestId('buy-monthly').waitFor();
      await settle(page);
      await shot(page, `pay-pricing-free-${lang}`);

      await page.getByTestId('buy-monthly').click();
      const qr = page.getByTestId('pay-qr');
      await qr.waitFor();
      expect(await page.getByTestId('pay-amount').textContent()).toBe('¥99.00');
      expect(await page.getByTestId('pay-countdown').textContent()).toMatch(/0[45]:\d\d/);
      await shot(page, `pay-modal-wechat-${lang}`);
      const phoneUrl = (await qr.getAttribute('data-url')) ?? '';
      expect(phoneUrl).toContain('/paysandbox/wechat/phone/');

      // The "phone" that scanned the code pays.
      const phone = await ctx.newPage();
      await phone.setViewportSize({ width: 390, height: 760 });
      await phone.goto(phoneUrl);
      await shot(phone, `pay-sandbox-phone-${lang}`);
      await phone.locator('#pay').click();
      await phone.locator('[data-state="paid"]').waitFor();
      await shot(phone, `pay-sandbox-phone-paid-${lang}`);
      await phone.close();

      // The modal turns ok on its next poll (every 2 s).
      await page.getByTestId('pay-ok').waitFor({ timeout: 10_000 });
      await shot(page, `pay-modal-ok-${lang}`);
      const after = await info(token);
      expect(after.level).toBe('monthly');
      expect(after.surplus - before.surplus).toBe(1000);
      expect(Math.abs(after.vexpiredAt - (Date.now() + 30 * DAY))).toBeLessThan(120_000);

      // Order detail and its PDF.
      await page.getByRole('button', { name: lang === 'en' ? 'Order detail' : '订单详情' }).click();
      await page.getByTestId('order-detail').waitFor();
      const orderNo = (await page.getByTestId('order-no').textContent()) ?? '';
      expect(orderNo).toMatch(/^MC\d{22}$/);
      expect(await page.getByTestId('order-amount').textContent()).toBe('¥99.00');
      await shot(page, `pay-order-detail-${lang}`);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: lang === 'en' ? 'Download PDF' : '下载 PDF' }).click(),
      ]);
      const pdfPath = await download.path();
      const { readFileSync } = await import('node:fs');
      const bytes = readFileSync(pdfPath);
      expect(bytes.toString('latin1')).toMatch(/\/MediaBox \[0 0 595\.28 841\.89\]/);
      const { PDFParse } = await import('pdf-parse');
      const parser = new PDFParse({ data: new Uint8Array(bytes) });
      const text = await parser.getText();
      await parser.destroy();
      expect(text.total).toBe(1);
      expect(text.text).toContain(orderNo);
      expect(text.text).toContain('¥99.00');
      expect(text.text).toContain('月度专业版');
      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');

      // User centre, pay plan: plan, expiry, coins, the order.
      await page.goto(`${run.server().url}/capture/userCenter?tab=2`);
      await page.getByTestId('orders').waitFor();
      expect(await page.getByTestId('plan-coins').textContent()).toBe(String(after.surplus));
      expect(await page.getByTestId('plan-expiry').isVisible()).toBe(true);
      expect(await page.getByTestId('orders').textContent()).toContain(orderNo);
      await settle(page);
      await shot(page, `pay-center-plan-${lang}`);

      // Upgrade to yearly through the Alipay sandbox.
      await page.goto(`${run.server().url}/capture/asPay/index`);
      await page.getByTestId('buy-yearly').waitFor();
      await settle(page);
      await shot(page, `pay-pricing-monthly-${lang}`);
      await page.getByTestId('buy-yearly').click();
      await page.getByTestId('pay-qr').waitFor();
      await page.getByRole('radio', { name: lang === 'en' ? 'Alipay' : '支付宝' }).click();
      await shot(page, `pay-modal-alipay-${lang}`);
      await Promise.all([
        page.waitForURL(/\/paysandbox\/alipay\/gateway\.do/),
        page.getByRole('button', { name: lang === 'en' ? 'Pay with Alipay' : '前往支付宝支付' }).click(),
      ]);
      await page.locator('#pay').waitFor();
      expect(await page.content()).toContain('¥779.00');
      await shot(page, `pay-sandbox-cashier-${lang}`);
      await Promise.all([page.waitForURL(/\/capture\/asPay\/view\?/), page.locator('#pay').click()]);
      const back = new URL(page.url());
      expect(back.searchParams.get('payStatus')).toBe('1');
      await page.getByTestId('view-ok').waitFor();
      await settle(page);
      await shot(page, `pay-view-ok-${lang}`);
      const yearly = await info(token);
      expect(yearly.level).toBe('yearly');
      expect(yearly.surplus - after.surplus).toBe(15000);
      // The monthly plan's remaining 30 days were carried into the year.
      expect(Math.abs(yearly.vexpiredAt - (Date.now() + 390 * DAY))).toBeLessThan(120_000);
      const upgrade = await call<{ carriedDays: number; levelAfter: string }>(
        'GET',
        `/user/order/${back.searchParams.get('orderNo')}`,
        undefined,
        token,
      );
      expect(upgrade.levelAfter).toBe('yearly');
      expect(upgrade.carriedDays).toBeGreaterThan(29.9);

      // The other new pages in this language.
      for (const [path, name] of [
        ['/userCenter?tab=3', 'pay-center-invite'],
        ['/userCenter?tab=4', 'pay-center-cashback'],
        ['/index/marked', 'pay-marked'],
      ] as const) {
        await page.goto(`${run.server().url}/capture${path}`);
        await settle(page);
        await shot(page, `${name}-${lang}`);
      }
      expect(await page.getByTestId('price-table').textContent()).toContain('¥779.00');
      await ctx.close();
    }
  }, 300_000);

  it('a countdown that runs out shows fail, closes, and a new opening starts over at 300 s with WeChat', async () => {
    const token = await register('late@example.com');
    for (const lang of ['en', 'zh'] as const) {
      const ctx = await context(lang, token);
      const page = await ctx.newPage();
      await page.clock.install();
      await page.goto(`${run.server().url}/capture/asPay/index`);
      await page.getByTestId('buy-monthly').waitFor();
      await page.getByTestId('buy-monthly').click();
      await page.getByTestId('pay-qr').waitFor();
      const first = await page.getByTestId('pay-qr').getAttribute('data-url');
      await page.getByRole('radio', { name: lang === 'en' ? 'Alipay' : '支付宝' }).click();
      await page.clock.runFor(300_000);
      await page.getByTestId('pay-fail').waitFor();
      await shot(page, `pay-modal-fail-${lang}`);
      await page.clock.runFor(3_500);
      await page.getByTestId('pay-fail').waitFor({ state: 'detached' });
      expect(await page.locator('.pay-modal').count()).toBe(0);
      // Reopening: wait, WeChat selected, 05:00, and a fresh order (the old one expired).
      await page.getByTestId('buy-monthly').click();
      await page.getByTestId('pay-qr').waitFor();
      expect(
        await page
          .getByRole('radio', { name: lang === 'en' ? 'WeChat Pay' : '微信支付' })
          .getAttribute('aria-checked'),
      ).toBe('true');
      expect(await page.getByTestId('pay-countdown').textContent()).toContain('05:00');
      // A fresh order (the open one was closed at the sandbox and here).
      expect(await page.getByTestId('pay-qr').getAttribute('data-url')).not.toBe(first);
      await ctx.close();
    }
  }, 180_000);

  it('phone: the pricing page and the payment modal fit a phone screen', async () => {
    const token = await register('phone@example.com');
    for (const lang of ['en', 'zh'] as const) {
      const ctx = await run.context(lang, token, PHONE);
      const page = await ctx.newPage();
      await page.goto(`${run.server().url}/capture/asPay/index`);
      await page.getByTestId('buy-monthly').waitFor();
      await settle(page);
      // One column: no horizontal scrolling.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(
        true,
      );
      await shot(page, `pay-phone-pricing-${lang}`);
      await page.getByTestId('buy-monthly').click();
      await page.getByTestId('pay-qr').waitFor();
      const box = await page.locator('.pay-modal').boundingBox();
      expect(box && box.width <= 390).toBe(true);
      await shot(page, `pay-phone-modal-${lang}`);
      await ctx.close();
    }
  }, 120_000);

  it('refuses individual plans to a company account and shows the CV coin card', async () => {
    for (const lang of ['en', 'zh'] as const) {
      const token = await register(`acme-${lang}@example.com`, true);
      const ctx = await context(lang, token);
      const page = await ctx.newPage();
      await page.goto(`${run.server().url}/capture/asPay/index`);
      await page.getByTestId('cv-card').waitFor();
      await page.getByTestId('buy-monthly').click();
      const toast = page.locator('.toast, .notification').filter({
        hasText:
          lang === 'en' ? 'Company accounts cannot buy this type of goods.' : '企业用户无法购买该类型商品',
      });
      await toast.first().waitFor();
      expect(await page.locator('.pay-modal').count()).toBe(0);
      await settle(page);
      await shot(page, `pay-company-refused-${lang}`);
      await ctx.close();
    }
  }, 120_000);
});
