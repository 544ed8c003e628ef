/**
 * The character engine's thread: imports, pictures and retarget + export are CPU work of one to several seconds
 * (a 1.8 MB GLB imports in about 1 s, a 3 s motion exports in about 0.8 s), so they run here, off the server's
 * event loop. Messages: `{ id, op, args }` in, `{ id, ok, value }` or `{ id, ok: false, failure }` out.
 */
import { parentPort } from 'node:worker_threads';
import { createLocalEngine } from './engine.ts';

const engine = createLocalEngine();

parentPort?.on(
  'message',
  (m: { id: number; op: 'ingest' | 'inspect' | 'apply' | 'zip'; args: unknown[] }) => {
    try {
      const fn = engine[m.op] as (...a: unknown[]) => unknown;
      const value = fn(...m.args);
      parentPort?.postMessage({ id: m.id, ok: true, value });
    } catch (e) {
      const failure =
        e && typeof e === 'object' && 'reason' in e && !(e instanceof Error)
          ? e
          : { reason: 'error', message: (e as Error)?.message ?? String(e) };
      parentPort?.postMessage({ id: m.id, ok: false, failure });
    }
  },
);
