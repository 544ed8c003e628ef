/**
 * The administrator console's API shapes (issue 21): roles, menus and the audit log; the /sysInfo reports; the
 * capture model settings; videos and downloads; notices and worker machines; invoices. The server validates and
 * documents with them, the console pages type their calls from them.
 */
import { z } from 'zod';

export const AccessSchema = z.enum(['read', 'write']);
export const PageGrantSchema = z.object({ path: z.string().min(1).max(128), access: AccessSchema });

export const RoleSchema = z.object({
  id: z.number().int(),
  key: z.string(),
  title: z.string(),
  state: z.boolean().describe('enabled; a disabled role grants nothing'),
  pages: z
    .array(PageGrantSchema)
    .describe('page config: the pages (menu paths) the role opens, read or write'),
  builtin: z.boolean(),
  members: z.number().int().describe('accounts holding the role'),
  createdAt: z.number(),
  updatedAt: z.number(),
});

export const RoleSaveBody = z.object({
  id: z.number().int().positive().optional(),
  key: z
    .string()
    .regex(/^[a-z][a-z0-9_-]{1,31}$/, 'key: 2-32 lower-case letters, digits, - or _')
    .optional(),
  title: z.string().trim().min(1).max(128).optional(),
  state: z.boolean().optional(),
  pages: z.array(PageGrantSchema).max(100).optional(),
});

export const MenuSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  module: z.string().describe('permission module: routes name the module they need'),
  icon: z.string(),
  controller: z.string(),
  action: z.string(),
  show: z.boolean(),
  path: z.string().describe('page under /capture/index/'),
  alias: z.string(),
  sort: z.number().int(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

export const MenuSaveBody = z.object({
  id: z.number().int().positive().optional(),
  title: z.string().trim().min(1).max(128).optional(),
  module: z
    .string()
    .regex(/^[a-z][a-z0-9_-]{0,63}$/, 'module: lower-case letters, digits, - or _')
    .optional(),
  icon: z.string().max(64).optional(),
  controller: z.string().max(128).optional(),
  action: z.string().max(128).optional(),
  show: z.boolean().optional(),
  path: z.string().min(1).max(128).optional(),
  alias: z.string().max(128).optional(),
  sort: z.number().int().min(-100000).max(100000).optional(),
});

export const MyPageSchema = z.object({
  path: z.string(),
  title: z.string(),
  icon: z.string(),
  module: z.string(),
  access: AccessSchema,
  sort: z.number().int(),
});

export const AuditSchema = z.object({
  id: z.number().int(),
  actorId: z.number().int(),
  actorEmail: z.string(),
  actorRoles: z.string(),
  method: z.string(),
  route: z.string(),
  module: z.string(),
  targetKind: z.string().nullable(),
  targetId: z.string().nullable(),
  code: z.number().int().describe('outcome: 0 done, otherwise the error code answered'),
  message: z.string(),
  request: z.unknown(),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string().nullable(),
  createdAt: z.number(),
});

export const AuditSearchBody = z
  .object({
    actor: z.string().max(254).optional().describe('account id or part of the e-mail'),
    module: z.string().max(64).optional(),
    route: z.string().max(255).optional(),
    targetKind: z.string().max(32).optional(),
    targetId: z.string().max(254).optional(),
    from: z.number().int().optional(),
    to: z.number().int().optional(),
    failedOnly: z.boolean().optional(),
    page: z.coerce.number().int().min(1).default(1),
    size: z.coerce.number().int().min(1).max(200).default(20),
  })
  .default({ page: 1, size: 20 });

// ---------- reports (/sysInfo) ----------

export const PeriodBody = z.object({
  from: z.number().int().describe('start, epoch ms (inclusive)'),
  to: z.number().int().describe('end, epoch ms (exclusive)'),
  tzOffsetMin: z
    .number()
    .int()
    .min(-14 * 60)
    .max(14 * 60)
    .default(0)
    .describe("minutes east of UTC of the report's calendar days (480 for China)"),
});

const Sum = z.object({ key: z.string(), orders: z.number().int(), amount: z.number().int().describe('fen') });

export const BriefingSchema = z.object({
  days: z.array(
    z.object({
      date: z.string().describe('YYYY-MM-DD in the given offset'),
      newUsers: z.number().int(),
      activeUsers: z.number().int().describe('accounts that logged in or uploaded that day'),
      uploads: z.number().int(),
      made: z.number().int(),
      secondsProcessed: z.number().int(),
      failures: z.number().int(),
      orders: z.number().int(),
      revenue: z.number().int().describe('fen'),
      firstPaid: z.number().int().describe('accounts paying for the first time'),
    }),
  ),
  totals: z.object({
    newUsers: z.number().int(),
    activeUsers: z.number().int().describe('distinct over the period'),
    uploads: z.number().int(),
    made: z.number().int(),
    secondsProcessed: z.number().int(),
    failures: z.number().int(),
    orders: z.number().int(),
    revenue: z.number().int(),
    firstPaid: z.number().int(),
  }),
  revenueByPlan: z.array(Sum),
  revenueByMethod: z.array(Sum),
  conversion: z.object({
    registered: z.number().int().describe('individual accounts made in the period'),
    paid: z.number().int().describe('of them, those who paid an order'),
    rate: z.number(),
  }),
});

export const ExtensionSchema = z.object({
  days: z.array(z.object({ date: z.string(), referrals: z.number().int() })),
  inviters: z.array(
    z.object({
      inviterId: z.number().int(),
      email: z.string(),
      extensionStaff: z.boolean(),
      referrals: z.number().int(),
      paidReferrals: z.number().int(),
      cashbackOrders: z.number().int(),
      orderAmount: z.number().int(),
      cashback: z.number().int(),
      cashbackPaid: z.number().int(),
    }),
  ),
  totals: z.object({
    referrals: z.number().int(),
    paidReferrals: z.number().int(),
    cashback: z.number().int(),
    cashbackPaid: z.number().int(),
    orderAmount: z.number().int(),
    staff: z.number().int(),
  }),
});

// ---------- capture models ----------

const Model = z.enum(['lite', 'full', 'heavy']);
export const ModelSettingsSchema = z.object({
  enabled: z.object({ lite: z.boolean(), full: z.boolean(), heavy: z.boolean() }),
  byPlan: z.object({ free: Model, monthly: Model, yearly: Model }).describe('model of new uploads per plan'),
});

export const ModelListSchema = ModelSettingsSchema.extend({
  usage: z
    .array(z.object({ model: z.string(), videos: z.number().int(), last30Days: z.number().int() }))
    .describe('videos captured with each model'),
  characters: z
    .array(z.object({ name: z.string(), format: z.string(), free: z.boolean() }))
    .describe('bundled character models (bone types) the exports ship'),
});

// ---------- videos and downloads ----------

export const VideoAdminSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  serialNo: z.string(),
  userId: z.number().int(),
  email: z.string(),
  status: z.number().int().describe('0 not made, 1 in progress, 2 made, 3 failed'),
  progress: z.number().int(),
  error: z.string().nullable(),
  inSquare: z.boolean(),
  durationMs: z.number(),
  boneType: z.string(),
  captureType: z.string(),
  modelType: z.string(),
  downloads: z.number().int(),
  feedback: z.string().nullable(),
  feedbackStatus: z.number().int().describe('0 open, 1 handled'),
  feedbackAt: z.number().nullable(),
  charged: z.number(),
  currency: z.string(),
  thumbnail: z.string().nullable(),
  createdAt: z.number(),
  finishedAt: z.number().nullable(),
});

