/** A form's busy state around its one action. */
import { useCallback, useState } from 'react';

/**
 * `[busy, run]`: `run(action)` is busy while the action runs; a failure was already shown to the user by the API
 * layer, so it is not thrown on.
 */
export function useBusy(): [boolean, (action: () => Promise<unknown>) => Promise<void>] {
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (action: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await action();
    } catch {
      /* shown */
    } finally {
      setBusy(false);
    }
  }, []);
  return [busy, run];
}
