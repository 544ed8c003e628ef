/** The periodic reconcile a worker runs beside its queue (lost or unfinished jobs put right). */

/**
 * Calls `jobs.reconcile` every `ms` (0 = never; nothing when the jobs have no reconcile) without keeping the
 * process alive; a failure is logged as `<what> failed: <error>`. Returns the function that stops it.
 */
export function reconcileEvery(
  jobs: { reconcile?: () => Promise<unknown> },
  ms: number,
  log: (line: string) => void,
  what = 'reconcile',
): () => void {
  const reconcile = jobs.reconcile?.bind(jobs);
  if (!(ms > 0) || !reconcile) return () => {};
  const timer = setInterval(() => {
    reconcile().catch((e: unknown) => log(`${what} failed: ${String(e)}`));
  }, ms);
  timer.unref();
  return () => clearInterval(timer);
}
