/**
 * `npm run models -w @mocap/vision [-- heavy full lite]`: converts the tracking models (detector, the pose
 * models named — default all three — hands, face, iris) into the model cache (`MOCAP_CACHE_DIR`, default
 * `~/.cache/mocap`) at install time, so neither the worker's start nor its first job converts anything.
 * scripts/start.sh runs it after `npm install`. Prints one line per model.
 */

import { cacheDir } from './convert/cache.ts';
import type { PoseModel } from './models.ts';
import { convertTrackingModels } from './pipeline.ts';

const POSE_MODELS: readonly PoseModel[] = ['heavy', 'full', 'lite'];
const asked = process.argv
  .slice(2)
  .filter((a): a is PoseModel => (POSE_MODELS as readonly string[]).includes(a));
const unknown = process.argv.slice(2).filter((a) => !(POSE_MODELS as readonly string[]).includes(a));
if (unknown.length > 0) {
  console.error(`unknown pose model(s): ${unknown.join(', ')} (expected: ${POSE_MODELS.join(', ')})`);
  process.exit(2);
}
const t0 = performance.now();
const done = await convertTrackingModels(asked.length > 0 ? asked : POSE_MODELS);
for (const m of done) console.log(`${m.name}: ${m.converted ? 'converted' : 'already cached'}`);
console.log(`models ready in ${cacheDir()} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
