/** System endpoints' shapes: the maintenance/version/filing settings every page shows. */
import { z } from 'zod';

/** `GET /product/sysConfig/maintainInfo` (no token). */
export const MaintainInfoSchema = z.object({
  maintainBtn: z.boolean(),
  markBtn: z.boolean(),
  maintainText: z.string(),
  versionBtn: z.boolean(),
  versionText: z.string(),
  plateNumber: z.string(),
  plateNumberBtn: z.boolean(),
  /** Digital-human maintenance flag (`/tomokage/checkMaintain`). */
  tomoMaintain: z.boolean(),
});
export type MaintainInfo = z.infer<typeof MaintainInfoSchema>;

/** `GET /product/motion/boneTypes`: each bone type, its main format, whether a free plan may choose it, what it needs. */
export const BoneTypeInfoSchema = z.object({
  name: z.string(),
  format: z.string(),
  free: z.boolean(),
  needs: z.enum(['face']).nullable(),
});
export type BoneTypeInfo = z.infer<typeof BoneTypeInfoSchema>;
