/**
 * The navigation guard (spec §2): page titles; `/home`, `/login`, `/register` and `/` open without a token;
 * without a token any other path goes to `/home`; with a token `/login` stays allowed.
 * Paths are router paths (without the `/capture` base).
 */

export const PUBLIC_PATHS: readonly string[] = ['/home', '/login', '/register', '/'];

export interface GuardResult {
  /** Where to go instead, or null to let the navigation through. */
  redirect: string | null;
  /** i18n key of the page title. */
  titleKey: string;
}

const TITLES: [RegExp, string][] = [
  [/^\/home\/?$/, 'title.home'],
  [/^\/login\/?$/, 'title.login'],
  [/^\/register\/?$/, 'title.register'],
  [/^\/index\/myPro(Pc|mobile)?\/?$/, 'title.myPro'],
  [/^\/index\/upload(Pc|Mobile)?\/?$/, 'title.upload'],
  [/^\/index\/square\/?$/, 'title.square'],
  [/^\/userCenter\/?$/, 'title.userCenter'],
  [/^\/asPay\/index\/?$/, 'title.asPay'],
  [/^\/asPay\/view\/?$/, 'title.asPayView'],
  [/^\/index\/marked\/?$/, 'title.marked'],
  [/^\/index\/userDetailCompany\/?$/, 'menu.companyInfo'],
  [/^\/index\/recharge\/?$/, 'menu.recharge'],
  [/^\/index\/consume\/?$/, 'menu.consume'],
  [/^\/index\/tutorial\/?$/, 'menu.tutorial'],
  [/^\/index\/music\/?$/, 'title.music'],
  [/^\/index\/animation\/?$/, 'title.animation'],
  [/^\/index\/mmd\/?$/, 'title.mmd'],
  [/^\/index\/experiment\/?$/, 'title.experiment'],
  [/^\/index\/wisdom\/?$/, 'title.wisdom'],
  [/^\/index\/tomokage\/?$/, 'sidebar.digitalHuman'],
  [/^\/refresher(M)?\/?$/, 'title.refresher'],
  [/^\/404\/?$/, 'title.notFound'],
];

export function titleKeyFor(path: string): string {
  for (const [re, key] of TITLES) if (re.test(path)) return key;
  return 'title.app';
}

export function normalisePath(path: string): string {
  const p = path.split(/[?#]/)[0].replace(/\/{2,}/g, '/');
  return p.length > 1 ? p.replace(/\/$/, '') : p || '/';
}

export function guard(path: string, hasToken: boolean): GuardResult {
  const p = normalisePath(path);
  const titleKey = titleKeyFor(p);
  if (hasToken || PUBLIC_PATHS.includes(p)) return { redirect: null, titleKey };
  return { redirect: '/home', titleKey };
}

/** The refresher pages widen the sidebar to 277 px (spec §2). */
export const sidebarWidthFor = (path: string): number | null =>
  /^\/refresher(M)?\/?$/.test(normalisePath(path)) ? 277 : null;
