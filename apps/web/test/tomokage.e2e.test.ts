/**
 * Digital humans end to end (issue 24) in Chromium against the real server (in-process worker): an account makes a
 * dance (music upload, the real music job), then on /index/tomokage (reached from the sidebar button) uploads the
 * Mixamo X Bot → the card shows the server's pictures and "all 52 joints mapped" → the mapping editor (a joint
 * cleared and saved: the card counts one missing; mapped automatically again) → the dance applied → the 3D preview
 * plays it on the character's own mesh (the canvas changes over time, the camera follows the dance so the character
 * stays in view) → the FBX downloads (a binary FBX with the
 * X Bot's skeleton and mesh). On a phone the tab bar's digital-human tab opens the page, where the character
 * uploads and its card shows. Screenshots in en and zh.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testTracks } from '@mocap/dance';
import { wavBytes } from '@mocap/dance/node';
import { importCharacter } from '@mocap/motion/characters';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  closeDialog,
  downloadBy,
  e2eSkipped,
  PHONE,
  shot,
  TESTDATA,
  useE2e,
  waitFor,
} from './e2e-harness.ts';

const XBOT = join(TESTDATA, 'characters', 'mixamo_glb', 'Xbot.glb');

/** Closes the character dialog, back on the list with its pictures loaded. */
async function backToList(page: Page): Promise<void> {
  await closeDialog(page, '.tomo-dialog');
  await page.getByTestId('tomo-front').first().waitFor();
  await page.waitForLoadState('networkidle');
}

