/**
 * Design size 1920×952 (spec §9): PC pages are laid out for it and scaled to the window with CSS zoom
 * (the same factor for both axes, so nothing is distorted), clamped so text stays readable on small
 * screens and sharp on big ones. Browser zoom by ctrl+wheel and ctrl +/- is blocked (spec §2).
 */

export const DESIGN_WIDTH = 1920;
export const DESIGN_HEIGHT = 952;
export const MIN_SCALE = 0.6;
export const MAX_SCALE = 1.6;

export function designScale(width: number, height: number): number {
  const s = Math.min(width / DESIGN_WIDTH, height / DESIGN_HEIGHT);
  return Math.max(MIN_SCALE, Math.min(MAX_SCALE, Math.round(s * 1000) / 1000));
}

/** True for the key combinations that zoom the page (ctrl/cmd with +, -, =, 0 or the keypad keys). */
export function isZoomKey(e: Pick<KeyboardEvent, 'ctrlKey' | 'metaKey' | 'key' | 'code'>): boolean {
  if (!e.ctrlKey && !e.metaKey) return false;
  return (
    ['+', '-', '=', '_', '0'].includes(e.key) ||
    ['NumpadAdd', 'NumpadSubtract', 'Equal', 'Minus'].includes(e.code)
  );
}

/** Installs the zoom blockers; returns the uninstaller. */
export function blockBrowserZoom(target: Window = window): () => void {
  const onKey = (e: KeyboardEvent) => {
    if (isZoomKey(e)) e.preventDefault();
  };
  const onWheel = (e: WheelEvent) => {
    if (e.ctrlKey || e.metaKey) e.preventDefault();
  };
  target.addEventListener('keydown', onKey);
  target.addEventListener('wheel', onWheel, { passive: false });
  return () => {
    target.removeEventListener('keydown', onKey);
    target.removeEventListener('wheel', onWheel);
  };
}
