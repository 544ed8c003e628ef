/**
 * What route plugins see: `app.ctx` (config and services — never the adapters) and `request.auth` after a guard ran.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { AppError, Codes } from '../errors.ts';
import type { AuthContext } from '../modules/auth/service.ts';
import { API_KEY_PREFIX } from '../modules/company/service.ts';
import type { PendingAudit } from '../modules/rbac/service.ts';
import { ACCOUNT_COMPANY, type UserRecord } from '../ports.ts';
import type { Services } from '../services.ts';

export interface AppContext {
  config: Config;
  services: Services;
  /** `METHOD /path` of every route guarded by requireAdmin (filled as routes register). */
  adminRoutes: string[];
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
    /** An administrator action being audited (set by requireAdmin on write routes; written in app.ts onSend). */
    adminAudit: PendingAudit | null;
  }
}

/** The bearer token of a request: `Authorization: Bearer <t>`; `?token=` only where a route allows it (SSE). */
export function bearerToken(req: FastifyRequest, allowQuery = false): string | undefined {
  const h = req.headers.authorization;
  if (h) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
    if (!m) throw new AppError(Codes.HEADER_ERROR, 'Authorization header must be "Bearer <token>"');
    return m[1];
  }
  if (allowQuery) {
    const q = (req.query as Record<string, unknown> | undefined)?.token;
    if (typeof q === 'string' && q) return q;
  }
  return undefined;
}

export const meta = (req: FastifyRequest) => ({
  ip: req.ip ?? null,
  userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : null,
});

export type Guard = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * Any logged-in account; a company API key (`mck_…`, issue 20) authenticates as its company on the operations of
 * the public API only (modules/company/public-api.ts): everywhere else, administrator routes and the routes that
 * manage keys included, it is refused.
 */
export const requireUser: Guard = async (req) => {
  req.auth = await authenticateToken(req, bearerToken(req));
};

async function authenticateToken(req: FastifyRequest, token: string | undefined): Promise<AuthContext> {
  const { auth, company } = req.server.ctx.services;
  if (token?.startsWith(API_KEY_PREFIX)) {
    const k = await company.authenticateKey(token, { method: req.method, url: req.routeOptions.url ?? '' });
    return { user: k.user, tokenHash: '', apiKeyId: k.key.id };
  }
  return auth.authenticate(token);
}

/** A logged-in session only (no API key): key and webhook management, payments. */
export const requireSession: Guard = async (req, reply) => {
  await requireUser(req, reply);
  if (req.auth?.apiKeyId !== undefined)
    throw new AppError(Codes.INSUFFICIENT_PERMISSION, 'an API key cannot do this: log in');
};

/** Same as requireUser, but the token may come as `?token=` (EventSource cannot send headers). */
export const requireUserOrQueryToken: Guard = async (req) => {
  req.auth = await authenticateToken(req, bearerToken(req, true));
};

/** The route pattern under /product (`/user/test/:id`), as the permission table names it. */
export const apiRouteOf = (req: FastifyRequest): string =>
  (req.routeOptions.url ?? '').replace(/^\/product(?=\/)/, '');

/**
 * Administrator routes: the route's permission (modules/rbac/permissions.ts) checked against the roles the
 * account holds (role data: enabled roles → their pages → the pages' modules, read or write). Anyone else gets
 * 406 insufficient permission. A route that changes something is audited (who, what, before/after).
 */
export const requireAdmin: Guard = async (req, reply) => {
  await requireSession(req, reply);
  const user = req.auth!.user;
  const { rbac } = req.server.ctx.services;
  const route = apiRouteOf(req);
  const perm = await rbac.authorize(user, req.method, route);
  req.adminAudit = await rbac.beginAudit(user, perm, {
    method: req.method,
    route,
    params: req.params,
    body: req.body,
    ip: req.ip ?? null,
  });
};

/** Company accounts only (type 2). */
export const requireCompany: Guard = async (req, reply) => {
  await requireUser(req, reply);
  if (req.auth!.user.type !== ACCOUNT_COMPANY) throw new AppError(Codes.INSUFFICIENT_PERMISSION);
};

/** The logged-in user (after a guard). */
export function userOf(req: FastifyRequest): UserRecord {
  if (!req.auth) throw new AppError(Codes.UNAUTHENTICATED);
  return req.auth.user;
}

/** OpenAPI security requirement for guarded routes. */
export const bearerSecurity = [{ bearer: [] as string[] }];
