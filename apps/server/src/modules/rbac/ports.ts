/** The rbac slice's ports: its records and the repository interface its service uses (`repo.ts` implements it). */
import type { Page, UserRecord } from '../../ports.ts';
import type { PageGrant } from './permissions.ts';

export interface RoleRecord {
  id: number;
  key: string;
  title: string;
  /** Enabled: a disabled role grants nothing. */
  state: boolean;
  pages: PageGrant[];
  builtin: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface MenuRecord {
  id: number;
  title: string;
  module: string;
  icon: string;
  controller: string;
  action: string;
  show: boolean;
  path: string;
  alias: string;
  sort: number;
  createdAt: number;
  updatedAt: number;
}

export type MenuInput = Omit<MenuRecord, 'id' | 'createdAt' | 'updatedAt'>;

export type RoleInput = { key: string; title: string; state: boolean; pages: PageGrant[]; builtin?: boolean };

export interface AuditRecord {
  id: number;
  actorId: number;
  actorEmail: string;
  actorRoles: string;
  method: string;
  route: string;
  module: string;
  targetKind: string | null;
  targetId: string | null;
  code: number;
  message: string;
  request: unknown;
  before: unknown;
  after: unknown;
  ip: string | null;
  createdAt: number;
}

export interface AuditQuery {
  actor?: string;
  module?: string;
  route?: string;
  targetKind?: string;
  targetId?: string;
  from?: number;
  to?: number;
  failedOnly?: boolean;
  page: number;
  size: number;
}

export interface RbacRepo {
  listRoles(): Promise<RoleRecord[]>;
  findRole(id: number): Promise<RoleRecord | undefined>;
  findRoleByKey(key: string): Promise<RoleRecord | undefined>;
  createRole(r: RoleInput, now: number): Promise<RoleRecord>;
  updateRole(id: number, r: Partial<RoleInput>, now: number): Promise<void>;
  deleteRole(id: number): Promise<boolean>;
  listMenus(): Promise<MenuRecord[]>;
  findMenu(id: number): Promise<MenuRecord | undefined>;
  findMenuByPath(path: string): Promise<MenuRecord | undefined>;
  createMenu(m: MenuInput, now: number): Promise<MenuRecord>;
  updateMenu(id: number, m: Partial<MenuInput>, now: number): Promise<void>;
  deleteMenu(id: number): Promise<boolean>;
  insertAudit(a: Omit<AuditRecord, 'id'>): Promise<number>;
  searchAudit(q: AuditQuery): Promise<Page<AuditRecord>>;
  /** Users holding a role key (users.roles). */
  usersWithRole(key: string): Promise<UserRecord[]>;
}
