/**
 * Issue 15 (what a first-time user trips over), server side: byte ranges on stored files, the embedded mail's
 * path and code on the console, SMTP as one variable.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { parseRange } from '../src/modules/cos/routes.ts';
import { databases, useServer } from './harness.ts';

describe('15.1 parseRange', () => {
  it('reads the three forms of one range and refuses what lies past the end', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange('items=0-1', 100)).toBeNull();
  });
});

describe.each(databases)('15.1 stored files are served with byte ranges (local storage), on %s', (kind) => {
  const t = useServer(kind);
  it('206 with Content-Range for a range, Accept-Ranges on the whole file, 416 past the end', async () => {
    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
    await t.infra.storage.put('videos/u1/x/source.mp4', bytes, { contentType: 'video/mp4' });
    const url = new URL(
      await t.infra.storage.signedUrl('videos/u1/x/source.mp4', { expiresInS: 60, contentType: 'video/mp4' }),
      'http://x',
    );
    const get = (range?: string) =>
      t.app.inject({ method: 'GET', url: url.pathname + url.search, headers: range ? { range } : {} });
    const whole = await get();
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.equals(bytes)).toBe(true);
    const mid = await get('bytes=2500-2599');
    expect(mid.statusCode).toBe(206);
    expect(mid.headers['content-range']).toBe('bytes 2500-2599/5000');
    expect(mid.headers['content-length']).toBe('100');
    expect(mid.rawPayload.equals(bytes.subarray(2500, 2600))).toBe(true);
    const tail = await get('bytes=-10');
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(bytes.subarray(4990))).toBe(true);
    const past = await get('bytes=6000-');
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe('bytes */5000');
  });
});

describe('15.2 where the verification mail goes', () => {
  it('SMTP is one variable: SMTP_URL', () => {
    const c = loadConfig({ SMTP_URL: 'smtps://mailer%40example.com:p%40ss@smtp.example.com' });
    expect(c.mail).toMatchObject({
      kind: 'smtp',
      host: 'smtp.example.com',
      port: 465,
      secure: true,
      user: 'mailer@example.com',
      pass: 'p@ss',
    });
    expect(loadConfig({ SMTP_URL: 'smtp://smtp.example.com' }).mail).toMatchObject({
      port: 587,
      secure: false,
    });
    expect(loadConfig({}).mail.kind).toBe('outbox');
    expect(() => loadConfig({ SMTP_URL: 'http://x' })).toThrow(/SMTP_URL/);
  });

  it('embedded mode: npm start prints each mail’s path and code on the console', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mocap-mail-'));
    const port = await freePort();
    const env = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      REDIS_URL: '',
    };
    delete (env as Record<string, string | undefined>).NODE_ENV;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, '..', 'src', 'main.ts')],
      {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    try {
      await waitFor(() => out.includes('mocap is running') || child.exitCode !== null);
      const r = await fetch(`http://127.0.0.1:${port}/product/code/newcomer@example.com/1`, {
        method: 'POST',
      });
      expect(((await r.json()) as { code: number }).code).toBe(0);
      await waitFor(() => /mail to newcomer@example\.com \(code \d{4}\)/.test(out));
      const m = /mail to newcomer@example\.com \(code (\d{4})\): .* saved as (\S+\.json)/.exec(out);
      expect(m).not.toBeNull();
      const mail = JSON.parse(readFileSync(m![2]!, 'utf8')) as { subject: string; to: string };
      expect(mail.to).toBe('newcomer@example.com');
      expect(mail.subject).toContain(m![1]!);
      expect(m![2]!.startsWith(join(dataDir, 'outbox'))).toBe(true);
    } finally {
      child.kill('SIGTERM');
      await new Promise((res) => (child.exitCode !== null ? res(null) : child.once('exit', res)));
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

async function waitFor(cond: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}
