/** Sessions: public key, login (individual and company), info, logout, third-party login. */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Messages } from '../../errors.ts';
import { bearerSecurity, meta, requireCompany, requireUser, userOf } from '../../http/context.ts';
import { envelope, ok } from '../../http/envelope.ts';
import { SessionSchema, UserViewSchema } from '../../http/schemas.ts';
import { rolesOf } from '../../services/auth.ts';

const LoginBody = z.object({
  username: z.string().max(254).optional().describe('e-mail'),
  password: z.string().max(2048).optional().describe('RSA-OAEP (SHA-256) ciphertext, base64'),
});

const InfoSchema = z.object({
  user: UserViewSchema,
  roles: z.array(z.string()),
  uploadCount: z.number().int(),
  isPursh: z.union([z.literal(0), z.literal(1)]),
  skuRole: z.object({ isMonthly: z.boolean(), isYear: z.boolean() }),
});

const routes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { auth, accounts } = app.ctx.services;
  const tags = ['auth'];

  app.get(
    '/auth/publicKey',
    {
      schema: {
        tags,
        summary: 'RSA public key for password transport (SPKI PEM; RSA-OAEP with SHA-256)',
        response: { 200: envelope(z.object({ publicKey: z.string(), algorithm: z.string() })) },
      },
    },
    async () => ok(auth.publicKey()),
  );

  const session = (s: Awaited<ReturnType<typeof auth.login>>) => ({
    token: s.token,
    expiresAt: s.expiresAt,
    user: accounts.view(s.user),
    roles: rolesOf(s.user),
  });

  app.post(
    '/auth/login',
    {
      schema: {
        tags,
        summary: 'Log in an individual account (password encrypted against /auth/publicKey)',
        body: LoginBody,
        response: { 200: envelope(SessionSchema) },
      },
    },
    async (req) => ok(session(await auth.login(req.body, 1, meta(req))), Messages.LOGIN_SUCCESS),
  );

  app.post(
    '/auth/company/login',
    {
      schema: {
        tags,
        summary: 'Log in a company account (type 2)',
        body: LoginBody,
        response: { 200: envelope(SessionSchema) },
      },
    },
    async (req) => ok(session(await auth.login(req.body, 2, meta(req))), Messages.LOGIN_SUCCESS),
  );

  const info = (req: Parameters<typeof userOf>[0]) => {
    const u = userOf(req);
    const view = accounts.view(u);
    return {
      user: view,
      roles: view.roles,
      uploadCount: u.uploadCount,
      isPursh: view.isPursh,
      skuRole: accounts.skuRole(u),
    };
  };

  app.get(
    '/auth/info',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'The logged-in account and its roles',
        security: bearerSecurity,
        response: { 200: envelope(InfoSchema) },
      },
    },
    async (req) => ok(info(req)),
  );

  app.get(
    '/auth/company/info',
    {
      preHandler: requireCompany,
      schema: {
        tags,
        summary: 'The logged-in company account',
        security: bearerSecurity,
        response: {
          200: envelope(
            InfoSchema.extend({
              company: z.object({
                cvCoin: z.number().int(),
                vexpiredAt: z.number().nullable(),
                email: z.string(),
              }),
            }),
          ),
        },
      },
    },
    async (req) => {
      const u = userOf(req);
      return ok({ ...info(req), company: { cvCoin: u.cvCoin, vexpiredAt: u.vexpiredAt, email: u.email } });
    },
  );

  app.delete(
    '/auth/logout',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Revoke the current token (with ?all=true every session of the account)',
        security: bearerSecurity,
        querystring: z.object({ all: z.enum(['true', 'false', '1', '0']).optional() }),
        response: { 200: envelope(z.object({ revoked: z.number().int() })) },
      },
    },
    async (req) => {
      if (req.query.all === 'true' || req.query.all === '1')
        return ok({ revoked: await auth.revokeAll(userOf(req).id) });
      await auth.logout(req.auth!.tokenHash);
      return ok({ revoked: 1 });
    },
  );

  app.get(
    '/auth/enhanced/purchasing',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'IS_PURSH: 1 when the account has bought a plan or pack, else 0',
        security: bearerSecurity,
        response: { 200: envelope(z.union([z.literal(0), z.literal(1)])) },
      },
    },
    async (req) => ok(userOf(req).purchased ? (1 as const) : (0 as const)),
  );

  app.get(
    '/passport/3rd/providers',
    {
      schema: {
        tags,
        summary: 'Third-party login providers enabled on this server',
        response: { 200: envelope(z.array(z.string())) },
      },
    },
    async () => ok(accounts.providerNames()),
  );

  app.post(
    '/passport/3rd/login',
    {
      schema: {
        tags,
        summary:
          'Third-party login: exchange a provider authorization code for a session (dev provider: code "dev:<email>")',
        body: z.object({
          provider: z.string().min(1).max(32),
          code: z.string().min(1).max(2048),
          redirectUri: z.string().max(2048).optional(),
        }),
        response: { 200: envelope(SessionSchema.extend({ created: z.boolean() })) },
      },
    },
    async (req) => {
      const s = await accounts.thirdPartyLogin(
        req.body.provider,
        req.body.code,
        meta(req),
        req.body.redirectUri,
      );
      return ok({ ...session(s), created: s.created }, Messages.LOGIN_SUCCESS);
    },
  );
};

export default routes;
