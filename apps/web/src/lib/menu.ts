/**
 * Sidebar entries (spec §2 "Menu paths and entries"): chosen by device and user type.
 * - phones: home, upload, experiment;
 * - company users: user info, recharge, consume, API tutorial (company order 1..4; the price list is 5);
 * - everyone else: the full administrator list minus its last 9 entries, which leaves home, upload, square
 *   (the last 9 are exactly the administrator entries: user, company, block, briefing, extension, service,
 *   video, video tag, animation management).
 * Until the account has uploaded a video every entry but upload is inactive (clicking warns 请先上传视频).
 */

export interface MenuItem {
  /** i18n key of the label. */
  label: string;
  value: number;
  /** Route name. */
  name: string;
  /** Route path under the app base. */
  path: string;
  icon: string;
  iconOn: string;
}

const item = (label: string, value: number, name: string, path: string, icon: string): MenuItem => ({
  label,
  value,
  name,
  path,
  icon,
  iconOn: `${icon}On`,
});

/** Menu values of the spec: home 1, upload 2, user 3, video 4, Square 6, tag 9, briefing 12, service 13,
 * block 14, company 17, animation 21, extension 22. */
export const MENU_VALUES = {
  home: 1,
  upload: 2,
  user: 3,
  video: 4,
  square: 6,
  tag: 9,
  briefing: 12,
  service: 13,
  block: 14,
  company: 17,
  animation: 21,
  extension: 22,
} as const;

/** The menu paths of the spec. */
export const MENU_PATHS = [
  'square',
  'myPro',
  'upload',
  'wisdom',
  'manageUser',
  'manageCompany',
  'briefing',
  'extension',
  'service',
  'block',
  'manageVideo',
  'manageModel',
  'manageVideoTag',
  'manageTomokage',
  'animationManage',
] as const;

export const ADMIN_MENU: readonly MenuItem[] = [
  item('menu.home', MENU_VALUES.home, 'MyPro', '/index/myPro', 'home'),
  item('menu.upload', MENU_VALUES.upload, 'Upload', '/index/upload', 'upload'),
  item('menu.square', MENU_VALUES.square, 'Square', '/index/square', 'square'),
  item('menu.user', MENU_VALUES.user, 'ManageUser', '/index/manageUser', 'user'),
  item('menu.company', MENU_VALUES.company, 'ManageCompany', '/index/manageCompany', 'company'),
  item('menu.block', MENU_VALUES.block, 'Block', '/index/block', 'block'),
  item('menu.briefing', MENU_VALUES.briefing, 'Briefing', '/index/briefing', 'briefing'),
  item('menu.extension', MENU_VALUES.extension, 'Extension', '/index/extension', 'extension'),
  item('menu.service', MENU_VALUES.service, 'Service', '/index/service', 'service'),
  item('menu.video', MENU_VALUES.video, 'ManageVideo', '/index/manageVideo', 'video'),
  item('menu.tag', MENU_VALUES.tag, 'ManageVideoTag', '/index/manageVideoTag', 'tag'),
  item('menu.animation', MENU_VALUES.animation, 'AnimationManage', '/index/animationManage', 'animation'),
];

export const PHONE_MENU: readonly MenuItem[] = [
  item('menu.home', MENU_VALUES.home, 'MyPro', '/index/myPro', 'home'),
  item('menu.upload', MENU_VALUES.upload, 'Upload', '/index/upload', 'upload'),
  item('menu.experiment', 7, 'Experiment', '/index/experiment', 'experiment'),
];

export const COMPANY_MENU: readonly MenuItem[] = [
  item('menu.companyInfo', 1, 'UserDetailCompany', '/index/userDetailCompany', 'user'),
  item('menu.recharge', 2, 'Recharge', '/index/recharge', 'recharge'),
  item('menu.consume', 3, 'Consume', '/index/consume', 'consume'),
  item('menu.tutorial', 4, 'Tutorial', '/index/tutorial', 'tutorial'),
  item('menu.priceList', 5, 'Marked', '/index/marked', 'coin'),
];

/** The price list's position in the company order (spec: user info 1, recharge 2, consume 3, tutorial 4, price list 5). */
export const COMPANY_PRICE_LIST_ORDER = 5;

export interface MenuContext {
  phone: boolean;
  company: boolean;
}

export function menuFor(ctx: MenuContext): readonly MenuItem[] {
  if (ctx.phone) return PHONE_MENU;
  if (ctx.company) return COMPANY_MENU;
  return ADMIN_MENU.slice(0, ADMIN_MENU.length - 9);
}

/** Whether a sidebar entry is usable: before the first upload only upload is (company accounts excepted). */
export function isMenuItemActive(item: MenuItem, ctx: { hasUploaded: boolean; company: boolean }): boolean {
  return ctx.company || ctx.hasUploaded || item.value === MENU_VALUES.upload;
}

/** The entry a path belongs to (for the highlighted state). */
export function menuItemForPath(items: readonly MenuItem[], path: string): MenuItem | undefined {
  const p = path.replace(/\/$/, '');
  return items.find((i) => p === i.path || p.startsWith(i.path));
}
