/**
 * The administrator's sidebar at laptop sizes (1366×768, 1280×720), in Chromium against the real server: with the
 * lab entries and every console page the menu is longer than the window, so the console section scrolls inside the
 * sidebar. Every entry (main menu, lab, console) can be reached and, scrolled into view, lies wholly inside the
 * sidebar and inside the console section's visible box, the last console entry with room below it; the sidebar's
 * foot (tour, digital human, community panel, version) stays inside the window. en and zh, screenshots scrolled to
 * the end of the menu.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { e2eSkipped, shot, useE2e } from './e2e-harness.ts';

const ADMIN = { email: 'root@sidebar.test', password: 'sidebar-root-pass-1' };
const SIZES = [
  { width: 1366, height: 768 },
  { width: 1280, height: 720 },
] as const;

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

describe.skipIf(e2eSkipped())('administrator sidebar e2e (chromium + real server)', () => {
  const run = useE2e({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  let admin: string;
  const { login } = run.api;
  beforeAll(async () => {
    admin = await login(ADMIN.email, ADMIN.password);
  });

  it('every menu entry is reachable and wholly visible at 1366×768 and 1280×720, en and zh', async () => {
    for (const lang of ['en', 'zh'] as const) {
      for (const size of SIZES) {
        const ctx = await run.context(lang, admin, {
          viewport: size,
          deviceScaleFactor: 1,
          noticesSeen: true,
        });
        const page = await ctx.newPage();
        await page.goto(`${run.server().url}/capture/index/manageUser`);
        await page.locator('[data-admin-page=manageUser]').waitFor();
        const menu = page.getByTestId('admin-menu');
        await menu.locator('[data-admin-path=auditLog]').waitFor();
        await page.waitForLoadState('networkidle');
        const where = `${lang} ${size.width}×${size.height}`;
        await shot(page, `admin-sidebar-top-${lang}-${size.width}x${size.height}`);

        const sidebar = (await page.locator('.sidebar').boundingBox())!;
        // The sidebar fits the window: nothing of it hangs below the bottom edge.
        expect(sidebar.y + sidebar.height, where).toBeLessThanOrEqual(size.height + 0.5);
        const foot = (await page.locator('.sidebar-bottom').boundingBox())!;
        expect(foot.y + foot.height, `${where}: sidebar foot`).toBeLessThanOrEqual(size.height + 0.5);

        // The console section scrolls (the menu is longer than the window at these sizes).
        const scroll = await menu.evaluate((m) => ({ h: m.scrollHeight, c: m.clientHeight }));
        expect(scroll.h, `${where}: the console menu overflows and scrolls`).toBeGreaterThan(scroll.c);

        const entries = page.locator('.sidebar .menu-item');
        const n = await entries.count();
        expect(n, where).toBeGreaterThan(15);
        for (let i = 0; i < n; i++) {
          const entry = entries.nth(i);
          await entry.scrollIntoViewIfNeeded();
          const label = (await entry.textContent()) ?? String(i);
          const { e, box } = await entry.evaluate((el) => {
            const r = (x: Element): Box => {
              const b = x.getBoundingClientRect();
              return { top: b.top, bottom: b.bottom, left: b.left, right: b.right };
            };
            const nav = el.closest('.menu')!;
            const box = r(nav);
            // The console section's title stays on top: an entry shows below it.
            const title = nav.querySelector('.menu-admin-title');
            if (title) box.top = title.getBoundingClientRect().bottom;
            return { e: r(el), box };
          });
          // Wholly inside its menu's visible box and the window, its label not overflowing the entry.
          expect(e.top, `${where}: ${label} top`).toBeGreaterThanOrEqual(box.top - 0.5);
          expect(e.bottom, `${where}: ${label} bottom`).toBeLessThanOrEqual(box.bottom + 0.5);
          expect(e.bottom, `${where}: ${label} in the window`).toBeLessThanOrEqual(size.height);
          expect(e.right, `${where}: ${label} right`).toBeLessThanOrEqual(box.right + 0.5);
          const cut = await entry.evaluate(
            (el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1,
          );
          expect(cut, `${where}: ${label} label cut`).toBe(false);
        }

        // Scrolled to the end: the last console entry sits wholly inside with room below it.
        await menu.evaluate((m) => {
          m.scrollTop = m.scrollHeight;
        });
        await page.waitForFunction(
          () => {
            const m = document.querySelector('[data-testid=admin-menu]')!;
            return Math.abs(m.scrollTop + m.clientHeight - m.scrollHeight) <= 2;
          },
          undefined,
          { timeout: 5000 },
        );
        const end = await menu.evaluate((m) => {
          const items = m.querySelectorAll('.menu-item');
          const last = items[items.length - 1]!.getBoundingClientRect();
          return { lastBottom: last.bottom, menuBottom: m.getBoundingClientRect().bottom };
        });
        expect(end.menuBottom - end.lastBottom, `${where}: room below the last entry`).toBeGreaterThanOrEqual(
          4,
        );
        await shot(page, `admin-sidebar-end-${lang}-${size.width}x${size.height}`);
        await ctx.close();
      }
    }
  }, 300_000);
});
