/**
 * Roles (manageRole), menus (manageRouter) and the audit log of the administrator console (issue 21). Paths are
 * ours (spec §7 does not show them). Every route but /role/myPages is an administrator route checked per route
 * from role data (permissions.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerSecurity, requireAdmin, requireUser, userOf } from '../../http/context.ts';
import { envelope, IdParam, ok, pageOf } from '../../http/envelope.ts';
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

const security = bearerSecurity;

const routes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { rbac, accounts } = app.ctx.services;

  const withMembers = async () => {
    const roles = await rbac.listRoles();
    return Promise.all(roles.map(async (r) => ({ ...r, members: (await rbac.members(r.key)).length })));
  };

  app.get(
    '/role/myPages',
    {
      preHandler: requireUser,
      schema: {
        tags: ['role'],
        summary: 'The administrator pages my roles open (empty for ordinary accounts)',
        security,
        response: { 200: envelope(z.array(MyPageSchema)) },
      },
    },
    async (req) => ok(await rbac.myPages(userOf(req))),
  );

  app.post(
    '/role/list',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['role'],
        summary: 'Roles with their page config and member count',
        security,
        response: { 200: envelope(z.array(RoleSchema)) },
      },
    },
    async () => ok(await withMembers()),
  );

  app.post(
    '/role/save',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['role'],
        summary: 'Create (no id: key and title needed) or update a role (title, state, pages)',
        security,
        body: RoleSaveBody,
        response: { 200: envelope(RoleSchema) },
      },
    },
    async (req) => {
      const r = await rbac.saveRole(req.body);
      return ok({ ...r, members: (await rbac.members(r.key)).length });
    },
  );

  app.delete(
    '/role/:id',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['role'],
        summary: 'Delete a role nobody holds (the super-administrator role stays)',
        security,
        params: z.object({ id: IdParam }),
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await rbac.deleteRole(req.params.id);
      return ok(null);
    },
  );

  app.post(
    '/role/members',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['role'],
        summary: 'Accounts holding a role',
        security,
        body: z.object({ key: z.string().min(1).max(64) }),
        response: { 200: envelope(z.array(UserViewSchema)) },
      },
    },
    async (req) => ok((await rbac.members(req.body.key)).map((u) => accounts.view(u))),
  );

  app.post(
    '/role/assign',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['role'],
        summary: "Set the console roles an account holds (replaces the account's console roles)",
        security,
        body: z.object({
          userId: z.number().int().positive(),
          roles: z.array(z.string().min(1).max(64)).max(20),
        }),
        response: { 200: envelope(UserViewSchema) },
      },
    },
    async (req) => ok(accounts.view(await rbac.assign(userOf(req), req.body.userId, req.body.roles))),
  );

  app.post(
    '/menu/list',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['menu'],
        summary: 'Administrator menus (pages) in sort order',
        security,
        response: { 200: envelope(z.array(MenuSchema)) },
      },
    },
    async () => ok(await rbac.listMenus()),
  );

  app.post(
    '/menu/save',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['menu'],
        summary: 'Create (no id: title, path and module needed) or update a menu',
        security,
        body: MenuSaveBody,
        response: { 200: envelope(MenuSchema) },
      },
    },
    async (req) => ok(await rbac.saveMenu(req.body)),
  );

  app.delete(
    '/menu/:id',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['menu'],
        summary: 'Delete a menu no role grants',
        security,
        params: z.object({ id: IdParam }),
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await rbac.deleteMenu(req.params.id);
      return ok(null);
    },
  );

  app.post(
    '/audit/search',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['audit'],
        summary: 'Audit log of administrator actions, newest first, filterable',
        security,
        body: AuditSearchBody,
        response: { 200: envelope(pageOf(AuditSchema)) },
      },
    },
    async (req) => ok(await rbac.searchAudit(req.body)),
  );
};

export default routes;
