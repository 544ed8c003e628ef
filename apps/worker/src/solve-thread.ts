/**
 * The CPU-bound second half of the capture path (solve, export) in a worker thread, so the job runner's event
 * loop stays free to renew the job's lease and send heartbeats while a long clip is solved (otherwise a worker
 * busy for longer than the lease would look dead and its job would be taken over).
 */
import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { BONE_TYPES, createSkeleton, exportBoneType, restClip } from '@mocap/motion';
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
  | { type: 'error'; message: string }
  /** The start-up warm-up is over (bone types exported; 0 when it failed). */
  | { type: 'warmed'; boneTypes: number; ms: number };

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

/**
 * Exports a one-second rest clip as every bone type and throws the files away: the exporters' code is compiled
 * and the characters' textures painted before the first job (its export took 4.2 s of CPU in a fresh thread, 2.0 s
 * after this warm-up, 1.1 s in a thread that had exported before; studio dance, 300 frames, load 15–20). Its
 * `warmed` message is one a task's listener ignores, so a job's task sent meanwhile only waits behind it.
 */
function warmUp(): void {
  const t0 = performance.now();
  let boneTypes = 0;
  try {
    const clip = restClip(createSkeleton(), 30, 30);
    for (const boneType of BONE_TYPES) {
      if (boneType === 'OnlyFace') continue; // face curves only: needs a tracked face
      exportBoneType(clip, boneType);
      boneTypes++;
    }
  } catch {
    // Only a warm-up: the first job exports (and reports any error) as it would have.
    boneTypes = 0;
  }
  post({ type: 'warmed', boneTypes, ms: performance.now() - t0 });
}

// The thread is kept between jobs (warm JIT, textures painted once): one task at a time, sent as messages; the
// first task may also come as workerData. A `warm` message (prestartSolveThread) runs the warm-up.
if (workerData) await runTask(workerData as SolveThreadInput);
parentPort!.on('message', (task: SolveThreadInput | { kind: 'warm' }) => {
  if (task.kind === 'warm') warmUp();
  else void runTask(task);
});
