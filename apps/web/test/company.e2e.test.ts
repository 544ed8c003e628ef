/**
 * Company e2e (issue 20), real Chromium + real server + payment sandbox: a company registers on the page (company
 * account ticked) → lands on its info page with exactly the five company entries in order and no digital-human
 * button → buys CV coins by WeChat QR on the sandbox phone → creates an API key (shown once) and a webhook to a
 * receiver started here. Then a separate process with only the key (the tutorial's curl steps) uploads a
 * testdata clip — sent twice with one Idempotency-Key, charged once —; the receiver gets video.made with a valid HMAC
 * signature (the same body replayed later fails the check); the Mixamo zip downloads; the consume page shows the
 * charge in CV coins; the second company's key cannot see the first's video; a key revoked on the page gets 401.
 * The tutorial shows the examples the server suite runs and every public operation from the OpenAPI document.
 * Every company page is screenshotted in en and zh. The flow runs on SQLite (en, zh) and on PostgreSQL (en).
 */
import { execFile } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TUTORIAL_JS, TUTORIAL_PY, TUTORIAL_STEPS, TUTORIAL_TS } from '../src/lib/companyTutorial.ts';
import { e2eSkipped, shot, TESTDATA, trimClip, useE2e, waitFor } from './e2e-harness.ts';

const MENU = {
  en: ['Company info', 'Recharge', 'Recharge detail', 'API tutorial', 'Price list'],
  zh: ['企业信息', '充值', '充值明细', 'API 调用教程', '价格表'],
};

function verify(secret: string, header: string | undefined, body: string, nowS: number): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!m || Math.abs(nowS - Number(m[1])) > 300) return false;
  const want = createHmac('sha256', secret).update(`${m[1]}.${body}`).digest();
  return timingSafeEqual(want, Buffer.from(m[2]!, 'hex'));
}

const bash = (cmd: string, env: Record<string, string>) =>
  new Promise<string>((resolve, reject) =>
    execFile('bash', ['-c', cmd], { env: { PATH: process.env.PATH ?? '', ...env } }, (err, out, errOut) =>
      err ? reject(new Error(`${cmd}\n${errOut}`)) : resolve(out),
    ),
  );

/** PostgreSQL at 127.0.0.1:5432 (required under CI, as for the server suite). */
const PG_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const pgUp = await new Promise<boolean>((resolve) => {
  const s = connect(5432, '127.0.0.1');
  s.once('connect', () => {
    s.destroy();
    resolve(true);
  });
  s.once('error', () => resolve(false));
});
/** The whole flow on SQLite in en and zh (screenshots), and again on PostgreSQL in en. */
const RUNS: ['sqlite' | 'postgres', readonly ('en' | 'zh')[]][] = [
  ['sqlite', ['en', 'zh']],
  ...(pgUp || process.env.CI === 'true' ? [['postgres', ['en']] as ['postgres', readonly 'en'[]]] : []),
];

