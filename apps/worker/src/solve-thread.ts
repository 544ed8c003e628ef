/**
 * The CPU-bound second half of the capture path (solve, export) in a worker thread, so the job runner's event
 * loop stays free to renew the job's lease and send heartbeats while a long clip is solved (otherwise a worker
 * busy for longer than the lease would look dead and its job would be taken over).
 */
import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import type { Tracks } from '@mocap/vision';
import { type CaptureOptions, exportFromClipHere, solveAndExportHere } from './capture.ts';

export interface SolveThreadInput {
  kind: 'solve' | 'export';
  /** tracks.json (solve) or clip.json (export). */
  inputPath: string;
  workDir: string;
  options: Pick<CaptureOptions, 'solve' | 'hands' | 'face' | 'boneTypes' | 'baseName'>;
  from: number;
}

export type SolveThreadMessage =
  | { type: 'progress'; percent: number; stage: string }
  | { type: 'done'; result: unknown }
  | { type: 'error'; message: string };

const post = (m: SolveThreadMessage) => parentPort!.postMessage(m);

/** One task: read the input file, solve and/or export, report progress, then done or error. */
async function runTask(input: SolveThreadInput): Promise<void> {
  const onProgress = (percent: number, stage: string) => post({ type: 'progress', percent, stage });
  try {
    const text = await readFile(input.inputPath, 'utf8');
    if (input.kind === 'solve') {
      const tracks = JSON.parse(text) as Tracks;
      const result = await solveAndExportHere(
        tracks,
        input.workDir,
        { ...input.options, onProgress },
        input.from,
      );
      post({ type: 'done', result });
    } else {
      const result = await exportFromClipHere(text, input.workDir, { ...input.options, onProgress });
      post({ type: 'done', result });
    }
  } catch (err) {
    post({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  }
}

// The thread is kept between jobs (warm JIT, textures painted once): one task at a time, sent as messages; the
// first task may also come as workerData.
if (workerData) await runTask(workerData as SolveThreadInput);
parentPort!.on('message', (task: SolveThreadInput) => void runTask(task));
