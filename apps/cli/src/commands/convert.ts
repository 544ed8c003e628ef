import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, extname } from 'node:path';
import {
  BONE_TYPES,
  type BoneType,
  bvh,
  EXPORT_FORMATS,
  type ExportFormat,
  exportBoneType,
  exportFormat,
  exportFps,
  type MotionClip,
  motionJson,
  resampleClip,
  type SolveOptions,
  solve,
} from '@mocap/motion';
import { TRACKS_FORMAT, type Tracks, trackVideo } from '@mocap/vision';
import { ProgressBar } from '../progress.ts';
import {
  EXPORT_FLAGS,
  exportTarget,
  fileCommand,
  parseEnum,
  parseNumber,
  TRACKING_FLAGS,
  trackingOptions,
} from './options.ts';
import { UsageError } from './types.ts';

const HELP = {
  summary: 'video or tracks.json → skeleton animation (.bvh, .json)',
  input: 'video or tracks.json file',
  usage: `mocap convert <video | tracks.json> -o <out.bvh | out.json | out.zip | out.<format>> [options]

Turns a video (tracked first) or a tracks file from \`mocap track\` into skeleton animation: a fixed-length
skeleton fitted to the landmarks, smoothed, with root motion, a floor and foot contacts.
Output by extension: .bvh (centimetres, Y up, ZXY rotation channels) or .json (mocap-motion: world joint
positions and local rotations per frame, metres); with --bone-type, a zip of that bone type's files, textures and
README.txt (or one file with --format).

Options:
  -o, --output <file>                    file to write (required): .bvh, .json, .zip (with --bone-type) or
                                         the --format's extension
  --bone-type <name>                     export for a product bone type: ${BONE_TYPES.join(', ')}
                                         (quote names with & or .; -o must end in .zip unless --format is given)
  --format <fmt>                         write one file: ${EXPORT_FORMATS.join('|')} (with --bone-type: on that bone
                                         type's rig; default rigs: fbx Mixamo, vmd MMD, anim Unity, others canonical)
  --lower-body                           key only the hips and legs (the lower-body download)
  --root-motion                          Unreal/CC rigs: move the root bone with the character
  --fps <n>                              frame rate of the files, a whole number (default: the nearest of
                                         24, 25, 30, 50, 60 to the video's; variable-rate video is resampled)
  --smoothing <0..1>                     temporal smoothing strength (default 0.5, 0 = none)
  --foot-lock auto|always|never|grounding
                                         foot locking mode (default auto)
  --root-at-origin                       keep the hips over the origin (vertical motion kept)
  --height <metres>                      subject's height (scales the skeleton; default as tracked)
  --fov <degrees>                        camera horizontal field of view (default: a 60° guess)
  --focal <pixels>                       camera focal length in pixels (overrides --fov)
  --model lite|full|heavy                body landmark model for a video (default heavy)
  --hands                                track both hands (fingers) for a video
  --face                                 track the face (ARKit blendshapes in .json) for a video
  --backend ort|tfjs                     inference backend for a video (default ort)`,
};

/** Reads and checks a tracks document. */
async function readTracks(path: string): Promise<Tracks> {
  let doc: unknown;
  try {
    doc = JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    throw new Error(`${path}: not a JSON tracks file (${err instanceof Error ? err.message : String(err)})`);
  }
  const t = doc as Partial<Tracks>;
  if (t.format !== TRACKS_FORMAT || !Array.isArray(t.frames) || !t.video) {
    throw new Error(`${path}: not a ${TRACKS_FORMAT} document`);
  }
  return t as Tracks;
}

