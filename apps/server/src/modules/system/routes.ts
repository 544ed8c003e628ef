/**
 * Notices (carousel), maintenance info, digital-human maintenance flag, worker machines (administrator list
 * and the heartbeat API workers call with the worker token).
 */
import { MachineSchema, MachineViewSchema, MaintainInfoSchema, NoticeSchema } from '@mocap/contracts';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, Codes } from '../../errors.ts';
import { bearerToken, requireAdmin, requireUser, userOf } from '../../http/context.ts';
import { envelope, ok } from '../../http/envelope.ts';
import { routePlugin } from '../../http/route.ts';

const routes = routePlugin(['system'], (r, { notices, system, machines, auth }, app) => {
  r.get(
    '/health',
    {
      summary: 'Liveness and database reachability (for load balancers)',
      response: {
        200: envelope(z.object({ database: z.string(), time: z.number() })),
        503: envelope(z.null()),
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
  r.get(
    '/notice/getNotice',
    {
      tags: ['notice'],
      summary:
        'Notices for the start carousel, sorted by page (none after noLongerDisplayed until one changes)',
      data: z.array(NoticeSchema),
    },
    async (req) => {
      // Readable without a token; with one, the user's "do not show again" applies.
      const token = bearerToken(req);
      const user = token ? (await auth.authenticate(token)).user : null;
      return await notices.forUser(user);
    },
  );

  r.action(
    'POST',
    '/notice/noLongerDisplayed',
    {
      auth: requireUser,
      tags: ['notice'],
      summary: 'Stop showing the current notices to me',
    },
    (req) => notices.noLongerDisplayed(userOf(req)),
  );

  r.post(
    '/notice/list',
    {
      auth: requireAdmin,
      tags: ['notice'],
      summary: 'All notices (administrators)',
      data: z.array(NoticeSchema),
    },
    async () => notices.all(),
  );

  r.post(
    '/notice/save',
    {
      auth: requireAdmin,
      tags: ['notice'],
      summary: 'Create (no id) or update a notice',
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
      data: NoticeSchema,
    },
    async (req) => notices.save(req.body),
  );

  r.deleteById(
    '/notice/:id',
    {
      auth: requireAdmin,
      tags: ['notice'],
      summary: 'Delete a notice',
    },
    (_, id) => notices.delete(id),
  );

  // ---------- maintenance ----------
  r.get(
    '/sysConfig/maintainInfo',
    {
      summary: 'Maintenance, version and filing-number settings (no token needed)',
      data: MaintainInfoSchema,
    },
    async () => system.maintainInfo(),
  );

  r.get(
    '/tomokage/checkMaintain',
    {
      summary: 'Whether the digital-human product is under maintenance',
      data: z.object({ tomoMaintain: z.boolean() }),
    },
    async () => ({ tomoMaintain: (await system.maintainInfo()).tomoMaintain }),
  );

  const saveRoute = (path: string, summary: string, body: z.ZodObject) =>
    r.post(path, { auth: requireAdmin, summary, body, data: MaintainInfoSchema }, async (req) =>
      system.saveMaintain(req.body as Record<string, unknown>),
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

  r.post(
    '/machineInfo/heartbeat',
    {
      auth: workerOrAdmin,
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
      security: null,
      data: MachineSchema,
    },
    async (req) => machines.heartbeat(req.body),
  );

  r.post(
    '/machineInfo/list',
    {
      auth: requireAdmin,
      tags: ['machine'],
      summary: 'Worker machines with their liveness',
      data: z.array(MachineViewSchema),
    },
    async () => machines.list(),
  );

  r.post(
    '/machineInfo/add',
    {
      auth: requireAdmin,
      tags: ['machine'],
      summary: 'Register a machine by hand',
      body: z.object({
        name: z.string().min(1).max(128),
        host: z.string().max(255).optional(),
        kind: z.string().max(32).optional(),
        capacity: z.number().int().min(0).max(1024).optional(),
        remark: z.string().max(255).optional(),
      }),
      data: MachineSchema,
    },
    async (req) => machines.add(req.body),
  );

  r.post(
    '/machineInfo/update',
    {
      auth: requireAdmin,
      tags: ['machine'],
      summary: 'Rename, enable/disable (a disabled machine takes no jobs) or annotate a machine',
      body: z.object({
        id: z.number().int().positive(),
        name: z.string().min(1).max(128).optional(),
        host: z.string().max(255).optional(),
        capacity: z.number().int().min(0).max(1024).optional(),
        remark: z.string().max(255).optional(),
        enabled: z.boolean().optional(),
      }),
      data: MachineSchema,
    },
    async ({ body: { id, ...patch } }) => await machines.update(id, patch),
  );

  r.action(
    'POST',
    '/machineInfo/delete',
    {
      auth: requireAdmin,
      tags: ['machine'],
      summary: 'Remove a machine',
      body: z.object({ id: z.number().int().positive() }),
    },
    (req) => machines.delete(req.body.id),
  );
});

export default routes;