describe.skipIf(e2eSkipped(existsSync(XBOT)))('digital humans e2e (chromium + real server)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mocap-tomo-e2e-'));
  const run = useE2e();
  const { call, register: registerAs } = run.api;
  const register = async (email: string) =>
    (await registerAs<{ token: string }>(email, 'tomo-pass-123')).token;
  /** A made dance for the account (the real music job). */
  const makeDance = async (token: string, seed: number) => {
    const t = testTracks.renderTrack({
      name: `s${seed}`,
      sections: [{ bars: 4, bpm: 120, pattern: 'rock' }],
      seed,
    });
    const form = new FormData();
    form.append('name', `dance ${seed}`);
    form.append(
      'file',
      new Blob([Buffer.from(wavBytes({ samples: t.samples, sampleRate: t.sampleRate }))]),
      `song${seed}.wav`,
    );
    const r = await fetch(`${run.server().url}/product/music/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const env = (await r.json()) as { code: number; message: string; data: { id: number } };
    expect(env.code, env.message).toBe(0);
    await waitFor(
      async () => {
        const m = await call<{ status: number }>('GET', `/music/${env.data.id}`, undefined, token);
        if (m.status === 3) throw new Error('the dance failed');
        return m.status === 2 ? true : null;
      },
      300_000,
      'the dance',
    );
  };
  const canvasShot = (page: Page) =>
    page.evaluate(
      () => (document.querySelector('.tomo-stage canvas') as HTMLCanvasElement | null)?.toDataURL() ?? '',
    );

  /** Where the character's (skin-coloured) pixels are on the 3D stage: count and horizontal extent (0..1). */
  const characterInView = (page: Page) =>
    page.evaluate(() => {
      const c = document.querySelector('.tomo-stage canvas') as HTMLCanvasElement;
      const off = document.createElement('canvas');
      off.width = c.width;
      off.height = c.height;
      const g = off.getContext('2d') as CanvasRenderingContext2D;
      g.drawImage(c, 0, 0);
      const d = g.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      let minX = c.width;
      let maxX = -1;
      for (let y = 0; y < c.height; y += 2)
        for (let x = 0; x < c.width; x += 2) {
          const i = (y * c.width + x) * 4;
          if (d[i] > 120 && d[i] - d[i + 2] > 30) {
            n++;
            if (x < minX) minX = x;
            if (x > maxX) maxX = x;
          }
        }
      return { n, left: minX / c.width, right: maxX / c.width };
    });

  it('upload → mapping editor → apply → 3D preview → FBX download, in en and zh', async () => {
    for (const lang of ['en', 'zh'] as const) {
      const token = await register(`tomo-${lang}@example.com`);
      await makeDance(token, lang === 'en' ? 7 : 8);
      const ctx = await run.context(lang, token, { acceptDownloads: true });
      const page = await ctx.newPage();
      await page.goto(`${run.server().url}/capture/index/myPro`);
      // The sidebar button leads to the page (individual account, no maintenance).
      await page.getByTestId('digital-human').click();
      await page.waitForURL(/\/index\/tomokage$/);
      await page.getByTestId('tomo-limits').waitFor();
      await page.waitForLoadState('networkidle');
      await shot(page, `tomokage-empty-${lang}`);
      expect(await page.getByTestId('tomo-limits').textContent()).toMatch(/30/);

      // Upload: the dialog opens on the new character with its rest pose in 3D.
      await page.getByTestId('tomo-file').setInputFiles(XBOT);
      await page.locator('[data-action="tomo-upload"]').click();
      await page.locator('[data-testid="tomo-stage"][data-state="ready"]').waitFor({ timeout: 120_000 });
      await page.getByTestId('tomo-mapping').waitFor();
      expect(await page.locator('select[data-joint="leftHand"]').inputValue()).toBe('mixamorig:LeftHand');
      await shot(page, `tomokage-mapping-${lang}`);

      // Mapping editor: clear a joint, save; the card then counts one missing. Then map automatically again.
      await page.locator('select[data-joint="leftToes"]').selectOption('');
      await page.locator('[data-action="tomo-save-mapping"]').click();
      await waitFor(
        async () =>
          (await page.locator('.tomo-joint.missing select[data-joint="leftToes"]').count()) > 0 &&
          (await page.locator('[data-action="tomo-save-mapping"]').isDisabled())
            ? true
            : null,
        20_000,
        'the mapping saved',
      );
      // The button is also disabled while the save is on its way: wait for the server's card to say it.
      const missing = await waitFor(
        async () => {
          const c = await call<{ list: { missing: string[] }[] }>('POST', '/tomokage/center', {}, token);
          return c.list[0]!.missing.length ? c.list[0]!.missing : null;
        },
        20_000,
        'the saved mapping on the card',
      );
      expect(missing).toEqual(['leftToes']);
      await page.locator('[data-action="tomo-automap"]').click();
      await waitFor(
        async () =>
          (await page.locator('select[data-joint="leftToes"]').inputValue()) === 'mixamorig:LeftToeBase'
            ? true
            : null,
        20_000,
        'the automatic mapping',
      );

      // Apply the dance; the preview plays it on the character.
      await page.locator('[data-tab="apply"]').click();
      await page.getByTestId('tomo-motion').waitFor();
      await page.locator('[data-action="tomo-apply"]').click();
      await page
        .locator('[data-testid="tomo-stage"][data-state="ready"][data-animated="true"]')
        .waitFor({ timeout: 120_000 });
      const still = await canvasShot(page);
      await waitFor(
        async () => ((await canvasShot(page)) !== still ? true : null),
        15_000,
        'the character to move',
      );
      // The dance travels: the camera follows, so the character stays in view (not cut by the canvas edge)
      // through the whole take.
      const seen: { n: number; left: number; right: number }[] = [];
      const t0 = Date.now();
      while (Date.now() - t0 < 9_000) seen.push(await characterInView(page));
      expect(seen.length).toBeGreaterThan(10);
      for (const v of seen) {
        expect(v.n, 'character pixels').toBeGreaterThan(300);
        expect(v.left).toBeGreaterThan(0.02);
        expect(v.right).toBeLessThan(0.98);
      }
      await page.getByTestId('tomo-applied').first().waitFor();
      await shot(page, `tomokage-apply-${lang}`);

      // Download the FBX: the character's own skeleton and mesh.
      const [fbx] = await downloadBy(
        page,
        page.locator('[data-action="tomo-download-fbx"]').first(),
        join(dir, `xbot-${lang}.fbx`),
      );
      expect(fbx.subarray(0, 18).toString()).toBe('Kaydara FBX Binary');
      const back = importCharacter(new Uint8Array(fbx));
      expect(back.bones.length).toBe(65);
      expect(back.stats.vertices).toBe(28374);
      writeFileSync(join(dir, 'ok'), 'x');

      await backToList(page);
      await shot(page, `tomokage-list-${lang}`);
      await ctx.close();
    }
  }, 1_200_000);

  it('phone: the tab bar has the digital human; its page uploads and lists a character', async () => {
    for (const lang of ['en', 'zh'] as const) {
      const token = await register(`tomo-phone-${lang}@example.com`);
      const ctx = await run.context(lang, token, PHONE);
      const page = await ctx.newPage();
      await page.goto(`${run.server().url}/capture/index/myPro`);
      const tab = page.getByTestId('tab-digital-human');
      await tab.waitFor();
      expect(await tab.isVisible()).toBe(true);
      expect(await tab.textContent()).toBe(lang === 'en' ? 'Digital human' : '数字人');
      await tab.click();
      await page.waitForURL(/\/index\/tomokage$/);
      await page.getByTestId('tomo-limits').waitFor();
      expect(await page.locator('[data-testid="tab-digital-human"].on').count()).toBe(1);
      await page.waitForLoadState('networkidle');
      await shot(page, `tomokage-phone-empty-${lang}`);
      await page.getByTestId('tomo-file').setInputFiles(XBOT);
      await page.locator('[data-action="tomo-upload"]').click();
      await page.locator('[data-testid="tomo-stage"][data-state="ready"]').waitFor({ timeout: 120_000 });
      await shot(page, `tomokage-phone-mapping-${lang}`);
      await backToList(page);
      await shot(page, `tomokage-phone-list-${lang}`);
      await ctx.close();
    }
  }, 600_000);
});
