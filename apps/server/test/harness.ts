/**
 * Test harness of the service suite: the same tests run against SQLite (a temp file) and PostgreSQL (a schema of
 * its own per test context, dropped afterwards, so files and runs never collide). PostgreSQL tests skip when the
 * server is down locally, and run (and fail) under CI=true.
 *
 *   describe.each(databases)('accounts on %s', (kind) => { const t = useServer(kind); ... })
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { constants, publicEncrypt, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { createArgon2Hasher } from '../src/infra/crypto/index.ts';
import { readOutbox } from '../src/infra/mail/index.ts';
import type { Clock } from '../src/ports.ts';
import { createInfra, createServices, type Infra, type Services } from '../src/wiring.ts';
import { CI, dropSchema, PG_URL, pgAvailable } from './services.ts';

export { CI, PG_URL, pgAvailable };

if (!pgAvailable && !CI) console.warn('PostgreSQL is not reachable at 127.0.0.1:5432: its tests are skipped');
/** Databases to run the suite on: SQLite always; PostgreSQL when up, and always under CI (fails if down). */
export const databases: ('sqlite' | 'postgres')[] = pgAvailable || CI ? ['sqlite', 'postgres'] : ['sqlite'];

/** A clock tests can move. */
export class TestClock implements Clock {
  constructor(public t = Date.UTC(2026, 4, 10, 12, 0, 0)) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

/** Cheap argon2id so tests stay fast (production uses 19 MiB, t=2). */
export const testHasher = createArgon2Hasher({ memoryCost: 1024, timeCost: 1 });

export interface TestServer {
  config: Config;
  infra: Infra;
  services: Services;
  app: FastifyInstance;
  clock: TestClock;
  dataDir: string;
  /** Encrypts a password as the web client does (RSA-OAEP, SHA-256, base64). */
  encrypt(password: string): string;
  /** The latest 4-digit code mailed to `email` (from the outbox). */
  lastCode(email: string): Promise<string>;
  /** Registers an individual (or company) account through the API; returns its token and id. */
  register(
    email: string,
    opts?: { password?: string; inviteCode?: string; company?: boolean; ip?: string },
  ): Promise<{ token: string; id: number }>;
  /** Logs in through the API as the first-start administrator. */
  adminToken(): Promise<string>;
  /** GETs a URL the API handed out (signed; absolute or a path) from the app, query included. */
  fetchUrl(url: string): Promise<LightMyRequestResponse>;
  /** The envelope's code of `call` (for a call whose answer matters only by its code). */
  code(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    opts?: { token?: string; body?: unknown; headers?: Record<string, string>; ip?: string },
  ): Promise<number>;
  /** `app.inject` with a bearer token; returns the parsed envelope and HTTP status. */
  call<T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    opts?: { token?: string; body?: unknown; headers?: Record<string, string>; ip?: string },
  ): Promise<{ status: number; code: number; message: string; data: T }>;
}

export interface ServerOptions {
  env?: Record<string, string>;
}

