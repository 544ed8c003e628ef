/**
 * On-demand exports run in the worker (issue 17.3): the request enqueues the job on the export queue and waits for
 * its end (events of every process), so the API answers as before while the writing happens in a worker process.
 */
import type { JobQueue } from '../../ports.ts';
import { AwaitedJobs } from '../jobs/await.ts';
import { type ExportJobData, lowerBodyJobId } from './ports.ts';

export class ExportJobs extends AwaitedJobs<ExportJobData> {
  get exportQueue(): JobQueue<ExportJobData> {
    return this.queue;
  }

  /** Runs the lower-body export of (video, bone type) in the worker; resolves when its zip is stored. */
  lowerBody(videoId: number, boneType: string): Promise<void> {
    return this.run(
      lowerBodyJobId(videoId, boneType),
      { kind: 'lowerBody', videoId, boneType },
      'lower-body',
    );
  }

  /**
   * Enqueues one export job (one job per id: a second request while it runs waits for the same job) and resolves
   * when the worker completed it; `what` names the file in the errors.
   */
  run(jobId: string, data: ExportJobData, what: string): Promise<void> {
    return this.runJob(jobId, data, {
      failed: (error) => `${what} export failed: ${error}`,
      busy: `the ${what} file is still being made: try again in a minute`,
      rerunFinished: true,
    });
  }
}
