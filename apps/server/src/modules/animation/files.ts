/**
 * The clip side of the animation library (an adapter: the service gets it as `AnimationAssetsPort`): the shipped
 * CMU dance takes of `@mocap/dance` (read and gunzipped by `readShippedLibrary`, turned into canonical
 * MotionClips). The bone-type zips are written by the worker's export job (`apps/worker/src/export.ts`).
 */
import { CMU_CREDIT, libraryClipToMotion } from '@mocap/dance';
import { readShippedLibrary } from '@mocap/dance/node';
import { motionJson } from '@mocap/motion';
import type { AnimationAssetsPort, ShippedAnimation } from './ports.ts';

export function createAnimationAssets(): AnimationAssetsPort {
  return {
    shipped(): ShippedAnimation[] {
      const lib = readShippedLibrary();
      return lib.clips.map((c) => {
        const take = c.name.replace(/^cmu_/, '');
        return {
          ref: c.name,
          name: `CMU dance ${take}`,
          category: 'dance',
          tags: ['dance', 'CMU', `subject ${take.split('_')[0]}`],
          credit: CMU_CREDIT,
          frameCount: c.frameCount,
          fps: lib.fps,
          clipJson: motionJson.write(libraryClipToMotion(c, lib.fps)),
        };
      });
    },
  };
}
