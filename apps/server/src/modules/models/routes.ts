/** manageModel routes (issue 21): capture models enabled and per plan, usage, bundled characters. */
import { BONE_TYPE_FORMAT, BONE_TYPES } from '@mocap/contracts';
import { requireAdmin } from '../../http/context.ts';
import { routePlugin } from '../../http/route.ts';
import { formatAllowed } from '../video/limits.ts';
import { ModelListSchema, ModelSettingsSchema } from './schemas.ts';

const routes = routePlugin(['model'], (r, { models }) => {
  r.post(
    '/model/list',
    {
      auth: requireAdmin,
      summary:
        'Capture models (enabled, the model of each plan, videos per model) and the bundled characters',
      data: ModelListSchema,
    },
    async () => ({
      ...(await models.list()),
      characters: BONE_TYPES.map((name) => ({
        name,
        format: BONE_TYPE_FORMAT[name].toUpperCase(),
        free: formatAllowed('free', name),
      })),
    }),
  );

  r.post(
    '/model/save',
    {
      auth: requireAdmin,
      summary: "Enable or disable capture models and choose each plan's model (applies to new uploads)",
      body: ModelSettingsSchema,
      data: ModelSettingsSchema,
    },
    async (req) => models.save(req.body),
  );
});

export default routes;
