/**
 * Every server call the web app makes, in one place (paths of spec §7 under /product). Shapes follow
 * `scratch/notes-web-to-server.md` and the server's zod schemas.
 */

import {
  type AuthInfo,
  BoneTypeInfoSchema,
  type LoginButton,
  type MaintainInfo,
  MaintainInfoSchema,
  type MotionOffer,
  type MotionPrice,
  type MotionResult,
  type Notice as NoticeRecord,
  type Page as PageOf,
  type SquareVideo,
  type UrlResult,
  type VideoDetail,
  type VideoRecord,
} from '@mocap/contracts';
import { z } from 'zod';
import { API_BASE, api, type UploadHandle, upload } from './api.ts';
import { type BoneTypeInfo, DEFAULT_BONE_TYPES, needsOf } from './bonetypes.ts';
import { credentials, putToStorage } from './credentials.ts';
import { ApiError } from './envelope.ts';
import { md5OfBlob } from './md5.ts';
import { encryptPassword } from './rsa.ts';
import type { SolveOptions } from './solveOptions.ts';
import {
  type Category,
  type Notice,
  normaliseCategories,
  normaliseNotices,
  normalisePage,
  normaliseUser,
  normaliseVideo,
  type Page,
  type User,
  type Video,
  type VideoStatus,
} from './types.ts';

type Rec = Record<string, unknown>;

// ---------- auth ----------

let publicKeyCache: { pem: string; at: number } | null = null;
const KEY_TTL_MS = 10 * 60_000;

export async function publicKey(): Promise<string> {
  if (publicKeyCache && Date.now() - publicKeyCache.at < KEY_TTL_MS) return publicKeyCache.pem;
  const data = await api.get<unknown>('/auth/publicKey');
  const pem = typeof data === 'string' ? data : String((data as Rec)?.publicKey ?? (data as Rec)?.key ?? '');
  publicKeyCache = { pem, at: Date.now() };
  return pem;
}

export const encrypt = async (password: string): Promise<string> =>
  encryptPassword(password, await publicKey());

const tokenOf = (data: unknown): string =>
  typeof data === 'string' ? data : String((data as Rec)?.token ?? (data as Rec)?.accessToken ?? '');

export async function login(username: string, password: string, company = false): Promise<string> {
  const data = await api.post<unknown>(company ? '/auth/company/login' : '/auth/login', {
    username: username.trim(),
    password: await encrypt(password),
  });
  return tokenOf(data);
}

/** Third-party logins the server offers (none unless configured). */
export const thirdPartyButtons = () => api.get<LoginButton[]>('/passport/3rd/buttons');

/** Where a third-party login button goes: the server redirects to the provider (state + PKCE). */
export const thirdPartyAuthorizeUrl = (provider: string) =>
  `${API_BASE}/passport/3rd/${encodeURIComponent(provider)}/authorize`;

/** Back from the provider: exchanges its code (with the state it returned) for a token. */
export async function thirdPartyLogin(provider: string, code: string, state: string): Promise<string> {
  return tokenOf(await api.post<unknown>('/passport/3rd/login', { provider, code, state }));
}

/** Code types for POST /code/{email}/{type}. */
export const CODE_TYPE = { register: 1, reset: 2 } as const;

export const sendCode = (email: string, type: number, company = false) =>
  api.post<unknown>(`/code/${company ? 'company/' : ''}${encodeURIComponent(email.trim())}/${type}`);

export async function register(
  email: string,
  password: string,
  code: string,
  inviteCode?: string,
  company = false,
): Promise<string> {
  const data = await api.post<unknown>(company ? '/company/register' : '/user/register', {
    email: email.trim(),
    password: await encrypt(password),
    code,
    ...(inviteCode ? { inviteCode } : {}),
  });
  return tokenOf(data);
}

export async function resetPassword(email: string, code: string, password: string): Promise<void> {
  // The code travels in the body, never in the URL (the path keeps the spec's shape with "-").
  await api.put(`/user/reset/${encodeURIComponent(email.trim())}/-/${CODE_TYPE.reset}`, {
    password: await encrypt(password),
    code,
  });
}

export const fetchInfo = async (): Promise<User> => normaliseUser(await api.get<AuthInfo>('/auth/info'));

