/**
 * Notices (carousel), maintenance info, digital-human maintenance flag, worker machines (administrator list
 * and the heartbeat API workers call with the worker token).
 */
import { MachineSchema, MachineViewSchema, MaintainInfoSchema, NoticeSchema } from '@mocap/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, Codes } from '../../errors.ts';
import { bearerSecurity, bearerToken, requireAdmin, requireUser, userOf } from '../../http/context.ts';
import { envelope, IdParam, ok } from '../../http/envelope.ts';

const routes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { notices, system, machines, auth } = app.ctx.services;
  const security = bearerSecurity;

  app.get(
    '/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness and database reachability (for load balancers)',
        response: {
          200: envelope(z.object({ database: z.string(), time: z.number() })),
          503: envelope(z.null()),
        },
      },
    },
    async (_req, reply) => {
      try {
        return ok(await app.ctx.services.system.health());
      } catch {
        return reply.status(503).send({ code: Codes.BUSY, message: 'database unreachable', data: null });
      }
    },
  );

  // ---------- notices ----------
  app.get(
    '/notice/getNotice',
    {
      schema: {
        tags: ['notice'],
        summary:
          'Notices for the start carousel, sorted by page (none after noLongerDisplayed until one changes)',
        response: { 200: envelope(z.array(NoticeSchema)) },
      },
    },
    async (req) => {
      // Readable without a token; with one, the user's "do not show again" applies.
      const token = bearerToken(req);
      const user = token ? (await auth.authenticate(token)).user : null;
      return ok(await notices.forUser(user));
    },
  );

  app.post(
    '/notice/noLongerDisplayed',
    {
      preHandler: requireUser,
      schema: {
        tags: ['notice'],
        summary: 'Stop showing the current notices to me',
        security,
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await notices.noLongerDisplayed(userOf(req));
      return ok(null);
    },
  );

  app.post(
    '/notice/list',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['notice'],
        summary: 'All notices (administrators)',
        security,
        response: { 200: envelope(z.array(NoticeSchema)) },
      },
    },
    async () => ok(await notices.all()),
  );

  app.post(
    '/notice/save',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['notice'],
        summary: 'Create (no id) or update a notice',
        security,
        body: z.object({
          id: z.number().int().positive().optional(),
          page: z.number().int().optional(),
          jumpTo: z.string().max(1024).optional(),
          button: z.string().max(64).optional(),
          url: z.string().max(1024).optional(),
          type: z.number().int().optional(),
          title: z.string().max(255).optional(),
          content: z.string().max(20_000).optional(),
          enabled: z.boolean().optional(),
        }),
        response: { 200: envelope(NoticeSchema) },
      },
    },
    async (req) => ok(await notices.save(req.body)),
  );

  app.delete(
    '/notice/:id',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['notice'],
        summary: 'Delete a notice',
        security,
        params: z.object({ id: IdParam }),
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await notices.delete(req.params.id);
      return ok(null);
    },
  );

  // ---------- maintenance ----------
  app.get(
    '/sysConfig/maintainInfo',
    {
      schema: {
        tags: ['system'],
        summary: 'Maintenance, version and filing-number settings (no token needed)',
        response: { 200: envelope(MaintainInfoSchema) },
      },
    },
    async () => ok(await system.maintainInfo()),
  );

  app.get(
    '/tomokage/checkMaintain',
    {
      schema: {
        tags: ['system'],
        summary: 'Whether the digital-human product is under maintenance',
        response: { 200: envelope(z.object({ tomoMaintain: z.boolean() })) },
      },
    },
    async () => ok({ tomoMaintain: (await system.maintainInfo()).tomoMaintain }),
  );

  const saveRoute = (path: string, summary: string, body: z.ZodObject) =>
    app.post(
      path,
      {
        preHandler: requireAdmin,
        schema: {
          tags: ['system'],
          summary,
          security,
          body,
          response: { 200: envelope(MaintainInfoSchema) },
        },
      },
      async (req) => ok(await system.saveMaintain(req.body as Record<string, unknown>)),
    );
  saveRoute(
    '/sysConfig/saveMaintain',
    'Maintenance banner and version announcement',
    z.object({
      maintainBtn: z.boolean().optional(),
      maintainText: z.string().max(2000).optional(),
      versionBtn: z.boolean().optional(),
      versionText: z.string().max(2000).optional(),
      tomoMaintain: z.boolean().optional(),
    }),
  );
  saveRoute('/sysConfig/saveMark', 'Price-list mark switch', z.object({ markBtn: z.boolean() }));
  saveRoute(
    '/sysConfig/savePlateNumber',
    'Filing-record number in the footer',
    z.object({ plateNumber: z.string().max(128).optional(), plateNumberBtn: z.boolean().optional() }),
  );

  // ---------- machines ----------
  const workerOrAdmin = async (req: FastifyRequest, reply: Parameters<typeof requireAdmin>[1]) => {
    const presented = req.headers['x-worker-token'];
    if (typeof presented === 'string') {
      if (!app.ctx.services.machines.isWorkerToken(presented))
        throw new AppError(Codes.AUTH_FAILED, 'invalid worker token');
      return;
    }
    await requireAdmin(req, reply);
  };

  app.post(
    '/machineInfo/heartbeat',
    {
      preHandler: workerOrAdmin,
      schema: {
        tags: ['machine'],
        summary:
          'Worker registration and heartbeat (header X-Worker-Token); answers whether the machine may take jobs',
        body: z.object({
          name: z.string().min(1).max(128),
          host: z.string().max(255).optional(),
          kind: z.string().max(32).optional(),
          capacity: z.number().int().min(0).max(1024).optional(),
          running: z.number().int().min(0).max(1024).optional(),
          version: z.string().max(64).optional(),
          status: z.enum(['online', 'busy', 'draining', 'offline']).optional(),
          meta: z.record(z.string(), z.unknown()).optional(),
        }),
        response: { 200: envelope(MachineSchema) },
      },
    },
    async (req) => ok(await machines.heartbeat(req.body)),
  );

  app.post(
    '/machineInfo/list',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['machine'],
        summary: 'Worker machines with their liveness',
        security,
        response: { 200: envelope(z.array(MachineViewSchema)) },
      },
    },
    async () => ok(await machines.list()),
  );

  app.post(
    '/machineInfo/add',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['machine'],
        summary: 'Register a machine by hand',
        security,
        body: z.object({
          name: z.string().min(1).max(128),
          host: z.string().max(255).optional(),
          kind: z.string().max(32).optional(),
          capacity: z.number().int().min(0).max(1024).optional(),
          remark: z.string().max(255).optional(),
        }),
        response: { 200: envelope(MachineSchema) },
      },
    },
    async (req) => ok(await machines.add(req.body)),
  );

  app.post(
    '/machineInfo/update',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['machine'],
        summary: 'Rename, enable/disable (a disabled machine takes no jobs) or annotate a machine',
        security,
        body: z.object({
          id: z.number().int().positive(),
          name: z.string().min(1).max(128).optional(),
          host: z.string().max(255).optional(),
          capacity: z.number().int().min(0).max(1024).optional(),
          remark: z.string().max(255).optional(),
          enabled: z.boolean().optional(),
        }),
        response: { 200: envelope(MachineSchema) },
      },
    },
    async (req) => {
      const { id, ...patch } = req.body;
      return ok(await machines.update(id, patch));
    },
  );

  app.post(
    '/machineInfo/delete',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['machine'],
        summary: 'Remove a machine',
        security,
        body: z.object({ id: z.number().int().positive() }),
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await machines.delete(req.body.id);
      return ok(null);
    },
  );
};

export default routes;
