/**
 * `npm run worker`: a capture worker as a process of its own (scale-out). Configured like the server
 * (DATABASE_URL, REDIS_URL, S3_*, DATA_DIR...; see apps/server/src/config.ts) plus WORKER_NAME (default
 * `<host>-<pid>`). It registers as a machine with a heartbeat, takes capture jobs until SIGTERM/SIGINT (then
 * finishes the running job and stops), and logs one line per job event.
 */
import { join } from 'node:path';
import { createInfra, createServices, loadConfigOrExit, STALE_TMP_MS, sweepTmp } from '@mocap/server';
import { startWorker } from './music.ts';

async function main(): Promise<void> {
  // Files this worker leaves in DATA_DIR (work folders, a SQLite database) are owner-only, like the server's.
  process.umask(0o077);
  const config = loadConfigOrExit();
  // Work folders of a crashed worker (issue 13.7); live ones (of workers sharing DATA_DIR) are touched every minute.
  await sweepTmp(join(config.dataDir, 'tmp'), STALE_TMP_MS);
  const infra = await createInfra(config);
  const services = createServices(infra);
  const log = (msg: string) => console.log(`${new Date().toISOString()} ${msg}`);
  const worker = startWorker(
    { infra, services, config },
    {
      name: process.env.WORKER_NAME || undefined,
      kind: 'process',
      log,
      // How often the machine reports (and learns whether an administrator disabled it); default 10 s.
      heartbeatMs: Number(process.env.WORKER_HEARTBEAT_MS) || undefined,
    },
  );
  log(
    `worker ${worker.name} started (${config.queue.kind === 'redis' ? 'Redis queue' : 'database queue'}, model ${config.CAPTURE_MODEL})`,
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: finishing the running job, then stopping`);
    await worker.close();
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
