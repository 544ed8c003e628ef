/**
 * End-to-end harness: builds the web app, starts the REAL server (`npm start` equivalent: apps/server/src/main.ts
 * through tsx) on a temp DATA_DIR with SQLite and a free port, and drives Debian's chromium with playwright-core.
 * Nothing is mocked; the outbox under DATA_DIR gives the e-mailed codes.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { constants, publicEncrypt } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type {
  Browser,
  BrowserContext,
  BrowserContextOptions,
  Download,
  Locator,
  Page,
} from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';

export const ROOT = resolve(import.meta.dirname, '..', '..', '..');
export const WEB = resolve(ROOT, 'apps', 'web');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = resolve(WEB, 'test', 'screenshots');
export const TESTDATA = resolve(ROOT, '..', 'shared', 'testdata');

/** Why the e2e cannot run here, or null. Under CI=true the caller fails instead of skipping. */
export function e2eUnavailable(): string | null {
  if (!existsSync(CHROMIUM)) return `chromium not found at ${CHROMIUM}`;
  if (!existsSync(join(ROOT, 'apps', 'server', 'src', 'main.ts'))) return 'apps/server/src/main.ts missing';
  if (spawnSync('ffmpeg', ['-version']).status !== 0) return 'ffmpeg missing';
  return null;
}

/**
 * Whether an e2e file skips: where chromium, ffmpeg or the server are missing (or `also`, a further need of the
 * file such as a testdata file, is false), except under CI=true, where it runs and fails instead.
 */
export const e2eSkipped = (also = true): boolean =>
  (e2eUnavailable() !== null || !also) && process.env.CI !== 'true';

function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** Builds apps/web/dist unless it is newer than every source file. */
export async function buildWeb(): Promise<void> {
  const index = join(WEB, 'dist', 'index.html');
  const srcTime = Math.max(newest(join(WEB, 'src')), statSync(join(WEB, 'index.html')).mtimeMs);
  if (existsSync(index) && statSync(index).mtimeMs > srcTime) return;
  const { build } = await import('vite');
  await build({ configFile: join(WEB, 'vite.config.ts'), logLevel: 'warn' });
}

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

