/**
 * The clip side of the animation library (an adapter: the service gets it as `AnimationAssetsPort`): the shipped
 * CMU dance takes of `@mocap/dance` (read and gunzipped by `readShippedLibrary`, turned into canonical
 * MotionClips) and the bone-type packaging (`exportBoneType` of `@mocap/motion`, the same the video zips use).
 */
import { CMU_CREDIT, libraryClipToMotion } from '@mocap/dance';
import { readShippedLibrary } from '@mocap/dance/node';
import { exportBoneType, isBoneType, motionJson } from '@mocap/motion';
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
    packageZip(clipJson: string, boneType: string, baseName: string) {
      if (!isBoneType(boneType)) throw new Error(`unknown bone type "${boneType}"`);
      return exportBoneType(motionJson.read(clipJson), boneType, { name: baseName });
    },
  };
}
