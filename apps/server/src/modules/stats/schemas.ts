/** zod schemas of the /sysInfo report routes: the contract's (`@mocap/contracts`). */
export {
  BriefingSchema,
  ExtensionSchema,
  PeriodBody,
} from '@mocap/contracts';
