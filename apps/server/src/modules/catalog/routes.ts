/** Category and tag trees: read by any logged-in user, changed by administrators. */
import { z } from 'zod';
import { requireAdmin, requireUser } from '../../http/context.ts';
import { IdParam } from '../../http/envelope.ts';
import { routePlugin, routesOf } from '../../http/route.ts';

const CategorySchema = z.object({
  id: z.number().int(),
  parentId: z.number().int().nullable(),
  kind: z.enum(['category', 'tag']),
  name: z.string(),
  sort: z.number().int(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
type Node = z.infer<typeof CategorySchema> & { children: Node[] };
const NodeSchema: z.ZodType<Node> = CategorySchema.extend({
  children: z.lazy(() => z.array(NodeSchema)),
}).meta({
  id: 'CategoryNode',
});

const routes = routePlugin(['category'], (r, { catalog }, app) => {
  for (const kind of ['category', 'tag'] as const) {
    const k = routesOf(app, { tags: [kind] });
    k.post(
      `/${kind}/search`,
      {
        auth: requireUser,
        summary: `The ${kind} tree, sorted by sort then id`,
        body: z.object({ keyword: z.string().max(64).optional() }).default({}),
        data: z.array(NodeSchema),
      },
      async (req) => {
        const tree = await catalog.tree(kind);
        const kw = req.body.keyword?.trim().toLowerCase();
        if (!kw) return tree;
        const keep = (n: Node): Node | null => {
          const children = n.children.map(keep).filter((c): c is Node => c !== null);
          return n.name.toLowerCase().includes(kw) || children.length ? { ...n, children } : null;
        };
        return tree.map(keep).filter((n): n is Node => n !== null);
      },
    );
    k.get(
      `/${kind}/:id`,
      { auth: requireUser, summary: `One ${kind}`, params: z.object({ id: IdParam }), data: CategorySchema },
      async (req) => catalog.get(req.params.id, kind),
    );
  }

  r.get(
    '/category/child/:id',
    {
      auth: requireUser,
      summary: 'Direct children of a category or tag',
      params: z.object({ id: IdParam }),
      data: z.array(CategorySchema),
    },
    async (req) => catalog.children(req.params.id),
  );

  r.post(
    '/category',
    {
      auth: requireAdmin,
      summary: 'Create a category (kind category) or tag (kind tag), optionally under a parent',
      body: z.object({
        name: z.string().min(1).max(64),
        parentId: z.number().int().positive().nullable().optional(),
        sort: z.number().int().default(0),
        kind: z.enum(['category', 'tag']).default('category'),
      }),
      data: CategorySchema,
    },
    async (req) => catalog.create(req.body),
  );

  r.put(
    '/category',
    {
      auth: requireAdmin,
      summary: 'Rename, move or re-sort a category or tag',
      body: z.object({
        id: z.number().int().positive(),
        name: z.string().min(1).max(64).optional(),
        parentId: z.number().int().positive().nullable().optional(),
        sort: z.number().int().optional(),
      }),
      data: CategorySchema,
    },
    async ({ body: { id, ...patch } }) => await catalog.update(id, patch),
  );

  r.deleteById(
    '/category/:id',
    {
      auth: requireAdmin,
      summary:
        'Delete a category or tag; refused (307) while it has sub-categories (所选分类存在子分类...) or while videos are filed under it (所选分类下存在视频..., data.videos = how many)',
    },
    (_, id) => catalog.delete(id),
  );
});

export default routes;