describe.skipIf(e2eSkipped()).each(RUNS)(
  'company e2e on %s (chromium + real server + payment sandbox)',
  (kind, langs) => {
    let hookServer: Server;
    let hookUrl = '';
    const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
    const schema = `e2e_company_${process.pid}_${Date.now()}`;

    // registered before useE2e: run after it has stopped the server (after-all hooks run last-in, first-out)
    afterAll(async () => {
      if (kind === 'postgres') {
        const { default: pg } = await import('pg');
        const c = new pg.Client({ connectionString: PG_URL });
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await c.end();
      }
      await new Promise((r) => hookServer?.close(r));
    });
    const run = useE2e({
      CAPTURE_MODEL: 'lite',
      ...(kind === 'postgres' ? { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema } : {}),
    });
    beforeAll(async () => {
      hookServer = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
          res.end('ok');
        });
      });
      await new Promise<void>((r) => hookServer.listen(0, '127.0.0.1', () => r()));
      hookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/hook`;
    });

    // the screenshots come from the SQLite run (en and zh); the PostgreSQL run checks the same flow
    const snap = (page: Page, name: string) => (kind === 'sqlite' ? shot(page, name) : Promise.resolve(''));
    const settle = async (page: Page) => {
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => document.fonts.ready);
    };
    const cvOf = async (token: string) => {
      const r = await fetch(`${run.server().url}/product/auth/company/info`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return ((await r.json()) as { data: { company: { cvCoin: number } } }).data.company.cvCoin;
    };

    it('register → menu → buy CV coins → API key + webhook → upload with the key only → video.made → zip → consume', async () => {
      let otherVideo = ''; // the first company's video, which the second company's key must not see
      for (const lang of langs) {
        const email = `acme-${lang}@example.com`;
        const ctx = await run.context(lang);
        const page = await ctx.newPage();

        // register as a company on the page
        await page.goto(`${run.server().url}/capture/register`);
        await page.locator('input[name=email]').fill(email);
        await page.locator('input[name=company]').check();
        await page.locator('.code-btn').click();
        const code = await run.api.mailedCode(email);
        await page.locator('input[name=code]').fill(code);
        await page.locator('input[name=password]').fill('acme-pass-123');
        await page.locator('input[name=password2]').fill('acme-pass-123');
        await page.locator('input[name=agree]').check();
        await page.locator('button[type=submit]').click();
        await page.getByTestId('co-detail').waitFor();
        expect(page.url()).toContain('/capture/index/userDetailCompany');
        const token = await page.evaluate(() => document.cookie.match(/mocap_v1_token=([^;]+)/)?.[1] ?? '');
        expect(token).not.toBe('');

        // exactly the five company entries, in order; no digital-human button
        const labels = (
          await page.locator('.sidebar nav.menu button[data-menu-value]').allTextContents()
        ).map((s) => s.trim());
        expect(labels).toEqual(MENU[lang]);
        expect(await page.getByTestId('digital-human').count()).toBe(0);

        // buy CV coins (first pack: 1000 CV) by WeChat QR on the sandbox phone
        const before = await cvOf(token);
        await page.goto(`${run.server().url}/capture/index/recharge`);
        await page.getByTestId('co-pack').first().waitFor();
        await settle(page);
        await snap(page, `company-recharge-${lang}`);
        await page.getByTestId('co-pack').first().locator('button').click();
        const qr = page.getByTestId('pay-qr');
        await qr.waitFor();
        const phoneUrl = (await qr.getAttribute('data-url')) ?? '';
        const phone = await ctx.newPage();
        await phone.goto(phoneUrl);
        await phone.locator('#pay').click();
        await phone.locator('[data-state="paid"]').waitFor();
        await phone.close();
        await page.getByTestId('pay-ok').waitFor({ timeout: 15_000 });
        expect((await cvOf(token)) - before).toBe(1000);
        await page.keyboard.press('Escape');

        // API key (shown once) and a webhook
        await page.goto(`${run.server().url}/capture/index/userDetailCompany`);
        await page.getByTestId('key-name').fill('render farm');
        await page.getByTestId('key-create').click();
        const key = ((await page.getByTestId('key-shown').locator('code').textContent()) ?? '').trim();
        expect(key).toMatch(/^mck_/);
        // a read-only key: status, lists and downloads, no upload
        await page.getByTestId('key-name').fill('dashboard');
        await page.getByTestId('key-access').selectOption('read');
        await page.getByTestId('key-create').click();
        await page.getByTestId('key-shown').locator('code').filter({ hasNotText: key }).waitFor();
        const readKey = ((await page.getByTestId('key-shown').locator('code').textContent()) ?? '').trim();
        await page
          .getByTestId('key-row')
          .filter({ hasText: 'dashboard' })
          .filter({ hasText: lang === 'en' ? 'Read only' : '只读' })
          .waitFor();
        await page.locator('.co-url').fill(hookUrl);
        await page.getByRole('button', { name: lang === 'en' ? 'Add webhook' : '添加 Webhook' }).click();
        await page.getByTestId('hook-row').waitFor();
        const secret = (
          (await page.getByTestId('hook-row').locator('code').nth(1).textContent()) ?? ''
        ).trim();
        expect(secret).toMatch(/^whsec_/);
        await settle(page);
        await snap(page, `company-detail-${lang}`);

        // a separate process with only the key: the tutorial's curl steps
        const base = `${run.server().url}/product`;
        const readInfo = JSON.parse(await bash(TUTORIAL_STEPS[0]!.curl, { BASE: base, KEY: readKey }));
        expect(readInfo.code).toBe(0);
        const video = trimClip(
          join(TESTDATA, 'videos', 'mmhuman3d_single_person_basketball_outdoor.mp4'),
          2,
          480,
        );
        const cvBefore = await cvOf(token);
        const readUp = JSON.parse(
          await bash(TUTORIAL_STEPS[1]!.curl, { BASE: base, KEY: readKey, VIDEO: video }),
        );
        expect(readUp.code).toBe(406);
        const up = JSON.parse(await bash(TUTORIAL_STEPS[1]!.curl, { BASE: base, KEY: key, VIDEO: video }));
        expect(up.code, up.message).toBe(0);
        const id = String(up.data.id);
        expect(cvBefore - (await cvOf(token))).toBe(2);
        // the same upload retried (same Idempotency-Key): the same video, charged once
        const retried = JSON.parse(
          await bash(TUTORIAL_STEPS[1]!.curl, { BASE: base, KEY: key, VIDEO: video }),
        );
        expect(retried.data.id).toBe(up.data.id);
        expect(cvBefore - (await cvOf(token))).toBe(2);
        // company B's key cannot see company A's video
        if (otherVideo) {
          const peek = JSON.parse(
            await bash(TUTORIAL_STEPS[2]!.curl, { BASE: base, KEY: key, ID: otherVideo }),
          );
          expect(peek.code).toBe(406);
          expect(peek.data).toBeNull();
        } else otherVideo = id;

        // the receiver gets video.made, signed
        // made or failed: a failed capture shows its error here instead of a 10-minute timeout
        const made = await waitFor(
          () =>
            received.find(
              (r) =>
                String(r.headers['mocap-event']).startsWith('video.') && r.body.includes(`"videoId":${id}`),
            ),
          600_000,
          'video.made webhook',
        );
        expect(made.headers['mocap-event'], made.body).toBe('video.made');
        expect(verify(secret, made.headers['mocap-signature'] as string, made.body, Date.now() / 1000)).toBe(
          true,
        );
        // the same body replayed 10 minutes later: outside the replay window
        expect(
          verify(secret, made.headers['mocap-signature'] as string, made.body, Date.now() / 1000 + 600),
        ).toBe(false);
        const status = JSON.parse(await bash(TUTORIAL_STEPS[2]!.curl, { BASE: base, KEY: key, ID: id }));
        expect(status.data.status).toBe(2);
        const dl = JSON.parse(await bash(TUTORIAL_STEPS[3]!.curl, { BASE: base, KEY: key, ID: id }));
        const signed = new URL(dl.data.paths[0], run.server().url);
        const zip = Buffer.from(
          await (await fetch(`${run.server().url}${signed.pathname}${signed.search}`)).arrayBuffer(),
        );
        expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
        expect(zip.toString('latin1')).toMatch(/\.fbx/i);

        // the consume page shows the charge in CV coins
        await page.goto(`${run.server().url}/capture/index/consume`);
        const charge = page.getByTestId('ledger-row').filter({ hasText: lang === 'en' ? 'Upload' : '上传' });
        await charge.first().waitFor();
        expect(await charge.first().locator('td').nth(2).textContent()).toBe('-2');
        await settle(page);
        await snap(page, `company-consume-${lang}`);

        // the delivery log shows the delivery; the tutorial and the price list
        await page.goto(`${run.server().url}/capture/index/userDetailCompany`);
        await page.getByTestId('delivery-row').first().waitFor();
        await page.getByTestId('delivery-row').first().scrollIntoViewIfNeeded();
        await settle(page);
        await snap(page, `company-detail-deliveries-${lang}`);
        // redeliver from the log: the receiver gets the same body under the same Mocap-Delivery id (a receiver that
        // keeps the ids it handled tells a replay), newly signed; the row counts the second attempt
        const deliveryId = String(made.headers['mocap-delivery']);
        const copies = () => received.filter((r) => r.headers['mocap-delivery'] === deliveryId);
        const seen = copies().length;
        const row = page.getByTestId('delivery-row').filter({ hasText: 'video.made' }).first();
        await row.getByRole('button').click();
        await row.locator('td.num').filter({ hasText: /^2$/ }).waitFor();
        const again = await waitFor(() => copies()[seen], 20_000, 'the redelivered webhook');
        expect(again.body).toBe(made.body);
        expect(
          verify(secret, again.headers['mocap-signature'] as string, again.body, Date.now() / 1000),
        ).toBe(true);
        await page.goto(`${run.server().url}/capture/index/tutorial`);
        await page.getByTestId('tut-curl').first().waitFor();
        expect(await page.getByTestId('tut-curl').nth(1).textContent()).toContain(TUTORIAL_STEPS[1]!.curl);
        expect(await page.getByTestId('tut-js').textContent()).toBe(TUTORIAL_JS);
        expect(await page.getByTestId('tut-py').textContent()).toBe(TUTORIAL_PY);
        expect(await page.getByTestId('tut-ts').textContent()).toBe(TUTORIAL_TS);
        await settle(page);
        await snap(page, `company-tutorial-${lang}`);
        await page.getByTestId('tut-ts').scrollIntoViewIfNeeded();
        await snap(page, `company-tutorial-ts-${lang}`);
        // the endpoint list: every operation of the public API's OpenAPI document, with its fields
        const doc = (await (await fetch(`${run.server().url}/product/company/openapi.json`)).json()) as {
          paths: Record<string, Record<string, unknown>>;
        };
        const ops = Object.values(doc.paths).reduce((n, m) => n + Object.keys(m).length, 0);
        await page.getByTestId('tut-op').first().waitFor();
        expect(await page.getByTestId('tut-op').count()).toBe(ops);
        const uploads = page
          .getByTestId('tut-op')
          .filter({ has: page.locator('summary .co-op-path', { hasText: /^\/video\/uploads$/ }) });
        await uploads.locator('summary').click();
        await expect
          .poll(() => uploads.locator('.co-fields td code').allTextContents())
          .toContain('sessionToken');
        await uploads.scrollIntoViewIfNeeded();
        await settle(page);
        await snap(page, `company-tutorial-endpoints-${lang}`);

        // a key revoked on the page gets 401
        await page.goto(`${run.server().url}/capture/index/userDetailCompany`);
        page.once('dialog', (d) => void d.accept());
        const farm = page.getByTestId('key-row').filter({ hasText: 'render farm' });
        await farm.locator('button').click();
        await farm.filter({ hasText: lang === 'en' ? 'Revoked' : '已吊销' }).waitFor();
        const info = JSON.parse(await bash(TUTORIAL_STEPS[0]!.curl, { BASE: base, KEY: key }));
        expect(info.code).toBe(401);
        await page.goto(`${run.server().url}/capture/index/marked`);
        await page.getByTestId('price-table').waitFor();
        await settle(page);
        await snap(page, `company-marked-${lang}`);
        await ctx.close();
      }
    }, 1_500_000);
  },
);
