/**
 * Motions a digital human can be driven by (an adapter: the service gets it as `MotionSources`): made video
 * captures (own or in the square) and made music dances, read through their own slices' repositories.
 */
import type { MusicStore } from '../music/repo.ts';
import { MusicStatus } from '../music/service.ts';
import { VideoStatus } from '../video/ports.ts';
import type { createVideoStore } from '../video/store.ts';
import type { MotionSource, MotionSources } from './service.ts';

export function createMotionSources(
  videos: ReturnType<typeof createVideoStore>,
  music: MusicStore,
): MotionSources {
  return {
    async find(kind, id) {
      if (kind === 'video') {
        const v = await videos.repos.videos.findById(id);
        if (!v) return null;
        return {
          kind,
          id: v.id,
          userId: v.userId,
          name: v.name,
          made: v.status === VideoStatus.MADE,
          inSquare: v.inSquare,
          durationMs: v.durationMs,
          clipKey: v.outputs.clipKey ?? null,
        };
      }
      const m = await music.repos.music.findById(id);
      if (!m) return null;
      return {
        kind,
        id: m.id,
        userId: m.userId,
        name: m.name,
        made: m.status === MusicStatus.MADE,
        inSquare: false,
        durationMs: m.durationMs,
        clipKey: m.outputs.clipKey ?? null,
      };
    },
    async mine(userId, limit) {
      const out: MotionSource[] = [];
      const vs = await videos.repos.videos.list({ userId, status: [VideoStatus.MADE], page: 1, size: limit });
      for (const v of vs.list)
        if (v.outputs.clipKey)
          out.push({
            kind: 'video',
            id: v.id,
            userId,
            name: v.name,
            made: true,
            inSquare: v.inSquare,
            durationMs: v.durationMs,
            clipKey: v.outputs.clipKey,
          });
      const ms = await music.repos.music.list({ userId, page: 1, size: limit });
      for (const m of ms.list)
        if (m.status === MusicStatus.MADE && m.outputs.clipKey)
          out.push({
            kind: 'music',
            id: m.id,
            userId,
            name: m.name,
            made: true,
            inSquare: false,
            durationMs: m.durationMs,
            clipKey: m.outputs.clipKey,
          });
      return out;
    },
  };
}
