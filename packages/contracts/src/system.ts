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

/** The community panel's groups: the official account and the two chat groups. */
export const CommunityGroupKeySchema = z.enum(['official', 'group', 'group2']);
export type CommunityGroupKey = z.infer<typeof CommunityGroupKeySchema>;
/** One group as stored: a link (https; the panel draws its QR code) and/or an uploaded QR picture, with a note. */
export const CommunityEntrySchema = z.object({
  url: z.string().max(1024),
  imageKey: z.string().max(191),
  note: z.string().max(64),
});
export type CommunityEntry = z.infer<typeof CommunityEntrySchema>;
/** `POST /sysConfig/communityInfo` and `/sysConfig/saveCommunity`: the community settings as stored. */
export const CommunitySettingsSchema = z.object({
  groups: z.object({
    official: CommunityEntrySchema,
    group: CommunityEntrySchema,
    group2: CommunityEntrySchema,
  }),
  tutorialUrl: z.string(),
  browserTip: z.boolean(),
});
export type CommunitySettings = z.infer<typeof CommunitySettingsSchema>;
/** `POST /sysConfig/saveCommunity`: what to change. */
export const CommunitySaveBody = z.object({
  groups: z
    .object({
      official: CommunityEntrySchema.partial(),
      group: CommunityEntrySchema.partial(),
      group2: CommunityEntrySchema.partial(),
    })
    .partial()
    .optional(),
  tutorialUrl: z.string().max(1024).optional(),
  browserTip: z.boolean().optional(),
});
/** `GET /sysConfig/community`: what the sidebar's panel shows. */
export const CommunityGroupSchema = z.object({
  key: CommunityGroupKeySchema,
  url: z.string(),
  imageUrl: z.string().nullable(),
  note: z.string(),
});
export type CommunityGroup = z.infer<typeof CommunityGroupSchema>;
export const CommunitySchema = z.object({
  groups: z.array(CommunityGroupSchema),
  tutorialUrl: z.string(),
  browserTip: z.boolean(),
});
export type Community = z.infer<typeof CommunitySchema>;

/** `GET /passport/3rd/buttons`: a third-party login the login page offers as a button. */
export const LoginButtonSchema = z.object({ name: z.string(), label: z.string() });
export type LoginButton = z.infer<typeof LoginButtonSchema>;