export const logout = () => api.del<unknown>('/auth/logout');

export const saveLastLogin = () =>
  api.post<unknown>('/user/saveLastLogin', {}, { silent: true }).catch(() => undefined);

export async function updateCenter(fields: Partial<Record<string, string>>): Promise<void> {
  await api.put('/user/center', fields);
}

export async function changePassword(oldPassword: string, password: string): Promise<void> {
  await api.put('/user/center', {
    oldPassword: await encrypt(oldPassword),
    password: await encrypt(password),
  });
}

// ---------- shell ----------

export const getNotices = async (): Promise<Notice[]> =>
  normaliseNotices(await api.get<NoticeRecord[]>('/notice/getNotice', { silent: true }));
export const noLongerDisplayed = () => api.post<unknown>('/notice/noLongerDisplayed');
export const maintainInfo = async (): Promise<MaintainInfo> =>
  MaintainInfoSchema.parse(await api.get<unknown>('/sysConfig/maintainInfo', { silent: true }));

// ---------- categories and tags ----------

export const searchCategories = async (): Promise<Category[]> =>
  normaliseCategories(await api.post<unknown>('/category/search', {}));
export const searchTags = async (): Promise<Category[]> =>
  normaliseCategories(await api.post<unknown>('/tag/search', {}));

// ---------- videos ----------

export interface UploadFields {
  file: File;
  name: string;
  category: string;
  tags: string[];
  boneType: string;
  description: string;
  /** How to solve the motion (omitted: the solver's defaults). */
  solveOptions?: SolveOptions;
}

/**
 * Uploads a video. Where the server keeps files in an S3 bucket (the cloud auth, reused 1800000 ms, says so) the
 * bytes go straight to the bucket: new upload credentials for this upload (GET /cos/sts/upload), a PUT to their
 * pre-signed URL, then POST /video/uploads confirms; otherwise one multipart POST /video/upload to the server.
 */
export function uploadVideo(f: UploadFields, onProgress: (fraction: number) => void): UploadHandle<Video> {
  let abortCurrent: () => void = () => {};
  let aborted = false;
  const start = <T>(h: UploadHandle<T>): Promise<T> => {
    abortCurrent = h.abort;
    if (aborted) h.abort();
    return h.promise;
  };
  const promise = (async () => {
    const auth = await credentials.cloudAuth().catch(() => null);
    if (auth?.storage !== 's3') return normaliseVideo(await start(uploadMultipart(f, onProgress)));
    const c = await credentials.upload({ fileName: f.file.name, size: f.file.size });
    if (aborted) throw new ApiError(null, 'aborted', false, 'aborted');
    await start(putToStorage(c, f.file, onProgress));
    const o = f.solveOptions;
    const v = await api.post<VideoRecord>(
      '/video/uploads',
      {
        sessionToken: c.credentials.sessionToken,
        fileName: f.file.name,
        name: f.name.trim(),
        ...(f.category ? { categoryId: Number(f.category) } : {}),
        tags: f.tags.join(','),
        boneType: f.boneType,
        description: f.description,
        ...(o
          ? { smoothing: o.smoothing, footLock: o.footLock, rootAtOrigin: o.rootAtOrigin, height: o.height }
          : {}),
      },
      { quiet: 'videoUpload' },
    );
    return normaliseVideo(v);
  })();
  return {
    promise,
    abort: () => {
      aborted = true;
      abortCurrent();
    },
  };
}

function uploadMultipart(f: UploadFields, onProgress: (fraction: number) => void): UploadHandle<VideoRecord> {
  const form = new FormData();
  form.append('name', f.name.trim());
  form.append('categoryId', f.category);
  form.append('tags', f.tags.join(','));
  form.append('boneType', f.boneType);
  form.append('description', f.description);
  if (f.solveOptions) {
    form.append('smoothing', String(f.solveOptions.smoothing));
    form.append('footLock', f.solveOptions.footLock);
    form.append('rootAtOrigin', String(f.solveOptions.rootAtOrigin));
    form.append('height', f.solveOptions.height === null ? '' : String(f.solveOptions.height));
  }
  form.append('file', f.file, f.file.name);
  return upload<VideoRecord>('/video/upload', form, onProgress, 'videoUpload');
}

