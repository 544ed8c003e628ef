/**
 * The goods catalogue (spec §9 prices, issue 19): pure data, money in integer fen.
 *
 * Choices where the spec is silent (stated on the pricing page too):
 * - the monthly plan grants 1000 V coins (the yearly plan's 15000 over 12 months is 1250 a month);
 * - V-coin packs sell at 10 V per yuan; monthly members get +20 % of the pack, yearly members +30 %
 *   (rounded down), decided when the order is made;
 * - company CV-coin packs sell at 10 CV per yuan, less for the larger packs.
 */

export type GoodsKind = 'plan' | 'coins' | 'company';

export interface Goods {
  id: number;
  kind: GoodsKind;
  /** Short name (English key for the web's translations, also the order title). */
  name: string;
  /** The order title (bilingual, as providers and the order PDF show it). */
  title: string;
  /** The English title alone, for English-only texts such as the coin ledger's notes (like its other notes). */
  en: string;
  /** Price in fen. */
  price: number;
  /** List price in fen, when the goods are shown as a discount (the yearly plan: 12 months of the monthly). */
  listPrice?: number;
  /** The discount shown (spec §9: the yearly plan is "shown as 35% off"; 1 − 779/1188 is 34.4 %). */
  offPercent?: number;
  /** For plans: the level and the days it lasts. */
  level?: 'monthly' | 'yearly';
  days?: number;
  /** Coins granted (V for individual goods, CV for company goods). */
  coins: number;
}

/** A coin pack: V coins (`coins100`, "100 V币 V coins") or, for companies, CV coins (`cv1000`). */
function pack(id: number, kind: 'coins' | 'company', coins: number, price: number): Goods {
  const [name, currency] = kind === 'coins' ? ['coins', 'V'] : ['cv', 'CV'];
  const title = `${coins} ${currency}币 ${currency} coins`;
  return { id, kind, name: `${name}${coins}`, title, en: `${coins} ${currency} coins`, price, coins };
}

export const GOODS: readonly Goods[] = [
  {
    id: 1,
    kind: 'plan',
    name: 'monthly',
    title: '月度专业版 Monthly Pro',
    en: 'Monthly Pro',
    price: 9900,
    level: 'monthly',
    days: 30,
    coins: 1000,
  },
  {
    id: 2,
    kind: 'plan',
    name: 'yearly',
    title: '年度版 Yearly',
    en: 'Yearly',
    price: 77900,
    listPrice: 9900 * 12,
    offPercent: 35,
    level: 'yearly',
    days: 360,
    coins: 15000,
  },
  pack(11, 'coins', 100, 1000),
  pack(12, 'coins', 500, 5000),
  pack(13, 'coins', 2000, 20000),
  pack(21, 'company', 1000, 10000),
  pack(22, 'company', 5000, 45000),
  pack(23, 'company', 20000, 160000),
];

/** Bonus share of a V-coin pack by the buyer's plan, in percent (spec §9). */
export const PACK_BONUS_PERCENT = { free: 0, monthly: 20, yearly: 30 } as const;

export const goodsById = (id: number): Goods | undefined => GOODS.find((g) => g.id === id);
