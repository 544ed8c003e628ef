import { extname } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { BONE_TYPES, type BoneType, EXPORT_FORMATS, type ExportFormat, isBoneType } from '@mocap/motion';
import type { Backend, PoseModel, TrackVideoOptions } from '@mocap/vision';
import { type Command, UsageError } from './types.ts';

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

/** The `parseArgs` spec of -o/--output. */
export const OUTPUT_FLAG = { output: { type: 'string', short: 'o' } } as const;
/** The `parseArgs` spec of the flags that choose what is written: a bone type's zip or one file of a format. */
export const EXPORT_FLAGS = { 'bone-type': { type: 'string' }, format: { type: 'string' } } as const;

type Flags = NonNullable<ParseArgsConfig['options']>;

/**
 * A command's arguments: its flags (with -o/--output), the one input file and the -o file, both required (`what`:
 * which input, for the message).
 */
export function parseInputOutput<const O extends Flags>(args: string[], options: O, what: string) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { ...OUTPUT_FLAG, ...options } as typeof OUTPUT_FLAG & O,
  });
  const { output } = values as { output?: string };
  if (positionals.length !== 1) throw new UsageError(`give exactly one ${what}`);
  if (!output) throw new UsageError('-o/--output is required');
  return { values, input: positionals[0], output };
}

/** What a command of one input file and one -o file runs with: its flags' values, the input and the output. */
export type FileArgs<O extends Flags> = ReturnType<typeof parseInputOutput<O>>;

/**
 * A command that reads one input file and writes the -o file: its summary and usage, which input it takes (for
 * the message), its flags besides -o, and what it does once they are parsed and checked.
 */
export function fileCommand<const O extends Flags>(
  help: Pick<Command, 'summary' | 'usage'> & { input: string },
  flags: O,
  run: (args: FileArgs<O>) => Promise<number>,
): Command {
  return {
    summary: help.summary,
    usage: help.usage,
    run: (args) => run(parseInputOutput(args, flags, help.input)),
  };
}

/**
 * What to write, from --bone-type, --format and -o's extension, checked together: a bone type's zip (.zip), one
 * file of a format (its extension; of the bone type's character when both are given), else .bvh or .json.
 */
export function exportTarget(
  output: string,
  values: { 'bone-type'?: string; format?: string },
): { ext: string; boneType: BoneType | undefined; single: ExportFormat | undefined } {
  const ext = extname(output).toLowerCase();
  const boneType = values['bone-type'];
  if (boneType !== undefined && !isBoneType(boneType))
    throw new UsageError(`--bone-type must be one of ${BONE_TYPES.join(', ')} (got '${boneType}')`);
  const single =
    values.format === undefined ? undefined : parseEnum('format', values.format, EXPORT_FORMATS, 'fbx');
  const expectedExt = single ? `.${single}` : boneType ? '.zip' : null;
  if (expectedExt && ext !== expectedExt)
    throw new UsageError(
      `-o must end in ${expectedExt} for ${single ? `--format ${single}` : '--bone-type'}`,
    );
  if (!expectedExt && ext !== '.bvh' && ext !== '.json')
    throw new UsageError('-o must end in .bvh or .json (or use --bone-type / --format)');
  return { ext, boneType, single };
}
