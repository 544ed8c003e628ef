/**
 * Roles (manageRole), menus (manageRouter) and the audit log of the administrator console (issue 21). Paths are
 * ours (spec §7 does not show them). Every route but /role/myPages is an administrator route checked per route
 * from role data (permissions.ts).
 */
import { z } from 'zod';
import { requireAdmin, requireUser, userOf } from '../../http/context.ts';
import { pageOf } from '../../http/envelope.ts';
import { routePlugin } from '../../http/route.ts';
import { UserViewSchema } from '../../http/schemas.ts';
import {
  AuditSchema,
  AuditSearchBody,
  MenuSaveBody,
  MenuSchema,
  MyPageSchema,
  RoleSaveBody,
  RoleSchema,
} from './schemas.ts';

const routes = routePlugin(['role'], (r, { rbac, accounts }) => {
  const withMembers = async () => {
    const roles = await rbac.listRoles();
    return Promise.all(roles.map(async (r) => ({ ...r, members: (await rbac.members(r.key)).length })));
  };

  r.get(
    '/role/myPages',
    {
      auth: requireUser,
      summary: 'The administrator pages my roles open (empty for ordinary accounts)',
      data: z.array(MyPageSchema),
    },
    async (req) => rbac.myPages(userOf(req)),
  );

  r.post(
    '/role/list',
    {
      auth: requireAdmin,
      summary: 'Roles with their page config and member count',
      data: z.array(RoleSchema),
    },
    async () => withMembers(),
  );

  r.post(
    '/role/save',
    {
      auth: requireAdmin,
      summary: 'Create (no id: key and title needed) or update a role (title, state, pages)',
      body: RoleSaveBody,
      data: RoleSchema,
    },
    async (req) => {
      const r = await rbac.saveRole(req.body);
      return { ...r, members: (await rbac.members(r.key)).length };
    },
  );

  r.deleteById(
    '/role/:id',
    {
      auth: requireAdmin,
      summary: 'Delete a role nobody holds (the super-administrator role stays)',
    },
    (_, id) => rbac.deleteRole(id),
  );

  r.post(
    '/role/members',
    {
      auth: requireAdmin,
      summary: 'Accounts holding a role',
      body: z.object({ key: z.string().min(1).max(64) }),
      data: z.array(UserViewSchema),
    },
    async (req) => (await rbac.members(req.body.key)).map((u) => accounts.view(u)),
  );

  r.post(
    '/role/assign',
    {
      auth: requireAdmin,
      summary: "Set the console roles an account holds (replaces the account's console roles)",
      body: z.object({
        userId: z.number().int().positive(),
        roles: z.array(z.string().min(1).max(64)).max(20),
      }),
      data: UserViewSchema,
    },
    async (req) => accounts.view(await rbac.assign(userOf(req), req.body.userId, req.body.roles)),
  );

  r.post(
    '/menu/list',
    {
      auth: requireAdmin,
      tags: ['menu'],
      summary: 'Administrator menus (pages) in sort order',
      data: z.array(MenuSchema),
    },
    async () => rbac.listMenus(),
  );

  r.post(
    '/menu/save',
    {
      auth: requireAdmin,
      tags: ['menu'],
      summary: 'Create (no id: title, path and module needed) or update a menu',
      body: MenuSaveBody,
      data: MenuSchema,
    },
    async (req) => rbac.saveMenu(req.body),
  );

  r.deleteById(
    '/menu/:id',
    {
      auth: requireAdmin,
      tags: ['menu'],
      summary: 'Delete a menu no role grants',
    },
    (_, id) => rbac.deleteMenu(id),
  );

  r.post(
    '/audit/search',
    {
      auth: requireAdmin,
      tags: ['audit'],
      summary: 'Audit log of administrator actions, newest first, filterable',
      body: AuditSearchBody,
      data: pageOf(AuditSchema),
    },
    async (req) => rbac.searchAudit(req.body),
  );
});

export default routes;
