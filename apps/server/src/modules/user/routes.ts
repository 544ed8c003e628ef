/**
 * Account routes: verification codes, registration (individual and company), password reset, user centre,
 * last login, plan flags, coin records, referrals.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, Codes } from '../../errors.ts';
import { bearerSecurity, meta, requireCompany, requireUser, userOf } from '../../http/context.ts';
import { envelope, IdParam, ok, pageOf } from '../../http/envelope.ts';
import { Encrypted, LedgerEntrySchema, SessionSchema, UserViewSchema } from '../../http/schemas.ts';
import { isAdmin, rolesOf } from '../auth/service.ts';
import { referralReward } from '../coins/service.ts';

const CodeParams = z.object({
  email: z.string().min(1).max(254),
  type: z.coerce.number().int().min(1).max(3).describe('1 register, 2 reset password, 3 change e-mail'),
});

const RegisterBody = z.object({
  email: z.string().min(1).max(254),
  password: Encrypted,
  confirmPassword: Encrypted.optional().describe('encrypted repetition; 两个密码不一致 when it differs'),
  code: z.string().max(16).describe('the 4-digit code mailed by POST /code/{email}/1'),
  username: z.string().max(64).optional(),
  inviteCode: z.string().max(16).optional(),
  company: z.string().max(128).optional(),
  contact: z.string().max(128).optional(),
  phone: z.string().max(32).optional(),
});

const ResetParams = z.object({
  a: z.string().min(1).max(254).describe('e-mail'),
  b: z.string().max(64).describe('ignored: the code travels in the body, never in the URL (send "-")'),
  c: z.coerce.number().int().min(1).max(2).optional().describe('code type (2)'),
});
const ResetBody = z.object({
  code: z.string().max(16).describe('the 4-digit code mailed by POST /code/{email}/2'),
  password: Encrypted,
});

const BindParams = z.object({
  a: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,32}$/)
    .describe('login provider (GET /passport/3rd/providers; "dev" outside production)'),
  b: z
    .string()
    .max(64)
    .describe('not used: the authorization code travels in the body, never in the URL (send "-")'),
});
const BindingSchema = z.object({
  provider: z.string(),
  bound: z.boolean(),
  externalId: z.string().nullable().describe('the account at the provider (dev: the e-mail)'),
  boundAt: z.number().nullable().describe('epoch ms'),
});
const bindingView = (provider: string, b: { externalId: string; createdAt: number } | null) => ({
  provider,
  bound: b !== null,
  externalId: b?.externalId ?? null,
  boundAt: b?.createdAt ?? null,
});

const RecordsBody = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  currency: z.enum(['V', 'CV']).optional(),
  reason: z.string().max(32).optional(),
  from: z.number().int().optional().describe('epoch ms, inclusive'),
  to: z.number().int().optional().describe('epoch ms, exclusive'),
  userId: z.number().int().positive().optional().describe('administrators only: another account'),
});

const routes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { accounts, coins } = app.ctx.services;
  const tags = ['user'];

  const sessionOf = (s: Awaited<ReturnType<typeof accounts.register>>) => ({
    token: s.token,
    expiresAt: s.expiresAt,
    user: accounts.view(s.user),
    roles: rolesOf(s.user),
  });

  for (const [path, accountType] of [
    ['/code/:email/:type', 1],
    ['/code/company/:email/:type', 2],
  ] as const)
    app.post(
      path,
      {
        schema: {
          tags,
          summary: `Mail a 4-digit verification code (${accountType === 1 ? 'individual' : 'company'} accounts); resend throttled (请勿重复发送!)`,
          params: CodeParams,
          response: { 200: envelope(z.object({ expiresAt: z.number() })) },
        },
      },
      async (req) => ok(await accounts.sendCode(req.params.email, req.params.type, accountType, meta(req))),
    );

  app.post(
    '/user/register',
    {
      schema: {
        tags,
        summary:
          'Register an individual account (50 V to start; invitee reward with a valid invite code); logs in',
        body: RegisterBody,
        response: { 200: envelope(SessionSchema) },
      },
    },
    async (req) => ok(sessionOf(await accounts.register(req.body, 1, meta(req)))),
  );

  app.post(
    '/company/register',
    {
      schema: {
        tags,
        summary: 'Register a company account (type 2, role company); logs in',
        body: RegisterBody,
        response: { 200: envelope(SessionSchema) },
      },
    },
    async (req) => ok(sessionOf(await accounts.register(req.body, 2, meta(req)))),
  );

  for (const [path, accountType] of [
    ['/user/reset/:a/:b/:c', 1],
    ['/company/reset/:a/:b/:c', 2],
  ] as const)
    app.put(
      path,
      {
        schema: {
          tags,
          summary:
            'Reset the password with a type-2 code; the code and new password travel in the body. Ends every session.',
          params: ResetParams,
          body: ResetBody,
          response: { 200: envelope(z.null()) },
        },
      },
      async (req) => {
        await accounts.resetPassword(req.params.a, req.body.code, req.body.password, accountType);
        return ok(null);
      },
    );

  app.put(
    '/user/center',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Update the profile; change the password (oldPassword + password, encrypted) or e-mail (email + emailCode)',
        security: bearerSecurity,
        body: z.object({
          username: z.string().max(64).optional(),
          phone: z.string().max(32).nullable().optional(),
          contact: z.string().max(128).nullable().optional(),
          company: z.string().max(128).nullable().optional(),
          address: z.string().max(255).nullable().optional(),
          email: z.string().max(254).optional(),
          emailCode: z.string().max(16).optional(),
          oldPassword: Encrypted.optional(),
          password: Encrypted.optional(),
        }),
        response: { 200: envelope(UserViewSchema) },
      },
    },
    async (req) => ok(accounts.view(await accounts.updateCenter(userOf(req), req.body, req.auth!.tokenHash))),
  );

  app.post(
    '/user/saveLastLogin',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Record the time and IP of this visit',
        security: bearerSecurity,
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await accounts.saveLastLogin(userOf(req), meta(req));
      return ok(null);
    },
  );

  app.post(
    '/user/bind/:a/:b',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Bind a third-party account to mine: exchange a provider authorization code (body; dev provider: "dev:<email>"); /passport/3rd/login with it then logs into this account',
        description:
          'Binding the same account again is a no-op (created false). Refused (307) when that third-party account is bound to another account, or when mine is bound to another account of the provider (DELETE it first).',
        security: bearerSecurity,
        params: BindParams,
        body: z.object({
          code: z.string().min(1).max(2048).describe('authorization code from the provider'),
          redirectUri: z.string().max(2048).optional(),
        }),
        response: { 200: envelope(BindingSchema.extend({ created: z.boolean() })) },
      },
    },
    async (req) => {
      const r = await accounts.bindIdentity(userOf(req), req.params.a, req.body.code, req.body.redirectUri);
      return ok({ ...bindingView(r.binding.provider, r.binding), created: r.created });
    },
  );

  app.get(
    '/user/bind/:a/:b',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Whether my account is bound to an account of the provider, and which',
        security: bearerSecurity,
        params: BindParams,
        response: { 200: envelope(BindingSchema) },
      },
    },
    async (req) => ok(bindingView(req.params.a, await accounts.binding(userOf(req), req.params.a))),
  );

  app.delete(
    '/user/bind/:a/:b',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Unbind my account from the provider (not in the spec: the way back from a binding)',
        security: bearerSecurity,
        params: BindParams,
        response: { 200: envelope(z.object({ removed: z.boolean() })) },
      },
    },
    async (req) => ok({ removed: await accounts.unbind(userOf(req), req.params.a) }),
  );

  app.get(
    '/user/getIsUse',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Whether the account has uploaded a video yet (menus stay inactive until then)',
        security: bearerSecurity,
        response: { 200: envelope(z.object({ isUse: z.boolean(), uploadCount: z.number().int() })) },
      },
    },
    async (req) => {
      const u = userOf(req);
      return ok({ isUse: u.uploadCount > 0, uploadCount: u.uploadCount });
    },
  );

  app.get(
    '/user/sku/role',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'USER_SKU_ROLE: which paid plan is in force',
        security: bearerSecurity,
        response: { 200: envelope(z.object({ isMonthly: z.boolean(), isYear: z.boolean() })) },
      },
    },
    async (req) => ok(accounts.skuRole(userOf(req))),
  );

  app.post(
    '/user/teaching/getConfirmationTeaching',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Whether the tutorial was confirmed',
        security: bearerSecurity,
        response: { 200: envelope(z.boolean()) },
      },
    },
    async (req) => ok(userOf(req).teachingConfirmed),
  );

  app.post(
    '/user/teaching/setConfirmationTeaching',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Mark the tutorial as confirmed',
        security: bearerSecurity,
        body: z.object({ confirmed: z.boolean().default(true) }).default({ confirmed: true }),
        response: { 200: envelope(z.boolean()) },
      },
    },
    async (req) => {
      await accounts.setTeachingConfirmed(userOf(req), req.body.confirmed);
      return ok(req.body.confirmed);
    },
  );

  app.post(
    '/user/surplus/record',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Coin records (ledger rows), newest first; administrators may pass userId',
        security: bearerSecurity,
        body: RecordsBody.default({ page: 1, size: 20 }),
        response: { 200: envelope(pageOf(LedgerEntrySchema).extend({ balance: z.number().int() })) },
      },
    },
    async (req) => {
      const me = userOf(req);
      const userId = req.body.userId ?? me.id;
      if (userId !== me.id && !isAdmin(me)) throw new AppError(Codes.INSUFFICIENT_PERMISSION);
      const currency = req.body.currency ?? (me.type === 2 && userId === me.id ? 'CV' : 'V');
      const page = await coins.records({ ...req.body, userId, currency });
      return ok({ ...page, balance: await coins.balance(userId, currency) });
    },
  );

  app.post(
    '/company/surplus/record',
    {
      preHandler: requireCompany,
      schema: {
        tags: ['company'],
        summary: 'CV coin records of the company account, newest first',
        security: bearerSecurity,
        body: RecordsBody.omit({ userId: true, currency: true }).default({ page: 1, size: 20 }),
        response: { 200: envelope(pageOf(LedgerEntrySchema).extend({ balance: z.number().int() })) },
      },
    },
    async (req) => {
      const me = userOf(req);
      const page = await coins.records({ ...req.body, userId: me.id, currency: 'CV' });
      return ok({ ...page, balance: await coins.balance(me.id, 'CV') });
    },
  );

  const InviteeSchema = z.object({
    id: z.number().int(),
    email: z.string().describe('masked'),
    createdAt: z.number(),
    rank: z.number().int(),
    reward: z.number().int(),
  });
  const mask = (email: string) => email.replace(/^(.{1,2})[^@]*(@.*)$/, '$1***$2');

  app.post(
    '/user/referral/record',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Accounts I invited, with the reward each one earned me (10/15/20 V by rank)',
        security: bearerSecurity,
        body: z
          .object({
            page: z.coerce.number().int().min(1).default(1),
            size: z.coerce.number().int().min(1).max(100).default(20),
          })
          .default({ page: 1, size: 20 }),
        response: {
          200: envelope(
            pageOf(InviteeSchema).extend({ inviteCode: z.string(), referralCount: z.number().int() }),
          ),
        },
      },
    },
    async (req) => {
      const me = userOf(req);
      const { page, size } = req.body;
      const p = await accounts.invitees(me, page, size);
      const list = p.list.map((u, i) => {
        const rank = (page - 1) * size + i + 1;
        return { id: u.id, email: mask(u.email), createdAt: u.createdAt, rank, reward: referralReward(rank) };
      });
      return ok({ ...p, list, inviteCode: me.inviteCode, referralCount: me.referralCount });
    },
  );

  app.post(
    '/user/referral/award',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'V coins earned through referrals (as inviter and as invitee)',
        security: bearerSecurity,
        response: {
          200: envelope(
            z.object({
              inviterCoins: z.number().int(),
              inviteeCoins: z.number().int(),
              referralCount: z.number().int(),
            }),
          ),
        },
      },
    },
    async (req) => ok(await accounts.referralAward(userOf(req))),
  );

  app.post(
    '/user/referral/email',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Mail an invitation with my invite code to a friend (5 per hour)',
        security: bearerSecurity,
        body: z.object({ email: z.string().min(1).max(254) }),
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      const me = userOf(req);
      const base = app.ctx.config.PUBLIC_URL ?? `${req.protocol}://${req.host}`;
      await accounts.sendInvitation(
        me,
        req.body.email,
        `${base}/capture/register?inviteCode=${encodeURIComponent(me.inviteCode)}`,
      );
      return ok(null);
    },
  );

  app.get(
    '/user/invited/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Invitation summary of an account (your own, or any for administrators)',
        security: bearerSecurity,
        params: z.object({ id: IdParam }),
        response: {
          200: envelope(
            z.object({ userId: z.number().int(), inviteCode: z.string(), referralCount: z.number().int() }),
          ),
        },
      },
    },
    async (req) => {
      const me = userOf(req);
      if (req.params.id !== me.id && !isAdmin(me)) throw new AppError(Codes.INSUFFICIENT_PERMISSION);
      const u = await accounts.getUser(req.params.id);
      return ok({ userId: u.id, inviteCode: u.inviteCode, referralCount: u.referralCount });
    },
  );

  // PUT /company/emailNotice: modules/company/routes.ts (job made, job failed, low balance).

  app.get(
    '/company/:id',
    {
      preHandler: requireUser,
      schema: {
        tags: ['company'],
        summary: 'A company account (itself or administrators)',
        security: bearerSecurity,
        params: z.object({ id: IdParam }),
        response: { 200: envelope(UserViewSchema) },
      },
    },
    async (req) => {
      const me = userOf(req);
      if (req.params.id !== me.id && !isAdmin(me)) throw new AppError(Codes.INSUFFICIENT_PERMISSION);
      const u = await accounts.getUser(req.params.id);
      if (u.type !== 2) throw new AppError(Codes.NOT_FOUND, 'not a company account');
      return ok(accounts.view(u));
    },
  );
};

export default routes;
