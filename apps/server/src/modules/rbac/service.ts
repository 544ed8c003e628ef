/**
 * Roles, menus and the audit log of the administrator console (issue 21).
 *
 * - `authorize(user, method, route)`: the per-route check every administrator route runs (http/context.ts
 *   requireAdmin) from role data: the user's roles (enabled ones) → their pages → the pages' modules → access.
 * - `beginAudit` / `finishAudit`: one audit row per administrator action that changes something (write routes),
 *   with the record it touched before and after, the request (secrets removed) and the outcome code.
 */
import { AppError, Codes } from '../../errors.ts';
import type { Clock, Page, UserRecord } from '../../ports.ts';
import {
  type Access,
  DEFAULT_MENUS,
  DEFAULT_ROLES,
  type PageGrant,
  ROUTE_PERMISSIONS,
  type RoutePermission,
  SUPER_ROLE,
  type TargetKind,
} from './permissions.ts';
import type {
  AuditQuery,
  AuditRecord,
  MenuInput,
  MenuRecord,
  RbacRepo,
  RoleInput,
  RoleRecord,
} from './ports.ts';

export type { AuditQuery, AuditRecord, MenuInput, MenuRecord, RbacRepo, RoleInput, RoleRecord };

/** What the audit reads a record as: the same views the routes answer with. */
export type Snapshotter = (kind: TargetKind, ref: string) => Promise<unknown>;

export interface RbacDeps {
  repo: RbacRepo;
  clock: Clock;
  snapshot: Snapshotter;
  /** Sets the roles of a user (through the accounts service: ends sessions when needed). */
  setUserRoles: (userId: number, roles: string[]) => Promise<UserRecord>;
  getUser: (userId: number) => Promise<UserRecord>;
}

/** A page the user may open, with the access it grants. */
export interface MyPage {
  path: string;
  title: string;
  icon: string;
  module: string;
  access: Access;
  sort: number;
}

export interface PendingAudit {
  actor: UserRecord;
  method: string;
  route: string;
  module: string;
  targetKind: TargetKind | null;
  targetId: string | null;
  request: unknown;
  before: unknown;
  ip: string | null;
}

const rank = (a: Access | undefined) => (a === 'write' ? 2 : a === 'read' ? 1 : 0);
const SECRET_KEYS = /pass|token|secret|code$|key$/i;

function redact(v: unknown, depth = 0): unknown {
  if (depth > 4) return '…';
  if (Array.isArray(v)) return v.slice(0, 50).map((x) => redact(x, depth + 1));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = SECRET_KEYS.test(k) ? '[removed]' : redact(x, depth + 1);
    return out;
  }
  if (typeof v === 'string' && v.length > 2000) return `${v.slice(0, 2000)}…`;
  return v;
}

function pick(source: { params: unknown; body: unknown }, from: string): string | null {
  const [where, key] = from.split('.') as [string, string];
  if (where === 'const') return key;
  const obj = (where === 'params' ? source.params : source.body) as
    | Record<string, unknown>
    | null
    | undefined;
  const v = obj?.[key];
  return typeof v === 'number' || (typeof v === 'string' && v) ? String(v) : null;
}

export class RbacService {
  private seeded: Promise<void> | undefined;
  constructor(private readonly deps: RbacDeps) {}

  /** The default roles and menus, created once per process on first use (see seed). */
  private ready(): Promise<void> {
    this.seeded ??= this.seed().catch((e) => {
      this.seeded = undefined;
      throw e;
    });
    return this.seeded;
  }

  /** Creates the default roles and menus that do not exist yet (by key and path); edits are kept. */
  async seed(): Promise<void> {
    const now = this.deps.clock.now();
    for (const menu of DEFAULT_MENUS) {
      if (await this.deps.repo.findMenuByPath(menu.path)) continue;
      try {
        await this.deps.repo.createMenu({ ...menu, show: true }, now);
      } catch (e) {
        if (!(await this.deps.repo.findMenuByPath(menu.path))) throw e; // another process seeded it meanwhile
      }
    }
    for (const role of DEFAULT_ROLES) {
      const existing = await this.deps.repo.findRoleByKey(role.key);
      if (existing) {
        // The super-administrator always has every page, including pages added later.
        if (role.key === SUPER_ROLE) {
          const have = new Set(existing.pages.map((p) => p.path));
          const missing = role.pages.filter((p) => !have.has(p.path));
          if (missing.length)
            await this.deps.repo.updateRole(existing.id, { pages: [...existing.pages, ...missing] }, now);
        }
        continue;
      }
      try {
        await this.deps.repo.createRole({ ...role, state: true, builtin: true }, now);
      } catch (e) {
        if (!(await this.deps.repo.findRoleByKey(role.key))) throw e;
      }
    }
  }

