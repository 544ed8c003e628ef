/**
 * Roles, menus and audit rows over Kysely (tables of migration `900_admin_rbac`): the only SQL of the rbac slice.
 */

import { type ColumnType, type Generated, type Kysely, type Selectable, sql } from 'kysely';
import { pageOf } from '../../infra/db/paging.ts';
import { columnValues, flag, jsonText } from '../../infra/db/patch.ts';
import {
  deleteWhere,
  insertRow,
  likePattern,
  recordWhere,
  rowsWhere,
  snakeKeys,
  updateWhere,
} from '../../infra/db/rows.ts';
import type { DB } from '../../infra/db/schema.ts';
import { SliceRepo } from '../../infra/db/slice.ts';
import { toUser } from '../user/repo.ts';
import type { PageGrant } from './permissions.ts';
import type * as P from './ports.ts';

type Defaulted<T> = ColumnType<T, T | undefined, T>;

export interface AdminRolesTable {
  id: Generated<number>;
  role_key: string;
  title: string;
  state: Defaulted<number>;
  pages: Defaulted<string>;
  builtin: Defaulted<number>;
  created_at: number;
  updated_at: number;
}

export interface AdminMenusTable {
  id: Generated<number>;
  title: string;
  module: string;
  icon: Defaulted<string>;
  controller: Defaulted<string>;
  action: Defaulted<string>;
  show: Defaulted<number>;
  path: string;
  alias: Defaulted<string>;
  sort: Defaulted<number>;
  created_at: number;
  updated_at: number;
}

export interface AdminAuditTable {
  id: Generated<number>;
  actor_id: number;
  actor_email: string;
  actor_roles: Defaulted<string>;
  method: string;
  route: string;
  module: string;
  target_kind: string | null;
  target_id: string | null;
  code: number;
  message: Defaulted<string>;
  request: Defaulted<string>;
  before: string | null;
  after: string | null;
  ip: string | null;
  created_at: number;
}

type RbacDB = DB & {
  admin_roles: AdminRolesTable;
  admin_menus: AdminMenusTable;
  admin_audit: AdminAuditTable;
};

