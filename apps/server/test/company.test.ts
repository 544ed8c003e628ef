/**
 * Company side (issue 20) on SQLite and PostgreSQL: e-mail notice choices really mailed (outbox), API keys
 * (shown once, hashed at rest, last-used, revoke → 401, per-key rate limit, never on key management), isolation
 * between companies, CV charge of an upload made with a key, webhooks to a local receiver (HMAC-SHA256 signature
 * with timestamp, replay detectable, retries with backoff, given up after 24 h, redeliver) and balance.low once.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Codes } from '../src/errors.ts';
import { readOutbox } from '../src/infra/mail/index.ts';
import { KyselyCompanyRepo } from '../src/modules/company/repo.ts';
import {
  hashApiKey,
  verifyWebhookSignature,
  WEBHOOK_RETRY_WINDOW_MS,
} from '../src/modules/company/service.ts';
import { databases, useServer } from './harness.ts';
import { markMade, postUpload, uploadForm, useFixtures } from './video-helpers.ts';

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A webhook receiver: records every request, answers `status()` (200 unless a test changes it). */
function receiver() {
  const got: Received[] = [];
  let status = 200;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = status;
      res.end('ok');
    });
  });
  return {
    got,
    setStatus: (s: number) => {
      status = s;
    },
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () =>
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`),
        ),
      ),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const fx = useFixtures();

describe.each(databases)('company side on %s', (kind) => {
  const t = useServer(kind, { env: { CAPTURE_MODEL: 'lite' } });
  const rx = receiver();
  let url = '';
  let a: { token: string; id: number };
  let b: { token: string; id: number };
  const emailA = `acme-${kind}@example.com`;

  const upload = async (token: string, file: string, headers: Record<string, string> = {}) => {
    const form = uploadForm(file, { name: 'api clip' });
    return postUpload<{ id: number; duration: number }>(t.app, token, form, headers);
  };
  const cv = (id: number) => t.services.coins.balance(id, 'CV');
  const mails = () => readOutbox(join(t.dataDir, 'outbox'), emailA);

  beforeAll(async () => {
    url = await rx.start();
    a = await t.register(emailA, { company: true });
    b = await t.register(`bolt-${kind}@example.com`, { company: true });
    await t.services.coins.change(a.id, 200, 'admin', `seed-a-${kind}`, { currency: 'CV' });
    await t.services.coins.change(b.id, 200, 'admin', `seed-b-${kind}`, { currency: 'CV' });
  });
  afterAll(async () => {
    await rx.stop();
  });

  it('e-mail notice choices: made / failed / low balance and threshold; individuals refused; empty body 400', async () => {
    const first = await t.call<Record<string, unknown>>('GET', '/product/company/emailNotice', {
      token: a.token,
    });
    expect(first.data).toEqual({
      emailNotice: true,
      made: true,
      failed: true,
      lowBalance: true,
      lowBalanceThreshold: 100,
    });
    const put = await t.call<Record<string, unknown>>('PUT', '/product/company/emailNotice', {
      token: a.token,
      body: { failed: false, lowBalanceThreshold: 150 },
    });
    expect(put.data).toEqual({
      emailNotice: true,
      made: true,
      failed: false,
      lowBalance: true,
      lowBalanceThreshold: 150,
    });
    const again = await t.call<Record<string, unknown>>('GET', '/product/company/emailNotice', {
      token: a.token,
    });
    expect(again.data).toEqual(put.data);
    expect((await t.call('PUT', '/product/company/emailNotice', { token: a.token, body: {} })).code).toBe(
      Codes.PARAMETER_ERROR,
    );
    const person = await t.register(`person-${kind}@example.com`);
    expect(
      (await t.call('PUT', '/product/company/emailNotice', { token: person.token, body: { made: false } }))
        .code,
    ).toBe(Codes.INSUFFICIENT_PERMISSION);
    expect(
      (await t.call('POST', '/product/company/apiKeys', { token: person.token, body: { name: 'x' } })).code,
    ).toBe(Codes.INSUFFICIENT_PERMISSION);
  });

  let keyA = '';
  let keyB = '';
  it('API keys: shown once, stored hashed, listed with last use; a key cannot manage keys; revoked → 401', async () => {
    const made = await t.call<{ id: number; key: string; prefix: string; name: string }>(
      'POST',
      '/product/company/apiKeys',
      { token: a.token, body: { name: 'render farm' } },
    );
    expect(made.code).toBe(0);
    keyA = made.data.key;
    expect(keyA).toMatch(/^mck_[A-Za-z0-9_-]{43}$/);
    expect(keyA.startsWith(made.data.prefix)).toBe(true);
    // at rest: the hash finds it, the list never shows it
    const stored = await new KyselyCompanyRepo(t.infra.database.db).findKeyByHash(hashApiKey(keyA));
    expect(stored?.id).toBe(made.data.id);
    expect(JSON.stringify(stored)).not.toContain(keyA.slice(12));
    const list = await t.call<{ id: number; lastUsedAt: number | null }[]>(
      'GET',
      '/product/company/apiKeys',
      {
        token: a.token,
      },
    );
    expect(JSON.stringify(list.data)).not.toContain(keyA.slice(12));
    expect(list.data.find((k) => k.id === made.data.id)?.lastUsedAt).toBeNull();

    // the key is the company on company endpoints
    const info = await t.call<{ user: { id: number }; roles: string[] }>(
      'GET',
      '/product/auth/company/info',
      {
        token: keyA,
      },
    );
    expect(info.data.user.id).toBe(a.id);
    expect(info.data.roles).toContain('company');
    const rec = await t.call<{ balance: number }>('POST', '/product/company/surplus/record', {
      token: keyA,
      body: {},
    });
    expect(rec.data.balance).toBe(200);
    const used = await t.call<{ id: number; lastUsedAt: number | null }[]>(
      'GET',
      '/product/company/apiKeys',
      {
        token: a.token,
      },
    );
    expect(used.data.find((k) => k.id === made.data.id)?.lastUsedAt).toBe(t.clock.now());

    // a key cannot mint keys, see webhooks, or reach administrator routes
    expect(
      (await t.call('POST', '/product/company/apiKeys', { token: keyA, body: { name: 'y' } })).code,
    ).toBe(Codes.INSUFFICIENT_PERMISSION);
    expect((await t.call('GET', '/product/company/webhooks', { token: keyA })).code).toBe(
      Codes.INSUFFICIENT_PERMISSION,
    );
    expect((await t.call('POST', '/product/user/search', { token: keyA, body: {} })).code).toBe(
      Codes.INSUFFICIENT_PERMISSION,
    );

    // revoke
    const tmp = await t.call<{ id: number; key: string }>('POST', '/product/company/apiKeys', {
      token: a.token,
      body: { name: 'temp' },
    });
    expect((await t.call('GET', '/product/auth/company/info', { token: tmp.data.key })).code).toBe(0);
    expect((await t.call('DELETE', `/product/company/apiKeys/${tmp.data.id}`, { token: a.token })).code).toBe(
      0,
    );
    const revoked = await t.call('GET', '/product/auth/company/info', { token: tmp.data.key });
    expect(revoked.code).toBe(Codes.UNAUTHENTICATED);
    expect((await t.call('DELETE', `/product/company/apiKeys/${tmp.data.id}`, { token: a.token })).code).toBe(
      Codes.NOT_FOUND,
    );
    // B cannot revoke A's key
    const bk = await t.call<{ key: string }>('POST', '/product/company/apiKeys', {
      token: b.token,
      body: { name: 'b' },
    });
    keyB = bk.data.key;
    expect(
      (await t.call('DELETE', `/product/company/apiKeys/${made.data.id}`, { token: b.token })).code,
    ).toBe(Codes.NOT_FOUND);
    expect((await t.call('GET', '/product/auth/company/info', { token: keyA })).code).toBe(0);
    // an unknown key
    expect((await t.call('GET', '/product/auth/company/info', { token: `mck_${'x'.repeat(43)}` })).code).toBe(
      Codes.UNAUTHENTICATED,
    );
  });

  it('per-key rate limit: past ratePerMinute → 1047, other keys unaffected, next minute allowed', async () => {
    const slow = await t.call<{ key: string }>('POST', '/product/company/apiKeys', {
      token: a.token,
      body: { name: 'slow', ratePerMinute: 2 },
    });
    const k = slow.data.key;
    expect((await t.call('GET', '/product/auth/company/info', { token: k })).code).toBe(0);
    expect((await t.call('GET', '/product/auth/company/info', { token: k })).code).toBe(0);
    const third = await t.call('GET', '/product/auth/company/info', { token: k });
    expect(third.code).toBe(Codes.TOO_MANY_REQUESTS);
    expect(third.message).toContain('2/min');
    expect((await t.call('GET', '/product/auth/company/info', { token: keyA })).code).toBe(0);
  });

  let videoId = 0;
  it('upload with a key charges CV (1 per second) once; company B cannot see it; webhook video.made signed; mail sent', async () => {
    const hook = await t.call<{ id: number; secret: string; events: string[] }>(
      'POST',
      '/product/company/webhooks',
      {
        token: a.token,
        body: { url, events: ['video.made', 'video.failed', 'balance.low'] },
      },
    );
    expect(hook.code).toBe(0);
    expect(hook.data.secret).toMatch(/^whsec_/);
    expect(
      (await t.call('POST', '/product/company/webhooks', { token: a.token, body: { url: 'ftp://x/y' } }))
        .code,
    ).toBe(Codes.PARAMETER_ERROR);

    const before = await cv(a.id);
    const up = await upload(keyA, fx.synthetic(7, 3));
    expect(up.code, up.message).toBe(0);
    videoId = up.data.id;
    const charged = before - (await cv(a.id));
    expect(charged).toBe(3);

    // B's key and session cannot see A's video
    for (const token of [keyB, b.token]) {
      const other = await t.call('POST', '/product/video/queryVideoById', { token, body: { id: videoId } });
      expect(other.code).not.toBe(0);
    }
    expect(
      (await t.call('POST', '/product/video/queryVideoById', { token: keyA, body: { id: videoId } })).code,
    ).toBe(0);

    const mailsBefore = (await mails()).length;
    await markMade(t.infra, t.services, videoId, ['Mixamo']);
    const made = rx.got.filter((g) => g.headers['mocap-event'] === 'video.made');
    expect(made).toHaveLength(1);
    const body = made[0]!.body;
    const sig = made[0]!.headers['mocap-signature'] as string;
    const nowS = Math.floor(t.clock.now() / 1000);
    expect(verifyWebhookSignature(hook.data.secret, sig, body, nowS)).toBe(true);
    expect(JSON.parse(body)).toMatchObject({ type: 'video.made', data: { videoId, status: 'made' } });
    // a tampered body, a wrong secret, and the same body replayed 10 minutes later are all refused
    expect(verifyWebhookSignature(hook.data.secret, sig, body.replace('made', 'mad3'), nowS)).toBe(false);
    expect(verifyWebhookSignature('whsec_other', sig, body, nowS)).toBe(false);
    expect(verifyWebhookSignature(hook.data.secret, sig, body, nowS + 600)).toBe(false);

    // the e-mail went out (made on; balance 197 ≥ 150: no low-balance mail)
    const after = await mails();
    expect(after.length).toBe(mailsBefore + 1);
    expect(after.at(-1)?.subject).toContain('Video made');
    expect(rx.got.filter((g) => g.headers['mocap-event'] === 'balance.low')).toHaveLength(0);

    // the delivery log
    const log = await t.call<{
      list: { event: string; state: string; attempts: number; responseCode: number }[];
    }>('GET', '/product/company/webhooks/deliveries', { token: a.token });
    expect(log.data.list[0]).toMatchObject({
      event: 'video.made',
      state: 'delivered',
      attempts: 1,
      responseCode: 200,
    });
    // B sees none of it
    const logB = await t.call<{ total: number }>('GET', '/product/company/webhooks/deliveries', {
      token: b.token,
    });
    expect(logB.data.total).toBe(0);
  });

  it('Idempotency-Key: a retried upload answers the first video and is charged once; a failed one can be retried', async () => {
    const before = await cv(b.id);
    const first = await upload(keyB, fx.synthetic(21, 2), { 'idempotency-key': `up-${kind}-1` });
    expect(first.code, first.message).toBe(0);
    const again = await upload(keyB, fx.synthetic(21, 2), { 'idempotency-key': `up-${kind}-1` });
    expect(again.code).toBe(0);
    expect(again.data.id).toBe(first.data.id);
    expect(before - (await cv(b.id))).toBe(2);
    // the same key from company A is A's own key space
    const otherCompany = await upload(keyA, fx.synthetic(22, 2), { 'idempotency-key': `up-${kind}-1` });
    expect(otherCompany.code, otherCompany.message).toBe(0);
    expect(otherCompany.data.id).not.toBe(first.data.id);
    // bad key value
    expect((await upload(keyB, fx.synthetic(23, 2), { 'idempotency-key': 'has space' })).code).toBe(
      Codes.PARAMETER_ERROR,
    );
    // a refused upload (not an MP4) releases its key: the corrected retry runs and is charged
    const bad = await upload(keyB, fx.textAsMp4, { 'idempotency-key': `up-${kind}-2` });
    expect(bad.code).not.toBe(0);
    const mid = await cv(b.id);
    const fixed = await upload(keyB, fx.synthetic(24, 3), { 'idempotency-key': `up-${kind}-2` });
    expect(fixed.code, fixed.message).toBe(0);
    expect(mid - (await cv(b.id))).toBe(3);
  });

  it('failed deliveries retry with backoff, are given up after 24 h, and can be redelivered', async () => {
    rx.setStatus(500);
    const n0 = rx.got.length;
    await t.services.company.emit(a.id, 'video.failed', `test-fail-${kind}`, { videoId: 0 });
    expect(rx.got.length).toBe(n0 + 1);
    const first = (
      await t.call<{
        list: { id: number; state: string; attempts: number; nextAt: number; error: string }[];
      }>('GET', '/product/company/webhooks/deliveries', { token: a.token })
    ).data.list[0]!;
    expect(first).toMatchObject({ state: 'pending', attempts: 1, error: 'HTTP 500' });
    expect(first.nextAt).toBe(t.clock.now() + 30_000);
    // not due yet
    expect(await t.services.company.deliverDue()).toBe(0);
    t.clock.advance(30_000);
    expect(await t.services.company.deliverDue()).toBe(1);
    const second = (await t.services.company.deliveries({ id: a.id } as never, 1, 1)).list[0]!;
    expect(second.attempts).toBe(2);
    expect(second.nextAt).toBe(t.clock.now() + 60_000);
    // the same event is queued once per webhook
    expect(await t.services.company.emit(a.id, 'video.failed', `test-fail-${kind}`, {})).toBe(0);
    // past the 24 h window: given up
    t.clock.advance(WEBHOOK_RETRY_WINDOW_MS);
    expect(await t.services.company.deliverDue()).toBe(1);
    const last = (await t.services.company.deliveries({ id: a.id } as never, 1, 1)).list[0]!;
    expect(last.state).toBe('failed');
    expect(last.nextAt).toBeNull();
    // redeliver by hand once the receiver is back
    rx.setStatus(200);
    const re = await t.call<{ state: string; attempts: number; responseCode: number }>(
      'POST',
      `/product/company/webhooks/deliveries/${last.id}/redeliver`,
      { token: a.token },
    );
    expect(re.data).toMatchObject({ state: 'delivered', attempts: 4, responseCode: 200 });
    expect(
      (await t.call('POST', `/product/company/webhooks/deliveries/${last.id}/redeliver`, { token: b.token }))
        .code,
    ).toBe(Codes.NOT_FOUND);
  });

  it('balance.low: once below the threshold (webhook + mail), again only after the balance recovered', async () => {
    await t.call('PUT', '/product/company/emailNotice', {
      token: a.token,
      body: { lowBalanceThreshold: 1000 },
    });
    const n0 = (await mails()).length;
    const user = (await t.services.accounts.getUser(a.id))!;
    expect(await t.services.company.checkLowBalance(user)).toBe(true);
    expect(await t.services.company.checkLowBalance(user)).toBe(false);
    const low = rx.got.filter((g) => g.headers['mocap-event'] === 'balance.low');
    expect(low).toHaveLength(1);
    expect(JSON.parse(low[0]!.body).data).toEqual({ balance: await cv(a.id), threshold: 1000 });
    const m = await mails();
    expect(m.length).toBe(n0 + 1);
    expect(m.at(-1)?.subject).toContain('Low CV coin balance');
    // recharge above, then below again → a second notice
    await t.services.coins.change(a.id, 2000, 'admin', `recharge-${kind}`, { currency: 'CV' });
    expect(await t.services.company.checkLowBalance(user)).toBe(false);
    await t.services.coins.change(a.id, -1500, 'admin', `spend-${kind}`, { currency: 'CV' });
    expect(await t.services.company.checkLowBalance(user)).toBe(true);
    // low-balance mails off: the webhook still fires, no mail
    await t.call('PUT', '/product/company/emailNotice', { token: a.token, body: { lowBalance: false } });
    await t.services.coins.change(a.id, 2000, 'admin', `recharge2-${kind}`, { currency: 'CV' });
    await t.services.company.checkLowBalance(user);
    await t.services.coins.change(a.id, -2000, 'admin', `spend2-${kind}`, { currency: 'CV' });
    const n1 = (await mails()).length;
    expect(await t.services.company.checkLowBalance(user)).toBe(true);
    expect((await mails()).length).toBe(n1);
    expect(rx.got.filter((g) => g.headers['mocap-event'] === 'balance.low')).toHaveLength(3);
  });
});
