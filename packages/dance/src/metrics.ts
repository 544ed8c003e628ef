/**
 * Dance quality figures (bench and tests), computed from the clip's joint positions only.
 *
 * - Beat alignment score, AIST++ definition (Li et al. 2021, `calculate_beat_scores.py` of google/mint):
 *   kinematic beats = local minima of the summed joint speed within ±1/6 s (their `order=10` at 60 fps);
 *   BAS = mean over kinematic beats of `exp(−d² / (2σ²))`, d = distance to the nearest music beat, σ = 3
 *   frames at 60 fps = 0.05 s. Computed over the body joints of the canonical skeleton (AIST++: SMPL's 24).
 *   `beatAlignment(..., { from, to })` restricts it to kinematic beats in a time range (per tempo section).
 * - Foot sliding: for each foot, contact = the ball of the foot within 2 cm of the floor in two consecutive
 *   frames; sliding = its horizontal travel summed over each contact; reported as mean and 95th percentile
 *   per contact (cm), over contacts of at least 0.1 s.
 * - Floating: frames with both feet (lowest point of each) more than 5 cm above the floor that are not part of
 *   a jump; a jump = a run of such frames no longer than 0.8 s in which the hips rise at least 3 cm above
 *   their height at take-off or leave the ground faster than 0.3 m/s.
 */

import { BODY_JOINTS, type MotionClip } from '@mocap/motion';
import { flightRuns, type Kinematics, kinematicBeats, kinematics } from './features.ts';

export function clipKinematics(clip: MotionClip): Kinematics {
  const body = BODY_JOINTS.map((x) => clip.skeleton.names.indexOf(x)).filter((j) => j >= 0);
  return kinematics(clip.skeleton, clip.rotations, clip.rootPositions, clip.frameCount, clip.fps, body);
}

/** Kinematic beat times (s) of a clip, AIST++ definition. */
export function clipKinematicBeats(k: Kinematics): number[] {
  return kinematicBeats(k.envelope, k.fps).map((f) => f / k.fps);
}

export function beatAlignment(
  kinBeats: number[],
  musicBeats: number[],
  range: { from?: number; to?: number } = {},
  sigma = 0.05,
): number {
  const from = range.from ?? Number.NEGATIVE_INFINITY;
  const to = range.to ?? Number.POSITIVE_INFINITY;
  const kb = kinBeats.filter((t) => t >= from && t < to);
  if (kb.length === 0 || musicBeats.length === 0) return 0;
  let s = 0;
  for (const t of kb) {
    let d = Number.POSITIVE_INFINITY;
    for (const m of musicBeats) d = Math.min(d, Math.abs(m - t));
    s += Math.exp(-(d * d) / (2 * sigma * sigma));
  }
  return s / kb.length;
}

export interface FootFigures {
  /** Mean horizontal travel of the ball of the foot per contact, cm. */
  slideMeanCm: number;
  /** 95th percentile, cm. */
  slideP95Cm: number;
  contacts: number;
  /** Frames with both feet above 5 cm outside jumps. */
  floatingFrames: number;
  /** Frames inside detected jumps. */
  jumpFrames: number;
}

export function footFigures(k: Kinematics, clip: MotionClip): FootFigures {
  const n = k.jointCount;
  const toes = [clip.skeleton.names.indexOf('leftToes'), clip.skeleton.names.indexOf('rightToes')];
  const slides: number[] = [];
  for (const side of [0, 1] as const) {
    let f = 0;
    while (f < k.frameCount) {
      if (k.toeLow[side][f] >= 0.02) {
        f++;
        continue;
      }
      let g = f;
      let travel = 0;
      while (g + 1 < k.frameCount && k.toeLow[side][g + 1] < 0.02) {
        const a = (g * n + toes[side]) * 3;
        const b = ((g + 1) * n + toes[side]) * 3;
        travel += Math.hypot(k.positions[b] - k.positions[a], k.positions[b + 2] - k.positions[a + 2]);
        g++;
      }
      if ((g - f + 1) / k.fps >= 0.1) slides.push(travel * 100);
      f = g + 1;
    }
  }
  slides.sort((a, b) => a - b);
  let floating = 0;
  let jumpFrames = 0;
  for (const r of flightRuns(k)) {
    if (r.jump) jumpFrames += r.end - r.start;
    else floating += r.end - r.start;
  }
  return {
    slideMeanCm: slides.length ? slides.reduce((a, b) => a + b, 0) / slides.length : 0,
    slideP95Cm: slides.length ? slides[Math.min(slides.length - 1, Math.floor(0.95 * slides.length))] : 0,
    contacts: slides.length,
    floatingFrames: floating,
    jumpFrames,
  };
}
