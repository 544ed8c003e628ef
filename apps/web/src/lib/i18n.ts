/**
 * en/zh strings. The language lives in a cookie; switching stores it and reloads (spec §2). `t(key, vars)`
 * replaces `{name}` placeholders. Both dictionaries have exactly the same keys (the type enforces it).
 */
import { en, type MessageKey } from '../i18n/en.ts';
import { zh } from '../i18n/zh.ts';
import { COOKIE, getCookie, setCookie } from './cookies.ts';

export type Lang = 'en' | 'zh';
export const LANGS: readonly Lang[] = ['en', 'zh'];
export const DICTS: Record<Lang, Record<MessageKey, string>> = { en, zh };

function detect(): Lang {
  if (typeof document !== 'undefined') {
    const c = getCookie(COOKIE.lang);
    if (c === 'en' || c === 'zh') return c;
  }
  if (typeof navigator !== 'undefined' && /^zh/i.test(navigator.language)) return 'zh';
  return 'en';
}

let current: Lang = detect();

export const getLang = (): Lang => current;
/** For tests: switch without a reload. */
export const setLangForTests = (l: Lang): void => {
  current = l;
};

/** Stores the language cookie (a year) and reloads the page. */
export function switchLang(l: Lang, reload: () => void = () => location.reload()): void {
  setCookie(COOKIE.lang, l, { days: 365, shared: true });
  current = l;
  reload();
}

export const hasKey = (key: string): boolean => key in en;

export function t(key: string, vars?: Record<string, string | number>): string {
  const dict = DICTS[current] as Record<string, string>;
  return fill(dict[key] ?? (en as Record<string, string>)[key] ?? key, vars);
}

/** `s` with each `{name}` placeholder of `vars` replaced by its value. */
function fill(s: string, vars?: Record<string, string | number>): string {
  if (vars) for (const [k, v] of Object.entries(vars)) s = s.split(`{${k}}`).join(String(v));
  return s;
}

/**
 * A string of a page's or feature's own dictionary pair in the user's language (the English one where the
 * Chinese lacks the key), its `{name}` placeholders filled from `vars`.
 */
export function translate<K extends string>(
  en: Record<K, string>,
  zh: Partial<Record<K, string>>,
  key: K,
  vars?: Record<string, string | number>,
): string {
  return fill((current === 'zh' ? zh : en)[key] ?? en[key], vars);
}

/**
 * Messages the server sends in Chinese (the spec's texts) shown in the user's language: a zh string that is
 * a known dictionary value is replaced by the English one in the en UI.
 */
export function localiseServerMessage(message: string): string {
  if (current === 'zh' || !message) return message;
  for (const [k, v] of Object.entries(zh)) if (v === message) return (en as Record<string, string>)[k];
  return message;
}
