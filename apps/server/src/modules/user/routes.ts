/**
 * Account routes: verification codes, registration (individual and company), password reset, user centre,
 * last login, plan flags, coin records, referrals.
 */
import { ReferralRecordsSchema, referralReward, SkuRoleSchema } from '@mocap/contracts';
import { z } from 'zod';
import { AppError, Codes } from '../../errors.ts';
import { meta, requireCompany, requireUser, userOf } from '../../http/context.ts';
import { IdParam, pageOf } from '../../http/envelope.ts';
import { routePlugin } from '../../http/route.ts';
import { Encrypted, LedgerEntrySchema, SessionSchema, UserViewSchema } from '../../http/schemas.ts';
import { isAdmin, rolesOf } from '../auth/service.ts';

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

const tags = ['user'];

const routes = routePlugin(tags, (r, { accounts, coins }, app) => {
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
    r.post(
      path,
      {
        summary: `Mail a 4-digit verification code (${accountType === 1 ? 'individual' : 'company'} accounts); resend throttled (请勿重复发送!)`,
        params: CodeParams,
        data: z.object({ expiresAt: z.number() }),
      },
      async (req) => accounts.sendCode(req.params.email, req.params.type, accountType, meta(req)),
    );

  r.post(
    '/user/register',
    {
      summary:
        'Register an individual account (50 V to start; invitee reward with a valid invite code); logs in',
      body: RegisterBody,
      data: SessionSchema,
    },
    async (req) => sessionOf(await accounts.register(req.body, 1, meta(req))),
  );

  r.post(
    '/company/register',
    {
      summary: 'Register a company account (type 2, role company); logs in',
      body: RegisterBody,
      data: SessionSchema,
    },
    async (req) => sessionOf(await accounts.register(req.body, 2, meta(req))),
  );

  for (const [path, accountType] of [
    ['/user/reset/:a/:b/:c', 1],
    ['/company/reset/:a/:b/:c', 2],
  ] as const)
    r.put(
      path,
      {
        summary:
          'Reset the password with a type-2 code; the code and new password travel in the body. Ends every session.',
        params: ResetParams,
        body: ResetBody,
        data: z.null(),
      },
      async (req) => {
        await accounts.resetPassword(req.params.a, req.body.code, req.body.password, accountType);
        return null;
      },
    );

  r.put(
    '/user/center',
    {
      auth: requireUser,
      summary:
        'Update the profile; change the password (oldPassword + password, encrypted) or e-mail (email + emailCode)',
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
      data: UserViewSchema,
    },
    async (req) => accounts.view(await accounts.updateCenter(userOf(req), req.body, req.auth!.tokenHash)),
  );

  r.post(
    '/user/saveLastLogin',
    { auth: requireUser, summary: 'Record the time and IP of this visit', data: z.null() },
    async (req) => {
      await accounts.saveLastLogin(userOf(req), meta(req));
      return null;
    },
  );

  r.post(
    '/user/bind/:a/:b',
    {
      auth: requireUser,
      summary:
        'Bind a third-party account to mine: exchange a provider authorization code (body; dev provider: "dev:<email>"); /passport/3rd/login with it then logs into this account',
      description:
        'Binding the same account again is a no-op (created false). Refused (307) when that third-party account is bound to another account, or when mine is bound to another account of the provider (DELETE it first).',
      params: BindParams,
      body: z.object({
        code: z.string().min(1).max(2048).describe('authorization code from the provider'),
        redirectUri: z.string().max(2048).optional(),
      }),
      data: BindingSchema.extend({ created: z.boolean() }),
    },
    async (req) => {
      const r = await accounts.bindIdentity(userOf(req), req.params.a, req.body.code, req.body.redirectUri);
      return { ...bindingView(r.binding.provider, r.binding), created: r.created };
    },
  );

  r.get(
    '/user/bind/:a/:b',
    {
      auth: requireUser,
      summary: 'Whether my account is bound to an account of the provider, and which',
      params: BindParams,
      data: BindingSchema,
    },
    async (req) => bindingView(req.params.a, await accounts.binding(userOf(req), req.params.a)),
  );

  r.delete(
    '/user/bind/:a/:b',
    {
      auth: requireUser,
      summary: 'Unbind my account from the provider (not in the spec: the way back from a binding)',
      params: BindParams,
      data: z.object({ removed: z.boolean() }),
    },
    async (req) => ({ removed: await accounts.unbind(userOf(req), req.params.a) }),
  );

  r.get(
    '/user/getIsUse',
    {
      auth: requireUser,
      summary: 'Whether the account has uploaded a video yet (menus stay inactive until then)',
      data: z.object({ isUse: z.boolean(), uploadCount: z.number().int() }),
    },
    async (req) => {
      const u = userOf(req);
      return { isUse: u.uploadCount > 0, uploadCount: u.uploadCount };
    },
  );

  r.get(
    '/user/sku/role',
    {
      auth: requireUser,
      summary: 'USER_SKU_ROLE: which paid plan is in force',
      data: SkuRoleSchema,
    },
    async (req) => accounts.skuRole(userOf(req)),
  );

  r.post(
    '/user/teaching/getConfirmationTeaching',
    { auth: requireUser, summary: 'Whether the tutorial was confirmed', data: z.boolean() },
    async (req) => userOf(req).teachingConfirmed,
  );

  r.post(
    '/user/teaching/setConfirmationTeaching',
    {
      auth: requireUser,
      summary: 'Mark the tutorial as confirmed',
      body: z.object({ confirmed: z.boolean().default(true) }).default({ confirmed: true }),
      data: z.boolean(),
    },
    async (req) => {
      await accounts.setTeachingConfirmed(userOf(req), req.body.confirmed);
      return req.body.confirmed;
    },
  );

  r.post(
    '/user/surplus/record',
    {
      auth: requireUser,
      summary: 'Coin records (ledger rows), newest first; administrators may pass userId',
      body: RecordsBody.default({ page: 1, size: 20 }),
      data: pageOf(LedgerEntrySchema).extend({ balance: z.number().int() }),
    },
    async (req) => {
      const me = userOf(req);
      const userId = req.body.userId ?? me.id;
      if (userId !== me.id && !isAdmin(me)) throw new AppError(Codes.INSUFFICIENT_PERMISSION);
      const currency = req.body.currency ?? (me.type === 2 && userId === me.id ? 'CV' : 'V');
      const page = await coins.records({ ...req.body, userId, currency });
      return { ...page, balance: await coins.balance(userId, currency) };
    },
  );

  r.post(
    '/company/surplus/record',
    {
      auth: requireCompany,
      tags: ['company'],
      summary: 'CV coin records of the company account, newest first',
      body: RecordsBody.omit({ userId: true, currency: true }).default({ page: 1, size: 20 }),
      data: pageOf(LedgerEntrySchema).extend({ balance: z.number().int() }),
    },
    async (req) => {
      const me = userOf(req);
      const page = await coins.records({ ...req.body, userId: me.id, currency: 'CV' });
      return { ...page, balance: await coins.balance(me.id, 'CV') };
    },
  );

  const mask = (email: string) => email.replace(/^(.{1,2})[^@]*(@.*)$/, '$1***$2');

  r.post(
    '/user/referral/record',
    {
      auth: requireUser,
      summary: 'Accounts I invited, with the reward each one earned me (10/15/20 V by rank)',
      body: z
        .object({
          page: z.coerce.number().int().min(1).default(1),
          size: z.coerce.number().int().min(1).max(100).default(20),
        })
        .default({ page: 1, size: 20 }),
      data: ReferralRecordsSchema,
    },
    async (req) => {
      const me = userOf(req);
      const { page, size } = req.body;
      const p = await accounts.invitees(me, page, size);
      const list = p.list.map((u, i) => {
        const rank = (page - 1) * size + i + 1;
        return { id: u.id, email: mask(u.email), createdAt: u.createdAt, rank, reward: referralReward(rank) };
      });
      return { ...p, list, inviteCode: me.inviteCode, referralCount: me.referralCount };
    },
  );

  r.post(
    '/user/referral/award',
    {
      auth: requireUser,
      summary: 'V coins earned through referrals (as inviter and as invitee)',
      data: z.object({
        inviterCoins: z.number().int(),
        inviteeCoins: z.number().int(),
        referralCount: z.number().int(),
      }),
    },
    async (req) => accounts.referralAward(userOf(req)),
  );

  r.action(
    'POST',
    '/user/referral/email',
    {
      auth: requireUser,
      summary: 'Mail an invitation with my invite code to a friend (5 per hour)',
      body: z.object({ email: z.string().min(1).max(254) }),
    },
    async (req) => {
      const me = userOf(req);
      const base = app.ctx.config.PUBLIC_URL ?? `${req.protocol}://${req.host}`;
      await accounts.sendInvitation(
        me,
        req.body.email,
        `${base}/capture/register?inviteCode=${encodeURIComponent(me.inviteCode)}`,
      );
    },
  );

  r.get(
    '/user/invited/:id',
    {
      auth: requireUser,
      summary: 'Invitation summary of an account (your own, or any for administrators)',
      params: z.object({ id: IdParam }),
      data: z.object({ userId: z.number().int(), inviteCode: z.string(), referralCount: z.number().int() }),
    },
    async (req) => {
      const me = userOf(req);
      if (req.params.id !== me.id && !isAdmin(me)) throw new AppError(Codes.INSUFFICIENT_PERMISSION);
      const u = await accounts.getUser(req.params.id);
      return { userId: u.id, inviteCode: u.inviteCode, referralCount: u.referralCount };
    },
  );

  // PUT /company/emailNotice: modules/company/routes.ts (job made, job failed, low balance).

  r.get(
    '/company/:id',
    {
      auth: requireUser,
      tags: ['company'],
      summary: 'A company account (itself or administrators)',
      params: z.object({ id: IdParam }),
      data: UserViewSchema,
    },
    async (req) => {
      const me = userOf(req);
      if (req.params.id !== me.id && !isAdmin(me)) throw new AppError(Codes.INSUFFICIENT_PERMISSION);
      const u = await accounts.getUser(req.params.id);
      if (u.type !== 2) throw new AppError(Codes.NOT_FOUND, 'not a company account');
      return accounts.view(u);
    },
  );
});

export default routes;
