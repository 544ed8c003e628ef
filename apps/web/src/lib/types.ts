/**
 * The data the pages show, normalised from the server's records (field names of spec §3; a few tolerated
 * spellings so the UI keeps working while the server's shapes settle).
 */
import type {
  AuthInfo,
  JudgeReason,
  Notice as NoticeRecord,
  SquareVideo,
  UserView,
  VideoDetail,
  VideoJudgementView,
  VideoRecord,
} from '@mocap/contracts';
import { JUDGE_REASONS } from '@mocap/contracts';
import { type Plan, planOf } from './plans.ts';
import { normaliseSolveOptions, type SolveOptions } from './solveOptions.ts';

/**
 * The session's user as the pages read it: the contract's `UserView` (`GET /auth/info`) with its dates as ISO
 * strings, its nullable texts as '' and its plan and flags read out.
 */
export interface User
  extends Pick<
    UserView,
    'email' | 'username' | 'surplus' | 'cvCoin' | 'roles' | 'uploadCount' | 'inviteCode'
  > {
  id: UserView['id'] | string;
  vexpiredAt: string | null;
  plan: Plan;
  company: boolean;
  admin: boolean;
  phone: string;
  contact: string;
  companyName: string;
  address: string;
  /** The login before the current one (ISO), null on the first; absent when the server does not say. */
  previousLoginAt?: string | null;
}

