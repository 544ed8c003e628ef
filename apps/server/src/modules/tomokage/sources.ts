/**
 * Motions a digital human can be driven by (an adapter: the service gets it as `MotionSources`): made video
 * captures (own or in the square), made music dances and published library animations (with whether the asking
 * user bought them), read through their own slices' repositories.
 */
import type { AnimationStore } from '../animation/ports.ts';
import { AnimationStatus } from '../animation/service.ts';
import type { MusicStore } from '../music/ports.ts';
import { MusicStatus } from '../music/ports.ts';
import type { VideoStore } from '../video/ports.ts';
import { VideoStatus } from '../video/ports.ts';
import type { MotionSource, MotionSources } from './service.ts';

/** A video capture or a music dance (an own one, or one in the square) as a motion source. */
function capture(
  kind: 'video' | 'music',
  r: { id: number; userId: number; name: string; durationMs: number; outputs: { clipKey?: string | null } },
  made: boolean,
  inSquare: boolean,
): MotionSource {
  const { id, userId, name, durationMs } = r;
  return { kind, id, userId, name, made, inSquare, durationMs, clipKey: r.outputs.clipKey ?? null };
}

/** A published library animation as a motion source (nobody's own; `bought` by the asking user or not). */
function libraryAnimation(
  a: { id: number; name: string; durationMs: number; clipKey: string; price: number },
  bought: boolean,
): MotionSource {
  const { id, name, durationMs, clipKey, price } = a;
  return {
    kind: 'animation',
    id,
    userId: 0,
    name,
    made: true,
    inSquare: false,
    durationMs,
    clipKey,
    bought,
    price,
  };
}

export function createMotionSources(
  videos: VideoStore,
  music: MusicStore,
  animations?: AnimationStore,
): MotionSources {
  return {
    async find(kind, id, userId) {
      if (kind === 'animation') {
        const a = animations ? await animations.repos.animation.findById(id) : null;
        if (!a || a.status !== AnimationStatus.PUBLISHED) return null;
        return libraryAnimation(a, (await animations!.repos.animation.purchasedOf(userId, [a.id])).has(a.id));
      }
      if (kind === 'video') {
        const v = await videos.repos.videos.findById(id);
        if (!v) return null;
        return capture('video', v, v.status === VideoStatus.MADE, v.inSquare);
      }
      const m = await music.repos.music.findById(id);
      if (!m) return null;
      return capture('music', m, m.status === MusicStatus.MADE, false);
    },
    async mine(userId, limit) {
      const out: MotionSource[] = [];
      const vs = await videos.repos.videos.list({ userId, status: [VideoStatus.MADE], page: 1, size: limit });
      for (const v of vs.list) if (v.outputs.clipKey) out.push(capture('video', v, true, v.inSquare));
      const ms = await music.repos.music.list({ userId, page: 1, size: limit });
      for (const m of ms.list)
        if (m.status === MusicStatus.MADE && m.outputs.clipKey) out.push(capture('music', m, true, false));
      if (animations)
        for (const a of await animations.repos.animation.boughtBy(userId, limit))
          out.push(libraryAnimation(a, true));
      return out;
    },
  };
}