/** The output bytes: a bone-type zip, one file of a format, or the plain .bvh/.json of the canonical clip. */
function writeOutput(
  clip: MotionClip,
  ext: string,
  single: ExportFormat | undefined,
  boneType: BoneType | undefined,
  options: { lowerBodyOnly: boolean; rootMotion: boolean; name: string; fps?: number },
): Uint8Array | string {
  if (single) return exportFormat(clip, single, { ...options, ...(boneType ? { boneType } : {}) }).bytes;
  if (boneType) return exportBoneType(clip, boneType, options).bytes;
  // The plain files too are written at a steady standard rate (as the exporters do).
  const steady = resampleClip(clip, exportFps(clip, options));
  return ext === '.bvh' ? bvh.write(steady) : motionJson.write(steady);
}

export const convert = fileCommand(
  HELP,
  {
    ...EXPORT_FLAGS,
    smoothing: { type: 'string' },
    'foot-lock': { type: 'string' },
    'root-at-origin': { type: 'boolean', default: false },
    height: { type: 'string' },
    fov: { type: 'string' },
    focal: { type: 'string' },
    'lower-body': { type: 'boolean', default: false },
    'root-motion': { type: 'boolean', default: false },
    fps: { type: 'string' },
    ...TRACKING_FLAGS,
  },
  async ({ values, input, output }) => {
    const { ext: format, boneType, single } = exportTarget(output, values);
    const fps = parseNumber('fps', values.fps, 1, 240);
    if (fps !== undefined && !Number.isInteger(fps))
      throw new UsageError(`--fps must be a whole number of frames per second (got '${values.fps}')`);
    const exportOptions = {
      lowerBodyOnly: values['lower-body'],
      rootMotion: values['root-motion'],
      name: input.replace(/^.*[\\/]/, ''),
      ...(fps !== undefined ? { fps } : {}),
    };
    const options: SolveOptions = {
      smoothing: parseNumber('smoothing', values.smoothing, 0, 1) ?? 0.5,
      footLock: parseEnum(
        'foot-lock',
        values['foot-lock'],
        ['auto', 'always', 'never', 'grounding'] as const,
        'auto',
      ),
      rootAtOrigin: values['root-at-origin'],
      height: parseNumber('height', values.height, 0.5, 3),
      fovDeg: parseNumber('fov', values.fov, 10, 170),
      focalLengthPx: parseNumber('focal', values.focal, 1, 1e6),
      hands: true,
      face: true,
    };
    const isTracks = extname(input).toLowerCase() === '.json';
    const tracking = trackingOptions(values);

    // One bar over the whole path: tracking (a video's frames), then solving (as many units again).
    const bar = new ProgressBar({ label: isTracks ? 'solving ' : 'tracking', unit: 'steps' });
    let tracks: Tracks;
    let trackTotal = 0;
    if (isTracks) {
      tracks = await readTracks(input);
    } else {
      tracks = await trackVideo(input, {
        ...tracking,
        onProgress: ({ done, total }) => {
          trackTotal = total;
          bar.update(done, 2 * total, 'tracking');
        },
      });
    }
    const n = Math.max(1, tracks.frames.length);
    const base = isTracks ? 0 : trackTotal || n;
    const total = base + n;
    const clip: MotionClip = solve(tracks, options, ({ fraction }) => {
      bar.update(base + Math.round(fraction * n), total, 'solving ');
    });
    const bytes = writeOutput(clip, format, single, boneType, exportOptions);
    await mkdir(dirname(output), { recursive: true });
    await writeFile(output, bytes);
    bar.update(total, total, 'done    ');
    const m = clip.metadata;
    process.stderr.write(
      `${output}: ${clip.frameCount} frames at ${clip.fps.toFixed(3)} fps, ${clip.skeleton.names.length} joints, ` +
        `height ${(m.height ?? 0).toFixed(2)} m, camera ${m.camera?.horizontalFovDeg.toFixed(0)}° (${m.camera?.source})` +
        `${clip.blendshapes ? `, ${clip.blendshapes.supported.length} blendshapes` : ''}\n`,
    );
    for (const w of [...tracks.warnings, ...(m.warnings ?? [])]) process.stderr.write(`warning: ${w}\n`);
    return 0;
  },
);