type Rec = Record<string, unknown>;
const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v) || 0);
/** Dates arrive as epoch ms or ISO strings; the UI keeps ISO strings. */
export function toIso(v: unknown): string | null {
  if (v === null || v === undefined || v === '') return null;
  const d = new Date(typeof v === 'number' || /^\d+$/.test(String(v)) ? Number(v) : String(v));
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/**
 * The session's user from `GET /auth/info` (the contract's `AuthInfo`); partial records (tests, older
 * spellings) read with defaults.
 */
export function normaliseUser(info: AuthInfo | Rec | null | undefined): User {
  const root = (info ?? {}) as Rec;
  const u = ((root.user as Rec) ?? root) as Rec;
  const roles = (Array.isArray(root.roles) ? root.roles : Array.isArray(u.roles) ? u.roles : []).map(String);
  const company = roles.includes('company') || num(u.type) === 2;
  const uploads =
    root.uploadCount ??
    u.uploadCount ??
    u.videoCount ??
    u.uploads ??
    (u.hasUploaded === true ? 1 : u.hasUploaded === false ? 0 : 1);
  return {
    id: (u.id as number | string) ?? '',
    email: str(u.email),
    username: str(u.username ?? u.name ?? u.email),
    surplus: num(u.surplus ?? u.coins ?? u.vCoin),
    cvCoin: num(u.cvCoin),
    vexpiredAt: toIso(u.vexpiredAt),
    plan: planOf({ level: u.level ?? u.plan, vexpiredAt: u.vexpiredAt }),
    company,
    admin: roles.includes('admin') || u.admin === true,
    roles,
    uploadCount: num(uploads),
    phone: str(u.phone),
    contact: str(u.contact),
    companyName: str(u.company ?? u.companyName),
    address: str(u.address),
    inviteCode: str(u.inviteCode ?? u.referralCode ?? u.code),
    ...('previousLoginAt' in u ? { previousLoginAt: toIso(u.previousLoginAt) } : {}),
  };
}

export type VideoStatus = 'notMade' | 'inProgress' | 'made' | 'failed';

export const VIDEO_STATUSES: readonly VideoStatus[] = ['notMade', 'inProgress', 'made', 'failed'];

export function normaliseStatus(v: unknown): VideoStatus {
  if (typeof v === 'number' || /^\d+$/.test(String(v))) return VIDEO_STATUSES[Number(v)] ?? 'notMade';
  const s = String(v ?? '')
    .replace(/[\s_-]/g, '')
    .toLowerCase();
  if (s === 'made' || s === 'done' || s === 'success' || s === 'completed') return 'made';
  if (s === 'inprogress' || s === 'processing' || s === 'running' || s === 'active') return 'inProgress';
  if (s === 'failed' || s === 'error') return 'failed';
  return 'notMade';
}

export interface Video {
  id: number | string;
  name: string;
  titleInSquare: string;
  status: VideoStatus;
  progress: number;
  duration: number;
  boneType: string;
  createAt: string;
  thumbnail: string;
  videoUrl: string;
  inSquare: boolean;
  collected: boolean;
  category: string;
  categoryName: string;
  tags: string[];
  description: string;
  downloadCount: number;
  creatorName: string;
  creatorId: string;
  /** Failure reason when the server tells one. */
  error: string;
  /** Queue position while waiting. */
  queuePosition: number | null;
  isOwner: boolean;
  /** Free remakes left (server's count), null when unknown. */
  freeRemakes: number | null;
  /** V coins a non-owner pays to download it from the square, null when unknown. */
  price: number | null;
  /** How the motion is solved (the owner's choice at upload or remake), null when not told. */
  solveOptions: SolveOptions | null;
  /** The capture's judgement of the current result (issue 15.3), null when the server tells none. */
  judgement: VideoJudgement | null;
}

/** Why a stretch of the result is weak, and the capture's judgement of a result: the contract's (`/video/*`). */
export { JUDGE_REASONS, type JudgeReason };
export type VideoJudgement = VideoJudgementView;
export type JudgedRange = VideoJudgement['ranges'][number];

export function normaliseJudgement(raw: unknown): VideoJudgement | null {
  if (!raw || typeof raw !== 'object') return null;
  const j = raw as Rec;
  if (typeof j.confidence !== 'number') return null;
  const ranges = Array.isArray(j.ranges) ? (j.ranges as Rec[]) : [];
  return {
    confidence: Math.max(0, Math.min(1, j.confidence)),
    ranges: ranges
      .map((r) => ({
        from: num(r.from),
        to: num(r.to),
        confidence: num(r.confidence),
        reasons: (Array.isArray(r.reasons) ? r.reasons : []).filter((x): x is JudgeReason =>
          JUDGE_REASONS.includes(x as JudgeReason),
        ),
      }))
      .filter((r) => r.to > r.from),
    unusable: j.unusable === true,
    refundedCoins: num(j.refundedCoins),
    judgeRemakes: num(j.judgeRemakes),
  };
}

/** A video card from the server (the contract's `VideoRecord`/`VideoDetail`); partial records read with defaults. */
export function normaliseVideo(
  raw: VideoRecord | VideoDetail | SquareVideo | Rec | null | undefined,
  me?: User | null,
): Video {
  const v = (raw ?? {}) as Rec;
  const tags = Array.isArray(v.tags)
    ? v.tags.map((t) => (typeof t === 'object' && t ? str((t as Rec).name) : str(t)))
    : str(v.tags)
        .split(/[,，]/)
        .map((s) => s.trim())
        .filter(Boolean);
  const cat = v.category;
  const creatorId = str(v.creatorId ?? v.userId ?? v.creator);
  return {
    id: (v.id as number | string) ?? '',
    name: str(v.name ?? v.title),
    titleInSquare: str(v.titleInSquare ?? v.name),
    status: normaliseStatus(v.status),
    progress: Math.max(0, Math.min(100, num(v.progress))),
    duration: v.duration !== undefined ? num(v.duration) : num(v.durationMs) / 1000,
    boneType: str(v.boneType ?? v.bonetype ?? v.format),
    createAt: toIso(v.createAt ?? v.createdAt) ?? '',
    thumbnail: str(v.thumbnail ?? v.thumbnailUrl ?? v.cover ?? v.poster),
    videoUrl: str(v.videoUrl ?? v.url ?? v.path),
    inSquare: v.inSquare === true || num(v.inSquare) === 1,
    collected: v.collected === true || num(v.collected) === 1,
    category: typeof cat === 'object' && cat ? str((cat as Rec).id) : str(v.categoryId ?? cat),
    categoryName: typeof cat === 'object' && cat ? str((cat as Rec).name) : str(v.categoryName),
    tags,
    description: str(v.description),
    downloadCount: num(v.downloadCount),
    creatorName: str(v.creatorName ?? v.username),
    creatorId,
    error: str(v.error ?? v.failReason),
    queuePosition:
      (v.position ?? v.queuePosition) === undefined || (v.position ?? v.queuePosition) === null
        ? null
        : num(v.position ?? v.queuePosition),
    freeRemakes: v.freeRemakes === undefined || v.freeRemakes === null ? null : num(v.freeRemakes),
    price: v.price === undefined || v.price === null ? null : num(v.price),
    solveOptions: normaliseSolveOptions(v.solveOptions),
    judgement: normaliseJudgement(v.judgement),
    isOwner: v.isOwner === true || (me ? creatorId === '' || creatorId === str(me.id) : true),
  };
}

export interface Category {
  id: string;
  name: string;
  sort: number;
  children: Category[];
}

/** The items of an answer that is either the array itself or a page holding it in `list` (else none). */
function listOf(raw: unknown): unknown[] {
  if (Array.isArray(raw)) return raw;
  const list = (raw as Rec | null | undefined)?.list;
  return Array.isArray(list) ? list : [];
}

export function normaliseCategories(raw: unknown): Category[] {
  return listOf(raw)
    .map((c) => {
      const r = (c ?? {}) as Rec;
      return {
        id: str(r.id),
        name: str(r.name ?? r.title),
        sort: num(r.sort),
        children: normaliseCategories(r.children ?? r.subCategories ?? []),
      };
    })
    .sort((a, b) => a.sort - b.sort);
}

/** A notice as the pages show it: the contract's record with its link (the last of `jumpTo`) and kind read out. */
export interface Notice extends Pick<NoticeRecord, 'page' | 'button' | 'url' | 'title' | 'content'> {
  id: string;
  link: string;
  isVideo: boolean;
}

/** Notices sorted by page; `jumpTo` is a comma list whose last item is the link (spec §3). */
export function normaliseNotices(raw: NoticeRecord[] | Rec | Rec[] | null | undefined): Notice[] {
  return listOf(raw)
    .map((n) => {
      const r = (n ?? {}) as Rec;
      const jumps = str(r.jumpTo)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      return {
        id: str(r.id),
        page: num(r.page),
        link: jumps.length ? jumps[jumps.length - 1] : '',
        button: str(r.button),
        url: str(r.url),
        isVideo: num(r.type) === 2,
        title: str(r.title),
        content: str(r.content),
      };
    })
    .sort((a, b) => a.page - b.page);
}

/** Notice button font size: 20, dropping to 18, 16 and 14 for labels longer than 5, 7 and 9 characters. */
export function noticeButtonFontSize(label: string): number {
  const n = [...label].length;
  if (n > 9) return 14;
  if (n > 7) return 16;
  if (n > 5) return 18;
  return 20;
}

/** The maintenance/version/filing settings: the contract's type (`GET /sysConfig/maintainInfo`). */
export type { MaintainInfo } from '@mocap/contracts';

export interface Page<T> {
  list: T[];
  total: number;
}

/** A page of rows typed `R` (the contract's row), each mapped to the view `T`. */
export function normalisePage<T, R = unknown>(
  raw: { list: R[] } | R[] | Rec | null | undefined,
  map: (x: R) => T,
): Page<T> {
  const r = (raw ?? {}) as Rec;
  const list = (Array.isArray(raw) ? raw : (r.list ?? r.records ?? r.items ?? r.rows ?? [])) as R[];
  return { list: list.map(map), total: num(r.total ?? r.count ?? list.length) };
}
