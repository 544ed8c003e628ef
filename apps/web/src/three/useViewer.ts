/** The life of a 3D viewer inside a component: made in its element once mounted, disposed when it goes. */
import { type RefObject, useEffect } from 'react';

/**
 * The viewer `make` builds in `holder`'s element after mounting (made again when `key` changes), disposed on
 * unmount, held in `viewer` (the component's ref it drives it through); `onError` when it cannot start there
 * (no WebGL).
 */
export function useViewerIn<V extends { dispose(): void }>(
  holder: RefObject<HTMLElement | null>,
  viewer: RefObject<V | null>,
  make: (el: HTMLElement) => V,
  onError: () => void,
  key: unknown = null,
): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for what `make` depends on.
  useEffect(() => {
    if (!holder.current) return;
    try {
      viewer.current = make(holder.current);
    } catch {
      onError();
    }
    return () => {
      viewer.current?.dispose();
      viewer.current = null;
    };
  }, [key]);
}