export interface RunningServer {
  url: string;
  dataDir: string;
  proc: ChildProcess;
  log: () => string;
  stop: () => Promise<void>;
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mocap-web-e2e-'));
  // The server serves its own copy of the built app: another run's build in the same checkout empties dist/
  // while it writes (a page load meanwhile answered 404).
  const webDist = join(dataDir, 'web-dist');
  cpSync(join(WEB, 'dist'), webDist, { recursive: true });
  const port = await freePort();
  let out = '';
  const proc = spawn(
    join(ROOT, 'node_modules', '.bin', 'tsx'),
    [join(ROOT, 'apps', 'server', 'src', 'main.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        REDIS_URL: '',
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        WEB_DIST: webDist,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  proc.stdout?.on('data', (d) => {
    out += d;
  });
  proc.stderr?.on('data', (d) => {
    out += d;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited (${proc.exitCode}):\n${out}`);
    try {
      const r = await fetch(`${url}/product/sysConfig/maintainInfo`);
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not answer in 120 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    dataDir,
    proc,
    log: () => out,
    stop: async () => {
      if (proc.exitCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        const t = setTimeout(() => proc.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(t);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The newest 4-digit code mailed to `email` (the outbox under DATA_DIR). */
export function codeFromOutbox(dataDir: string, email: string): string | null {
  const dir = join(dataDir, 'outbox');
  if (!existsSync(dir)) return null;
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .reverse();
  for (const f of files) {
    const text = readFileSync(join(dir, f), 'utf8');
    if (!text.toLowerCase().includes(email.toLowerCase())) continue;
    const m = /\b(\d{4})\b/.exec(JSON.stringify(JSON.parse(text)).replace(/"to":"[^"]*"/g, ''));
    if (m) return m[1];
  }
  return null;
}

export async function waitFor<T>(
  fn: () => T | null | undefined | Promise<T | null | undefined>,
  ms: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--use-gl=angle',
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
    ],
  });
}

export const DESKTOP = { viewport: { width: 1920, height: 952 }, deviceScaleFactor: 1 };
export const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  userAgent:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
};

/** Sets the language cookie for the next page loads. */
export async function setLang(ctx: BrowserContext, url: string, lang: 'en' | 'zh'): Promise<void> {
  await ctx.addCookies([{ name: 'mocap_v1_lang', value: lang, url }]);
}

/**
 * A new browser context of `browser` for the server at `url`: its language cookie set to `lang`, logged in as
 * `token` when given, the start notices marked seen when `noticesSeen` (the carousel stays shut); the other
 * options (device, acceptDownloads) go to newContext.
 */
export async function contextOf(
  browser: Browser,
  url: string,
  o: BrowserContextOptions & { lang: 'en' | 'zh'; token?: string; noticesSeen?: boolean },
): Promise<BrowserContext> {
  const { lang, token, noticesSeen = false, ...options } = o;
  const ctx = await browser.newContext(options);
  if (noticesSeen) await ctx.addInitScript(() => sessionStorage.setItem('mocap_notices_seen', '1'));
  await setLang(ctx, url, lang);
  if (token) await ctx.addCookies([{ name: 'mocap_v1_token', value: token, url }]);
  return ctx;
}

export async function shot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** Closes the dialog `selector` of `page`: Escape, and its close button when it is still open after that. */
export async function closeDialog(page: Page, selector: string): Promise<void> {
  await page.keyboard.press('Escape');
  await page
    .locator(selector)
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
  if (await page.locator(selector).count())
    await page.locator('.modal-close, [aria-label="Close"], [aria-label="关闭"]').first().click();
}

/** Clicks `target` on `page` and saves the download it starts as `file`: the file's bytes, and the download. */
export async function downloadBy(page: Page, target: Locator, file: string): Promise<[Buffer, Download]> {
  const [download] = await Promise.all([page.waitForEvent('download'), target.click()]);
  await download.saveAs(file);
  return [readFileSync(file), download];
}

/** The first `seconds` of a testdata video at exactly 30 fps (whole seconds, so the coin cost is exact). */
export function trimClip(source: string, seconds: number, width = 640): string {
  const dir = mkdtempSync(join(tmpdir(), 'mocap-web-clip-'));
  const out = join(dir, 'dance.mp4');
  const args = [
    '-v',
    'error',
    '-y',
    '-i',
    source,
    '-vf',
    `fps=30,scale=${width}:-2`,
    '-frames:v',
    `${seconds * 30}`,
  ];
  args.push(
    '-an',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
    out,
  );
  const r = spawnSync('ffmpeg', args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
  return out;
}

/**
 * Records every request a page of `browser` gets answered with 404 (issue 15.4: none may appear in any page's
 * network log): each context made from now on reports into the returned list, as `METHOD path`.
 */
export function recordNotFound(browser: Browser, base: string): string[] {
  const seen: string[] = [];
  const make = browser.newContext.bind(browser);
  browser.newContext = async (...args: Parameters<Browser['newContext']>) => {
    const ctx = await make(...args);
    ctx.on('response', (r) => {
      if (r.status() === 404) seen.push(`${r.request().method()} ${r.url().replace(base, '')}`);
    });
    return ctx;
  };
  return seen;
}

/** The envelope every API answer comes in. */
export interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

/**
 * The JSON API of a running test server as a test calls it: `raw` answers the envelope (`post` that of a
 * multipart upload), `call` its data (throws
 * on a non-zero code), `encrypt` a password with the server's public key, `register` an account through the
 * e-mailed code (a company account with `company`), `login` an account's token, `mailedCode` the code last mailed
 * to an address (waited for up to 20 s).
 */
export function apiOf(server: () => RunningServer) {
  const raw = async <T = unknown>(method: string, path: string, body?: unknown, token?: string) => {
    const r = await fetch(`${server().url}/product${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: method === 'GET' ? undefined : JSON.stringify(body ?? {}),
    });
    return (await r.json()) as Envelope<T>;
  };
  /** A multipart POST (an upload) as `token`: the envelope. */
  const post = async <T = unknown>(path: string, form: FormData, token: string) => {
    const r = await fetch(`${server().url}/product${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return (await r.json()) as Envelope<T>;
  };
  const call = async <T = unknown>(method: string, path: string, body?: unknown, token?: string) => {
    const env = await raw<T>(method, path, body, token);
    if (env.code !== 0) throw new Error(`${method} ${path}: ${env.code} ${env.message}`);
    return env.data;
  };
  const encrypt = async (text: string) => {
    const { publicKey } = await call<{ publicKey: string }>('GET', '/auth/publicKey');
    return publicEncrypt(
      { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(text),
    ).toString('base64');
  };
  const mailedCode = (email: string, what = 'the code mail') =>
    waitFor(() => codeFromOutbox(server().dataDir, email), 20_000, what);
  const register = async <T = { token: string; user: { id: number } }>(
    email: string,
    password: string,
    company = false,
  ) => {
    await call('POST', `/code/${company ? 'company/' : ''}${email}/1`);
    const code = await mailedCode(email);
    return call<T>('POST', company ? '/company/register' : '/user/register', {
      email,
      password: await encrypt(password),
      code,
    });
  };
  /** The token of an account logged in with its password (the administrator of ADMIN_EMAIL/ADMIN_PASSWORD too). */
  const login = async (username: string, password: string) =>
    (await call<{ token: string }>('POST', '/auth/login', { username, password: await encrypt(password) }))
      .token;
  return { raw, post, call, encrypt, mailedCode, register, login };
}

/** Options of a context made by `useE2e`'s `context`: DESKTOP unless a device is given. */
export type ContextOptions = BrowserContextOptions & { noticesSeen?: boolean };

/**
 * The life of an e2e file: before its tests, builds the web app and starts the server (with `env`) and Chromium;
 * after each test, fails it when a page met a 404 (issue 15.4); after all, stops both. `server()` and `browser()`
 * give the running pair, `api` its JSON API (`apiOf`), `context(lang, token, options)` a browser context on it
 * (`contextOf`, DESKTOP unless `options` name another device).
 */
export function useE2e(env: Record<string, string> = {}): {
  server: () => RunningServer;
  browser: () => Browser;
  api: ReturnType<typeof apiOf>;
  context: (lang: 'en' | 'zh', token?: string, options?: ContextOptions) => Promise<BrowserContext>;
} {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let notFound: string[] = [];
  beforeAll(async () => {
    const missing = e2eUnavailable();
    if (missing) throw new Error(`e2e cannot run: ${missing}`);
    await buildWeb();
    server = await startServer(env);
    browser = await launchChromium();
    notFound = recordNotFound(browser, server.url);
  }, 600_000);
  afterEach(() => {
    expect(notFound.splice(0), 'requests answered 404').toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  return {
    server: () => server!,
    browser: () => browser!,
    api: apiOf(() => server!),
    context: (lang, token, options = {}) =>
      contextOf(browser!, server!.url, { ...DESKTOP, ...options, lang, token }),
  };
}
