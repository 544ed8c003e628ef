/**
 * Platform services: notices (carousel), system configuration (maintenance info), worker machines with heartbeats.
 */

import { timingSafeEqual } from 'node:crypto';
import type { MaintainInfo } from '@mocap/contracts';
import { AppError, Codes } from '../../errors.ts';
import type { Clock, Machine, Notice, NoticeInput, Store, UserRecord } from '../../ports.ts';

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
export type { MaintainInfo };

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

  /** Health: the database answers a read (throws when it does not); its kind. */
  async health(): Promise<{ database: 'sqlite' | 'postgres'; time: number }> {
    await this.store.repos.sysConfig.get('health');
    return { database: this.store.kind, time: Date.now() };
  }

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
    /** The shared key workers present (X-Worker-Token); compared in constant time. */
    private readonly workerToken: string,
    /** A machine silent for longer than this shows as offline. */
    private readonly staleMs = 60_000,
  ) {}

  /** Whether a presented worker token is the deployment's (constant-time comparison). */
  isWorkerToken(presented: string): boolean {
    const expected = Buffer.from(this.workerToken);
    const got = Buffer.from(presented);
    return got.length === expected.length && timingSafeEqual(got, expected);
  }

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
