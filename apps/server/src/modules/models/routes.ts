/** manageModel routes (issue 21): capture models enabled and per plan, usage, bundled characters. */
import { BONE_TYPE_FORMAT, BONE_TYPES } from '@mocap/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bearerSecurity, requireAdmin } from '../../http/context.ts';
import { envelope, ok } from '../../http/envelope.ts';
import { formatAllowed } from '../video/limits.ts';
import { ModelListSchema, ModelSettingsSchema } from './schemas.ts';

const routes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { models } = app.ctx.services;

  app.post(
    '/model/list',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['model'],
        summary:
          'Capture models (enabled, the model of each plan, videos per model) and the bundled characters',
        security: bearerSecurity,
        response: { 200: envelope(ModelListSchema) },
      },
    },
    async () =>
      ok({
        ...(await models.list()),
        characters: BONE_TYPES.map((name) => ({
          name,
          format: BONE_TYPE_FORMAT[name].toUpperCase(),
          free: formatAllowed('free', name),
        })),
      }),
  );

  app.post(
    '/model/save',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['model'],
        summary: "Enable or disable capture models and choose each plan's model (applies to new uploads)",
        security: bearerSecurity,
        body: ModelSettingsSchema,
        response: { 200: envelope(ModelSettingsSchema) },
      },
    },
    async (req) => ok(await models.save(req.body)),
  );
};

export default routes;