export interface ListQuery {
  page: number;
  size: number;
  keyword?: string;
  status?: VideoStatus[];
  category?: string;
  tag?: string;
  collected?: boolean;
}

const STATUS_CODE: Record<VideoStatus, number> = { notMade: 0, inProgress: 1, made: 2, failed: 3 };

/** The list body the server's zod schema takes (numbers for statuses and the category). */
export function listBody(q: ListQuery): Record<string, unknown> {
  return {
    page: q.page,
    size: q.size,
    ...(q.keyword ? { keyword: q.keyword } : {}),
    ...(q.status?.length ? { status: q.status.map((s) => STATUS_CODE[s]) } : {}),
    ...(q.category ? { categoryId: Number(q.category) } : {}),
    ...(q.tag ? { tag: q.tag } : {}),
    ...(q.collected ? { collected: true } : {}),
  };
}

export const myVideos = async (q: ListQuery, me?: User | null): Promise<Page<Video>> =>
  normalisePage(await api.post<PageOf<VideoRecord>>('/video/center', listBody(q)), (v) =>
    normaliseVideo(v, me),
  );

export const squareVideos = async (q: ListQuery, me?: User | null): Promise<Page<Video>> =>
  normalisePage(await api.post<PageOf<SquareVideo>>('/video/square', listBody(q)), (v) => ({
    ...normaliseVideo(v, me),
    isOwner: me ? String(v?.creatorId ?? (v as unknown as Rec)?.userId ?? '') === String(me.id) : false,
    // Items carry my collected flag; the collection view lists only collected videos.
    ...(q.collected ? { collected: true } : {}),
  }));

export const videoById = async (id: Video['id'], me?: User | null): Promise<Video> =>
  normaliseVideo(await api.post<VideoDetail>('/video/queryVideoById', { id }), me);

export const editVideo = (v: {
  id: Video['id'];
  name: string;
  description: string;
  category: string;
  tags: string[];
}) =>
  api.put<unknown>('/video', {
    id: v.id,
    name: v.name,
    description: v.description,
    categoryId: v.category ? Number(v.category) : null,
    tags: v.tags,
  });

export const deleteVideo = (id: Video['id']) => api.del<unknown>(`/video/center/${id}`);

export const publishToSquare = (id: Video['id'], on: boolean) =>
  api.put<unknown>(`/video/square/${id}/${on ? 1 : 0}`);

/** Toggles the collect flag; the new state. */
export async function collectVideo(id: Video['id']): Promise<boolean> {
  const d = (await api.put<unknown>(`/video/collect/${id}`)) as Rec | null;
  return d?.collected === true;
}

/**
 * Remake: without `paid` the server uses a free remake; when none is left it answers 307
 * 您的视频免费制作次数已用完 and the page offers the paid remake.
 */
export const remakeVideo = (
  id: Video['id'],
  opts: { boneType?: string; paid?: boolean; solveOptions?: SolveOptions } = {},
) =>
  api.post<unknown>(
    '/video/videoRedo',
    {
      id: Number(id),
      ...(opts.boneType ? { boneType: opts.boneType } : {}),
      ...(opts.paid ? { paid: true } : {}),
      ...(opts.solveOptions ?? {}),
    },
    { silent: !opts.paid },
  );

/** Feedback text; the rating travels at the head of the content ("★★★★☆ …"). */
export const sendFeedback = (id: Video['id'], content: string, score?: number) =>
  api.post<unknown>('/video/setFeedback', {
    id: Number(id),
    content: [score ? `${'★'.repeat(score)}${'☆'.repeat(5 - score)}` : '', content].filter(Boolean).join(' '),
  });

export const lastModelType = async (): Promise<string> => {
  const d = await api.get<unknown>('/video/getLastModelType', { silent: true }).catch(() => '');
  return typeof d === 'string' ? d : String((d as Rec)?.boneType ?? (d as Rec)?.modelType ?? '');
};

/** My earlier video of the same file (by MD5), or null (issue 15.5). */
export async function uploadedBefore(file: Blob): Promise<{ id: number; name: string } | null> {
  const md5 = await md5OfBlob(file);
  const d = (await api.post<unknown>('/video/checkMd5', { md5 }, { silent: true })) as Rec;
  return d?.duplicate === true ? { id: Number(d.id), name: String(d.name ?? '') } : null;
}

