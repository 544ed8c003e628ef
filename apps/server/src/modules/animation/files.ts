/**
 * The clip side of the animation library (an adapter: the service gets it as `AnimationAssetsPort`): the shipped
 * CMU dance takes of `@mocap/dance` (read and gunzipped by `readShippedLibrary`, turned into canonical
 * MotionClips) and their pictures (the library's thumbnails: `pictureSvg`). The bone-type zips are written by
 * the worker's export job (`apps/worker/src/export.ts`).
 */
import { CMU_CREDIT, libraryClipToMotion } from '@mocap/dance';
import { readShippedLibrary } from '@mocap/dance/node';
import { forwardKinematics, motionJson } from '@mocap/motion';
import type { AnimationAssetsPort, ShippedAnimation } from './ports.ts';

export function createAnimationAssets(): AnimationAssetsPort {
  return {
    picture: pictureSvg,
    clipInfo(clipJson: string) {
      try {
        const c = motionJson.read(clipJson);
        return { frameCount: c.frameCount, fps: c.fps };
      } catch {
        return null;
      }
    },
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

/**
 * The library card's picture, rendered from the clip: four poses of the take (at 1/8, 3/8, 5/8 and 7/8 of it) side
 * by side, seen from the front (x, y of the forward kinematics), each centred on its hips, limbs as strokes (left
 * side lighter), the head a circle, on a floor line; at most 78 px per metre, less when a pose would leave its
 * quarter or the top. SVG, 320 × 160.
 */
export function pictureSvg(clipJson: string): string {
  const clip = motionJson.read(clipJson);
  const { positions } = forwardKinematics(clip);
  const sk = clip.skeleton;
  const n = sk.names.length;
  const W = 320;
  const H = 160;
  const poses = 4;
  const floor = H - 10;
  let minY = Number.POSITIVE_INFINITY;
  for (let f = 0; f < clip.frameCount; f++)
    for (let j = 0; j < n; j++) minY = Math.min(minY, positions[(f * n + j) * 3 + 1]!);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">`,
    `<rect width="${W}" height="${H}" rx="10" fill="#161a24"/>`,
    `<line x1="8" y1="${floor}" x2="${W - 8}" y2="${floor}" stroke="#2e3546" stroke-width="2"/>`,
  ];
  const head = sk.names.indexOf('head');
  const frames = Array.from({ length: poses }, (_, k) =>
    Math.min(clip.frameCount - 1, Math.floor(((k + 0.5) / poses) * clip.frameCount)),
  );
  // Fit every pose in its quarter and under the top edge (arms stretched out, jumps).
  let spread = 0.01;
  let top = 0.01;
  for (const f of frames)
    for (let j = 0; j < n; j++) {
      spread = Math.max(spread, Math.abs(positions[(f * n + j) * 3]! - positions[f * n * 3]!));
      top = Math.max(top, positions[(f * n + j) * 3 + 1]! - minY);
    }
  const scale = Math.min(78, (W / poses / 2 - 5) / spread, (floor - 20) / top);
  for (let k = 0; k < poses; k++) {
    const f = frames[k]!;
    const at = (j: number) => positions[(f * n + j) * 3 + 0]!;
    const hipsX = at(0);
    const cx = (W / poses) * (k + 0.5);
    const px = (j: number) => (cx + (at(j) - hipsX) * scale).toFixed(1);
    const py = (j: number) => (floor - (positions[(f * n + j) * 3 + 1]! - minY) * scale).toFixed(1);
    const hue = 250 - k * 25;
    for (let j = 1; j < n; j++) {
      const p = sk.parents[j]!;
      if (/Index|Middle|Ring|Pinky|Thumb/.test(sk.names[j]!)) continue;
      const left = /^left/.test(sk.names[j]!);
      parts.push(
        `<line x1="${px(p)}" y1="${py(p)}" x2="${px(j)}" y2="${py(j)}" stroke="hsl(${hue} 80% ${left ? 78 : 62}%)" stroke-width="${left ? 3 : 3.5}" stroke-linecap="round"/>`,
      );
    }
    if (head >= 0)
      parts.push(
        `<circle cx="${px(head)}" cy="${(Number(py(head)) - 7).toFixed(1)}" r="7" fill="hsl(${hue} 80% 70%)"/>`,
      );
  }
  parts.push('</svg>');
  return parts.join('');
}
