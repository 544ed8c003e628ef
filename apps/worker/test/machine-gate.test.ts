/**
 * The runner obeys machineManage (issue 21): the heartbeat carries host, version, model, jobs in flight and CPU,
 * and when the answer says the machine is disabled the queue worker is paused (running jobs finish, no new ones
 * are taken); enabled again, it resumes. (The pause itself is tested on both queues in the server's queue test.)
 */
import type { CaptureJobData, Heartbeat, JobQueue, Machine } from '@mocap/server';
import { describe, expect, it } from 'vitest';
import { runWorker } from '../src/index.ts';

async function waitFor<T>(fn: () => T | undefined | null | false, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('machine gate', () => {
  it('pauses the queue worker when the machine is disabled and resumes when enabled', async () => {
    const calls: string[] = [];
    let paused = false;
    const queue = {
      kind: 'db',
      name: 'capture',
      process() {
        return {
          id: 'w',
          running: () => 0,
          close: async () => {},
          pause: async () => {
            paused = true;
            calls.push('pause');
          },
          resume: () => {
            paused = false;
            calls.push('resume');
          },
          isPaused: () => paused,
        };
      },
    } as unknown as JobQueue<CaptureJobData>;
    const beats: Heartbeat[] = [];
    let enabled = true;
    const machines = {
      heartbeat: async (h: Heartbeat) => {
        beats.push(h);
        return { name: h.name, enabled } as Machine;
      },
    };
    const worker = runWorker(
      {
        queue,
        storage: {} as never,
        jobs: {
          started: async () => null,
          progress: async () => {},
          completed: async () => {},
          failedForGood: async () => {},
        },
        machines,
      },
      { name: 'gate-test', model: 'lite', heartbeatMs: 20, reconcileMs: 0 },
    );
    try {
      await waitFor(() => beats.length >= 2);
      const b = beats.at(-1)!;
      expect(b).toMatchObject({ name: 'gate-test', status: 'online', running: 0, capacity: 1 });
      expect(b.host).toBeTruthy();
      expect(b.version).toBeTruthy();
      expect(b.meta).toMatchObject({ model: 'lite', jobsDone: 0, videos: [] });
      expect(typeof b.meta!.cpu).toBe('number');
      expect(calls).toEqual([]);

      enabled = false;
      await waitFor(() => calls.includes('pause'));
      // The next beats say it is draining.
      await waitFor(() => beats.at(-1)!.status === 'draining');
      expect(calls).toEqual(['pause']);

      enabled = true;
      await waitFor(() => calls.includes('resume'));
      await waitFor(() => beats.at(-1)!.status === 'online');
      expect(calls).toEqual(['pause', 'resume']);
    } finally {
      await worker.close();
    }
    expect(beats.at(-1)!.status).toBe('offline');
  });
});
