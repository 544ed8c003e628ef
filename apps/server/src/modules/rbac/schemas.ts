/** zod schemas of the rbac routes (roles, menus, audit log). */
import { z } from 'zod';

export const AccessSchema = z.enum(['read', 'write']);
export const PageGrantSchema = z.object({ path: z.string().min(1).max(128), access: AccessSchema });

export const RoleSchema = z.object({
  id: z.number().int(),
  key: z.string(),
  title: z.string(),
  state: z.boolean().describe('enabled; a disabled role grants nothing'),
  pages: z
    .array(PageGrantSchema)
    .describe('page config: the pages (menu paths) the role opens, read or write'),
  builtin: z.boolean(),
  members: z.number().int().describe('accounts holding the role'),
  createdAt: z.number(),
  updatedAt: z.number(),
});

export const RoleSaveBody = z.object({
  id: z.number().int().positive().optional(),
  key: z
    .string()
    .regex(/^[a-z][a-z0-9_-]{1,31}$/, 'key: 2-32 lower-case letters, digits, - or _')
    .optional(),
  title: z.string().trim().min(1).max(128).optional(),
  state: z.boolean().optional(),
  pages: z.array(PageGrantSchema).max(100).optional(),
});

export const MenuSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  module: z.string().describe('permission module: routes name the module they need'),
  icon: z.string(),
  controller: z.string(),
  action: z.string(),
  show: z.boolean(),
  path: z.string().describe('page under /capture/index/'),
  alias: z.string(),
  sort: z.number().int(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

export const MenuSaveBody = z.object({
  id: z.number().int().positive().optional(),
  title: z.string().trim().min(1).max(128).optional(),
  module: z
    .string()
    .regex(/^[a-z][a-z0-9_-]{0,63}$/, 'module: lower-case letters, digits, - or _')
    .optional(),
  icon: z.string().max(64).optional(),
  controller: z.string().max(128).optional(),
  action: z.string().max(128).optional(),
  show: z.boolean().optional(),
  path: z.string().min(1).max(128).optional(),
  alias: z.string().max(128).optional(),
  sort: z.number().int().min(-100000).max(100000).optional(),
});

export const MyPageSchema = z.object({
  path: z.string(),
  title: z.string(),
  icon: z.string(),
  module: z.string(),
  access: AccessSchema,
  sort: z.number().int(),
});

export const AuditSchema = z.object({
  id: z.number().int(),
  actorId: z.number().int(),
  actorEmail: z.string(),
  actorRoles: z.string(),
  method: z.string(),
  route: z.string(),
  module: z.string(),
  targetKind: z.string().nullable(),
  targetId: z.string().nullable(),
  code: z.number().int().describe('outcome: 0 done, otherwise the error code answered'),
  message: z.string(),
  request: z.unknown(),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string().nullable(),
  createdAt: z.number(),
});

export const AuditSearchBody = z
  .object({
    actor: z.string().max(254).optional().describe('account id or part of the e-mail'),
    module: z.string().max(64).optional(),
    route: z.string().max(255).optional(),
    targetKind: z.string().max(32).optional(),
    targetId: z.string().max(254).optional(),
    from: z.number().int().optional(),
    to: z.number().int().optional(),
    failedOnly: z.boolean().optional(),
    page: z.coerce.number().int().min(1).default(1),
    size: z.coerce.number().int().min(1).max(200).default(20),
  })
  .default({ page: 1, size: 20 });
