/** Sessions: public key, login (individual and company), info, logout, third-party login. */
import { AuthInfoSchema, LoginButtonSchema } from '@mocap/contracts';
import { z } from 'zod';
import { Messages } from '../../errors.ts';
import { meta, requireCompany, requireUser, userOf } from '../../http/context.ts';
import { envelope, ok } from '../../http/envelope.ts';
import { routePlugin } from '../../http/route.ts';
import { SessionSchema } from '../../http/schemas.ts';
import { PENDING_COOKIE } from './pending.ts';
import { rolesOf } from './service.ts';

/** A cookie's value from the Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return decodeURIComponent(part.slice(i + 1).trim());
  }
  return undefined;
}

/** The pending third-party authorization cookie: HttpOnly, SameSite=Lax (the provider's redirect is a top-level GET), only under /product/passport/3rd. */
const pendingCookie = (value: string, maxAge: number, secure: boolean) =>
  `${PENDING_COOKIE}=${value}; Max-Age=${maxAge}; Path=/product/passport/3rd; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

const LoginBody = z.object({
  username: z.string().max(254).optional().describe('e-mail'),
  password: z.string().max(2048).optional().describe('RSA-OAEP (SHA-256) ciphertext, base64'),
});

const tags = ['auth'];

const routes = routePlugin(tags, (r, { auth, accounts }, app) => {
  r.get(
    '/auth/publicKey',
    {
      summary: 'RSA public key for password transport (SPKI PEM; RSA-OAEP with SHA-256)',
      data: z.object({ publicKey: z.string(), algorithm: z.string() }),
    },
    async () => auth.publicKey(),
  );

  const session = (s: Awaited<ReturnType<typeof auth.login>>) => ({
    token: s.token,
    expiresAt: s.expiresAt,
    user: accounts.view(s.user),
    roles: rolesOf(s.user),
  });

  for (const [url, type, summary] of [
    ['/auth/login', 1, 'Log in an individual account (password encrypted against /auth/publicKey)'],
    ['/auth/company/login', 2, 'Log in a company account (type 2)'],
  ] as const)
    r.post(url, { summary, body: LoginBody, response: { 200: envelope(SessionSchema) } }, async (req) =>
      ok(session(await auth.login(req.body, type, meta(req))), Messages.LOGIN_SUCCESS),
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

  r.get(
    '/auth/info',
    { auth: requireUser, summary: 'The logged-in account and its roles', data: AuthInfoSchema },
    async (req) => info(req),
  );

  r.get(
    '/auth/company/info',
    {
      auth: requireCompany,
      summary: 'The logged-in company account',
      data: AuthInfoSchema.extend({
        company: z.object({
          cvCoin: z.number().int(),
          vexpiredAt: z.number().nullable(),
          email: z.string(),
        }),
      }),
    },
    async (req) => {
      const u = userOf(req);
      return { ...info(req), company: { cvCoin: u.cvCoin, vexpiredAt: u.vexpiredAt, email: u.email } };
    },
  );

  r.delete(
    '/auth/logout',
    {
      auth: requireUser,
      summary: 'Revoke the current token (with ?all=true every session of the account)',
      query: z.object({ all: z.enum(['true', 'false', '1', '0']).optional() }),
      data: z.object({ revoked: z.number().int() }),
    },
    async (req) => {
      if (req.query.all === 'true' || req.query.all === '1')
        return { revoked: await auth.revokeAll(userOf(req).id) };
      await auth.logout(req.auth!.tokenHash);
      return { revoked: 1 };
    },
  );

  r.get(
    '/auth/enhanced/purchasing',
    {
      auth: requireUser,
      summary: 'IS_PURSH: 1 when the account has bought a plan or pack, else 0',
      data: z.union([z.literal(0), z.literal(1)]),
    },
    async (req) => (userOf(req).purchased ? (1 as const) : (0 as const)),
  );

  r.get(
    '/passport/3rd/providers',
    { summary: 'Third-party login providers enabled on this server', data: z.array(z.string()) },
    async () => accounts.providerNames(),
  );

  r.get(
    '/passport/3rd/buttons',
    {
      summary: 'Third-party logins the login page offers as buttons (none unless one is configured: OIDC_*)',
      data: z.array(LoginButtonSchema),
    },
    async () => accounts.loginButtons(),
  );

  r.get(
    '/passport/3rd/:provider/authorize',
    {
      summary:
        'Starts a third-party login: redirects to the provider (authorization code flow with state, PKCE S256 and nonce); the provider sends the browser back to the login page with code and state, which it posts to /passport/3rd/login',
      params: z.object({ provider: z.string().min(1).max(32) }),
    },
    async (req, reply) => {
      const { config } = app.ctx;
      const origin = config.PUBLIC_URL?.replace(/\/+$/, '') ?? `${req.protocol}://${req.host}`;
      const redirectUri = config.OIDC_REDIRECT_URI ?? `${origin}/capture/login`;
      const { url, pending } = await accounts.beginThirdParty(req.params.provider, redirectUri);
      reply.header(
        'set-cookie',
        pendingCookie(accounts.sealPending(pending), 600, redirectUri.startsWith('https:')),
      );
      reply.header('cache-control', 'no-store');
      return reply.redirect(url, 302);
    },
  );

  r.post(
    '/passport/3rd/login',
    {
      summary:
        'Third-party login: exchange a provider authorization code (and the state it came back with) for a session',
      description:
        'Redirect-based providers (OpenID Connect) need the `state` the provider returned and the HttpOnly cookie set by /passport/3rd/{provider}/authorize in this browser; the ID token is checked and only a verified e-mail is accepted. Unknown providers: 400.',
      body: z.object({
        provider: z.string().min(1).max(32),
        code: z.string().min(1).max(2048),
        state: z.string().max(512).optional(),
        redirectUri: z.string().max(2048).optional(),
      }),
      response: { 200: envelope(SessionSchema.extend({ created: z.boolean() })) },
    },
    async (req, reply) => {
      const pending = accounts.unsealPending(cookieValue(req.headers.cookie, PENDING_COOKIE));
      // The pending authorization is single-use: cleared whatever the outcome.
      if (pending) reply.header('set-cookie', pendingCookie('', 0, pending.redirectUri.startsWith('https:')));
      const s = await accounts.thirdPartyLogin(
        req.body.provider,
        req.body.code,
        meta(req),
        req.body.redirectUri,
        {
          state: req.body.state,
          pending,
        },
      );
      return ok({ ...session(s), created: s.created }, Messages.LOGIN_SUCCESS);
    },
  );
});

export default routes;
