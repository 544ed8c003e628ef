/**
 * Digital humans on the administrator console (issue 24: "manageTomokage lists, hides and deletes characters") and
 * the joints a rig does not have, in Chromium against the real server. An owner uploads three characters (Mixamo
 * X Bot, Quaternius modular man and woman); on the owner's page the Quaternius card says every joint of its rig is
 * mapped and how many it does not have, and the mapping editor marks the toes "not in rig" instead of missing. The
 * first-start administrator's manageTomokage lists the three with their owner and pictures (the Quaternius man's rig
 * column counts the 4 joints its rig does not have, naming them in the tooltip); hiding one takes it off
 * the owner's list (and its detail answers not found) until shown again; deleting one (after the confirmation)
 * takes it off the console and the owner's list. Screenshots in en and zh.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eSkipped, shot, TESTDATA, useE2e, waitFor } from './e2e-harness.ts';

const ADMIN = { email: 'root@tomokage.test', password: 'tomokage-root-pass-1' };
const FILES = {
  'X Bot': join(TESTDATA, 'characters', 'mixamo_glb', 'Xbot.glb'),
  'Quaternius man': join(TESTDATA, 'characters', 'quaternius_modular_glb', 'modular_men_Casual.glb'),
  'Quaternius woman': join(TESTDATA, 'characters', 'quaternius_modular_glb', 'modular_women_Casual.glb'),
} as const;
type Name = keyof typeof FILES;
const have = Object.values(FILES).every((f) => existsSync(f));

interface Card {
  id: number;
  name: string;
  mapped: number;
  missing: string[];
  absent: string[];
}

describe.skipIf(e2eSkipped(have))('digital humans on the console e2e (chromium + real server)', () => {
  const run = useE2e({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  let admin: string;
  const { raw, call, register, login } = run.api;
  beforeAll(async () => {
    admin = await login(ADMIN.email, ADMIN.password);
  });
  const context = (lang: 'en' | 'zh', token: string) => run.context(lang, token, { noticesSeen: true });
  const settle = async (page: Page) => {
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(200);
  };
  const ownerList = async (token: string) =>
    (await call<{ list: Card[] }>('POST', '/tomokage/center', {}, token)).list.map((c) => c.name).sort();

  it('the owner sees absent joints as such; manageTomokage lists, hides and deletes, in en and zh', async () => {
    const owner = (await register<{ token: string }>('owner@example.com', 'tomo-owner-pass')).token;
    const ids = {} as Record<Name, number>;
    for (const [name, file] of Object.entries(FILES) as [Name, string][]) {
      const form = new FormData();
      form.set('name', name);
      form.set('file', new Blob([readFileSync(file)]), file.slice(file.lastIndexOf('/') + 1));
      const r = (await (
        await fetch(`${run.server().url}/product/tomokage/upload`, {
          method: 'POST',
          headers: { authorization: `Bearer ${owner}` },
          body: form,
        })
      ).json()) as { code: number; message: string; data: Card };
      expect(r.code, r.message).toBe(0);
      ids[name] = r.data.id;
      if (name === 'Quaternius man') {
        // No toe bones and two-link thumbs: absent by design, nothing missing.
        expect(r.data.missing).toEqual([]);
        expect([...r.data.absent].sort()).toEqual(['leftThumb3', 'leftToes', 'rightThumb3', 'rightToes']);
      }
    }
    expect(await ownerList(owner)).toEqual(['Quaternius man', 'Quaternius woman', 'X Bot']);

    // The owner's page: the card and the mapping editor of the toe-less Quaternius man.
    for (const lang of ['en', 'zh'] as const) {
      const ctx = await context(lang, owner);
      const page = await ctx.newPage();
      await page.goto(`${run.server().url}/capture/index/tomokage`);
      const card = page.locator('.tomo-card', { hasText: 'Quaternius man' });
      await card.getByTestId('tomo-mapped').waitFor();
      expect(await card.getByTestId('tomo-mapped').textContent()).toBe(
        lang === 'en'
          ? 'All 48 joints of this rig mapped (4 it does not have)'
          : '本角色骨架的 48 个关节全部对应(另有 4 个骨架中没有)',
      );
      await card.locator('[data-action="tomo-open"]').click();
      await page.getByTestId('tomo-mapping').waitFor();
      await page.locator('[data-testid="tomo-stage"][data-state="ready"]').waitFor({ timeout: 120_000 });
      for (const j of ['leftToes', 'rightToes', 'leftThumb3'])
        expect(await page.locator(`.tomo-joint.absent select[data-joint="${j}"]`).count(), j).toBe(1);
      expect(await page.locator('.tomo-joint.missing').count()).toBe(0);
      expect(await page.locator('.tomo-joint.absent .tomo-method-absent').first().textContent()).toBe(
        lang === 'en' ? 'not in rig' : '骨架没有',
      );
      await page.locator('select[data-joint="leftToes"]').scrollIntoViewIfNeeded();
      await settle(page);
      await shot(page, `tomokage-absent-${lang}`);
      await ctx.close();
    }

    // The console: en hides the X Bot and deletes the Quaternius woman; zh shows the X Bot again and deletes the
    // Quaternius man.
    const steps = {
      en: { hide: 'X Bot', show: null, del: 'Quaternius woman' },
      zh: { hide: null, show: 'X Bot', del: 'Quaternius man' },
    } as const;
    for (const lang of ['en', 'zh'] as const) {
      const ctx = await context(lang, admin);
      const page = await ctx.newPage();
      await page.goto(`${run.server().url}/capture/index/manageTomokage`);
      await page.locator('[data-admin-page=manageTomokage]').waitFor();
      const table = page.getByTestId('tomokage-table');
      const row = (name: string) => table.locator('tbody tr', { hasText: name });
      const listed = async () =>
        (await table.locator('tbody tr').evaluateAll((rs) => rs.map((r) => r.textContent ?? ''))).length;
      await row('X Bot').waitFor();
      await settle(page);
      const names = lang === 'en' ? (Object.keys(FILES) as Name[]) : (['X Bot', 'Quaternius man'] as Name[]);
      expect(await listed()).toBe(names.length);
      for (const n of names) {
        const text = (await row(n).textContent()) ?? '';
        expect(text).toContain('owner@example.com');
        expect(text).toContain(String(ids[n]));
        // The server's front picture.
        expect(await row(n).locator('img').count()).toBe(1);
      }
      expect(await row('X Bot').textContent()).toContain('mixamo · 52');
      // The joints the toe-less Quaternius man's rig does not have, as the owner's card counts them.
      const absent = row('Quaternius man').locator('[data-testid="tomo-rig"] .admin-rig-note.absent');
      expect(await absent.textContent()).toBe(lang === 'en' ? '4 not in rig' : '骨架没有 4 个');
      for (const j of ['leftThumb3', 'leftToes', 'rightThumb3', 'rightToes'])
        expect(await absent.getAttribute('title')).toContain(j);
      expect(await row('Quaternius man').locator('.admin-rig-note.missing').count()).toBe(0);
      await shot(page, `admin-tomokage-${lang}`);

      const { hide, show, del } = steps[lang];
      if (hide) {
        await row(hide).locator('[data-action="hide"]').click();
        await row(hide).locator('[data-action="show"]').waitFor();
        expect(await row(hide).locator('.admin-pill.danger').textContent()).toBe('Hidden');
        await waitFor(
          async () => (!(await ownerList(owner)).includes(hide) ? true : null),
          10_000,
          'hidden from the owner',
        );
        const detail = await raw('GET', `/tomokage/${ids[hide]}`, undefined, owner);
        expect(detail.code).not.toBe(0);
        await settle(page);
        await shot(page, `admin-tomokage-hidden-${lang}`);
      }
      if (show) {
        expect(await row(show).locator('.admin-pill.danger').textContent()).toBe('已隐藏');
        await row(show).locator('[data-action="show"]').click();
        await row(show).locator('[data-action="hide"]').waitFor();
        expect(await row(show).locator('.admin-pill.ok').textContent()).toBe('显示中');
        await waitFor(
          async () => ((await ownerList(owner)).includes(show) ? true : null),
          10_000,
          'shown to the owner again',
        );
      }
      await row(del)
        .getByRole('button', { name: lang === 'en' ? 'Delete' : '删除' })
        .click();
      const confirm = page.locator('.modal', { has: page.locator('.confirm-text') });
      await confirm.waitFor();
      expect(await confirm.locator('.confirm-text').textContent()).toContain(del);
      await shot(page, `admin-tomokage-delete-${lang}`);
      await confirm.locator('.modal-foot .btn-danger').click();
      await row(del).waitFor({ state: 'detached' });
      expect(await listed()).toBe(names.length - 1);
      await waitFor(
        async () => (!(await ownerList(owner)).includes(del) ? true : null),
        10_000,
        'deleted for the owner',
      );
      const gone = await raw('POST', '/admin/tomokage/search', { page: 1, size: 15, keyword: del }, admin);
      expect((gone.data as { list: unknown[] }).list).toEqual([]);
      await settle(page);
      await shot(page, `admin-tomokage-after-${lang}`);
      await ctx.close();
    }
    expect(await ownerList(owner)).toEqual(['X Bot']);
  }, 900_000);
});