  static permissionOf(method: string, route: string): RoutePermission | undefined {
    return ROUTE_PERMISSIONS[`${method.toUpperCase()} ${route}`];
  }

  /** Module → best access the user's enabled roles grant. The super-administrator gets `*`. */
  async grants(user: UserRecord): Promise<Map<string, Access>> {
    await this.ready();
    const out = new Map<string, Access>();
    if (user.roles.includes(SUPER_ROLE)) {
      out.set('*', 'write');
      return out;
    }
    if (user.roles.length === 0) return out;
    const [roles, menus] = await Promise.all([this.deps.repo.listRoles(), this.deps.repo.listMenus()]);
    const moduleOf = new Map(menus.map((x) => [x.path, x.module]));
    for (const role of roles) {
      if (!role.state || !user.roles.includes(role.key)) continue;
      for (const p of role.pages) {
        const mod = moduleOf.get(p.path);
        if (mod && rank(p.access) > rank(out.get(mod))) out.set(mod, p.access);
      }
    }
    return out;
  }

  /** Whether the user holds an enabled administrator role (sees the console at all). */
  async isConsoleUser(user: UserRecord): Promise<boolean> {
    return (await this.grants(user)).size > 0;
  }

  /** Refuses with 406 unless the user's roles grant the route's module at the route's access. */
  async authorize(user: UserRecord, method: string, route: string): Promise<RoutePermission> {
    const need = RbacService.permissionOf(method, route) ?? { module: '*', access: 'write' as const };
    const g = await this.grants(user);
    if (g.has('*')) return need;
    if (rank(g.get(need.module)) >= rank(need.access)) return need;
    throw new AppError(Codes.INSUFFICIENT_PERMISSION);
  }

  /** The console pages the user may open, in menu order (hidden menus left out). */
  async myPages(user: UserRecord): Promise<MyPage[]> {
    await this.ready();
    const g = await this.grants(user);
    if (g.size === 0) return [];
    const menus = (await this.deps.repo.listMenus()).filter((x) => x.show);
    const all = g.has('*');
    const mine = all
      ? []
      : (await this.deps.repo.listRoles()).filter((r) => r.state && user.roles.includes(r.key));
    const pages: MyPage[] = [];
    for (const x of menus) {
      const access = all ? 'write' : g.get(x.module);
      if (!access) continue;
      // A non-super user sees a page only when one of their roles lists it (not just its module).
      if (!all && !mine.some((r) => r.pages.some((p) => p.path === x.path))) continue;
      pages.push({ path: x.path, title: x.title, icon: x.icon, module: x.module, access, sort: x.sort });
    }
    return pages.sort((a, b) => a.sort - b.sort);
  }

  // ---------- roles ----------
  async listRoles(): Promise<RoleRecord[]> {
    await this.ready();
    return this.deps.repo.listRoles();
  }

  private async checkPages(pages: PageGrant[]): Promise<void> {
    const known = new Set((await this.deps.repo.listMenus()).map((x) => x.path));
    const bad = pages.filter((p) => !known.has(p.path)).map((p) => p.path);
    if (bad.length) throw new AppError(Codes.PARAMETER_ERROR, `unknown page: ${bad.join(', ')}`);
    const seen = new Set<string>();
    for (const p of pages) {
      if (seen.has(p.path)) throw new AppError(Codes.PARAMETER_ERROR, `page listed twice: ${p.path}`);
      seen.add(p.path);
    }
  }

