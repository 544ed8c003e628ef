/**
 * One declarative call per route: who may call it (`auth`, a guard from context.ts), what it reads (`params`,
 * `query`, `body`: zod) and what it answers (`data`: the zod schema of the envelope's data, or `response`: the
 * whole response map for routes that answer something else), with the OpenAPI words (`summary`, `description`)
 * beside them. The schema handed to Fastify is the same one a hand-written `app.get(url, { preHandler, schema })`
 * gives, so validation, the zod → OpenAPI document and the administrator-route hook (app.ts) see no difference;
 * a guarded route is documented with the bearer security requirement unless the definition says otherwise.
 *
 *   const r = routesOf(app, { tags: ['music'] });
 *   r.get('/music/:id', { auth: requireUser, summary: '…', params: Id, data: MusicSchema },
 *     async (req) => music.get(userOf(req), req.params.id));
 *
 * With `data` the handler returns the data and the helper wraps it in `{ code: 0, message, data }`; with
 * `response` the handler answers for itself (files, redirects, streams).
 */

import { DeletedSchema, IdsBody } from '@mocap/contracts';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { UserRecord } from '../ports.ts';
import type { Services } from '../services.ts';
import { bearerSecurity, type Guard, requireUser, userOf } from './context.ts';
import { envelope, IdParam, ok } from './envelope.ts';

/** `{ id }`: the path parameter of a route on one row. */
export const IdParams = z.object({ id: IdParam });
type IdParams = typeof IdParams;

type Schema = z.ZodType | undefined;
type Out<T extends Schema> = T extends z.ZodType ? z.output<T> : unknown;

/** The request a route handler sees: params, query and body typed from the definition's schemas. */
export type RouteRequest<P extends Schema, Q extends Schema, B extends Schema> = FastifyRequest<{
  Params: Out<P>;
  Querystring: Out<Q>;
  Body: Out<B>;
}>;

export interface RouteDef<P extends Schema, Q extends Schema, B extends Schema, D extends Schema> {
  /** The guard (or guards, run in order); none: anyone may call it. */
  auth?: Guard | Guard[];
  summary: string;
  description?: string;
  /** Defaults to the module's tags. */
  tags?: string[];
  /** OpenAPI security requirement; defaults to bearer when `auth` is set (null: none documented). */
  security?: { [name: string]: string[] }[] | null;
  consumes?: string[];
  params?: P;
  query?: Q;
  body?: B;
  /** The envelope's data: the handler's result is answered as `ok(result)`. */
  data?: D;
  /** The whole response map instead of `data` (the handler answers for itself). */
  response?: FastifySchema['response'];
  /** Left out of the OpenAPI document. */
  hide?: boolean;
  /** Other Fastify route options (bodyLimit, …). */
  options?: Partial<Pick<RouteOptions, 'bodyLimit'>>;
}

type Handler<P extends Schema, Q extends Schema, B extends Schema, D extends Schema> = (
  req: RouteRequest<P, Q, B>,
  reply: FastifyReply,
) => Promise<D extends z.ZodType ? z.input<D> : unknown>;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

type Define = <
  P extends Schema = undefined,
  Q extends Schema = undefined,
  B extends Schema = undefined,
  D extends Schema = undefined,
>(
  url: string,
  def: RouteDef<P, Q, B, D>,
  handler: Handler<P, Q, B, D>,
) => void;

export interface Routes {
  get: Define;
  post: Define;
  put: Define;
  delete: Define;
  patch: Define;
  /** The same route under several urls (aliases, center/search pairs). */
  route: <
    P extends Schema = undefined,
    Q extends Schema = undefined,
    B extends Schema = undefined,
    D extends Schema = undefined,
  >(
    method: Method,
    url: string,
    def: RouteDef<P, Q, B, D>,
    handler: Handler<P, Q, B, D>,
  ) => void;
  /**
   * A call on one row by id, `/<thing>/:id`: guarded by requireUser unless `auth` says otherwise, params `{ id }`;
   * the handler gets the caller, the id and the request.
   */
  byId: <Q extends Schema = undefined, B extends Schema = undefined, D extends Schema = undefined>(
    method: Method,
    url: string,
    def: Omit<RouteDef<IdParams, Q, B, D>, 'params'>,
    handler: (
      user: UserRecord,
      id: number,
      req: RouteRequest<IdParams, Q, B>,
    ) => Promise<D extends z.ZodType ? z.input<D> : unknown>,
  ) => void;
  /**
   * `POST <base>/center` and `POST <base>/search`, the same listing of the caller's cards under two names (the
   * spec's pairs): guarded by requireUser unless `auth` says otherwise; the handler gets the caller and the body.
   */
  centerAndSearch: <B extends Schema, D extends Schema>(
    base: string,
    summaries: { center: string; search: string },
    def: Omit<RouteDef<undefined, undefined, B, D>, 'summary' | 'params'>,
    handler: (user: UserRecord, body: Out<B>) => Promise<D extends z.ZodType ? z.input<D> : unknown>,
  ) => void;
  /**
   * `DELETE <url>/:id` answering no data (`data: null`): byId and action in one; guarded by requireUser unless
   * `auth` says otherwise; the handler gets the caller and the id.
   */
  deleteById: (
    url: string,
    def: Omit<RouteDef<IdParams, undefined, undefined, undefined>, 'params' | 'data' | 'response'>,
    handler: (user: UserRecord, id: number) => Promise<unknown>,
  ) => void;
  /**
   * A call that answers no data (`data: null`): the handler does the work, the route answers `ok(null)`.
   */
  action: <P extends Schema = undefined, Q extends Schema = undefined, B extends Schema = undefined>(
    method: Method,
    url: string,
    def: Omit<RouteDef<P, Q, B, undefined>, 'data' | 'response'>,
    handler: (req: RouteRequest<P, Q, B>) => Promise<unknown>,
  ) => void;
  /**
   * Deletes rows by id: body `{ ids }` (1 to 100), answer `{ deleted }`; guarded by requireUser unless `auth` says
   * otherwise; the handler gets the caller and the ids.
   */
  deleteIds: (
    method: Method,
    url: string,
    def: Omit<RouteDef<undefined, undefined, typeof IdsBody, typeof DeletedSchema>, 'body' | 'data'>,
    handler: (user: UserRecord, ids: number[]) => Promise<{ deleted: number[] }>,
  ) => void;
}

