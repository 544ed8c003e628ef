/** Issue 13.5 on the web side: the token cookie's attributes (the documented reason is in src/lib/cookies.ts). */
import { describe, expect, it } from 'vitest';
import { COOKIE, cookieString } from '../src/lib/cookies.ts';

describe('token cookie', () => {
  const now = Date.UTC(2026, 0, 1);
  /** The shared token cookie `abc` as a page at `where` writes it. */
  const tokenAt = (where: { hostname: string; protocol: string }) =>
    cookieString(COOKIE.token, 'abc', { shared: true }, where, now);
  it('is Secure on https, SameSite=Lax, one day, shared with the parent domain (spec §9)', () => {
    const s = tokenAt({ hostname: 'app.example.com', protocol: 'https:' });
    expect(s).toBe(
      'mocap_v1_token=abc; expires=Fri, 02 Jan 2026 00:00:00 GMT; path=/; domain=.example.com; SameSite=Lax; Secure',
    );
  });
  it('has no Secure flag on plain http (the browser would drop it) and no domain on localhost', () => {
    const s = tokenAt({ hostname: 'localhost', protocol: 'http:' });
    expect(s).toBe('mocap_v1_token=abc; expires=Fri, 02 Jan 2026 00:00:00 GMT; path=/; SameSite=Lax');
  });
});
