/**
 * The app shell: the web app under /capture with history fallback, the root redirect, security of secrets in
 * logs; and `npm start` (main.ts) as a process: honours PORT and DATA_DIR, migrates, prints the administrator.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { createServices } from '../src/wiring.ts';
import { CI, createTestInfra, freePort, mainEnv, PG_URL, pgAvailable, spawnMain } from './harness.ts';
import { dropSchema } from './services.ts';

describe('web app under /capture', () => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  let cleanup: () => Promise<void>;
  const dist = mkdtempSync(join(tmpdir(), 'mocap-dist-'));

  beforeAll(async () => {
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>mocap</title><div id="app"></div>');
    writeFileSync(join(dist, 'assets', 'app-123.js'), 'console.log(1)');
    writeFileSync(join(dist, 'favicon.svg'), '<svg/>');
    const t = await createTestInfra('sqlite');
    cleanup = t.cleanup;
    app = await buildApp({
      config: t.config,
      infra: t.infra,
      services: createServices(t.infra),
      logger: false,
      webDist: dist,
    });
  });
  afterAll(async () => {
    await app?.close();
    await cleanup?.();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves index.html for client routes (history fallback) and real files as they are', async () => {
    for (const url of [
      '/capture/',
      '/capture/index/myPro',
      '/capture/userCenter',
      '/capture/asPay/index?payStatus=1',
    ]) {
      const r = await app.inject({ method: 'GET', url });
      expect({ url, status: r.statusCode }).toEqual({ url, status: 200 });
      expect(r.body).toContain('<div id="app">');
      expect(r.headers['cache-control']).toBe('no-cache');
    }
    const js = await app.inject({ method: 'GET', url: '/capture/assets/app-123.js' });
    expect(js.statusCode).toBe(200);
    expect(js.body).toBe('console.log(1)');
    expect(js.headers['cache-control']).toContain('immutable');
    expect((await app.inject({ method: 'GET', url: '/capture/favicon.svg' })).body).toBe('<svg/>');
    // Path traversal does not escape the folder.
    const evil = await app.inject({ method: 'GET', url: '/capture/../../etc/passwd' });
    expect(evil.body).not.toContain('root:');
  });

  it('access logs name the route pattern, never path parameters or bodies', async () => {
    const lines: string[] = [];
    const t = await createTestInfra('sqlite');
    const logged = await buildApp({
      config: t.config,
      infra: t.infra,
      services: createServices(t.infra),
      logger: { level: 'info', stream: { write: (l: string) => lines.push(l) } } as never,
      webDist: null,
    });
    try {
      await logged.inject({
        method: 'PUT',
        url: '/product/user/reset/someone@example.com/4321/2',
        payload: { code: '8765', password: 'c2VjcmV0' },
      });
      const all = lines.join('\n');
      expect(all).toContain('/user/reset/:a/:b/:c');
      for (const secret of ['4321', '8765', 'c2VjcmV0', 'someone@example.com'])
        expect(all).not.toContain(secret);
    } finally {
      await logged.close();
      await t.cleanup();
    }
  });

  it('redirects / and /capture to the app, and keeps unknown API paths as 404 envelopes', async () => {
    expect((await app.inject({ method: 'GET', url: '/' })).headers.location).toBe('/capture/');
    expect((await app.inject({ method: 'GET', url: '/capture' })).headers.location).toBe('/capture/');
    const api = await app.inject({ method: 'GET', url: '/product/nothing' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 404 });
  });
});

describe('npm start (main.ts)', () => {
  it('honours PORT and DATA_DIR, runs migrations, prints the administrator once, stops on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mocap-main-'));
    const port = await freePort();
    const run = async () => {
      const main = spawnMain(mainEnv(dataDir, port));
      if ((await main.started) === 'exited') throw new Error(`exited ${main.child.exitCode}: ${main.out()}`);
      const r = await fetch(`http://127.0.0.1:${port}/product/sysConfig/maintainInfo`);
      const body = (await r.json()) as { code: number };
      const code = await main.stop();
      return { out: main.out(), body, code };
    };
    try {
      const first = await run();
      expect(first.body.code).toBe(0);
      // Output not a terminal (a pipe here): the password goes to a 0600 file, not to the output (issue 13.5).
      expect(first.out).toMatch(/Administrator account created: admin@mocap\.local/);
      const pwFile = join(dataDir, 'initial-admin-password');
      const [email, password] = readFileSync(pwFile, 'utf8').trim().split('\n');
      expect(email).toBe('admin@mocap.local');
      expect(password!.length).toBeGreaterThanOrEqual(12);
      expect(first.out).not.toContain(password);
      expect(statSync(pwFile).mode & 0o777).toBe(0o600);
      expect(existsSync(join(dataDir, 'mocap.db'))).toBe(true);
      expect(first.code).toBe(0);
      const second = await run();
      expect(second.body.code).toBe(0);
      expect(second.out).not.toContain('Administrator account created');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.skipIf(!pgAvailable && !CI)(
    'boots in scale-out mode on PostgreSQL and Redis without an in-process worker',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'mocap-main-'));
      const port = await freePort();
      const schema = `t_${randomBytes(6).toString('hex')}`;
      const main = spawnMain({
        ...mainEnv(dataDir, port),
        LOG_LEVEL: 'info',
        DATABASE_URL: PG_URL,
        DATABASE_SCHEMA: schema,
        REDIS_URL: 'redis://127.0.0.1:6379',
      });
      try {
        if ((await main.started) === 'exited')
          throw new Error(`exited ${main.child.exitCode}: ${main.out()}`);
        expect(main.out()).toContain('postgres, Redis queue');
        expect(main.out()).not.toContain('in-process worker started');
        const h = (await (await fetch(`http://127.0.0.1:${port}/product/health`)).json()) as {
          data: { database: string };
        };
        expect(h.data.database).toBe('postgres');
      } finally {
        await main.stop();
        await dropSchema(schema);
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );

  it('refuses an invalid configuration with the problems listed', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, '..', 'src', 'main.ts')],
      {
        env: { ...process.env, PORT: 'abc', DATABASE_URL: 'mysql://nope' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
    });
    const code = await new Promise<number | null>((res) => child.once('exit', res));
    expect(code).toBe(2);
    expect(err).toContain('PORT');
    expect(err).toContain('DATABASE_URL');
  });
});