/** The schema object Fastify gets, keys in the order the hand-written routes used (the OpenAPI output is the same). */
function schemaOf(def: RouteDef<Schema, Schema, Schema, Schema>, tags: string[]): FastifySchema {
  const s: Record<string, unknown> = {};
  if (def.hide) s.hide = true;
  s.tags = def.tags ?? tags;
  s.summary = def.summary;
  if (def.description !== undefined) s.description = def.description;
  const security = def.security === undefined ? (def.auth ? bearerSecurity : undefined) : def.security;
  if (security) s.security = security;
  if (def.consumes) s.consumes = def.consumes;
  if (def.params) s.params = def.params;
  if (def.query) s.querystring = def.query;
  if (def.body) s.body = def.body;
  if (def.data) s.response = { 200: envelope(def.data) };
  else if (def.response) s.response = def.response;
  return s as FastifySchema;
}

/**
 * A module's route plugin: `define` gets the module's route definer (`tags` as in routesOf), the services and the
 * app (for its config).
 */
export const routePlugin =
  (
    tags: string[],
    define: (r: Routes, services: Services, app: ZodApp) => void | Promise<void>,
  ): FastifyPluginAsync =>
  async (base) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    await define(routesOf(app, { tags }), app.ctx.services, app);
  };

/** The app with the zod type provider (routes declared on it directly are typed from their schemas). */
export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** The route definer of one module: `tags` is what its routes are grouped under in the OpenAPI document. */
export function routesOf(base: FastifyInstance, defaults: { tags: string[] }): Routes {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const route: Routes['route'] = (method, url, def, handler) => {
    const h = handler as (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
    app.route({
      method,
      url,
      ...def.options,
      ...(def.auth ? { preHandler: def.auth } : {}),
      schema: schemaOf(def as RouteDef<Schema, Schema, Schema, Schema>, defaults.tags),
      handler: def.data ? async (req, reply) => ok(await h(req, reply)) : h,
    });
  };
  const action: Routes['action'] = (method, url, def, handler) =>
    route(method, url, { ...def, data: z.null() }, async (req) => {
      await handler(req);
      return null;
    });
  return {
    route,
    byId: (method, url, def, handler) =>
      route(method, url, { auth: requireUser, ...def, params: IdParams }, (req) =>
        handler(userOf(req), req.params.id, req),
      ),
    action,
    centerAndSearch: (base, summaries, def, handler) => {
      for (const name of ['center', 'search'] as const)
        route('POST', `${base}/${name}`, { auth: requireUser, ...def, summary: summaries[name] }, (req) =>
          handler(userOf(req), req.body as never),
        );
    },
    deleteById: (url, def, handler) =>
      action('DELETE', url, { auth: requireUser, ...def, params: IdParams }, (req) =>
        handler(userOf(req), req.params.id),
      ),
    deleteIds: (method, url, def, handler) =>
      route(method, url, { auth: requireUser, ...def, body: IdsBody, data: DeletedSchema }, (req) =>
        handler(userOf(req), req.body.ids),
      ),
    get: (url, def, handler) => route('GET', url, def, handler),
    post: (url, def, handler) => route('POST', url, def, handler),
    put: (url, def, handler) => route('PUT', url, def, handler),
    delete: (url, def, handler) => route('DELETE', url, def, handler),
    patch: (url, def, handler) => route('PATCH', url, def, handler),
  };
}
