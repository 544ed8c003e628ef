/**
 * Digital-human repository over Kysely (SQLite or PostgreSQL): tables `tomokage` and `tomokage_apply`
 * (migration `800_tomokage`), and the store binding it with the ledger to one connection or transaction. The only
 * SQL of the tomokage slice.
 */

import type { ColumnType, Generated, Kysely, Selectable } from 'kysely';
import type { Database } from '../../infra/db/index.ts';
import { pageOf } from '../../infra/db/paging.ts';
import { columnValues, flag, jsonText, parsedOr } from '../../infra/db/patch.ts';
import {
  countWhere,
  deleteWhere,
  insertRow,
  likePattern,
  recordWhere,
  snakeKeys,
  updateWhere,
} from '../../infra/db/rows.ts';
import type { DB } from '../../infra/db/schema.ts';
import { SliceRepo } from '../../infra/db/slice.ts';
import type { Page } from '../../ports.ts';
import { createRepos, storeOver } from '../../store.ts';
import type {
  ApplyOutputs,
  ApplyRecord,
  NewTomokage,
  TomokagePatch,
  TomokageQuery,
  TomokageRecord,
  TomokageRepo,
  TomokageStore,
} from './ports.ts';

type Defaulted<T> = ColumnType<T, T | undefined, T>;

export interface TomokageTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  file_name: Defaulted<string>;
  format: string;
  file_key: string;
  storage_prefix: string;
  md5: string;
  size_bytes: number;
  mapping: Defaulted<string>;
  mapping_edited: Defaulted<number>;
  info: Defaulted<string>;
  pictures: Defaulted<string>;
  collected: Defaulted<number>;
  hidden: Defaulted<number>;
  created_at: number;
  updated_at: number;
}

export interface TomokageApplyTable {
  id: Generated<number>;
  tomokage_id: number;
  user_id: number;
  source_kind: string;
  source_id: number;
  name: string;
  duration_ms: Defaulted<number>;
  outputs: Defaulted<string>;
  currency: Defaulted<string>;
  charged: Defaulted<number>;
  charge_ref: string | null;
  created_at: number;
}

type TDB = DB & { tomokage: TomokageTable; tomokage_apply: TomokageApplyTable };
type Row = Selectable<TomokageTable>;
type ApplyRow = Selectable<TomokageApplyTable>;

function toRecord(r: Row): TomokageRecord {
  return {
    id: Number(r.id),
    userId: Number(r.user_id),
    name: r.name,
    fileName: r.file_name,
    format: r.format,
    fileKey: r.file_key,
    storagePrefix: r.storage_prefix,
    md5: r.md5,
    sizeBytes: Number(r.size_bytes),
    mapping: parsedOr(r.mapping, {}),
    mappingEdited: Number(r.mapping_edited) === 1,
    info: parsedOr(r.info, {}),
    pictures: parsedOr(r.pictures, {}),
    collected: Number(r.collected) === 1,
    hidden: Number(r.hidden) === 1,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

function toApply(r: ApplyRow): ApplyRecord {
  return {
    id: Number(r.id),
    tomokageId: Number(r.tomokage_id),
    userId: Number(r.user_id),
    sourceKind: r.source_kind as ApplyRecord['sourceKind'],
    sourceId: Number(r.source_id),
    name: r.name,
    durationMs: Number(r.duration_ms),
    outputs: parsedOr<ApplyOutputs>(r.outputs, {}),
    currency: 'V',
    charged: Number(r.charged),
    chargeRef: r.charge_ref,
    createdAt: Number(r.created_at),
  };
}

export class KyselyTomokageRepo extends SliceRepo<TDB> implements TomokageRepo {
  async create(t: NewTomokage): Promise<TomokageRecord> {
    const json = { mapping: jsonText(t.mapping), info: jsonText(t.info), pictures: jsonText(t.pictures) };
    return toRecord(
      await insertRow(this.db, 'tomokage', { ...snakeKeys(t), ...json, updated_at: t.createdAt }),
    );
  }

  async findById(id: number): Promise<TomokageRecord | null> {
    return (await recordWhere(this.db, 'tomokage', { id }, toRecord)) ?? null;
  }

  async findByMd5(userId: number, md5: string): Promise<TomokageRecord | null> {
    return (await recordWhere(this.db, 'tomokage', { user_id: userId, md5 }, toRecord)) ?? null;
  }

  async countByUser(userId: number): Promise<number> {
    return countWhere(this.db, 'tomokage', { user_id: userId });
  }

  async list(q: TomokageQuery): Promise<Page<TomokageRecord & { ownerEmail?: string }>> {
    let base = this.db.selectFrom('tomokage').leftJoin('users', 'users.id', 'tomokage.user_id');
    if (q.userId !== undefined) base = base.where('tomokage.user_id', '=', q.userId);
    if (!q.includeHidden) base = base.where('tomokage.hidden', '=', 0);
    if (q.collected !== undefined) base = base.where('tomokage.collected', '=', q.collected ? 1 : 0);
    if (q.name) base = base.where('tomokage.name', 'like', likePattern(q.name));
    return pageOf(
      base,
      q,
      (r: Row & { owner_email: string | null }) => ({
        ...toRecord(r),
        ownerEmail: r.owner_email ?? undefined,
      }),
      [
        ['tomokage.collected', 'desc'],
        ['tomokage.created_at', 'desc'],
        ['tomokage.id', 'desc'],
      ],
      (b) => b.selectAll('tomokage').select('users.email as owner_email'),
    );
  }

  async update(id: number, p: TomokagePatch, now: number): Promise<void> {
    const o: Partial<Row> = {
      ...columnValues(p, ['name'], {
        mapping: jsonText,
        mappingEdited: flag,
        info: jsonText,
        pictures: jsonText,
        collected: flag,
        hidden: flag,
      }),
      updated_at: now,
    };
    await updateWhere(this.db, 'tomokage', o, { id });
  }

  async delete(id: number): Promise<void> {
    await deleteWhere(this.db, 'tomokage_apply', { tomokage_id: id });
    await deleteWhere(this.db, 'tomokage', { id });
  }

  async addApply(a: Omit<ApplyRecord, 'id'>): Promise<ApplyRecord> {
    const values = { ...snakeKeys(a), name: a.name.slice(0, 128), outputs: jsonText(a.outputs) };
    return toApply(await insertRow(this.db, 'tomokage_apply', values));
  }

  async findApply(id: number): Promise<ApplyRecord | null> {
    return (await recordWhere(this.db, 'tomokage_apply', { id }, toApply)) ?? null;
  }

  async updateApply(id: number, outputs: ApplyOutputs, charged: number, durationMs?: number): Promise<void> {
    const set = { outputs: jsonText(outputs), charged, ...snakeKeys({ durationMs }) };
    await updateWhere(this.db, 'tomokage_apply', set, { id });
  }

  async deleteApply(id: number): Promise<void> {
    await deleteWhere(this.db, 'tomokage_apply', { id });
  }

  async applies(tomokageId: number): Promise<ApplyRecord[]> {
    const rows = await this.db
      .selectFrom('tomokage_apply')
      .selectAll()
      .where('tomokage_id', '=', tomokageId)
      .where('outputs', '!=', '{}')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toApply);
  }
}

export function createTomokageStore(database: Pick<Database, 'db' | 'kind'>): TomokageStore {
  return storeOver(database, (d: Kysely<DB>, kind) => ({
    tomokage: new KyselyTomokageRepo(d),
    ledger: createRepos(d, kind).ledger,
  }));
}
