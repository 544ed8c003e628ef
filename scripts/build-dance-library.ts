/**
 * Builds the shipped dance motion library `packages/dance/assets/cmu-dance.mdl.gz` from the CMU takes in
 * `../shared/testdata/bvh/cmu_more` (subject 05, modern dance / ballet, cgspeed BVH conversion): retargeted to
 * the canonical body skeleton at 30 fps (`retargetBvh`), quaternions stored as int16, gzip-compressed.
 * CMU's terms allow shipping data derived from the database inside the product (not reselling it as data).
 *
 *   npx tsx scripts/build-dance-library.ts [--shared ../shared]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { CMU_CREDIT, encodeLibrary, LIBRARY_FPS, type LibraryClip, retargetBvh } from '@mocap/dance';
import { bvh } from '@mocap/motion';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const shared = args.includes('--shared') ? args[args.indexOf('--shared') + 1] : join(root, '..', 'shared');
const dir = join(shared, 'testdata/bvh/cmu_more/chrystianosaraujo_motion-viewer/data/05');
/** Subject 05's dance takes (05_01 is a walk). */
export const TAKES = Array.from({ length: 19 }, (_, i) => `05_${String(i + 2).padStart(2, '0')}`);

const clips: LibraryClip[] = [];
for (const take of TAKES) {
  const t0 = performance.now();
  const doc = bvh.read(readFileSync(join(dir, `${take}.bvh`), 'utf8'));
  clips.push(retargetBvh(doc, `cmu_${take}`));
  console.log(`${take}: ${clips.at(-1)?.frameCount} frames in ${(performance.now() - t0).toFixed(0)} ms`);
}
const bytes = encodeLibrary({ fps: LIBRARY_FPS, clips, credits: CMU_CREDIT });
const gz = gzipSync(bytes, { level: 9 });
const out = join(root, 'packages/dance/assets/cmu-dance.mdl.gz');
writeFileSync(out, gz);
console.log(
  `${out}: ${clips.length} clips, ${(bytes.length / 1024).toFixed(0)} KiB raw, ${(gz.length / 1024).toFixed(0)} KiB gzip`,
);
