/** Goods: `GET /goods` (the catalogue with prices in fen) and the company products `/sysProduct/queryAll`. */
import { GoodsListSchema, GoodsSchema } from '@mocap/contracts';
import { routePlugin } from '../../http/route.ts';
import { GOODS, PACK_BONUS_PERCENT } from './catalogue.ts';

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

const tags = ['pay'];

const goodsRoutes = routePlugin(tags, (r) => {
  r.get(
    '/goods',
    {
      summary:
        'The goods: plans (monthly 9900 fen / 30 days, yearly 77900 fen / 360 days), V-coin packs, CV packs',
      data: GoodsListSchema,
    },
    async () => ({
      list: GOODS.filter((g) => g.kind !== 'company').map(view),
      packBonusPercent: { ...PACK_BONUS_PERCENT },
    }),
  );

  r.post(
    '/sysProduct/queryAll',
    { summary: 'Company products (CV-coin packs)', data: GoodsSchema.array() },
    async () => GOODS.filter((g) => g.kind === 'company').map(view),
  );
});

export default goodsRoutes;
