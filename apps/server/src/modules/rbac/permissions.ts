/**
 * What each administrator route needs, and the default roles and menus (issue 21; spec §6 leaves both open).
 *
 * Model: a menu (page) belongs to a permission module (`menu.module`); a role's page config grants pages with
 * `read` or `write` access; a user holds roles by key (users.roles). A route names the module and the access it
 * needs: read routes (lists, searches) need `read`, routes that change something need `write` (and are audited).
 * The super-administrator role (`admin`) passes every check. An administrator route missing from this table is
 * allowed to the super-administrator only (fail closed); a test checks that none is missing.
 */

export type Access = 'read' | 'write';

/** Kinds of record the audit log snapshots before and after an action. */
export type TargetKind =
  | 'blockrule'
  | 'models'
  | 'tomokage'
  | 'animation'
  | 'user'
  | 'notice'
  | 'maintain'
  | 'machine'
  | 'category'
  | 'role'
  | 'menu'
  | 'invoice'
  | 'video';

export interface RoutePermission {
  module: string;
  access: Access;
  /** Where the record the action changes is named: `params.id`, `body.id`, `body.email`, ... */
  target?: { kind: TargetKind; from: string };
}

const r = (module: string, access: Access, target?: RoutePermission['target']): RoutePermission => ({
  module,
  access,
  ...(target ? { target } : {}),
});
const userP = { kind: 'user', from: 'params.id' } as const;
const userB = { kind: 'user', from: 'body.id' } as const;

