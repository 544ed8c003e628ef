import type { Backend, PoseModel, TrackVideoOptions } from '@mocap/vision';
import { UsageError } from './types.ts';

/** Argument parsing shared by the commands. */

export function parseEnum<T extends string>(
  name: string,
  value: string | undefined,
  allowed: readonly T[],
  dflt: T,
): T {
  if (value === undefined) return dflt;
  if (!allowed.includes(value as T))
    throw new UsageError(`--${name} must be one of ${allowed.join(', ')} (got '${value}')`);
  return value as T;
}

export function parseNumber(
  name: string,
  value: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be a number from ${min} to ${max} (got '${value}')`);
  }
  return n;
}

/** The `parseArgs` spec of the flags that choose how a video is tracked. */
export const TRACKING_FLAGS = {
  model: { type: 'string' },
  hands: { type: 'boolean', default: false },
  face: { type: 'boolean', default: false },
  backend: { type: 'string' },
} as const;

export function trackingOptions(values: {
  model?: string;
  hands?: boolean;
  face?: boolean;
  backend?: string;
}): Pick<TrackVideoOptions, 'model' | 'hands' | 'face' | 'backend'> {
  return {
    model: parseEnum<PoseModel>('model', values.model, ['lite', 'full', 'heavy'], 'heavy'),
    backend: parseEnum<Backend>('backend', values.backend, ['ort', 'tfjs'], 'ort'),
    hands: values.hands ?? false,
    face: values.face ?? false,
  };
}