function parse(s: string | null): unknown {
  if (s === null) return null;
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

/** `%text%` with LIKE's wildcards in the text escaped (by backslash, declared with ESCAPE on both databases). */

const json = (v: unknown): string | null => (v === null || v === undefined ? null : JSON.stringify(v));

const toRole = (r: Selectable<AdminRolesTable>): P.RoleRecord => ({
  id: Number(r.id),
  key: r.role_key,
  title: r.title,
  state: Number(r.state) === 1,
  pages: (parse(r.pages) as PageGrant[] | null) ?? [],
  builtin: Number(r.builtin) === 1,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

const toMenu = (r: Selectable<AdminMenusTable>): P.MenuRecord => ({
  id: Number(r.id),
  title: r.title,
  module: r.module,
  icon: r.icon,
  controller: r.controller,
  action: r.action,
  show: Number(r.show) === 1,
  path: r.path,
  alias: r.alias,
  sort: Number(r.sort),
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

const toAudit = (r: Selectable<AdminAuditTable>): P.AuditRecord => ({
  id: Number(r.id),
  actorId: Number(r.actor_id),
  actorEmail: r.actor_email,
  actorRoles: r.actor_roles,
  method: r.method,
  route: r.route,
  module: r.module,
  targetKind: r.target_kind,
  targetId: r.target_id,
  code: Number(r.code),
  message: r.message,
  request: parse(r.request),
  before: parse(r.before),
  after: parse(r.after),
  ip: r.ip,
  createdAt: Number(r.created_at),
});

const menuRow = (m: Partial<P.MenuInput>): Partial<Omit<Selectable<AdminMenusTable>, 'id'>> =>
  columnValues(m, ['title', 'module', 'icon', 'controller', 'action', 'path', 'alias', 'sort'], {
    show: flag,
  });

export class KyselyRbacRepo extends SliceRepo<RbacDB> implements P.RbacRepo {
  async listRoles() {
    return (await rowsWhere(this.db, 'admin_roles', {}, [['id', 'asc']])).map(toRole);
  }
  async findRole(id: number) {
    return recordWhere(this.db, 'admin_roles', { id }, toRole);
  }
  async findRoleByKey(key: string) {
    return recordWhere(this.db, 'admin_roles', { role_key: key }, toRole);
  }
  async createRole(r: P.RoleInput, now: number) {
    const flags = { state: flag(r.state), builtin: flag(r.builtin ?? false) };
    const values = { role_key: r.key, title: r.title, pages: jsonText(r.pages), ...flags };
    return toRole(await insertRow(this.db, 'admin_roles', { ...values, created_at: now, updated_at: now }));
  }
  async updateRole(id: number, r: Partial<P.RoleInput>, now: number) {
    const set = columnValues(r, ['title'], { state: flag, pages: jsonText });
    await updateWhere(this.db, 'admin_roles', { ...set, updated_at: now }, { id });
  }
  async deleteRole(id: number) {
    return (await deleteWhere(this.db, 'admin_roles', { id })) > 0;
  }

  async listMenus() {
    const order = [
      ['sort', 'asc'],
      ['id', 'asc'],
    ] as const;
    return (await rowsWhere(this.db, 'admin_menus', {}, order)).map(toMenu);
  }
  async findMenu(id: number) {
    return recordWhere(this.db, 'admin_menus', { id }, toMenu);
  }
  async findMenuByPath(path: string) {
    return recordWhere(this.db, 'admin_menus', { path }, toMenu);
  }
  async createMenu(m: P.MenuInput, now: number) {
    const values = menuRow(m) as Omit<Selectable<AdminMenusTable>, 'id' | 'created_at' | 'updated_at'>;
    return toMenu(await insertRow(this.db, 'admin_menus', { ...values, created_at: now, updated_at: now }));
  }
  async updateMenu(id: number, m: Partial<P.MenuInput>, now: number) {
    await updateWhere(this.db, 'admin_menus', { ...menuRow(m), updated_at: now }, { id });
  }
  async deleteMenu(id: number) {
    return (await deleteWhere(this.db, 'admin_menus', { id })) > 0;
  }

  async insertAudit(a: Omit<P.AuditRecord, 'id'>) {
    const snapshots = { request: json(a.request) ?? '{}', before: json(a.before), after: json(a.after) };
    return Number((await insertRow(this.db, 'admin_audit', { ...snakeKeys(a), ...snapshots })).id);
  }

  async searchAudit(q: P.AuditQuery) {
    let w = this.db.selectFrom('admin_audit');
    if (q.actor) {
      const id = /^\d+$/.test(q.actor) ? Number(q.actor) : null;
      w =
        id !== null
          ? w.where('actor_id', '=', id)
          : w.where(sql<boolean>`actor_email like ${likePattern(q.actor.toLowerCase())} escape '\\'`);
    }
    if (q.module) w = w.where('module', '=', q.module);
    if (q.route) w = w.where(sql<boolean>`route like ${likePattern(q.route)} escape '\\'`);
    if (q.targetKind) w = w.where('target_kind', '=', q.targetKind);
    if (q.targetId) w = w.where('target_id', '=', q.targetId);
    if (q.from !== undefined) w = w.where('created_at', '>=', q.from);
    if (q.to !== undefined) w = w.where('created_at', '<', q.to);
    if (q.failedOnly) w = w.where('code', '!=', 0);
    return pageOf(w, q, toAudit, [
      ['created_at', 'desc'],
      ['id', 'desc'],
    ]);
  }

  async usersWithRole(key: string) {
    const rows = await (this.db as unknown as Kysely<DB>)
      .selectFrom('users')
      .selectAll()
      .where(sql<boolean>`roles like ${likePattern(key)} escape '\\'`)
      .orderBy('id')
      .execute();
    return rows.map(toUser).filter((u) => u.roles.includes(key));
  }
}
