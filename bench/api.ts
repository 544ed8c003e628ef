/**
 * `npm run bench -- api [--seconds 10] [--connections 20] [--videos 20] [--cpu-prof DIR]`
 *
 * Starts the real server (`apps/server/src/main.ts`, a child process like `npm start`: SQLite and local disk in a
 * temp DATA_DIR, the in-process worker idle) on a free loopback port, logs in a user with the RSA-encrypted
 * password, seeds that user's project list with `--videos` rows, then loads with autocannon (loopback only,
 * bounded in time):
 *   GET  /product/auth/info     (token → session + user, one indexed join)
 *   POST /product/video/center  (my projects, first page of 20)
 * and prints requests/s and latency percentiles. Target (issue 6): ≥ 1000 req/s with p99 < 50 ms on this machine.
 * `--cpu-prof DIR` runs the server under `node --cpu-prof` and leaves its `.cpuprofile` in DIR (open it in Chrome
 * DevTools or speedscope).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { constants, publicEncrypt, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInfra, createVideoStore, loadConfig } from '@mocap/server';
import autocannon from 'autocannon';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

function arg(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const v = Number(args[i + 1]);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} needs a positive number`);
  return v;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function waitUp(base: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const r = await fetch(`${base}/product/sysConfig/maintainInfo`);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start in time');
}

async function post<T>(url: string, body: unknown, token?: string): Promise<T> {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const env = (await r.json()) as { code: number; message: string; data: T };
  if (env.code !== 0) throw new Error(`${url}: ${env.code} ${env.message}`);
  return env.data;
}

interface Figures {
  name: string;
  /** Server CPU time (user + system) per request, ms: independent of what else loads the machine. */
  cpuMsPerReq: number;
  requests: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  errors: number;
  non2xx: number;
}

/** CPU time (ms) a process used so far, from /proc (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function load(
  name: string,
  pid: number,
  opts: {
    url: string;
    method: 'GET' | 'POST';
    token: string;
    body?: string;
    seconds: number;
    connections: number;
  },
): Promise<Figures> {
  const cpu0 = cpuMs(pid);
  const r = await autocannon({
    url: opts.url,
    method: opts.method,
    connections: opts.connections,
    duration: opts.seconds,
    headers: {
      authorization: `Bearer ${opts.token}`,
      ...(opts.body ? { 'content-type': 'application/json' } : {}),
    },
    ...(opts.body ? { body: opts.body } : {}),
  });
  const cpu = cpuMs(pid) - cpu0;
  return {
    name,
    cpuMsPerReq: r.requests.total ? cpu / r.requests.total : Number.NaN,
    requests: r.requests.total,
    rps: r.requests.average,
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    max: r.latency.max,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

export default async function main(args: string[]): Promise<void> {
  const seconds = arg(args, '--seconds', 10);
  const connections = arg(args, '--connections', 20);
  const videos = arg(args, '--videos', 20);
  const profIdx = args.indexOf('--cpu-prof');
  const profDir = profIdx >= 0 ? args[profIdx + 1] : undefined;
  if (profIdx >= 0 && !profDir) throw new Error('--cpu-prof needs a folder');
  const dataDir = mkdtempSync(join(tmpdir(), 'mocap-bench-api-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const adminPassword = randomBytes(12).toString('base64url');
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    ADMIN_EMAIL: 'bench@mocap.local',
    ADMIN_PASSWORD: adminPassword,
  };
  const profArgs = profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : [];
  const child = spawn(
    process.execPath,
    [...profArgs, '--import', 'tsx', join(root, 'apps/server/src/main.ts')],
    {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  try {
    await waitUp(base, child, 120_000);
    const key = (await (await fetch(`${base}/product/auth/publicKey`)).json()) as {
      data: { publicKey: string };
    };
    const encrypted = publicEncrypt(
      { key: key.data.publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(adminPassword),
    ).toString('base64');
    const session = await post<{ token: string; user: { id: number } }>(`${base}/product/auth/login`, {
      username: 'bench@mocap.local',
      password: encrypted,
    });

    // Seed the project list through the video repository (what an upload leaves behind, minus the capture).
    const infra = await createInfra(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), {
      skipMigrations: true,
    });
    const store = createVideoStore(infra.database);
    const now = Date.now();
    for (let i = 0; i < videos; i++)
      await store.repos.videos.create({
        userId: session.user.id,
        name: `clip ${i}`,
        titleInSquare: null,
        description: 'benchmark row',
        fileName: `clip${i}.mp4`,
        storagePrefix: `videos/bench-${i}`,
        md5: randomBytes(16).toString('hex'),
        sizeBytes: 1_000_000,
        durationMs: 8000,
        width: 1280,
        height: 720,
        fps: 30,
        captureType: 'body',
        boneType: 'BoyFBX',
        modelType: 'full',
        serialNo: `B${String(i).padStart(6, '0')}`,
        priority: 'normal',
        freeRemakes: 1,
        categoryId: null,
        tags: ['bench'],
        currency: 'V',
        charged: 8,
        chargeRef: null,
        createdAt: now + i,
      });
    await infra.close();
    const page = await post<{ total: number }>(
      `${base}/product/video/center`,
      { page: 1, size: 20 },
      session.token,
    );

    console.log(
      `server: ${base} (SQLite, in-process worker idle), ${connections} connections, ${seconds} s per endpoint, ${page.total} videos in the list`,
    );
    const rows: Figures[] = [];
    rows.push(
      await load('GET /auth/info', child.pid!, {
        url: `${base}/product/auth/info`,
        method: 'GET',
        token: session.token,
        seconds,
        connections,
      }),
    );
    rows.push(
      await load('POST /video/center', child.pid!, {
        url: `${base}/product/video/center`,
        method: 'POST',
        token: session.token,
        body: JSON.stringify({ page: 1, size: 20 }),
        seconds,
        connections,
      }),
    );
    console.log('');
    console.log(
      '| endpoint           | requests |  req/s | p50 ms | p90 ms | p99 ms | max ms | errors | non-2xx | server CPU ms/req | req/s per core | target |',
    );
    console.log(
      '| ------------------ | -------: | -----: | -----: | -----: | -----: | -----: | -----: | ------: | ----------------: | -------------: | ------ |',
    );
    for (const r of rows) {
      const met = r.rps >= 1000 && r.p99 < 50 && r.errors === 0 && r.non2xx === 0;
      console.log(
        `| ${r.name.padEnd(18)} | ${String(r.requests).padStart(8)} | ${r.rps.toFixed(0).padStart(6)} | ${String(r.p50).padStart(6)} | ${String(r.p90).padStart(6)} | ${String(r.p99).padStart(6)} | ${String(r.max).padStart(6)} | ${String(r.errors).padStart(6)} | ${String(r.non2xx).padStart(7)} | ${r.cpuMsPerReq.toFixed(3).padStart(17)} | ${(1000 / r.cpuMsPerReq).toFixed(0).padStart(14)} | ${met ? 'met' : 'MISSED'} |`,
      );
    }
    console.log('\ntarget: ≥ 1000 req/s and p99 < 50 ms, no errors');
    const [l1] = loadavg();
    console.log(
      `machine load average ${l1.toFixed(1)} on ${cpus().length} cores: req/s and latency suffer from other load; "req/s per core" = 1000 / server CPU ms per request is what the server itself needs.`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
