/** zod schemas of the model settings routes: the contract's (`@mocap/contracts`). */
export {
  ModelListSchema,
  ModelSettingsSchema,
} from '@mocap/contracts';
