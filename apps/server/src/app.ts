/**
 * `buildApp(deps)`: the Fastify application — zod validation and serialisation, the OpenAPI document with
 * interactive docs at `/product/docs`, the envelope error handler, the API modules under `/product`, and (when
 * built) the web app under `/capture` with history fallback.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { type AppContext, requireAdmin } from './http/context.ts';
import { installErrorHandling } from './http/errors.ts';
import { createSerializerCompiler } from './http/serializer.ts';
import { blocklistGuard } from './modules/blocklist/routes.ts';
import { withUsedSchemas } from './modules/company/public-api.ts';
import { mountPayments } from './paysandbox/mount.ts';
import { apiModules } from './routes.ts';
import type { Infra, Services } from './wiring.ts';

export const API_PREFIX = '/product';
export const WEB_PREFIX = '/capture';

export interface AppDeps {
  config: Config;
  infra: Infra;
  services: Services;
  /** Fastify logger option (default: pino at config.LOG_LEVEL; `false` in tests). */
  logger?: FastifyServerOptions['logger'];
  /** Folder of the built web app (default config.WEB_DIST or apps/web/dist). */
  webDist?: string | null;
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: deps.logger ?? {
      level: config.LOG_LEVEL,
      redact: ['req.headers.authorization', 'req.body.password', 'req.body.oldPassword', 'req.body.code'],
    },
    trustProxy: config.TRUST_PROXY,
    // One access-log line per request (below) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    requestTimeout: 120_000,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // Responses: compiled from the zod schemas (see http/serializer.ts); zod still checks them outside production.
  app.setSerializerCompiler(createSerializerCompiler({ validate: config.NODE_ENV !== 'production' }));
  const ctx: AppContext = { config, services: deps.services, adminRoutes: [] };
  app.decorate('ctx', ctx);
  app.decorateRequest('auth', null);
  app.decorateRequest('adminAudit', null);
  installErrorHandling(app);
  await app.register(fastifyHelmet, securityHeaders(config));
  app.addHook('onSend', async (req, reply, payload) => {
    // The audit row of an administrator action, with its outcome, is written before the answer leaves.
    if (req.adminAudit) {
      const pending = req.adminAudit;
      req.adminAudit = null;
      let outcome = {
        code: reply.statusCode >= 400 ? reply.statusCode : 0,
        message: '',
        data: null as unknown,
      };
      if (typeof payload === 'string') {
        try {
          const e = JSON.parse(payload) as { code?: number; message?: string; data?: unknown };
          if (typeof e.code === 'number') outcome = { code: e.code, message: e.message ?? '', data: e.data };
        } catch {
          /* not an envelope */
        }
      }
      await deps.services.rbac
        .finishAudit(pending, outcome)
        .catch((err) => req.log.error({ err }, 'audit write failed'));
    }
    reply.header('x-request-id', req.id);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    return payload;
  });
  app.addHook('onResponse', async (req, reply) => {
    const level = reply.statusCode >= 500 ? 'error' : 'info';
    req.log[level](
      {
        method: req.method,
        // The route pattern, not the URL: path parameters may carry secrets (e.g. a reset code a client put there).
        route: req.routeOptions?.url ?? '(no route)',
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
  });

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'mocap API',
        description:
          'Video to 3D motion capture. Every answer is the envelope `{code, message, data}`; code 0 is success, other codes follow spec §8 (401/407/408/421 log out, 400 parameter error, 300/307/411/1047 show the message). Log in with the password RSA-OAEP(SHA-256)-encrypted against `GET /product/auth/publicKey`, then send `Authorization: Bearer <token>`.',
        version: '1.0.0',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
    transformObject: (d) => withUsedSchemas(jsonSchemaTransformObject(d)),
  });
  await app.register(fastifySwaggerUi, { routePrefix: `${API_PREFIX}/docs` });

  // Blacklisted addresses get 408 on every API call; blacklisted e-mail domains on code, register and login.
  app.addHook('preValidation', async (req) => {
    if (req.url.startsWith(`${API_PREFIX}/`)) await blocklistGuard(req);
  });
  // Administrator routes run their permission check before validation, so a refused caller learns nothing
  // about the body (406 whatever it sends); the list is kept for the permission-table test.
  app.addHook('onRoute', (route) => {
    const pre = route.preHandler;
    const list = Array.isArray(pre) ? pre : pre ? [pre] : [];
    if (!list.includes(requireAdmin)) return;
    const rest = list.filter((h) => h !== requireAdmin);
    route.preHandler = rest.length ? rest : undefined;
    const before = route.preValidation;
    route.preValidation = [requireAdmin, ...(Array.isArray(before) ? before : before ? [before] : [])];
    for (const m of Array.isArray(route.method) ? route.method : [route.method])
      if (m !== 'HEAD') ctx.adminRoutes.push(`${m} ${route.url.replace(/^\/product(?=\/)/, '')}`);
  });
  await app.register(
    async (api) => {
      for (const mod of apiModules) await api.register(mod);
    },
    { prefix: API_PREFIX },
  );
  await mountPayments(app, deps.infra, deps.services);

  const webDist = deps.webDist === undefined ? (config.WEB_DIST ?? defaultWebDist()) : deps.webDist;
  if (webDist && existsSync(join(webDist, 'index.html'))) await serveWeb(app, webDist);
  else
    app.get(WEB_PREFIX, { schema: { hide: true } }, async (_req, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .status(503)
        .send(
          'The web app is not built: npm run build -w @mocap/web (the API is under /product, docs at /product/docs).',
        ),
    );
  app.get('/', { schema: { hide: true } }, async (_req, reply) => reply.redirect(`${WEB_PREFIX}/`));
  return app;
}

