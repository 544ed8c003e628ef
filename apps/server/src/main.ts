/**
 * `npm start`: validates config, opens the database (migrations run), creates the administrator on first start
 * (and prints its credentials), starts the in-process worker when REDIS_URL is unset, the scheduled jobs, and
 * serves the API under /product and the web app under /capture.
 */
import { mkdirSync } from 'node:fs';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createInfra } from './infra/index.ts';
import { createServices } from './services/index.ts';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  mkdirSync(config.dataDir, { recursive: true });
  const infra = await createInfra(config);
  const services = createServices(infra);
  const app = await buildApp({ config, infra, services });

  const admin = await services.accounts.ensureAdmin(config.ADMIN_EMAIL, config.ADMIN_PASSWORD);
  if (admin.created)
    console.log(
      `\n  Administrator account created:\n    e-mail:   ${admin.email}\n    password: ${admin.password ?? '(from ADMIN_PASSWORD)'}\n  Keep it; it is printed only once.\n`,
    );

  services.scheduler.start(600_000, (e) => app.log.error({ err: e }, 'scheduled job failed'));

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
    await app.close();
    await stopWorker?.();
    await services.scheduler.stop();
    await infra.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