export const DownloadSchema = z.object({
  id: z.number().int(),
  videoId: z.number().int(),
  videoName: z.string(),
  userId: z.number().int(),
  email: z.string(),
  boneType: z.string(),
  kind: z.string(),
  coins: z.number(),
  createdAt: z.number(),
});

// ---------- notices and worker machines ----------

export const NoticeSchema = z.object({
  id: z.number().int(),
  page: z.number().int().describe('sort order'),
  jumpTo: z.string().describe('comma list; the last item is the link'),
  button: z.string(),
  url: z.string().describe('image or video path'),
  type: z.number().int().describe('2 video, otherwise image'),
  title: z.string(),
  content: z.string(),
  enabled: z.boolean(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

export const MachineSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  host: z.string(),
  kind: z.string(),
  status: z.string(),
  capacity: z.number().int(),
  running: z.number().int(),
  version: z.string(),
  enabled: z.boolean(),
  remark: z.string(),
  meta: z.record(z.string(), z.unknown()),
  lastHeartbeatAt: z.number().nullable(),
  startedAt: z.number().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

/** `POST /machineInfo/list`: a machine with its liveness. */
export const MachineViewSchema = MachineSchema.extend({ online: z.boolean() });

/** What a worker's heartbeat reports in a machine's `meta` (free-form: workers may add more). */
export interface MachineMeta {
  model?: string;
  cpu?: number;
  load1?: number;
  cores?: number;
  rssMb?: number;
  jobsDone?: number;
  jobsFailed?: number;
  videos?: number[];
  pid?: number;
  queue?: string;
}

// ---------- invoices ----------

export const InvoiceSchema = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  kind: z.enum(['personal', 'business']),
  title: z.string(),
  taxNo: z.string().nullable(),
  email: z.string(),
  amount: z.number().int(),
  status: z.enum(['pending', 'issued', 'rejected']),
  createdAt: z.number(),
  updatedAt: z.number(),
});

export type Access = z.infer<typeof AccessSchema>;
export type Role = z.infer<typeof RoleSchema>;
export type Menu = z.infer<typeof MenuSchema>;
export type MyPage = z.infer<typeof MyPageSchema>;
export type AuditEntry = z.infer<typeof AuditSchema>;
export type Briefing = z.infer<typeof BriefingSchema>;
export type Extension = z.infer<typeof ExtensionSchema>;
export type ModelSettings = z.infer<typeof ModelSettingsSchema>;
export type ModelList = z.infer<typeof ModelListSchema>;
export type VideoAdmin = z.infer<typeof VideoAdminSchema>;
export type DownloadEntry = z.infer<typeof DownloadSchema>;
export type Notice = z.infer<typeof NoticeSchema>;
export type Machine = z.infer<typeof MachineSchema>;
export type MachineView = z.infer<typeof MachineViewSchema>;
export type Invoice = z.infer<typeof InvoiceSchema>;

/** `POST /user/countUser`: which accounts to count (all, or since a time, of a type). */
export const CountUserBody = z
  .object({ since: z.number().int().optional(), type: z.number().int().min(1).max(2).optional() })
  .default({});
export const CountSchema = z.object({ total: z.number().int() });
export type Count = z.infer<typeof CountSchema>;

/** `GET /admin/video/:id/preview`: signed URLs of any video for the preview. */
export const VideoPreviewSchema = z.object({ source: z.string(), thumbnail: z.string().nullable() });
export type VideoPreview = z.infer<typeof VideoPreviewSchema>;

/** `POST /companyOrder/sendCashBack`: an inviter's pending commissions to mark paid out (all, or the ids given). */
export const SendCashbackBody = z.object({
  userId: z.number().int().positive(),
  ids: z.array(z.number().int().positive()).optional(),
});
export const CashbackPaidSchema = z.object({ count: z.number().int(), amount: z.number().int() });
export type CashbackPaid = z.infer<typeof CashbackPaidSchema>;