/**
 * Security headers (issue 13.5, @fastify/helmet): a Content-Security-Policy that allows the web app, the API docs
 * and the storage's signed URLs and nothing else (no inline scripts, no framing: frame-ancestors 'none' plus
 * X-Frame-Options DENY), HSTS and upgrade-insecure-requests only when the service is reached over TLS (PUBLIC_URL
 * https), Referrer-Policy same-origin, nosniff, cross-origin opener/resource policies.
 */
export function securityHeaders(config: Config) {
  const storage: string[] = [];
  if (config.storage.kind === 's3') {
    if (config.storage.endpoint) {
      const u = new URL(config.storage.endpoint);
      storage.push(u.origin);
      if (!config.storage.forcePathStyle) storage.push(`${u.protocol}//*.${u.host}`);
    } else storage.push('https://*.amazonaws.com');
  }
  if (config.PUBLIC_URL) storage.push(new URL(config.PUBLIC_URL).origin);
  const tls = config.PUBLIC_URL?.startsWith('https:') ?? false;
  return {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:', ...storage],
        'media-src': ["'self'", 'blob:', ...storage],
        'connect-src': ["'self'", ...storage],
        'worker-src': ["'self'", 'blob:'],
        'font-src': ["'self'", 'data:'],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
        ...(tls ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    frameguard: { action: 'deny' as const },
    hsts: tls ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'same-origin' as const },
    crossOriginEmbedderPolicy: false,
  };
}

function defaultWebDist(): string {
  return join(import.meta.dirname, '..', '..', 'web', 'dist');
}

/** The built SPA under /capture with history fallback: unknown /capture/* paths get index.html. */
async function serveWeb(app: FastifyInstance, dist: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: dist,
    prefix: `${WEB_PREFIX}/`,
    wildcard: false,
    index: ['index.html'],
    decorateReply: true,
    cacheControl: false,
    setHeaders(reply, path) {
      reply.header(
        'Cache-Control',
        /[/\\]assets[/\\]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  const sendIndex = async (
    _req: unknown,
    reply: { header: (k: string, v: string) => unknown; sendFile: (f: string) => unknown },
  ) => {
    reply.header('Cache-Control', 'no-cache');
    return reply.sendFile('index.html');
  };
  app.get(WEB_PREFIX, { schema: { hide: true } }, async (_req, reply) => reply.redirect(`${WEB_PREFIX}/`));
  app.get(`${WEB_PREFIX}/*`, { schema: { hide: true } }, async (req, reply) => {
    const rel = (req.params as { '*': string })['*'] ?? '';
    // Real files (assets, images) are served as they are; anything else is a client route.
    if (rel && !rel.includes('..') && existsSync(join(dist, rel)) && !rel.endsWith('/'))
      return reply.sendFile(rel);
    return sendIndex(req, reply);
  });
}
