/** Digital-human endpoints' shapes (`/tomokage/*`, `/admin/tomokage/*`). */
import { z } from 'zod';

const Stats = z.object({
  vertices: z.number().int(),
  triangles: z.number().int(),
  materials: z.number().int(),
  bones: z.number().int(),
});

/** One digital human's card (the upload, `/tomokage/center`, collect, hide). */
export const TomokageSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  fileName: z.string(),
  format: z.string().describe('fbx, fbx-ascii, glb, gltf, vrm0, vrm1'),
  sizeBytes: z.number().int(),
  scheme: z
    .string()
    .describe(
      'naming scheme recognised: mixamo, ue4, ue5, cc, biped, r15, unity, mmd, vroid, vrm0, vrm1, unknown',
    ),
  restPose: z.object({ kind: z.string(), armDownDeg: z.number() }).nullable(),
  height: z.number().nullable().describe('metres'),
  stats: Stats.nullable(),
  mapped: z.number().int().describe('canonical joints mapped'),
  missing: z
    .array(z.string())
    .describe('canonical joints without a bone that the rig may have (for the user to map)'),
  absent: z
    .array(z.string())
    .describe(
      'canonical joints the rig has no bone for by design (no toe bones, mitten hands, no clavicles)',
    ),
  mappingEdited: z.boolean(),
  collected: z.boolean(),
  hidden: z.boolean(),
  vrm: z.boolean(),
  createAt: z.number().int(),
});
export type Tomokage = z.infer<typeof TomokageSchema>;

/** A motion applied to a digital human (`POST /tomokage/apply/{id}`, the detail's `applies`). */
export const ApplySchema = z.object({
  id: z.number().int(),
  sourceKind: z.string(),
  sourceId: z.number().int(),
  name: z.string(),
  duration: z.number(),
  formats: z.array(z.string()),
  charged: z.number().int(),
  createAt: z.number().int(),
});
export type TomokageApply = z.infer<typeof ApplySchema>;

/** `GET /tomokage/{id}`, `POST /tomokage/redone/{id}`. */
export const TomokageDetailSchema = TomokageSchema.extend({
  joints: z.array(z.string()).describe('canonical joints, skeleton order'),
  required: z.array(z.string()),
  bones: z.array(z.object({ name: z.string(), parent: z.string().nullable() })),
  mapping: z.record(z.string(), z.string()).describe('canonical joint → bone'),
  method: z.record(z.string(), z.string()).describe('how each joint was found: vrm, name, topology, user'),
  warnings: z.array(z.string()),
  applies: z.array(ApplySchema),
});
export type TomokageDetail = z.infer<typeof TomokageDetailSchema>;

/** What a motion applied to a digital human comes from. */
export const MotionKindSchema = z.enum(['video', 'music', 'animation']);

/** `GET /tomokage/motions`: my made motions that can be applied. */
export const TomokageMotionSchema = z.object({
  kind: MotionKindSchema,
  id: z.number().int(),
  name: z.string(),
  duration: z.number(),
});
export type TomokageMotion = z.infer<typeof TomokageMotionSchema>;

/** `GET /tomokage/cos_url/{id}`. */
export const TomokageUrlsSchema = z.object({
  source: z.string(),
  preview: z.string().nullable(),
  animated: z.string().nullable(),
});
export type TomokageUrls = z.infer<typeof TomokageUrlsSchema>;

/** `GET /tomokage/pictures/{id}`. */
export const TomokagePicturesSchema = z.object({
  front: z.string().nullable(),
  threeQuarter: z.string().nullable(),
});
export type TomokagePictures = z.infer<typeof TomokagePicturesSchema>;

export const TomokageCenterBody = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  keyword: z.string().max(64).optional(),
  collected: z.boolean().optional(),
});

/** No body (or an empty one): automatic re-mapping; `mapping`: the editor's joints → bones. */
export const RedoneBody = z
  .object({ mapping: z.record(z.string().max(64), z.string().max(255)).optional() })
  .nullish();

export const ApplyBody = z.object({
  kind: MotionKindSchema,
  id: z.coerce.number().int().positive(),
});

/** `GET /tomokage/download/{applyId}/{format}`, `GET /tomokage/zip/{applyId}`. */
export const TomokageDownloadSchema = z.object({
  paths: z.array(z.string()),
  name: z.string(),
  format: z.string(),
  fileName: z.string(),
});
export type TomokageDownload = z.infer<typeof TomokageDownloadSchema>;

export const AdminTomokageSearchBody = z
  .object({
    keyword: z.string().max(64).optional(),
    userId: z.number().int().positive().optional(),
    page: z.coerce.number().int().min(1).default(1),
    size: z.coerce.number().int().min(1).max(100).default(20),
  })
  .default({ page: 1, size: 20 });

/** A row of `POST /admin/tomokage/search`: the card with its owner and front picture. */
export const AdminTomokageSchema = TomokageSchema.extend({
  userId: z.number().int(),
  ownerEmail: z.string().nullable(),
  front: z.string().nullable(),
});
export type AdminTomokage = z.infer<typeof AdminTomokageSchema>;
