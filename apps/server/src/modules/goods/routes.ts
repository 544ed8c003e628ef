/** Goods: `GET /goods` (the catalogue with prices in fen) and the company products `/sysProduct/queryAll`. */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok } from '../../http/envelope.ts';
import { GOODS, PACK_BONUS_PERCENT } from './catalogue.ts';

export const GoodsSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['plan', 'coins', 'company']),
  name: z.string(),
  title: z.string(),
  price: z.number().int().describe('fen'),
  listPrice: z.number().int().nullable().describe('fen, when shown as a discount'),
  offPercent: z.number().int().nullable(),
  level: z.enum(['monthly', 'yearly']).nullable(),
  days: z.number().int().nullable(),
  coins: z.number().int().describe('V coins (CV for company goods) granted'),
});

const view = (g: (typeof GOODS)[number]) => ({
  id: g.id,
  kind: g.kind,
  name: g.name,
  title: g.title,
  price: g.price,
  listPrice: g.listPrice ?? null,
  offPercent: g.offPercent ?? null,
  level: g.level ?? null,
  days: g.days ?? null,
  coins: g.coins,
});

const goodsRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['pay'];

  app.get(
    '/goods',
    {
      schema: {
        tags,
        summary:
          'The goods: plans (monthly 9900 fen / 30 days, yearly 77900 fen / 360 days), V-coin packs, CV packs',
        response: {
          200: envelope(
            z.object({
              list: z.array(GoodsSchema),
              packBonusPercent: z.object({ free: z.number(), monthly: z.number(), yearly: z.number() }),
            }),
          ),
        },
      },
    },
    async () =>
      ok({
        list: GOODS.filter((g) => g.kind !== 'company').map(view),
        packBonusPercent: { ...PACK_BONUS_PERCENT },
      }),
  );

  app.post(
    '/sysProduct/queryAll',
    {
      schema: {
        tags,
        summary: 'Company products (CV-coin packs)',
        response: { 200: envelope(z.array(GoodsSchema)) },
      },
    },
    async () => ok(GOODS.filter((g) => g.kind === 'company').map(view)),
  );
};

export default goodsRoutes;
