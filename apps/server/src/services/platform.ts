/**
 * Platform services: the category/tag tree, notices (carousel), system configuration (maintenance info),
 * worker machines with heartbeats.
 */
import { AppError, Codes, Messages } from '../errors.ts';
import type {
  Category,
  CategoryKind,
  Clock,
  Machine,
  Notice,
  NoticeInput,
  Store,
  UserRecord,
} from './ports.ts';

export interface CategoryNode extends Category {
  children: CategoryNode[];
}

export function buildTree(rows: Category[]): CategoryNode[] {
  const byId = new Map<number, CategoryNode>(rows.map((r) => [r.id, { ...r, children: [] }]));
  const roots: CategoryNode[] = [];
  for (const n of byId.values()) {
    const parent = n.parentId === null ? undefined : byId.get(n.parentId);
    (parent ? parent.children : roots).push(n);
  }
  return roots;
}

/** What uses categories outside the platform tables (the videos module). */
export interface CategoryUsage {
  /** Videos filed under the category. */
  videosIn(categoryId: number): Promise<number>;
}

/**
 * Deleting a category that videos are still filed under: the spec only words the sub-category case
 * (所选分类存在子分类，请处理子分类再重试!); this one says the same of videos, in the same form.
 */
export const CATEGORY_HAS_VIDEOS = '所选分类下存在视频，请处理视频再重试!';

export class CatalogService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly usage: CategoryUsage = { videosIn: async () => 0 },
  ) {}

  async tree(kind: CategoryKind): Promise<CategoryNode[]> {
    return buildTree(await this.store.repos.categories.list(kind));
  }

  async get(id: number, kind?: CategoryKind): Promise<Category> {
    const c = await this.store.repos.categories.findById(id);
    if (!c || (kind && c.kind !== kind))
      throw new AppError(Codes.NOT_FOUND, `${kind ?? 'category'} ${id} not found`);
    return c;
  }

  async children(id: number): Promise<Category[]> {
    await this.get(id);
    return this.store.repos.categories.children(id);
  }

  async create(input: {
    name: string;
    parentId?: number | null;
    sort?: number;
    kind?: CategoryKind;
  }): Promise<Category> {
    const kind = input.kind ?? 'category';
    const name = input.name.trim();
    this.checkName(name, kind);
    const parentId = input.parentId ?? null;
    if (parentId !== null) {
      const parent = await this.get(parentId);
      if (parent.kind !== kind) throw new AppError(Codes.REFUSED, 'the parent belongs to another tree');
    }
    if (await this.store.repos.categories.findByName(kind, name, parentId))
      throw new AppError(Codes.REFUSED, `${kind} "${name}" already exists here`);
    return this.store.repos.categories.create({
      parentId,
      kind,
      name,
      sort: input.sort ?? 0,
      now: this.clock.now(),
    });
  }

  async update(
    id: number,
    patch: { name?: string; parentId?: number | null; sort?: number },
  ): Promise<Category> {
    const c = await this.get(id);
    const name = patch.name?.trim();
    if (name !== undefined) this.checkName(name, c.kind);
    if (patch.parentId !== undefined && patch.parentId !== null) {
      // No cycles: the new parent may not be the node or one of its descendants.
      let p: Category | undefined = await this.get(patch.parentId);
      if (p.kind !== c.kind) throw new AppError(Codes.REFUSED, 'the parent belongs to another tree');
      while (p) {
        if (p.id === id) throw new AppError(Codes.REFUSED, 'a category cannot be moved under itself');
        p = p.parentId === null ? undefined : await this.store.repos.categories.findById(p.parentId);
      }
    }
    const parentId = patch.parentId === undefined ? c.parentId : patch.parentId;
    if (name !== undefined || patch.parentId !== undefined) {
      const clash = await this.store.repos.categories.findByName(c.kind, name ?? c.name, parentId);
      if (clash && clash.id !== id)
        throw new AppError(Codes.REFUSED, `${c.kind} "${name ?? c.name}" already exists here`);
    }
    await this.store.repos.categories.update(
      id,
      { name, parentId: patch.parentId, sort: patch.sort },
      this.clock.now(),
    );
    return this.get(id);
  }

  /** Refused with the spec's message while the category has sub-categories. */
  /**
   * Refused while it has sub-categories, and while videos are filed under it (their `categoryId`; tags are kept
   * on videos as text and do not count), with the count in `data.videos`: the videos would point at nothing.
   */
  async delete(id: number): Promise<void> {
    await this.get(id);
    if ((await this.store.repos.categories.children(id)).length > 0)
      throw new AppError(Codes.REFUSED, Messages.CATEGORY_HAS_CHILDREN);
    const videos = await this.usage.videosIn(id);
    if (videos > 0) throw new AppError(Codes.REFUSED, CATEGORY_HAS_VIDEOS, { videos });
    await this.store.repos.categories.delete(id);
  }

  private checkName(name: string, kind: CategoryKind): void {
    if (!name || name.length > 64) throw new AppError(Codes.REFUSED, 'name must be 1–64 characters');
    if (kind === 'tag' && /[,，]/.test(name))
      throw new AppError(Codes.REFUSED, '标签内容不能包含有（，）逗号');
  }
}

