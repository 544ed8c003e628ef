/**
 * Webhook URL limits (issue 20): with `public` targets (production's default) a webhook must be https on a public
 * host, without credentials, at most 1024 characters — refused on registration with the reason — and the poster
 * refuses, when connecting, a name that resolves to a private address; `any` targets (development, tests) take a
 * local http receiver. On SQLite (the route) and without a database (the checks).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { AppError, Codes } from '../src/errors.ts';
import { fetchPoster } from '../src/modules/company/poster.ts';
import { checkWebhookUrl, isPrivateAddress } from '../src/modules/company/webhook-url.ts';
import { useServer } from './harness.ts';

const reason = (url: string, targets: 'public' | 'any' = 'public') => {
  try {
    checkWebhookUrl(url, targets);
    return 'ok';
  } catch (e) {
    if (e instanceof AppError) return e.message;
    throw e;
  }
};

describe('webhook URL checks', () => {
  it('private, loopback, link-local and reserved addresses are told from public ones', () => {
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
    ])
      expect(isPrivateAddress(ip), ip).toBe(true);
    for (const ip of [
      '93.184.216.34',
      '8.8.8.8',
      '172.32.0.1',
      '100.128.0.1',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
    ])
      expect(isPrivateAddress(ip), ip).toBe(false);
  });

  it('public targets: https on a public host, no credentials, at most 1024 characters', () => {
    expect(reason('https://hooks.example.com/mocap?x=1')).toBe('ok');
    expect(reason('https://93.184.216.34/hook')).toBe('ok');
    expect(reason('http://hooks.example.com/mocap')).toBe('webhook url must be https');
    expect(reason('ftp://hooks.example.com/')).toBe('webhook url must be http(s)');
    expect(reason('not a url')).toBe('webhook url is not a URL');
    expect(reason('https://user:pw@hooks.example.com/')).toBe(
      'webhook url must not carry a user name or password',
    );
    const priv = 'webhook url must name a public host (no loopback, private or link-local address)';
    for (const u of [
      'https://127.0.0.1/hook',
      'https://0x7f000001/hook', // 127.0.0.1 written in hex
      'https://2130706433/hook', // and as one number
      'https://[::1]/hook',
      'https://[::ffff:169.254.169.254]/latest',
      'https://169.254.169.254/latest/meta-data',
      'https://10.0.0.5:8443/hook',
      'https://localhost/hook',
      'https://api.localhost/hook',
      'https://printer.local/hook',
      'https://metadata.google.internal/',
      'https://intranet/hook',
    ])
      expect(reason(u), u).toBe(priv);
    expect(reason(`https://hooks.example.com/${'a'.repeat(1024)}`)).toBe(
      'webhook url: at most 1024 characters',
    );
    // any targets: a local http receiver (development, tests), still no credentials
    expect(reason('http://127.0.0.1:8080/hook', 'any')).toBe('ok');
    expect(reason('http://u:p@127.0.0.1/hook', 'any')).toBe(
      'webhook url must not carry a user name or password',
    );
  });

  it('the poster refuses at connect time a name resolving to a private address (public targets)', async () => {
    let hits = 0;
    const rx = createServer((_req, res) => {
      hits++;
      res.end('ok');
    });
    await new Promise<void>((r) => rx.listen(0, '127.0.0.1', () => r()));
    const port = (rx.address() as AddressInfo).port;
    try {
      const strict = fetchPoster({ targets: 'public', timeoutMs: 5000 });
      await expect(strict(`https://localhost:${port}/hook`, '{}', {})).rejects.toThrow(/private address/);
      await expect(strict(`https://127.0.0.1:${port}/hook`, '{}', {})).rejects.toThrow(/private address/);
      await expect(strict(`http://127.0.0.1:${port}/hook`, '{}', {})).rejects.toThrow(/https/);
      expect(hits).toBe(0);
      // the same receiver with `any` targets gets the post
      const loose = fetchPoster({ targets: 'any', timeoutMs: 5000 });
      expect(
        await loose(`http://localhost:${port}/hook`, '{"a":1}', { 'content-type': 'application/json' }),
      ).toBe(200);
      expect(hits).toBe(1);
    } finally {
      await new Promise((r) => rx.close(r));
    }
  });
});

describe('webhook registration with public targets (SQLite)', () => {
  const t = useServer('sqlite', { env: { WEBHOOK_TARGETS: 'public' } });
  it('a private, http or credentialed URL is refused with the reason; a public https one is kept', async () => {
    const co = await t.register('hooks-public@example.com', { company: true });
    const add = (url: string) =>
      t.call<{ url: string }>('POST', '/product/company/webhooks', { token: co.token, body: { url } });
    for (const [url, message] of [
      ['http://127.0.0.1:9/hook', 'webhook url must be https'],
      ['https://127.0.0.1:9/hook', 'webhook url must name a public host'],
      ['https://169.254.169.254/latest/meta-data', 'webhook url must name a public host'],
      ['https://localhost/hook', 'webhook url must name a public host'],
      ['https://u:p@hooks.example.com/', 'user name or password'],
    ]) {
      const r = await add(url!);
      expect(r.code, url).toBe(Codes.PARAMETER_ERROR);
      expect(r.message, url).toContain(message);
    }
    const ok = await add('https://hooks.example.com/mocap');
    expect(ok.code).toBe(0);
    expect(ok.data.url).toBe('https://hooks.example.com/mocap');
    const tooLong = await add(`https://hooks.example.com/${'a'.repeat(1100)}`);
    expect(tooLong.code).toBe(Codes.PARAMETER_ERROR);
  });
});
