/** Capture jobs: the service shared by the server (enqueue, reconcile) and the workers (hooks). */
import type { Infra } from '../../infra/index.ts';
import type { CoinService } from '../../services/coins.ts';
import { createVideoStore } from '../video/store.ts';
import { CAPTURE_QUEUE, type CaptureJobData, CaptureJobs } from './service.ts';

export * from './service.ts';

/** The capture-job service over the app's infrastructure. */
export function createCaptureJobs(
  infra: Pick<Infra, 'database' | 'clock' | 'queue'>,
  coins: CoinService,
  options: Pick<ConstructorParameters<typeof CaptureJobs>[0], 'backoffMs' | 'attempts' | 'onFinished'> = {},
): CaptureJobs {
  return new CaptureJobs({
    store: createVideoStore(infra.database),
    coins,
    queue: infra.queue<CaptureJobData>(CAPTURE_QUEUE),
    clock: infra.clock,
    ...options,
  });
}
