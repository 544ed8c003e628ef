/** The shipped lifter weights (`lifter-weights.json`, see `lifter.ts` and `scripts/train/lifter.ts`). */
import weightsJson from './lifter-weights.json' with { type: 'json' };
import { Mlp, type MlpJson } from './mlp.ts';

let cached: Mlp | null = null;

/** The shipped lifter network (decoded once). */
export function lifterNetwork(): Mlp {
  cached ??= Mlp.fromJson(weightsJson as unknown as MlpJson);
  return cached;
}

/** Training metadata of the shipped weights (data, commit, validation error). */
export function lifterMeta(): Record<string, unknown> {
  return (weightsJson as unknown as MlpJson).meta ?? {};
}
