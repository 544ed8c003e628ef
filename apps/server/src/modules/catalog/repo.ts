/** The category/tag tree's repository. */
import type { Kysely, Selectable } from 'kysely';
import { columnValues } from '../../infra/db/patch.ts';
import { deleteWhere, insertRow, rowsWhere, rowWhere, updateWhere } from '../../infra/db/rows.ts';
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

const byOrder = [
  ['sort', 'asc'],
  ['id', 'asc'],
] as const;

export class KyselyCategoryRepo implements CategoryRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async list(kind: CategoryKind) {
    return (await rowsWhere(this.db, 'categories', { kind }, byOrder)).map(toCategory);
  }

  async findById(id: number) {
    const r = await rowWhere(this.db, 'categories', { id });
    return r && toCategory(r);
  }

  async children(id: number) {
    return (await rowsWhere(this.db, 'categories', { parent_id: id }, byOrder)).map(toCategory);
  }

  async findByName(kind: CategoryKind, name: string, parentId: number | null) {
    const r = await rowWhere(this.db, 'categories', { kind, name, parent_id: parentId });
    return r && toCategory(r);
  }

  async create(c: Parameters<CategoryRepo['create']>[0]) {
    const values = { parent_id: c.parentId, kind: c.kind, name: c.name, sort: c.sort };
    return toCategory(
      await insertRow(this.db, 'categories', { ...values, created_at: c.now, updated_at: c.now }),
    );
  }

  async update(id: number, p: Partial<Pick<Category, 'parentId' | 'name' | 'sort'>>, now: number) {
    const set = columnValues(p, ['parentId', 'name', 'sort']);
    await updateWhere(this.db, 'categories', { ...set, updated_at: now }, { id });
  }

  async delete(id: number) {
    await deleteWhere(this.db, 'categories', { id });
  }
}
