/**
 * The captures owners share to the library (an adapter: the video slice's store, read-only), as the animation
 * service's `AnimationVideosPort`.
 */
import type { VideoStore } from '../video/ports.ts';
import { VideoStatus } from '../video/ports.ts';
import type { AnimationVideosPort } from './ports.ts';

export function createAnimationVideos(videos: VideoStore): AnimationVideosPort {
  return {
    async find(videoId) {
      const v = await videos.repos.videos.findById(videoId);
      if (!v) return null;
      return {
        id: v.id,
        userId: v.userId,
        name: v.name,
        made: v.status === VideoStatus.MADE,
        inSquare: v.inSquare,
        clipKey: v.outputs.clipKey ?? null,
      };
    },
  };
}