  async saveRole(input: Partial<RoleInput> & { id?: number }): Promise<RoleRecord> {
    await this.ready();
    const now = this.deps.clock.now();
    if (input.pages) await this.checkPages(input.pages);
    if (input.id === undefined) {
      if (!input.key || !input.title)
        throw new AppError(Codes.PARAMETER_ERROR, 'a new role needs a key and a title');
      if (await this.deps.repo.findRoleByKey(input.key))
        throw new AppError(Codes.REFUSED, `a role with the key ${input.key} exists`);
      return this.deps.repo.createRole(
        { key: input.key, title: input.title, state: input.state ?? true, pages: input.pages ?? [] },
        now,
      );
    }
    const role = await this.deps.repo.findRole(input.id);
    if (!role) throw new AppError(Codes.NOT_FOUND, `role ${input.id} not found`);
    if (input.key !== undefined && input.key !== role.key)
      throw new AppError(Codes.REFUSED, 'the key of a role cannot change (accounts hold it)');
    if (role.key === SUPER_ROLE && (input.state === false || input.pages))
      throw new AppError(
        Codes.REFUSED,
        'the super-administrator role always has every page and cannot be disabled',
      );
    await this.deps.repo.updateRole(
      role.id,
      {
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.state !== undefined ? { state: input.state } : {}),
        ...(input.pages !== undefined ? { pages: input.pages } : {}),
      },
      now,
    );
    return (await this.deps.repo.findRole(role.id))!;
  }

  async deleteRole(id: number): Promise<void> {
    await this.ready();
    const role = await this.deps.repo.findRole(id);
    if (!role) throw new AppError(Codes.NOT_FOUND, `role ${id} not found`);
    if (role.key === SUPER_ROLE)
      throw new AppError(Codes.REFUSED, 'the super-administrator role cannot be deleted');
    const holders = await this.deps.repo.usersWithRole(role.key);
    if (holders.length)
      throw new AppError(
        Codes.REFUSED,
        `${holders.length} account(s) hold this role: take it from them first (${holders
          .slice(0, 3)
          .map((u) => u.email)
          .join(', ')})`,
      );
    await this.deps.repo.deleteRole(id);
  }

  async members(key: string): Promise<UserRecord[]> {
    return this.deps.repo.usersWithRole(key);
  }

  /** Sets which console roles a user holds (other role names on the account are kept). */
  async assign(actor: UserRecord, userId: number, keys: string[]): Promise<UserRecord> {
    await this.ready();
    const roles = await this.deps.repo.listRoles();
    const known = new Set(roles.map((r) => r.key));
    const bad = keys.filter((k) => !known.has(k));
    if (bad.length) throw new AppError(Codes.PARAMETER_ERROR, `unknown role: ${bad.join(', ')}`);
    const u = await this.deps.getUser(userId);
    if (u.type === 2) throw new AppError(Codes.REFUSED, 'company accounts cannot hold console roles');
    if (u.id === actor.id && u.roles.includes(SUPER_ROLE) && !keys.includes(SUPER_ROLE))
      throw new AppError(Codes.REFUSED, 'you cannot take the super-administrator role from yourself');
    const others = u.roles.filter((r) => !known.has(r));
    return this.deps.setUserRoles(u.id, [...new Set([...others, ...keys])]);
  }

  // ---------- menus ----------
  async listMenus(): Promise<MenuRecord[]> {
    await this.ready();
    return this.deps.repo.listMenus();
  }

  async saveMenu(input: Partial<MenuInput> & { id?: number }): Promise<MenuRecord> {
    await this.ready();
    const now = this.deps.clock.now();
    if (input.path !== undefined && !/^[A-Za-z][\w-]*$/.test(input.path))
      throw new AppError(
        Codes.PARAMETER_ERROR,
        'path: letters, digits, - and _ (the page under /capture/index/)',
      );
    if (input.id === undefined) {
      if (!input.title || !input.path || !input.module)
        throw new AppError(Codes.PARAMETER_ERROR, 'a new menu needs a title, a path and a module');
      if (await this.deps.repo.findMenuByPath(input.path))
        throw new AppError(Codes.REFUSED, `a menu with the path ${input.path} exists`);
      return this.deps.repo.createMenu(
        {
          title: input.title,
          module: input.module,
          icon: input.icon ?? '',
          controller: input.controller ?? '',
          action: input.action ?? '',
          show: input.show ?? true,
          path: input.path,
          alias: input.alias ?? '',
          sort: input.sort ?? 0,
        },
        now,
      );
    }
    const menu = await this.deps.repo.findMenu(input.id);
    if (!menu) throw new AppError(Codes.NOT_FOUND, `menu ${input.id} not found`);
    const { id, ...patch } = input;
    if (patch.path !== undefined && patch.path !== menu.path) {
      if (await this.deps.repo.findMenuByPath(patch.path))
        throw new AppError(Codes.REFUSED, `a menu with the path ${patch.path} exists`);
      // Roles name pages by path: carry the grants over.
      for (const role of await this.deps.repo.listRoles()) {
        if (!role.pages.some((p) => p.path === menu.path)) continue;
        const pages = role.pages.map((p) => (p.path === menu.path ? { ...p, path: patch.path! } : p));
        await this.deps.repo.updateRole(role.id, { pages }, now);
      }
    }
    await this.deps.repo.updateMenu(menu.id, patch, now);
    return (await this.deps.repo.findMenu(menu.id))!;
  }

  async deleteMenu(id: number): Promise<void> {
    await this.ready();
    const menu = await this.deps.repo.findMenu(id);
    if (!menu) throw new AppError(Codes.NOT_FOUND, `menu ${id} not found`);
    const users = (await this.deps.repo.listRoles()).filter((r) => r.pages.some((p) => p.path === menu.path));
    if (users.length)
      throw new AppError(
        Codes.REFUSED,
        `roles grant this page: ${users.map((r) => r.title).join(', ')} (take it from them first)`,
      );
    await this.deps.repo.deleteMenu(id);
  }

  // ---------- audit ----------
  /** Reads the record an action is about to change (write routes only; read routes are not audited). */
  async beginAudit(
    actor: UserRecord,
    perm: RoutePermission,
    req: { method: string; route: string; params: unknown; body: unknown; ip: string | null },
  ): Promise<PendingAudit | null> {
    if (perm.access !== 'write') return null;
    const targetId = perm.target ? pick(req, perm.target.from) : null;
    const targetKind = perm.target?.kind ?? null;
    let before: unknown = null;
    if (targetKind && targetId) before = await this.deps.snapshot(targetKind, targetId).catch(() => null);
    // Only a super-administrator changes a super-administrator's account.
    const roles = (before as { roles?: unknown } | null)?.roles;
    if (
      targetKind === 'user' &&
      !actor.roles.includes(SUPER_ROLE) &&
      Array.isArray(roles) &&
      roles.includes(SUPER_ROLE)
    )
      throw new AppError(Codes.INSUFFICIENT_PERMISSION);
    return {
      actor,
      method: req.method,
      route: req.route,
      module: perm.module,
      targetKind,
      targetId,
      request: redact({ params: req.params, body: req.body }),
      before,
      ip: req.ip,
    };
  }

  /** Writes the audit row once the outcome is known (before the response leaves). */
  async finishAudit(
    p: PendingAudit,
    outcome: { code: number; message: string; data: unknown },
  ): Promise<void> {
    let targetId = p.targetId;
    // A create names its record only in the answer.
    if (!targetId && p.targetKind && outcome.code === 0) {
      const d = outcome.data as { id?: unknown } | null;
      if (d && (typeof d.id === 'number' || typeof d.id === 'string')) targetId = String(d.id);
      if (p.targetKind === 'user' && d && typeof (d as { email?: unknown }).email === 'string')
        targetId = String((d as { id: number }).id);
    }
    let after: unknown = null;
    if (p.targetKind && targetId) after = await this.deps.snapshot(p.targetKind, targetId).catch(() => null);
    if (after === null && outcome.code === 0 && !p.targetKind) after = redact(outcome.data);
    await this.deps.repo.insertAudit({
      actorId: p.actor.id,
      actorEmail: p.actor.email,
      actorRoles: p.actor.roles.join(','),
      method: p.method,
      route: p.route,
      module: p.module,
      targetKind: p.targetKind,
      targetId,
      code: outcome.code,
      message: outcome.message.slice(0, 255),
      request: p.request,
      before: p.before,
      after,
      ip: p.ip,
      createdAt: this.deps.clock.now(),
    });
  }

  searchAudit(q: AuditQuery): Promise<Page<AuditRecord>> {
    return this.deps.repo.searchAudit(q);
  }
}