/** Fresh infrastructure of the given kind (no HTTP app); caller closes it. */
export async function createTestInfra(
  kind: 'sqlite' | 'postgres',
  opts: { clock?: Clock; env?: Record<string, string> } = {},
): Promise<{ config: Config; infra: Infra; dataDir: string; cleanup(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mocap-s1-'));
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const config = loadConfig({
    DATA_DIR: dataDir,
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    ...(kind === 'postgres' ? { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema } : {}),
    // Many registrations from one test IP: the per-IP code limit is tested on its own with a low value.
    CODE_IP_LIMIT: '10000',
    ...opts.env,
  });
  const infra = await createInfra(config, { clock: opts.clock, hasher: testHasher });
  return {
    config,
    infra,
    dataDir,
    async cleanup() {
      await infra.close();
      if (kind === 'postgres') await dropSchema(schema);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Builds a server (infra, services, app) before the tests of the enclosing describe and tears it down after. */
export function useServer(kind: 'sqlite' | 'postgres', opts: ServerOptions = {}): TestServer {
  const t = {} as TestServer;
  let cleanup: (() => Promise<void>) | undefined;
  let adminPassword = '';
  let registrations = 0;
  beforeAll(async () => {
    const clock = new TestClock();
    const ti = await createTestInfra(kind, { clock, env: opts.env });
    cleanup = ti.cleanup;
    const services = createServices(ti.infra);
    const app = await buildApp({
      config: ti.config,
      infra: ti.infra,
      services,
      logger: false,
      webDist: null,
    });
    await app.ready();
    adminPassword = randomBytes(9).toString('base64url');
    await services.accounts.ensureAdmin('admin@test.local', adminPassword);
    Object.assign(t, { config: ti.config, infra: ti.infra, services, app, clock, dataDir: ti.dataDir });
  });
  afterAll(async () => {
    await t.app?.close();
    await cleanup?.();
  });
  t.encrypt = (password) =>
    publicEncrypt(
      { key: t.infra.transport.publicKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(password, 'utf8'),
    ).toString('base64');
  t.fetchUrl = (url) => {
    const u = new URL(url, 'http://x');
    return t.app.inject({ method: 'GET', url: u.pathname + u.search });
  };
  t.call = async (method, url, o = {}) => {
    const res = await t.app.inject({
      method,
      url,
      headers: { ...(o.token ? { authorization: `Bearer ${o.token}` } : {}), ...o.headers },
      ...(o.body !== undefined ? { payload: o.body as object } : {}),
      ...(o.ip ? { remoteAddress: o.ip } : {}),
    });
    const body = res.json() as { code: number; message: string; data: never };
    return { status: res.statusCode, ...body };
  };
  t.code = async (method, url, o) => (await t.call(method, url, o)).code;
  t.lastCode = async (email) => {
    const mails = await readOutbox(join(t.dataDir, 'outbox'), email);
    const m = /\b(\d{4})\b/.exec(mails.at(-1)?.subject ?? '');
    if (!m) throw new Error(`no code mailed to ${email}`);
    return m[1];
  };
  t.register = async (email, o = {}) => {
    const company = o.company ?? false;
    // Each registration from an address of its own (different people), unless the test gives one: referral
    // rewards are refused to the inviter's own network (issue 13.9).
    registrations++;
    const ip = o.ip ?? `10.77.${(registrations >> 8) & 255}.${registrations & 255}`;
    const sent = await t.call(
      'POST',
      `/product/code/${company ? 'company/' : ''}${encodeURIComponent(email)}/1`,
      { ip },
    );
    if (sent.code !== 0) throw new Error(`code for ${email}: ${sent.code} ${sent.message}`);
    const code = await t.lastCode(email);
    // The resend throttle is per address: move the clock past it so the next code can be sent.
    t.clock.advance(61_000);
    const r = await t.call<{ token: string; user: { id: number } }>(
      'POST',
      company ? '/product/company/register' : '/product/user/register',
      {
        body: {
          email,
          password: t.encrypt(o.password ?? 'secret-pass'),
          code,
          ...(o.inviteCode ? { inviteCode: o.inviteCode } : {}),
        },
        ip,
      },
    );
    if (r.code !== 0) throw new Error(`register ${email}: ${r.code} ${r.message}`);
    return { token: r.data.token, id: r.data.user.id };
  };
  t.adminToken = async () => {
    const r = await t.call<{ token: string }>('POST', '/product/auth/login', {
      body: { username: 'admin@test.local', password: t.encrypt(adminPassword) },
    });
    if (r.code !== 0) throw new Error(`admin login: ${r.code} ${r.message}`);
    return r.data.token;
  };
  return t;
}

/** A free TCP port on 127.0.0.1 (for a server a test starts as a process). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * `npm start` (src/main.ts through tsx) as a child process with exactly `env`: its stdout and stderr in `out()`,
 * `started` once it listens ('running') or exits first ('exited'), `stop()` SIGTERMs it and answers its exit code.
 */
/** The environment `npm start` gets in the tests: this process's, with the data folder and port given. */
export const mainEnv = (dataDir: string, port: number): NodeJS.ProcessEnv => ({
  ...process.env,
  DATA_DIR: dataDir,
  PORT: String(port),
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  REDIS_URL: '',
});

export function spawnMain(env: NodeJS.ProcessEnv): {
  child: ChildProcess;
  out: () => string;
  started: Promise<'running' | 'exited'>;
  stop: () => Promise<number | null>;
} {
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
  const started = new Promise<'running' | 'exited'>((resolve) => {
    const check = () => {
      if (out.includes('mocap is running')) resolve('running');
      else if (child.exitCode !== null) resolve('exited');
      else setTimeout(check, 100);
    };
    check();
  });
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    return child.exitCode;
  };
  return { child, out: () => out, started, stop };
}
