/**
 * Node-side helpers of @mocap/dance (`@mocap/dance/node`): not part of the pure front door because they use
 * the file system and child processes. Audio is probed with ffprobe and decoded with ffmpeg (WAV, MP3, M4A/AAC,
 * OGG/Vorbis/Opus, FLAC: whatever the system's ffmpeg reads), and the shipped library is read and gunzipped.
 */
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { AudioBuffer } from './analysis.ts';
import { decodeLibrary, type Library } from './library.ts';
import { type PreparedLibrary, prepareLibrary } from './synth.ts';

export const LIBRARY_PATH = join(dirname(fileURLToPath(import.meta.url)), '../assets/cmu-dance.mdl.gz');

let prepared: PreparedLibrary | null = null;

/** The shipped CMU dance library, decoded (not cached). */
export function readShippedLibrary(): Library {
  return decodeLibrary(gunzipSync(readFileSync(LIBRARY_PATH)));
}

/** The shipped library, prepared once per process. */
export function shippedLibrary(): PreparedLibrary {
  prepared ??= prepareLibrary(readShippedLibrary());
  return prepared;
}

export interface AudioProbe {
  /** Container format names as ffprobe gives them (e.g. `wav`, `mp3`, `mov,mp4,m4a,3gp,3g2,mj2`, `ogg`). */
  format: string;
  /** Audio codec of the first audio stream. */
  codec: string;
  duration: number;
  sampleRate: number;
  channels: number;
}

/** Probes a file's content with ffprobe; throws `Error('not an audio file')` when it has no audio stream or has a real video stream. */
export function probeAudio(path: string): Promise<AudioProbe> {
  return new Promise((resolve, reject) => {
    execFile(
      'ffprobe',
      [
        '-v',
        'error',
        '-show_entries',
        'format=format_name,duration:stream=codec_type,codec_name,sample_rate,channels,duration:stream_disposition=attached_pic',
        '-of',
        'json',
        path,
      ],
      { maxBuffer: 1 << 20 },
      (err, stdout) => {
        if (err) {
          reject(new Error('not an audio file'));
          return;
        }
        try {
          const j = JSON.parse(stdout) as {
            format?: { format_name?: string; duration?: string };
            streams?: {
              codec_type?: string;
              codec_name?: string;
              sample_rate?: string;
              channels?: number;
              duration?: string;
              disposition?: { attached_pic?: number };
            }[];
          };
          const streams = j.streams ?? [];
          const audio = streams.find((s) => s.codec_type === 'audio');
          const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
          const duration = Number(j.format?.duration ?? audio?.duration);
          if (!audio || video || !(duration > 0)) {
            reject(new Error('not an audio file'));
            return;
          }
          resolve({
            format: j.format?.format_name ?? '',
            codec: audio.codec_name ?? '',
            duration,
            sampleRate: Number(audio.sample_rate) || 0,
            channels: audio.channels ?? 0,
          });
        } catch {
          reject(new Error('not an audio file'));
        }
      },
    );
  });
}

/** Decodes a file to mono float PCM at `sampleRate` (default 22050 Hz) with ffmpeg, at most `maxSeconds`. */
export function decodeAudioFile(
  path: string,
  options: { sampleRate?: number; maxSeconds?: number } = {},
): Promise<AudioBuffer> {
  const sampleRate = options.sampleRate ?? 22050;
  const args = ['-v', 'error', '-nostdin', '-i', path, '-vn', '-ac', '1', '-ar', String(sampleRate)];
  if (options.maxSeconds) args.push('-t', String(options.maxSeconds));
  args.push('-f', 'f32le', '-');
  return new Promise((resolve, reject) => {
    const p = spawn('ffmpeg', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let err = '';
    p.stdout.on('data', (c: Buffer) => chunks.push(c));
    p.stderr.on('data', (c: Buffer) => {
      err += c.toString();
    });
    p.on('error', reject);
    p.on('close', (code) => {
      if (code !== 0) {
        reject(new Error(`ffmpeg could not decode the audio: ${err.trim().split('\n').pop() ?? code}`));
        return;
      }
      const buf = Buffer.concat(chunks);
      const samples = new Float32Array(buf.length >> 2);
      for (let i = 0; i < samples.length; i++) samples[i] = buf.readFloatLE(i * 4);
      if (samples.length === 0) {
        reject(new Error('the audio has no samples'));
        return;
      }
      resolve({ samples, sampleRate });
    });
  });
}

/** Writes mono float PCM as a 16-bit WAV file's bytes (tests, previews). */
export function wavBytes(audio: AudioBuffer): Uint8Array {
  const n = audio.samples.length;
  const buf = Buffer.alloc(44 + 2 * n);
  buf.write('RIFF', 0);
  buf.writeUInt32LE(36 + 2 * n, 4);
  buf.write('WAVE', 8);
  buf.write('fmt ', 12);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(audio.sampleRate, 24);
  buf.writeUInt32LE(audio.sampleRate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36);
  buf.writeUInt32LE(2 * n, 40);
  for (let i = 0; i < n; i++)
    buf.writeInt16LE(Math.round(Math.max(-1, Math.min(1, audio.samples[i])) * 32767), 44 + 2 * i);
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
}
