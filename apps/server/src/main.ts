/**
 * `npm start`: validates config, opens the database (migrations run), creates the administrator on first start
 * (and prints its credentials), starts the in-process worker when REDIS_URL is unset, the scheduled jobs, and
 * serves the API under /product and the web app under /capture.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from './app.ts';
import { loadConfigOrExit } from './config.ts';
import { STALE_TMP_MS, startTmpSweeper, sweepTmp } from './infra/tmp.ts';
import { createInfra, createServices } from './wiring.ts';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  // DATA_DIR holds the SQLite database (RSA private key, signing secrets), files and mails: owner only (issue 13.5).
  // Everything this process creates is 0600/0700; a data dir made by an older version is tightened.
  process.umask(0o077);
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  tightenDataDir(config.dataDir, config.database.kind === 'sqlite' ? config.database.file : undefined);
  // Leftovers of a crash (partial uploads, capture work folders): at boot, then every 10 minutes (issue 13.7).
  const tmpDir = join(config.dataDir, 'tmp');
  const swept = await sweepTmp(tmpDir, STALE_TMP_MS);
  if (swept.length) console.log(`removed ${swept.length} leftover(s) of an earlier run from ${tmpDir}`);
  const stopSweeper = startTmpSweeper(tmpDir);
  const infra = await createInfra(config);
  const services = createServices(infra);
  const app = await buildApp({ config, infra, services });

  const admin = await services.accounts.ensureAdmin(config.ADMIN_EMAIL, config.ADMIN_PASSWORD);
  if (admin.created) showAdmin(admin.email, admin.password, config.dataDir);

  services.scheduler.start(600_000, (e) => app.log.error({ err: e }, 'scheduled job failed'));
  // Company webhooks (issue 20): deliveries whose retry time has come, every 15 s.
  let delivering = false;
  const webhookTimer = setInterval(() => {
    if (delivering) return;
    delivering = true;
    services.company
      .deliverDue()
      .catch((e) => app.log.error({ err: e }, 'webhook deliveries failed'))
      .finally(() => {
        delivering = false;
      });
  }, 15_000);
  webhookTimer.unref();

  let stopWorker: (() => Promise<void>) | undefined;
  if (config.queue.kind === 'memory') {
    try {
      // Dynamic import: @mocap/worker depends on this package, not the other way round.
      const workerModule = '@mocap/worker';
      const mod = (await import(workerModule)) as {
        startWorker?: (opts: {
          infra: typeof infra;
          services: typeof services;
          config: typeof config;
        }) => Promise<{ close(): Promise<void> } | (() => Promise<void>)>;
      };
      if (mod.startWorker) {
        const w = await mod.startWorker({ infra, services, config });
        stopWorker = typeof w === 'function' ? w : () => w.close();
        app.log.info('in-process worker started');
      }
    } catch (e) {
      app.log.warn({ err: e }, 'in-process worker not started');
    }
  }

  await app.listen({ port: config.PORT, host: config.HOST });
  const shown = config.PUBLIC_URL ?? `http://localhost:${(app.server.address() as { port: number }).port}`;
  console.log(
    `mocap is running: web ${shown}/capture/  API ${shown}/product  docs ${shown}/product/docs  (data in ${config.dataDir}, ${config.database.kind}, ${config.queue.kind === 'memory' ? 'in-process worker' : 'Redis queue'})`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: shutting down`);
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    stopSweeper();
    clearInterval(webhookTimer);
    await app.close();
    await stopWorker?.();
    await services.scheduler.stop();
    await infra.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

/**
 * The first-start administrator: its password is shown once on the console (a terminal) and never written to a
 * log. When standard output is not a terminal (redirected to a file, a service manager's journal) the password goes
 * to DATA_DIR/initial-admin-password (0600) instead, and the console says where: read it, then delete it.
 */
function showAdmin(email: string, password: string | undefined, dataDir: string): void {
  if (password === undefined) {
    console.log(`\n  Administrator account created: ${email} (password from ADMIN_PASSWORD)\n`);
    return;
  }
  if (process.stdout.isTTY) {
    process.stdout.write(
      `\n  Administrator account created:\n    e-mail:   ${email}\n    password: ${password}\n  Keep it; it is shown only once.\n\n`,
    );
    return;
  }
  const file = join(dataDir, 'initial-admin-password');
  writeFileSync(file, `${email}\n${password}\n`, { mode: 0o600 });
  console.log(
    `\n  Administrator account created: ${email}\n  The output is not a terminal, so its password is not printed (it would end up in a log):\n  it is in ${file} (readable by this user only). Read it, then delete the file.\n`,
  );
}

/** DATA_DIR 0700; the SQLite database and its WAL/SHM files 0600 (older versions left them group/world-readable). */
function tightenDataDir(dataDir: string, sqliteFile: string | undefined): void {
  chmodSync(dataDir, 0o700);
  if (!sqliteFile || sqliteFile === ':memory:') return;
  for (const f of [sqliteFile, `${sqliteFile}-wal`, `${sqliteFile}-shm`])
    if (existsSync(f)) chmodSync(f, 0o600);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
