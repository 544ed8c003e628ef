/**
 * Animation library repository over Kysely (SQLite or PostgreSQL): tables `animation`, `animation_collect`,
 * `animation_purchase` (migration `1200_animation`), and the animation store (S1's repositories plus this one,
 * bound to one connection or one transaction: a charge and a purchase commit together). The only SQL of the
 * animation slice.
 */

import { type ColumnType, type Generated, type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../../infra/db/index.ts';
import { pageOf } from '../../infra/db/paging.ts';
import { parsedOr } from '../../infra/db/patch.ts';
import {
  deleteWhere,
  insertRow,
  likePattern,
  rowsWhere,
  rowWhere,
  snakeKeys,
  updateWhere,
} from '../../infra/db/rows.ts';
import type { DB } from '../../infra/db/schema.ts';
import { SliceRepo } from '../../infra/db/slice.ts';
import type { Page } from '../../ports.ts';
import { createRepos, storeOver } from '../../store.ts';
import type {
  AnimationQuery,
  AnimationRecord,
  AnimationRepo,
  AnimationRepos,
  AnimationStore,
  NewAnimation,
} from './ports.ts';

type Defaulted<T> = ColumnType<T, T | undefined, T>;

export interface AnimationTable {
  id: Generated<number>;
  name: string;
  category: string;
  tags: Defaulted<string>;
  source: string;
  source_ref: string;
  credit: Defaulted<string>;
  clip_key: string;
  frame_count: number;
  fps: number;
  duration_ms: number;
  price: number;
  status: Defaulted<number>;
  downloads: Defaulted<number>;
  zips: Defaulted<string>;
  created_at: number;
  updated_at: number;
}

export interface AnimationCollectTable {
  user_id: number;
  animation_id: number;
  created_at: number;
}

export interface AnimationPurchaseTable {
  user_id: number;
  animation_id: number;
  charged: number;
  charge_ref: string;
  created_at: number;
}

type AnimDB = DB & {
  animation: AnimationTable;
  animation_collect: AnimationCollectTable;
  animation_purchase: AnimationPurchaseTable;
};
type Row = Selectable<AnimationTable>;

function toRecord(r: Row): AnimationRecord {
  return {
    id: Number(r.id),
    name: r.name,
    category: r.category,
    tags: parsedOr<string[]>(r.tags, []),
    source: r.source,
    sourceRef: r.source_ref,
    credit: r.credit,
    clipKey: r.clip_key,
    frameCount: Number(r.frame_count),
    fps: Number(r.fps),
    durationMs: Number(r.duration_ms),
    price: Number(r.price),
    status: Number(r.status),
    downloads: Number(r.downloads),
    zips: parsedOr<AnimationRecord['zips']>(r.zips, {}),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

/** `column LIKE pattern ESCAPE '\'` (SQLite has no default escape character). */
const like = (column: string, pattern: string) =>
  sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`;

export class KyselyAnimationRepo extends SliceRepo<AnimDB> implements AnimationRepo {
  async create(a: NewAnimation): Promise<AnimationRecord> {
    const values = { ...snakeKeys(a), tags: JSON.stringify(a.tags), updated_at: a.createdAt };
    return toRecord(await insertRow(this.db, 'animation', values));
  }

  async findById(id: number): Promise<AnimationRecord | null> {
    const r = await rowWhere(this.db, 'animation', { id });
    return r ? toRecord(r) : null;
  }

  async findBySource(source: string, ref: string): Promise<AnimationRecord | null> {
    const r = await rowWhere(this.db, 'animation', { source, source_ref: ref });
    return r ? toRecord(r) : null;
  }

  async list(q: AnimationQuery): Promise<Page<AnimationRecord>> {
    let base = this.db.selectFrom('animation').where('status', 'in', q.statuses);
    if (q.keyword) {
      const k = likePattern(q.keyword);
      base = base.where((eb) => eb.or([like('name', k), like('tags', k), like('category', k)]));
    }
    if (q.category) base = base.where('category', '=', q.category);
    if (q.tag) base = base.where(like('tags', likePattern(JSON.stringify(q.tag))));
    if (q.collectedBy !== undefined) {
      const uid = q.collectedBy;
      base = base.where('id', 'in', (eb) =>
        eb.selectFrom('animation_collect').select('animation_id').where('user_id', '=', uid),
      );
    }
    return pageOf(base, q, toRecord, [
      ['category', 'asc'],
      ['name', 'asc'],
      ['id', 'asc'],
    ]);
  }

  async categories(statuses: number[]): Promise<{ category: string; count: number }[]> {
    const rows = await this.db
      .selectFrom('animation')
      .select(['category', (eb) => eb.fn.countAll<number>().as('n')])
      .where('status', 'in', statuses)
      .groupBy('category')
      .orderBy('category')
      .execute();
    return rows.map((r) => ({ category: r.category, count: Number(r.n) }));
  }

  async setStatus(id: number, status: number, now: number): Promise<boolean> {
    return (await updateWhere(this.db, 'animation', { status, updated_at: now }, { id })) > 0;
  }

  async remade(
    id: number,
    p: { frameCount: number; fps: number; durationMs: number; price: number; status: number },
    now: number,
  ): Promise<void> {
    await updateWhere(this.db, 'animation', { ...snakeKeys(p), zips: '{}', updated_at: now }, { id });
  }

  async setZip(
    id: number,
    boneType: string,
    zip: { key: string; fileName: string; size: number },
    now: number,
  ): Promise<void> {
    const cur = await this.findById(id);
    if (!cur) return;
    const zips = { ...cur.zips, [boneType]: zip };
    await updateWhere(this.db, 'animation', { zips: JSON.stringify(zips), updated_at: now }, { id });
  }

  async addDownload(id: number): Promise<void> {
    await this.db
      .updateTable('animation')
      .set((eb) => ({ downloads: eb('downloads', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  async collect(userId: number, id: number, on: boolean, now: number): Promise<void> {
    if (on) {
      await this.db
        .insertInto('animation_collect')
        .values({ user_id: userId, animation_id: id, created_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'animation_id']).doNothing())
        .execute();
    } else {
      await deleteWhere(this.db, 'animation_collect', { user_id: userId, animation_id: id });
    }
  }

  collectedOf(userId: number, ids: number[]): Promise<Set<number>> {
    return this.markedOf('animation_collect', userId, ids);
  }

  purchasedOf(userId: number, ids: number[]): Promise<Set<number>> {
    return this.markedOf('animation_purchase', userId, ids);
  }

  /** Which of `ids` the user has a row for in `table` (collected, bought). */
  private async markedOf(
    table: 'animation_collect' | 'animation_purchase',
    userId: number,
    ids: number[],
  ): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await rowsWhere(this.db, table, { user_id: userId, animation_id: ids });
    return new Set(rows.map((r) => Number(r.animation_id)));
  }

  async boughtBy(userId: number, limit: number): Promise<AnimationRecord[]> {
    const rows = await this.db
      .selectFrom('animation')
      .innerJoin('animation_purchase', 'animation_purchase.animation_id', 'animation.id')
      .selectAll('animation')
      .where('animation_purchase.user_id', '=', userId)
      .where('animation.status', '=', 1)
      .orderBy('animation_purchase.created_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  }

  async addPurchase(p: {
    userId: number;
    animationId: number;
    charged: number;
    chargeRef: string;
    createdAt: number;
  }): Promise<boolean> {
    const r = await this.db
      .insertInto('animation_purchase')
      .values(snakeKeys(p))
      .onConflict((oc) => oc.columns(['user_id', 'animation_id']).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }
}

export type { AnimationRepos, AnimationStore };

function reposOf(db: Kysely<DB>, kind: 'sqlite' | 'postgres'): AnimationRepos {
  return { ...createRepos(db, kind), animation: new KyselyAnimationRepo(db) };
}

export function createAnimationStore(database: Pick<Database, 'db' | 'kind'>): AnimationStore {
  return storeOver(database, reposOf);
}