export class NoticeService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /** Notices for the carousel, sorted by page; none once the user chose "do not show again" until a notice changes. */
  async forUser(user: UserRecord | null): Promise<Notice[]> {
    return this.store.repos.notices.list({
      enabledOnly: true,
      updatedAfter: user?.noticesHiddenAt ?? undefined,
    });
  }

  async noLongerDisplayed(user: UserRecord): Promise<void> {
    const now = this.clock.now();
    await this.store.repos.users.update(user.id, { noticesHiddenAt: now }, now);
  }

  all(): Promise<Notice[]> {
    return this.store.repos.notices.list({ enabledOnly: false });
  }

  async save(input: Partial<NoticeInput> & { id?: number }): Promise<Notice> {
    const now = this.clock.now();
    const { id, ...fields } = input;
    if (id !== undefined) {
      if (!(await this.store.repos.notices.findById(id)))
        throw new AppError(Codes.NOT_FOUND, `notice ${id} not found`);
      await this.store.repos.notices.update(id, fields, now);
      return (await this.store.repos.notices.findById(id))!;
    }
    return this.store.repos.notices.create(
      {
        page: fields.page ?? 0,
        jumpTo: fields.jumpTo ?? '',
        button: fields.button ?? '',
        url: fields.url ?? '',
        type: fields.type ?? 1,
        title: fields.title ?? '',
        content: fields.content ?? '',
        enabled: fields.enabled ?? true,
      },
      now,
    );
  }

  async delete(id: number): Promise<void> {
    if (!(await this.store.repos.notices.delete(id)))
      throw new AppError(Codes.NOT_FOUND, `notice ${id} not found`);
  }
}

/** Maintenance info (spec §3). */
export interface MaintainInfo {
  maintainBtn: boolean;
  markBtn: boolean;
  maintainText: string;
  versionBtn: boolean;
  versionText: string;
  plateNumber: string;
  plateNumberBtn: boolean;
  /** Digital-human maintenance flag (`/tomokage/checkMaintain`). */
  tomoMaintain: boolean;
}

export const DEFAULT_MAINTAIN: MaintainInfo = {
  maintainBtn: false,
  markBtn: false,
  maintainText: '',
  versionBtn: false,
  versionText: '',
  plateNumber: '',
  plateNumberBtn: false,
  tomoMaintain: false,
};

export class SystemConfigService {
  private cache: { at: number; value: MaintainInfo } | undefined;
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  async getJson<T>(key: string, fallback: T): Promise<T> {
    const raw = await this.store.repos.sysConfig.get(key);
    if (raw === undefined) return fallback;
    try {
      return { ...fallback, ...JSON.parse(raw) } as T;
    } catch {
      return fallback;
    }
  }

