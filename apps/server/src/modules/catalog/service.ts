/** The category/tag tree (admins edit it; a category with sub-categories or filed videos is not deleted). */
import { AppError, Codes, Messages } from '../../errors.ts';
import type { Category, CategoryKind, Clock, Store } from '../../ports.ts';

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
