/**
 * Music repository over Kysely (SQLite or PostgreSQL), table `music` (migration `500_music`), and the music
 * store: S1's repositories plus this one, bound to one connection or one transaction (a charge and a row
 * commit together). The only SQL of the music slice.
 */

import type { ColumnType, Generated, Kysely, Selectable } from 'kysely';
import type { Database } from '../../infra/db/index.ts';
import { pageOf } from '../../infra/db/paging.ts';
import { columnValues, flag, jsonText } from '../../infra/db/patch.ts';
import {
  countWhere,
  deleteWhere,
  insertRow,
  likePattern,
  recordWhere,
  rowsWhere,
  snakeKeys,
  updateWhere,
} from '../../infra/db/rows.ts';
import type { DB } from '../../infra/db/schema.ts';
import { SliceRepo } from '../../infra/db/slice.ts';
import type { Page } from '../../ports.ts';
import { createRepos, storeOver } from '../../store.ts';
import type {
  MusicOutputs,
  MusicPatch,
  MusicRecord,
  MusicRepo,
  MusicRepos,
  MusicStore,
  NewMusic,
} from './ports.ts';

type Defaulted<T> = ColumnType<T, T | undefined, T>;

export interface MusicTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  file_name: Defaulted<string>;
  audio_key: string;
  storage_prefix: string;
  md5: string;
  size_bytes: number;
  duration_ms: number;
  format: Defaulted<string>;
  status: Defaulted<number>;
  progress: Defaulted<number>;
  error: string | null;
  priority: Defaulted<string>;
  seed: Defaulted<number>;
  job_seq: Defaulted<number>;
  attempts: Defaulted<number>;
  redone_count: Defaulted<number>;
  currency: Defaulted<string>;
  charged: Defaulted<number>;
  charge_ref: string | null;
  refunded: Defaulted<number>;
  outputs: Defaulted<string>;
  started_at: number | null;
  finished_at: number | null;
  created_at: number;
  updated_at: number;
}

type MusicDB = DB & { music: MusicTable };
type Row = Selectable<MusicTable>;

function toRecord(r: Row): MusicRecord {
  let outputs: MusicOutputs = {};
  try {
    outputs = JSON.parse(r.outputs) as MusicOutputs;
  } catch {
    outputs = {};
  }
  return {
    id: Number(r.id),
    userId: Number(r.user_id),
    name: r.name,
    fileName: r.file_name,
    audioKey: r.audio_key,
    storagePrefix: r.storage_prefix,
    md5: r.md5,
    sizeBytes: Number(r.size_bytes),
    durationMs: Number(r.duration_ms),
    format: r.format,
    status: Number(r.status) as MusicRecord['status'],
    progress: Number(r.progress),
    error: r.error,
    priority: r.priority as MusicRecord['priority'],
    seed: Number(r.seed),
    jobSeq: Number(r.job_seq),
    attempts: Number(r.attempts),
    redoneCount: Number(r.redone_count),
    currency: r.currency as 'V' | 'CV',
    charged: Number(r.charged),
    chargeRef: r.charge_ref,
    refunded: Number(r.refunded) === 1,
    outputs,
    startedAt: r.started_at === null ? null : Number(r.started_at),
    finishedAt: r.finished_at === null ? null : Number(r.finished_at),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

const patchRow = (p: MusicPatch): Partial<Row> =>
  columnValues(
    p,
    [
      'status',
      'progress',
      'error',
      'seed',
      'jobSeq',
      'attempts',
      'redoneCount',
      'startedAt',
      'finishedAt',
      'name',
    ],
    { refunded: flag, outputs: jsonText },
  );

export class KyselyMusicRepo extends SliceRepo<MusicDB> implements MusicRepo {
  async create(m: NewMusic): Promise<MusicRecord> {
    const values = {
      ...snakeKeys(m),
      error: null,
      started_at: null,
      finished_at: null,
      updated_at: m.createdAt,
    };
    return toRecord(await insertRow(this.db, 'music', values));
  }

  async findById(id: number): Promise<MusicRecord | null> {
    return (await recordWhere(this.db, 'music', { id }, toRecord)) ?? null;
  }

  async findByMd5(userId: number, md5: string): Promise<MusicRecord | null> {
    return (await recordWhere(this.db, 'music', { user_id: userId, md5 }, toRecord)) ?? null;
  }

  async list(q: { userId: number; page: number; size: number; name?: string }): Promise<Page<MusicRecord>> {
    let base = this.db.selectFrom('music').where('user_id', '=', q.userId);
    if (q.name) base = base.where('name', 'like', likePattern(q.name));
    return pageOf(base, q, toRecord, [
      ['created_at', 'desc'],
      ['id', 'desc'],
    ]);
  }

  async countByStatus(userId: number, statuses: number[]): Promise<number> {
    return countWhere(this.db, 'music', { user_id: userId, status: statuses });
  }

  async update(id: number, p: MusicPatch, now: number): Promise<void> {
    await updateWhere(this.db, 'music', { ...patchRow(p), updated_at: now }, { id });
  }

  async updateIfStatus(id: number, statuses: number[], p: MusicPatch, now: number): Promise<boolean> {
    return (
      (await updateWhere(this.db, 'music', { ...patchRow(p), updated_at: now }, { id, status: statuses })) > 0
    );
  }

  async delete(id: number): Promise<void> {
    await deleteWhere(this.db, 'music', { id });
  }

  async unfinished(limit: number): Promise<MusicRecord[]> {
    return (await rowsWhere(this.db, 'music', { status: [0, 1] }, [], limit)).map(toRecord);
  }
}

export type { MusicRepos, MusicStore };

function reposOf(db: Kysely<DB>, kind: 'sqlite' | 'postgres'): MusicRepos {
  return { ...createRepos(db, kind), music: new KyselyMusicRepo(db) };
}

export function createMusicStore(database: Pick<Database, 'db' | 'kind'>): MusicStore {
  return storeOver(database, reposOf);
}
