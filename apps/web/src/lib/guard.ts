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

/** `path` exactly, with or without a trailing slash. */
const exact = (path: string, key: string): [RegExp, string] => [new RegExp(`^${path}/?$`), key];

const TITLES: [RegExp, string][] = [
  ...['home', 'login', 'register', 'userCenter'].map((p) => exact(`/${p}`, `title.${p}`)),
  ...['square', 'marked', 'music', 'animation', 'mmd', 'experiment', 'wisdom'].map((p) =>
    exact(`/index/${p}`, `title.${p}`),
  ),
  ...['recharge', 'consume', 'tutorial'].map((p) => exact(`/index/${p}`, `menu.${p}`)),
  [/^\/index\/myPro(Pc|mobile)?\/?$/, 'title.myPro'],
  [/^\/index\/upload(Pc|Mobile)?\/?$/, 'title.upload'],
  [/^\/refresher(M)?\/?$/, 'title.refresher'],
  exact('/asPay/index', 'title.asPay'),
  exact('/asPay/view', 'title.asPayView'),
  exact('/index/userDetailCompany', 'menu.companyInfo'),
  exact('/index/tomokage', 'sidebar.digitalHuman'),
  exact('/404', 'title.notFound'),
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
