/** zod schemas of the model settings routes. */
import { z } from 'zod';

const Model = z.enum(['lite', 'full', 'heavy']);
export const ModelSettingsSchema = z.object({
  enabled: z.object({ lite: z.boolean(), full: z.boolean(), heavy: z.boolean() }),
  byPlan: z.object({ free: Model, monthly: Model, yearly: Model }).describe('model of new uploads per plan'),
});

export const ModelListSchema = ModelSettingsSchema.extend({
  usage: z
    .array(z.object({ model: z.string(), videos: z.number().int(), last30Days: z.number().int() }))
    .describe('videos captured with each model'),
  characters: z
    .array(z.object({ name: z.string(), format: z.string(), free: z.boolean() }))
    .describe('bundled character models (bone types) the exports ship'),
});
