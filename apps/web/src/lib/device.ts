/** Phones get the mobile pages (spec §2): decided by the user agent, or a narrow touch screen. */
export function isPhone(
  ua: string = typeof navigator === 'undefined' ? '' : navigator.userAgent,
  width: number = typeof window === 'undefined' ? 1920 : window.innerWidth,
  touch: boolean = typeof window !== 'undefined' && 'ontouchstart' in window,
): boolean {
  if (/iPhone|iPod|Android.+Mobile|Windows Phone|Mobile Safari|BlackBerry|Opera Mini|IEMobile/i.test(ua))
    return true;
  if (/iPad|Tablet/i.test(ua)) return false;
  return touch && width < 768;
}
