/** Job queue: the interface and the factory choosing the database-backed queue or BullMQ from config. */
import type { Kysely } from 'kysely';
import type { JobQueue } from '../../ports.ts';
import { BullQueue } from './bullmq.ts';
import { DbQueue } from './db.ts';

export { BullQueue, type BullQueueOptions } from './bullmq.ts';
export { DbQueue, type DbQueueOptions, type QueueJobsTable } from './db.ts';

export type QueueConfig =
  | {
      kind: 'memory';
      // biome-ignore lint/suspicious/noExplicitAny: any app database schema.
      db: Kysely<any>;
      dialect: 'sqlite' | 'postgres';
      lockMs?: number;
      pollMs?: number;
    }
  | { kind: 'redis'; url: string; prefix?: string; lockMs?: number; stalledIntervalMs?: number };

/** Creates the queue `name` ('memory' = in-process workers over the database-backed queue). */
export function createQueue<T>(name: string, config: QueueConfig): JobQueue<T> {
  if (config.kind === 'redis') {
    return new BullQueue<T>({
      name,
      url: config.url,
      prefix: config.prefix,
      lockMs: config.lockMs,
      stalledIntervalMs: config.stalledIntervalMs,
    });
  }
  return new DbQueue<T>({
    name,
    db: config.db,
    dialect: config.dialect,
    lockMs: config.lockMs,
    pollMs: config.pollMs,
  });
}
