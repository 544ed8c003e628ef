/** The job-queue port (defined in `src/ports.ts`), as the adapters here import it. */
export {
  backoffDelay,
  type EnqueueOptions,
  errorText,
  isPermanent,
  type JobContext,
  type JobHandler,
  type JobInfo,
  type JobQueue,
  type JobState,
  PermanentJobError,
  PRIORITY_RANK,
  type Priority,
  type ProcessOptions,
  type QueueEvent,
  type QueueWorker,
} from '../../ports.ts';
