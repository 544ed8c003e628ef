/**
 * The file side of music uploads (an adapter: the service gets it as `AudioFilePort`): the content check by
 * ffprobe (`probeAudio` of `@mocap/dance/node`: an audio stream and no real video stream), md5, size, removal.
 */
import { probeAudio } from '@mocap/dance/node';
import type { AudioFilePort, ProbedAudio } from '../../modules/music/ports.ts';
import { fileBasics } from './video-files.ts';

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
    ...fileBasics,
  };
}
