/**
 * DATA_DIR/tmp clean-up (issue 13.7): partial uploads (`up-*.bin`, `<uuid>.mp4`) and capture work folders
 * (`mocap-job-*`) left by a process that died (kill -9, power loss) are removed at boot. A job's folder is removed
 * when the job ends (the worker's `finally`), an upload's temp file when its request ends.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Removes the entries of `dir` last modified more than `olderThanMs` ago (0: all of them). Returns what it removed
 * (names). A missing folder is fine.
 */
export async function sweepTmp(dir: string, olderThanMs = 0, now = Date.now()): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const path = join(dir, name);
    try {
      if (olderThanMs > 0 && now - (await stat(path)).mtimeMs < olderThanMs) continue;
      await rm(path, { recursive: true, force: true });
      removed.push(name);
    } catch {
      /* gone already, or not ours to remove: left */
    }
  }
  return removed;
}

/**
 * Age after which an entry of DATA_DIR/tmp is dead: an upload request ends within 120 s, and a running capture
 * touches its work folder at least once a minute (the worker's progress), so anything untouched for 10 minutes
 * belongs to a process that died — even when several processes (server, workers) share DATA_DIR.
 */
export const STALE_TMP_MS = 10 * 60_000;

/** Sweeps `dir` now and every `STALE_TMP_MS` until stopped (the timer does not keep the process alive). */
export function startTmpSweeper(dir: string, onSwept?: (names: string[]) => void): () => void {
  const run = () =>
    void sweepTmp(dir, STALE_TMP_MS).then((names) => {
      if (names.length) onSwept?.(names);
    });
  run();
  const timer = setInterval(run, STALE_TMP_MS);
  timer.unref();
  return () => clearInterval(timer);
}
