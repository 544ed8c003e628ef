/**
 * Cookies of the product. Names carry a versioned product prefix (spec §9); the default expiry is one day; the
 * token cookie is shared across the parent domain (so sibling products under the same domain see the login).
 *
 * Why the token cookie is script-readable, not HttpOnly (issue 13.5, the documented reason): spec §9 makes it the
 * login shared with sibling products under the parent domain, whose pages read it to call their own APIs; an
 * HttpOnly cookie would hide it from them. What limits the exposure instead: the API never authenticates by cookie
 * (only `Authorization: Bearer`, so a cross-site request carries no credentials and there is no CSRF); every page
 * is served with a Content-Security-Policy that allows no inline or foreign script (the way an XSS would read the
 * cookie); the cookie is `SameSite=Lax`, `Secure` whenever the page is on https, and lives one day (spec §9).
 */

export const COOKIE_PREFIX = 'mocap_v1_';
export const DEFAULT_COOKIE_DAYS = 1;

export const COOKIE = {
  token: 'token',
  lang: 'lang',
  announcementClosed: 'announcement_closed',
} as const;

/** The parent domain (`.example.com` for `app.example.com`); none for localhost and IP addresses. */
export function parentDomain(hostname: string): string | undefined {
  if (!hostname || hostname === 'localhost' || /^[\d.]+$/.test(hostname) || hostname.includes(':'))
    return undefined;
  const parts = hostname.split('.');
  if (parts.length < 2) return undefined;
  return `.${parts.slice(-2).join('.')}`;
}

export function getCookie(name: string): string | undefined {
  const key = `${COOKIE_PREFIX}${name}=`;
  for (const part of document.cookie.split(';')) {
    const c = part.trim();
    if (c.startsWith(key)) return decodeURIComponent(c.slice(key.length));
  }
  return undefined;
}

export interface CookieOptions {
  days?: number;
  /** Share across the parent domain. */
  shared?: boolean;
}

/** The `document.cookie` assignment for a cookie on a page at `where` (Secure on https). */
export function cookieString(
  name: string,
  value: string,
  opts: CookieOptions = {},
  where: { hostname: string; protocol: string } = location,
  now = Date.now(),
): string {
  const days = opts.days ?? DEFAULT_COOKIE_DAYS;
  const expires = new Date(now + days * 86_400_000).toUTCString();
  const domain = opts.shared ? parentDomain(where.hostname) : undefined;
  return `${COOKIE_PREFIX}${name}=${encodeURIComponent(value)}; expires=${expires}; path=/${
    domain ? `; domain=${domain}` : ''
  }; SameSite=Lax${where.protocol === 'https:' ? '; Secure' : ''}`;
}

export function setCookie(name: string, value: string, opts: CookieOptions = {}): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the product's contract is cookies (spec §9)
  document.cookie = cookieString(name, value, opts);
}

export function removeCookie(name: string, opts: { shared?: boolean } = {}): void {
  const domain = opts.shared ? parentDomain(location.hostname) : undefined;
  // biome-ignore lint/suspicious/noDocumentCookie: see setCookie
  document.cookie = `${COOKIE_PREFIX}${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/${
    domain ? `; domain=${domain}` : ''
  }`;
}

export const getToken = (): string | undefined => getCookie(COOKIE.token) || undefined;
export const setToken = (token: string): void => setCookie(COOKIE.token, token, { shared: true });
export const clearToken = (): void => removeCookie(COOKIE.token, { shared: true });
