import { access, mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { analyzeMusic, generateDance } from '@mocap/dance';
import { decodeAudioFile, probeAudio, shippedLibrary } from '@mocap/dance/node';
import { BONE_TYPES, bvh, EXPORT_FORMATS, exportBoneType, exportFormat, motionJson } from '@mocap/motion';
import { ProgressBar } from '../progress.ts';
import { EXPORT_FLAGS, exportTarget, fileCommand, parseNumber } from './options.ts';
import { UsageError } from './types.ts';

const HELP = {
  summary: 'music (wav, mp3, m4a, ogg) → a dance (.bvh, .json, bone-type zip)',
  input: 'audio file',
  usage: `mocap dance <audio> -o <out.zip | out.bvh | out.json | out.<format>> [options]

Makes a dance that follows the music: the track's tempo, beats, accents and energy are analysed, and a dance is
put together from a library of motion capture (CMU, retargeted to the canonical skeleton) with its movement
beats time-warped onto the music's beats, feet locked on the floor. Audio: anything ffmpeg decodes (WAV, MP3,
M4A/AAC, OGG, FLAC), checked by content.
Output by extension: .bvh or .json (the canonical clip), a bone type's zip with --bone-type, or one file with
--format.

Options:
  -o, --output <file>        file to write (required)
  --bone-type <name>         export for a product bone type: ${BONE_TYPES.join(', ')}
                             (-o must end in .zip unless --format is given)
  --format <fmt>             write one file: ${EXPORT_FORMATS.join('|')}
  --seed <n>                 another seed gives another dance for the same music (default 1)
  --max-seconds <s>          dance only the first s seconds (default: the whole track, at most 600)`,
};

export const dance = fileCommand(
  HELP,
  { ...EXPORT_FLAGS, seed: { type: 'string' }, 'max-seconds': { type: 'string' } },
  async ({ values, input, output }) => {
    const { ext, boneType, single } = exportTarget(output, values);
    const seed = parseNumber('seed', values.seed, 0, 2 ** 31) ?? 1;
    if (!Number.isInteger(seed)) throw new UsageError(`--seed must be a whole number (got '${values.seed}')`);
    const maxSeconds = parseNumber('max-seconds', values['max-seconds'], 1, 600) ?? 600;

    try {
      await access(input);
    } catch {
      throw new Error(`${input}: no such file`);
    }
    const bar = new ProgressBar({ label: 'decoding ', unit: '%' });
    bar.update(0, 100, 'decoding ');
    const probe = await probeAudio(input).catch(() => {
      throw new Error(`${input}: not an audio file (ffprobe found no audio stream)`);
    });
    const audio = await decodeAudioFile(input, { maxSeconds });
    bar.update(10, 100, 'analysing');
    const analysis = analyzeMusic(audio, (p) => {
      if (p.stage === 'spectrum') bar.update(10 + Math.round(p.fraction * 30), 100, 'analysing');
    });
    bar.update(45, 100, 'dancing  ');
    const prep = shippedLibrary();
    const { clip, steps } = generateDance(analysis, prep, {
      seed,
      onProgress: (f) => bar.update(50 + Math.round(f * 30), 100, 'dancing  '),
    });
    bar.update(85, 100, 'exporting');
    const name = input.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '') || 'dance';
    const bytes = single
      ? exportFormat(clip, single, { name, ...(boneType ? { boneType } : {}) }).bytes
      : boneType
        ? exportBoneType(clip, boneType, { name }).bytes
        : ext === '.bvh'
          ? bvh.write(clip)
          : motionJson.write(clip);
    await mkdir(dirname(output), { recursive: true });
    await writeFile(output, bytes);
    bar.update(100, 100, 'done     ');
    process.stderr.write(
      `${output}: ${clip.frameCount} frames at ${clip.fps} fps (${analysis.duration.toFixed(1)} s of ${probe.codec}), ` +
        `${analysis.tempo.toFixed(0)} BPM, ${analysis.beats.length} beats, ${steps.length} moves, seed ${seed}\n` +
        `motion: ${prep.credits}\n`,
    );
    return 0;
  },
);