  async setJson(key: string, value: unknown): Promise<void> {
    await this.store.repos.sysConfig.set(key, JSON.stringify(value), this.clock.now());
    if (key === 'maintain') this.cache = undefined;
  }

  /** Read on every page load: cached for 2 s per process. */
  async maintainInfo(): Promise<MaintainInfo> {
    const now = this.clock.now();
    if (this.cache && now - this.cache.at < 2000) return this.cache.value;
    const value = await this.getJson('maintain', DEFAULT_MAINTAIN);
    this.cache = { at: now, value };
    return value;
  }

  async saveMaintain(patch: Partial<MaintainInfo>): Promise<MaintainInfo> {
    const next = { ...(await this.getJson('maintain', DEFAULT_MAINTAIN)), ...patch };
    await this.setJson('maintain', next);
    return next;
  }
}

export interface Heartbeat {
  name: string;
  host?: string;
  kind?: string;
  capacity?: number;
  running?: number;
  version?: string;
  status?: 'online' | 'busy' | 'draining' | 'offline';
  meta?: Record<string, unknown>;
}

export class MachineService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    /** A machine silent for longer than this shows as offline. */
    private readonly staleMs = 60_000,
  ) {}

  /** Registers (first beat) or refreshes a worker machine. A machine disabled by an administrator stays disabled. */
  async heartbeat(h: Heartbeat): Promise<Machine> {
    const now = this.clock.now();
    const m = await this.store.repos.machines.findByName(h.name);
    const fields = {
      host: h.host,
      kind: h.kind,
      capacity: h.capacity,
      running: h.running,
      version: h.version,
      meta: h.meta,
      status: h.status ?? 'online',
      lastHeartbeatAt: now,
    };
    if (!m) {
      try {
        return await this.store.repos.machines.create({ name: h.name, ...fields, startedAt: now }, now);
      } catch {
        // Two first beats at once: the other one created it.
      }
      const again = await this.store.repos.machines.findByName(h.name);
      if (!again) throw new AppError(Codes.BUSY);
      return this.heartbeat(h);
    }
    const restarted = m.status === 'offline' || (m.lastHeartbeatAt ?? 0) < now - this.staleMs;
    await this.store.repos.machines.update(
      m.id,
      { ...fields, ...(restarted ? { startedAt: now } : {}) },
      now,
    );
    return (await this.store.repos.machines.findById(m.id))!;
  }

  async list(): Promise<(Machine & { online: boolean })[]> {
    const now = this.clock.now();
    return (await this.store.repos.machines.list()).map((m) => ({
      ...m,
      online: m.status !== 'offline' && m.lastHeartbeatAt !== null && now - m.lastHeartbeatAt <= this.staleMs,
    }));
  }

  async add(input: {
    name: string;
    host?: string;
    kind?: string;
    capacity?: number;
    remark?: string;
  }): Promise<Machine> {
    if (await this.store.repos.machines.findByName(input.name))
      throw new AppError(Codes.REFUSED, `machine ${input.name} already exists`);
    return this.store.repos.machines.create({ ...input, status: 'offline' }, this.clock.now());
  }

  async update(
    id: number,
    patch: { name?: string; host?: string; capacity?: number; remark?: string; enabled?: boolean },
  ): Promise<Machine> {
    if (!(await this.store.repos.machines.findById(id)))
      throw new AppError(Codes.NOT_FOUND, `machine ${id} not found`);
    await this.store.repos.machines.update(id, patch, this.clock.now());
    return (await this.store.repos.machines.findById(id))!;
  }

  async delete(id: number): Promise<void> {
    if (!(await this.store.repos.machines.delete(id)))
      throw new AppError(Codes.NOT_FOUND, `machine ${id} not found`);
  }

  /** Whether the machine may take jobs (an administrator can disable it). */
  async isEnabled(name: string): Promise<boolean> {
    return (await this.store.repos.machines.findByName(name))?.enabled ?? true;
  }
}
