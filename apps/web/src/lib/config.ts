/**
 * Deployment settings baked in at build time (Vite `VITE_*` variables); every one optional.
 */
const env = (import.meta.env ?? {}) as Record<string, string | undefined>;

export const APP_VERSION = env.VITE_APP_VERSION || '1.0.0';
/** The digital-human product (sidebar button); hidden when not configured. */
export const DIGITAL_HUMAN_URL = env.VITE_DIGITAL_HUMAN_URL || '';
/** Chat group number shown on pages (spec §9: the number is deployment data). */
export const CHAT_GROUP = env.VITE_CHAT_GROUP || '';
/** The filing-record site the footer's plate number links to. */
export const FILING_URL = env.VITE_FILING_URL || 'https://beian.miit.gov.cn/';
/** Community links shown as QR codes: official account, chat group, second chat group. */
export const COMMUNITY = [
  { key: 'community.official', url: env.VITE_OFFICIAL_ACCOUNT_URL || '' },
  { key: 'community.group', url: env.VITE_CHAT_GROUP_URL || '' },
  { key: 'community.group2', url: env.VITE_CHAT_GROUP2_URL || '' },
].filter((c) => c.url);
/** The video-shooting tutorial the sidebar links to. */
export const TUTORIAL_URL = env.VITE_TUTORIAL_URL || '';
