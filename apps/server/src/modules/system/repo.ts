/** Repositories of the platform: notices, system configuration, machines, secrets. */

import type { Kysely, Selectable } from 'kysely';
import { columnValues, flag, jsonText, parsedOr } from '../../infra/db/patch.ts';
import {
  deleteWhere,
  insertRow,
  recordWhere,
  rowsWhere,
  rowWhere,
  updateWhere,
} from '../../infra/db/rows.ts';
import type { DB, MachinesTable, NoticesTable } from '../../infra/db/schema.ts';
import type {
  Machine,
  MachineInput,
  MachineRepo,
  Notice,
  NoticeInput,
  NoticeRepo,
  SecretRepo,
  SysConfigRepo,
} from '../../ports.ts';

const toNotice = (r: Selectable<NoticesTable>): Notice => ({
  id: Number(r.id),
  page: r.page,
  jumpTo: r.jump_to,
  button: r.button,
  url: r.url,
  type: r.type,
  title: r.title,
  content: r.content,
  enabled: r.enabled === 1,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

const noticeValues = (n: Partial<NoticeInput>) =>
  columnValues(n, ['page', 'jumpTo', 'button', 'url', 'type', 'title', 'content'], { enabled: flag });

export class KyselyNoticeRepo implements NoticeRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async list(opts: { enabledOnly: boolean; updatedAfter?: number }) {
    let q = this.db.selectFrom('notices').selectAll();
    if (opts.enabledOnly) q = q.where('enabled', '=', 1);
    if (opts.updatedAfter !== undefined) q = q.where('updated_at', '>', opts.updatedAfter);
    const rows = await q.orderBy('page').orderBy('id').execute();
    return rows.map(toNotice);
  }

  async findById(id: number) {
    return recordWhere(this.db, 'notices', { id }, toNotice);
  }

  async create(n: NoticeInput, now: number) {
    return toNotice(
      await insertRow(this.db, 'notices', { ...noticeValues(n), created_at: now, updated_at: now }),
    );
  }

  async update(id: number, patch: Partial<NoticeInput>, now: number) {
    await updateWhere(this.db, 'notices', { ...noticeValues(patch), updated_at: now }, { id });
  }

  async delete(id: number) {
    return (await deleteWhere(this.db, 'notices', { id })) > 0;
  }
}

export class KyselySysConfigRepo implements SysConfigRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async get(key: string) {
    return (await rowWhere(this.db, 'sys_config', { key }))?.value;
  }

  async set(key: string, value: string, now: number) {
    await this.db
      .insertInto('sys_config')
      .values({ key, value, updated_at: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: now }))
      .execute();
  }
}

const toMachine = (r: Selectable<MachinesTable>): Machine => ({
  id: Number(r.id),
  name: r.name,
  host: r.host,
  kind: r.kind,
  status: r.status,
  capacity: r.capacity,
  running: r.running,
  version: r.version,
  enabled: r.enabled === 1,
  remark: r.remark,
  meta: safeJson(r.meta),
  lastHeartbeatAt: r.last_heartbeat_at === null ? null : Number(r.last_heartbeat_at),
  startedAt: r.started_at === null ? null : Number(r.started_at),
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

function safeJson(s: string): Record<string, unknown> {
  const v = parsedOr<unknown>(s, {});
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

const machineValues = (m: Partial<MachineInput>) =>
  columnValues(
    m,
    [
      'name',
      'host',
      'kind',
      'status',
      'capacity',
      'running',
      'version',
      'remark',
      'lastHeartbeatAt',
      'startedAt',
    ],
    { enabled: flag, meta: jsonText },
  );

export class KyselyMachineRepo implements MachineRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async list() {
    return (await rowsWhere(this.db, 'machines', {}, [['id', 'asc']])).map(toMachine);
  }

  async findById(id: number) {
    return recordWhere(this.db, 'machines', { id }, toMachine);
  }

  async findByName(name: string) {
    return recordWhere(this.db, 'machines', { name }, toMachine);
  }

  async create(m: Parameters<MachineRepo['create']>[0], now: number) {
    const values = { ...machineValues(m), name: m.name, created_at: now, updated_at: now } as never;
    return toMachine(await insertRow(this.db, 'machines', values));
  }

  async update(id: number, patch: Parameters<MachineRepo['update']>[1], now: number) {
    await updateWhere(this.db, 'machines', { ...machineValues(patch), updated_at: now }, { id });
  }

  async delete(id: number) {
    return (await deleteWhere(this.db, 'machines', { id })) > 0;
  }
}

export class KyselySecretRepo implements SecretRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async getOrCreate(key: string, make: () => string, now: number) {
    await this.db
      .insertInto('secrets')
      .values({ key, value: make(), created_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    return (await rowWhere(this.db, 'secrets', { key }))!.value;
  }
}