// ---------- motion ----------

export async function boneTypes(): Promise<BoneTypeInfo[]> {
  try {
    const d = await api.get<unknown>('/motion/boneTypes', { silent: true });
    const parsed = z.array(BoneTypeInfoSchema).safeParse(d);
    if (parsed.success && parsed.data.length) return parsed.data;
  } catch {
    /* unreachable server: the contract's list */
  }
  return [...DEFAULT_BONE_TYPES];
}

/** The solved clip (mocap-motion JSON) of a video, through a signed URL. */
export async function motionClip(id: Video['id']): Promise<unknown> {
  const d = await api.get<UrlResult>(`/motion/video/${id}/clip_url`, { silent: true });
  const url = String(d?.url ?? '');
  if (!url) throw new Error('no clip');
  const res = await fetch(url);
  if (!res.ok) throw new Error(`clip: HTTP ${res.status}`);
  return res.json();
}

export interface PreDownload {
  /** What this download charges now (0 when owned or already bought). */
  cost: number;
  owned: boolean;
  balance: number | null;
}

export async function preMotionDownload(id: Video['id']): Promise<PreDownload> {
  const d = await api.get<MotionPrice>(`/motion/preMotionDownload/${id}`);
  const due = d?.due ?? d?.price ?? 0;
  return {
    cost: Number(due) || 0,
    owned: d?.owned === true || d?.purchased === true || Number(due) === 0,
    balance: d?.balance === undefined ? null : Number(d.balance),
  };
}

/** A download's signed URLs and names (the contract's `MotionResult` without the charge). */
export type MotionDownload = Pick<MotionResult, 'paths' | 'name' | 'bonetype' | 'motionsName'>;

/**
 * DownLoadMotion(bodyType, id, boneType) for the whole body (bodyType `video`); the lower-body variant goes
 * through `lowerBodyDownload`. Both handle code 300 themselves (spec §8).
 */
export async function downloadMotion(
  lowerBody: boolean,
  id: Video['id'],
  boneType: string,
): Promise<MotionDownload> {
  const d = (
    lowerBody
      ? await api.post<MotionResult>(
          '/motion/lowerBodyDownload',
          { id: Number(id), boneType },
          { quiet: 'motionDownload' },
        )
      : await api.get<MotionResult>(`/motion/download/video/${id}/${encodeURIComponent(boneType)}`, {
          quiet: 'motionDownload',
        })
  ) as Partial<MotionResult> | null;
  const paths = Array.isArray(d?.paths) ? d.paths.map(String) : [];
  return {
    paths,
    name: String(d?.motionsName ?? d?.name ?? ''),
    bonetype: String(d?.bonetype ?? boneType),
    motionsName: String(d?.motionsName ?? ''),
  };
}

/** The bone-type zip a preview loads (our skinned character + the clip), signed URL. */
export async function previewModel(
  id: Video['id'],
  boneType?: string,
): Promise<{ url: string; boneType: string }> {
  const q = boneType ? `?boneType=${encodeURIComponent(boneType)}` : '';
  const d = await api.get<UrlResult & { boneType: string }>(`/motion/fbx/${id}/anm${q}`, { silent: true });
  const url = String(d?.url ?? '');
  if (!url) throw new Error('no preview model');
  return { url, boneType: String(d?.boneType ?? '') };
}

/** The bone types a made video offers (`/motion/video/{id}`), with whether the user's plan allows each. */
/** The capture's own warnings about its result (owner only; issue 15.3: lost tracking, flips, another person...). */
export async function videoWarnings(id: Video['id']): Promise<string[]> {
  const d = await api.get<Partial<MotionOffer>>(`/motion/video/${id}`, { silent: true });
  return Array.isArray(d?.warnings) ? d.warnings.map(String) : [];
}

export async function videoZips(id: Video['id']): Promise<BoneTypeInfo[]> {
  const d = await api.get<Partial<MotionOffer>>(`/motion/video/${id}`, { silent: true });
  const zips = Array.isArray(d?.zips) ? d.zips : [];
  return zips.map((zp) => ({
    name: String(zp.boneType),
    format: String(zp.format ?? '').toUpperCase(),
    free: zp.allowed !== false,
    needs: needsOf(String(zp.boneType)),
  }));
}