/** `METHOD /path` (the route pattern under /product) → what it needs. */
export const ROUTE_PERMISSIONS: Record<string, RoutePermission> = {
  // users (manageUser)
  'POST /user/search': r('user', 'read'),
  'POST /user/countUser': r('user', 'read'),
  'GET /admin/user/:id': r('user', 'read'),
  'POST /user/test/:id': r('user', 'write', userP),
  'POST /user/blackFlag/:id': r('user', 'write', userP),
  'PUT /user/beta/:id': r('user', 'write', userP),
  'POST /user/setExtensionStaff': r('user', 'write', userB),
  'POST /user/updateLevel/:id/:level/:days': r('user', 'write', userP),
  'PUT /user/update/vip/level': r('user', 'write', userB),
  'POST /user/addTime/:id/:num': r('user', 'write', userP),
  'PUT /user/surplus/:id/:amount': r('user', 'write', userP),
  // companies (manageCompany)
  'POST /company/search': r('company', 'read'),
  'PUT /company/update/vip/level': r('company', 'write', userB),
  // blacklist (block)
  'POST /sysConfig/blackListInfo': r('block', 'read'),
  'POST /sysConfig/blackListInfo/insert': r('block', 'write', { kind: 'user', from: 'body.email' }),
  'POST /sysConfig/blackListInfo/update': r('block', 'write', userB),
  'POST /sysConfig/blackListInfo/rules': r('block', 'read'),
  'POST /sysConfig/blackListInfo/rules/insert': r('block', 'write'),
  'DELETE /sysConfig/blackListInfo/rules/:id': r('block', 'write', { kind: 'blockrule', from: 'params.id' }),
  // notices and maintenance (service)
  'POST /notice/list': r('service', 'read'),
  'POST /notice/save': r('service', 'write', { kind: 'notice', from: 'body.id' }),
  'DELETE /notice/:id': r('service', 'write', { kind: 'notice', from: 'params.id' }),
  'POST /sysConfig/saveMaintain': r('service', 'write', { kind: 'maintain', from: 'const.maintain' }),
  'POST /sysConfig/saveMark': r('service', 'write', { kind: 'maintain', from: 'const.maintain' }),
  'POST /sysConfig/savePlateNumber': r('service', 'write', { kind: 'maintain', from: 'const.maintain' }),
  'POST /sysConfig/communityInfo': r('service', 'read'),
  'POST /sysConfig/saveCommunity': r('service', 'write'),
  'POST /tencent-email/exchange': r('service', 'write'),
  'GET /tencent-email/sender': r('service', 'read'),
  'DELETE /tencent-email/sender': r('service', 'write'),
  // categories and tags (manageVideoTag)
  'POST /category': r('tag', 'write', { kind: 'category', from: 'body.id' }),
  'PUT /category': r('tag', 'write', { kind: 'category', from: 'body.id' }),
  'DELETE /category/:id': r('tag', 'write', { kind: 'category', from: 'params.id' }),
  // machines (machineManage); workers call the heartbeat with their own token, not through this table
  'POST /machineInfo/heartbeat': r('machine', 'write', { kind: 'machine', from: 'body.name' }),
  'POST /machineInfo/list': r('machine', 'read'),
  'POST /machineInfo/add': r('machine', 'write', { kind: 'machine', from: 'body.name' }),
  'POST /machineInfo/update': r('machine', 'write', { kind: 'machine', from: 'body.id' }),
  'POST /machineInfo/delete': r('machine', 'write', { kind: 'machine', from: 'body.id' }),
  // finance: invoices, cash-back, the monthly top-up run
  'POST /invoice/search': r('finance', 'read'),
  'PUT /invoice/:id/:status': r('finance', 'write', { kind: 'invoice', from: 'params.id' }),
  'POST /sysConfig/setCashBack': r('finance', 'write'),
  'POST /companyOrder/sendCashBack': r('finance', 'write'),
  'POST /user/scheduled/monthlyTopUp': r('finance', 'write'),
  // videos (manageVideo) and the download history (videoDownHistory)
  'POST /admin/video/search': r('video', 'read'),
  'GET /admin/video/:id/preview': r('video', 'read'),
  'POST /admin/video/feedbackStatus': r('video', 'write', { kind: 'video', from: 'body.id' }),
  'POST /admin/video/square': r('video', 'write', { kind: 'video', from: 'body.id' }),
  'POST /admin/video/rerun': r('video', 'write', { kind: 'video', from: 'body.id' }),
  'POST /admin/video/delete': r('video', 'write'),
  'POST /admin/download/search': r('video', 'read'),
  // the animation library (manageAnimation)
  'POST /admin/animation/search': r('animation', 'read'),
  'POST /admin/animation/publish': r('animation', 'write', { kind: 'animation', from: 'body.id' }),
  'POST /admin/animation/redone': r('animation', 'write', { kind: 'animation', from: 'body.id' }),
  'POST /admin/animation/delete': r('animation', 'write'),
  // digital humans (manageTomokage)
  'POST /admin/tomokage/search': r('tomokage', 'read'),
  'POST /admin/tomokage/hide': r('tomokage', 'write', { kind: 'tomokage', from: 'body.id' }),
  'POST /admin/tomokage/delete': r('tomokage', 'write'),
  // companies (manageCompany): the detail of a company account
  'GET /admin/company/:id': r('company', 'read'),
  // capture models (manageModel)
  'POST /model/list': r('model', 'read'),
  'POST /model/save': r('model', 'write', { kind: 'models', from: 'const.models' }),
  // reports (briefing, extension)
  'POST /sysInfo/briefing': r('finance', 'read'),
  'POST /sysInfo/extension': r('finance', 'read'),
  'POST /sysInfo/pageView': r('finance', 'read'),
  // roles, menus, audit log
  'POST /role/list': r('role', 'read'),
  'POST /role/save': r('role', 'write', { kind: 'role', from: 'body.id' }),
  'DELETE /role/:id': r('role', 'write', { kind: 'role', from: 'params.id' }),
  'POST /role/members': r('role', 'read'),
  'POST /role/assign': r('role', 'write', { kind: 'user', from: 'body.userId' }),
  'POST /menu/list': r('menu', 'read'),
  'POST /menu/save': r('menu', 'write', { kind: 'menu', from: 'body.id' }),
  'DELETE /menu/:id': r('menu', 'write', { kind: 'menu', from: 'params.id' }),
  'POST /audit/search': r('audit', 'read'),
};

