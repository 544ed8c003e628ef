/** Zod schemas of the digital-human routes (they also make the OpenAPI document). */
import { z } from 'zod';

const Stats = z.object({
  vertices: z.number().int(),
  triangles: z.number().int(),
  materials: z.number().int(),
  bones: z.number().int(),
});

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

export const TomokageDetailSchema = TomokageSchema.extend({
  joints: z.array(z.string()).describe('canonical joints, skeleton order'),
  required: z.array(z.string()),
  bones: z.array(z.object({ name: z.string(), parent: z.string().nullable() })),
  mapping: z.record(z.string(), z.string()).describe('canonical joint → bone'),
  method: z.record(z.string(), z.string()).describe('how each joint was found: vrm, name, topology, user'),
  warnings: z.array(z.string()),
  applies: z.array(ApplySchema),
});

export const CenterBody = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  keyword: z.string().max(64).optional(),
  collected: z.boolean().optional(),
});

export const IdsBody = z.object({ ids: z.array(z.coerce.number().int().positive()).min(1).max(100) });

/** No body (or an empty one): automatic re-mapping; `mapping`: the editor's joints → bones. */
export const RedoneBody = z
  .object({ mapping: z.record(z.string().max(64), z.string().max(255)).optional() })
  .nullish();

export const ApplyBody = z.object({
  kind: z.enum(['video', 'music', 'animation']),
  id: z.coerce.number().int().positive(),
});

export const DownloadSchema = z.object({
  paths: z.array(z.string()),
  name: z.string(),
  format: z.string(),
  fileName: z.string(),
});

export const AdminSearchBody = z
  .object({
    keyword: z.string().max(64).optional(),
    userId: z.number().int().positive().optional(),
    page: z.coerce.number().int().min(1).default(1),
    size: z.coerce.number().int().min(1).max(100).default(20),
  })
  .default({ page: 1, size: 20 });
