/** The category/tag tree's repository. */
import type { Kysely, Selectable } from 'kysely';
import type { CategoriesTable, DB } from '../../infra/db/schema.ts';
import type { Category, CategoryKind, CategoryRepo } from '../../ports.ts';

const toCategory = (r: Selectable<CategoriesTable>): Category => ({
  id: Number(r.id),
  parentId: r.parent_id === null ? null : Number(r.parent_id),
  kind: r.kind as CategoryKind,
  name: r.name,
  sort: r.sort,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

export class KyselyCategoryRepo implements CategoryRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async list(kind: CategoryKind) {
    const rows = await this.db
      .selectFrom('categories')
      .selectAll()
      .where('kind', '=', kind)
      .orderBy('sort')
      .orderBy('id')
      .execute();
    return rows.map(toCategory);
  }

  async findById(id: number) {
    const r = await this.db.selectFrom('categories').selectAll().where('id', '=', id).executeTakeFirst();
    return r && toCategory(r);
  }

  async children(id: number) {
    const rows = await this.db
      .selectFrom('categories')
      .selectAll()
      .where('parent_id', '=', id)
      .orderBy('sort')
      .orderBy('id')
      .execute();
    return rows.map(toCategory);
  }

  async findByName(kind: CategoryKind, name: string, parentId: number | null) {
    let q = this.db.selectFrom('categories').selectAll().where('kind', '=', kind).where('name', '=', name);
    q = parentId === null ? q.where('parent_id', 'is', null) : q.where('parent_id', '=', parentId);
    const r = await q.executeTakeFirst();
    return r && toCategory(r);
  }

  async create(c: Parameters<CategoryRepo['create']>[0]) {
    const r = await this.db
      .insertInto('categories')
      .values({
        parent_id: c.parentId,
        kind: c.kind,
        name: c.name,
        sort: c.sort,
        created_at: c.now,
        updated_at: c.now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toCategory(r);
  }

  async update(id: number, p: Partial<Pick<Category, 'parentId' | 'name' | 'sort'>>, now: number) {
    const v: Record<string, unknown> = { updated_at: now };
    if (p.parentId !== undefined) v.parent_id = p.parentId;
    if (p.name !== undefined) v.name = p.name;
    if (p.sort !== undefined) v.sort = p.sort;
    await this.db.updateTable('categories').set(v).where('id', '=', id).execute();
  }

  async delete(id: number) {
    await this.db.deleteFrom('categories').where('id', '=', id).execute();
  }
}