/** The super-administrator's role key (the first-start administrator holds it). */
export const SUPER_ROLE = 'admin';

export interface DefaultMenu {
  title: string;
  module: string;
  icon: string;
  controller: string;
  action: string;
  path: string;
  alias: string;
  sort: number;
}

const m = (
  sort: number,
  path: string,
  title: string,
  module: string,
  controller: string,
  action: string,
  icon: string,
): DefaultMenu => ({
  sort,
  path,
  title,
  module,
  controller,
  action,
  icon,
  alias: path[0]!.toUpperCase() + path.slice(1),
});

/** The administrator pages (spec §2) plus the audit log, in sidebar order. */
export const DEFAULT_MENUS: DefaultMenu[] = [
  m(10, 'manageUser', 'Users', 'user', '/user', 'search', 'user'),
  m(20, 'manageCompany', 'Companies', 'company', '/company', 'search', 'company'),
  m(30, 'block', 'Blacklist', 'block', '/sysConfig', 'blackListInfo', 'block'),
  m(40, 'briefing', 'Information report', 'finance', '/sysInfo', 'briefing', 'briefing'),
  m(50, 'extension', 'Promotion report', 'finance', '/sysInfo', 'extension', 'extension'),
  m(60, 'service', 'Maintenance', 'service', '/sysConfig', 'maintainInfo', 'service'),
  m(70, 'manageVideo', 'Videos', 'video', '/video', 'search', 'video'),
  m(80, 'manageVideoTag', 'Video tags', 'tag', '/category', 'search', 'tag'),
  m(90, 'videoDownHistory', 'Download history', 'video', '/video', 'downHistory', 'download'),
  m(100, 'manageModel', 'Models', 'model', '/model', 'list', 'model'),
  m(110, 'manageAnimation', 'Animations', 'animation', '/animation', 'search', 'animation'),
  m(120, 'manageTomokage', 'Digital humans', 'tomokage', '/tomokage', 'search', 'tomokage'),
  m(130, 'machineManage', 'Machines', 'machine', '/machineInfo', 'list', 'machine'),
  m(140, 'manageRole', 'Roles', 'role', '/role', 'list', 'role'),
  m(150, 'manageRouter', 'Menus', 'menu', '/menu', 'list', 'menu'),
  m(160, 'auditLog', 'Audit log', 'audit', '/audit', 'search', 'audit'),
];

export interface PageGrant {
  path: string;
  access: Access;
}

export interface DefaultRole {
  key: string;
  title: string;
  pages: PageGrant[];
}

const w = (path: string): PageGrant => ({ path, access: 'write' });
const rd = (path: string): PageGrant => ({ path, access: 'read' });

/** Default roles: the super-administrator gets every page; the others as issue 21 describes them. */
export const DEFAULT_ROLES: DefaultRole[] = [
  { key: SUPER_ROLE, title: 'Super administrator', pages: DEFAULT_MENUS.map((x) => w(x.path)) },
  {
    key: 'operator',
    title: 'Operator',
    pages: [
      w('manageUser'),
      w('block'),
      w('service'),
      w('manageVideo'),
      w('manageVideoTag'),
      rd('videoDownHistory'),
      w('manageAnimation'),
      w('manageTomokage'),
    ],
  },
  {
    key: 'finance',
    title: 'Finance',
    pages: [rd('manageUser'), w('manageCompany'), w('briefing'), w('extension')],
  },
  {
    key: 'support',
    title: 'Support',
    pages: [rd('manageUser'), rd('manageVideo'), rd('videoDownHistory')],
  },
];

/** Role keys that are administrator roles by default (a user holding one sees the console). */
export const DEFAULT_ROLE_KEYS = DEFAULT_ROLES.map((x) => x.key);
