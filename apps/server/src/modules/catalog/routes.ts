/** Category and tag trees: read by any logged-in user, changed by administrators. */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerSecurity, requireAdmin, requireUser } from '../../http/context.ts';
import { envelope, IdParam, ok } from '../../http/envelope.ts';

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
const NodeSchema: z.ZodType<Node> = CategorySchema.extend({ children: z.lazy(() => z.array(NodeSchema)) });

const routes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { catalog } = app.ctx.services;
  const security = bearerSecurity;

  for (const kind of ['category', 'tag'] as const) {
    const tags = [kind];
    app.post(
      `/${kind}/search`,
      {
        preHandler: requireUser,
        schema: {
          tags,
          summary: `The ${kind} tree, sorted by sort then id`,
          security,
          body: z.object({ keyword: z.string().max(64).optional() }).default({}),
          response: { 200: envelope(z.array(NodeSchema)) },
        },
      },
      async (req) => {
        const tree = await catalog.tree(kind);
        const kw = req.body.keyword?.trim().toLowerCase();
        if (!kw) return ok(tree);
        const keep = (n: Node): Node | null => {
          const children = n.children.map(keep).filter((c): c is Node => c !== null);
          return n.name.toLowerCase().includes(kw) || children.length ? { ...n, children } : null;
        };
        return ok(tree.map(keep).filter((n): n is Node => n !== null));
      },
    );
    app.get(
      `/${kind}/:id`,
      {
        preHandler: requireUser,
        schema: {
          tags,
          summary: `One ${kind}`,
          security,
          params: z.object({ id: IdParam }),
          response: { 200: envelope(CategorySchema) },
        },
      },
      async (req) => ok(await catalog.get(req.params.id, kind)),
    );
  }

  app.get(
    '/category/child/:id',
    {
      preHandler: requireUser,
      schema: {
        tags: ['category'],
        summary: 'Direct children of a category or tag',
        security,
        params: z.object({ id: IdParam }),
        response: { 200: envelope(z.array(CategorySchema)) },
      },
    },
    async (req) => ok(await catalog.children(req.params.id)),
  );

  app.post(
    '/category',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['category'],
        summary: 'Create a category (kind category) or tag (kind tag), optionally under a parent',
        security,
        body: z.object({
          name: z.string().min(1).max(64),
          parentId: z.number().int().positive().nullable().optional(),
          sort: z.number().int().default(0),
          kind: z.enum(['category', 'tag']).default('category'),
        }),
        response: { 200: envelope(CategorySchema) },
      },
    },
    async (req) => ok(await catalog.create(req.body)),
  );

  app.put(
    '/category',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['category'],
        summary: 'Rename, move or re-sort a category or tag',
        security,
        body: z.object({
          id: z.number().int().positive(),
          name: z.string().min(1).max(64).optional(),
          parentId: z.number().int().positive().nullable().optional(),
          sort: z.number().int().optional(),
        }),
        response: { 200: envelope(CategorySchema) },
      },
    },
    async (req) => {
      const { id, ...patch } = req.body;
      return ok(await catalog.update(id, patch));
    },
  );

  app.delete(
    '/category/:id',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['category'],
        summary:
          'Delete a category or tag; refused (307) while it has sub-categories (所选分类存在子分类...) or while videos are filed under it (所选分类下存在视频..., data.videos = how many)',
        security,
        params: z.object({ id: IdParam }),
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await catalog.delete(req.params.id);
      return ok(null);
    },
  );
};

export default routes;
