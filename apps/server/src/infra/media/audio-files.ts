/**
 * The file side of music uploads (an adapter: the service gets it as `AudioFilePort`): the content check by
 * ffprobe (`probeAudio` of `@mocap/dance/node`: an audio stream and no real video stream), md5, size, removal.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { probeAudio } from '@mocap/dance/node';
import type { AudioFilePort, ProbedAudio } from '../../modules/music/ports.ts';

export function createAudioFilePort(): AudioFilePort {
  return {
    async probe(path: string): Promise<ProbedAudio> {
      try {
        const p = await probeAudio(path);
        return { audio: true, durationS: p.duration, format: p.format, codec: p.codec };
      } catch {
        return { audio: false, durationS: 0, format: '', codec: '' };
      }
    },
    md5(path: string): Promise<string> {
      return new Promise((resolve, reject) => {
        const h = createHash('md5');
        createReadStream(path)
          .on('data', (c) => h.update(c))
          .on('end', () => resolve(h.digest('hex')))
          .on('error', reject);
      });
    },
    async size(path: string): Promise<number> {
      return (await stat(path)).size;
    },
    async remove(path: string): Promise<void> {
      await rm(path, { force: true });
    },
  };
}
