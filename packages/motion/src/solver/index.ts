/**
 * The solver: `solve(tracks, options, onProgress?) → MotionClip`, the second stage of the capture path.
 * A pure function of its inputs (no file system, no clock, no randomness).
 *
 * Pipeline (each step in its own module):
 * 1. `input.ts`   tracks → uniformly sampled body-space landmarks with visibility weights (VFR resampled);
 *                 frames where the tracker swapped the left and right legs are relabelled (`fixLegSwaps`).
 *                 Depth (default `depth: 'lifter'`): the world landmarks' depths are fused with those of the
 *                 learned 2D → 3D lifter (`lifter.ts`, `liftInto`), the lifter's share growing with how far
 *                 the world landmarks disagree with the image (`worldImageDisagreement`).
 * 2. `camera.ts`  camera model (focal from metadata/option, or a 60° FOV guess); per-frame camera-space root
 *                 translation from the image landmarks and the world-landmark shape.
 * 3. fusion       image landmarks lifted to the world landmarks' depth are fused with the world landmarks
 *                 per axis by their noise levels (estimated from the data), so the precise 2D evidence refines
 *                 the 3D shape: the fitted skeleton reprojects onto the image.
 * 4. `smooth.ts`  non-causal robust smoothing of every landmark track (strength `smoothing`), dropouts
 *                 bridged by their low weights.
 * 5. `model.ts`   calibration: bone lengths, foot/hand/face templates (symmetric), optional `height` scaling.
 * 6. `fit.ts`     per-frame analytic fit of the fixed-length skeleton with joint limits; a light smoothing of
 *                 joint rotations follows.
 * 7. root depth   the camera-space root of the fitted skeleton from the image scale (per frame, smoothed).
 * 8. `ground.ts`  up direction and floor from foot contacts, world frame (Y up, floor at 0, X = camera right,
 *                 origin under the first frame's hips), contacts (foot speed from the heel/toe image landmarks
 *                 lifted to the foot's depth; or, static camera, a foot point standing still in the picture
 *                 (`imageFootSpeeds`, < 0.3 body heights/s) near the floor and not fast in the fit), no
 *                 floating (unless the picture shows a jump, `imageJumps`, the hips come down until a sole
 *                 point is on the floor), foot locking, no foot below the floor.
 * 9. `hands.ts`, `face.ts`  finger rotations from hand tracks; ARKit blendshapes from the face mesh.
 */

import type { Tracks } from '@mocap/contracts';
import { type MotionClip, poseToWorld, type WorldPose } from '../clip.ts';
import {
  add,
  dot,
  length,
  median,
  mid,
  normalize,
  type Quat,
  qConj,
  qExp,
  qFromAxisAngle,
  qFromUnitVectors,
  qLog,
  qMul,
  qRotate,
  readQuat,
  readVec3,
  scale,
  sub,
  symmetricEigen,
  type Vec3,
  writeQuat,
  writeVec3,
} from '../math.ts';
import { hasFingers, SIDES, type Side, standingHeight } from '../skeleton.ts';
import { type CameraModel, cameraModel, project, solveTranslation } from './camera.ts';
import { solveFace } from './face.ts';
import { defaultPoles, fitFrame, framePoles, type Poles, solveLimb } from './fit.ts';
import {
  cleanFlags,
  currentLegPole,
  detectContacts,
  estimateUp,
  type FootLock,
  type FootLockMode,
  footPoints,
  IMAGE_CONTACT_SPEED,
  type ImageFootSpeed,
  lowestFootHeight,
  planFootLocks,
  type SupportLevels,
  supportLevels,
} from './ground.ts';
import { fingerLengthsFromTracks, solveFingers } from './hands.ts';
import { fixLegSwaps, type LandmarkSeries, LM, NUM_LANDMARKS, readLandmarks } from './input.ts';
import { liftFrames } from './lifter.ts';
import { lifterMeta, lifterNetwork } from './lifter-net.ts';
import { type BodyModel, buildModel, calibrate, predictLandmarks, scaleCalibration } from './model.ts';
import { posePrior } from './prior.ts';
import { enforceLimits, fitToImage, type ImageFitOptions, type ImageFitResult } from './reproject.ts';
import { smoothQuaternions, smoothSignal, smoothWithSteps } from './smooth.ts';

export type { FootLockMode } from './ground.ts';

export interface SolveOptions {
  /** Temporal smoothing strength 0..1 (0 = none; default 0.5). Non-causal; sharp hits are kept. */
  smoothing?: number;
  /** Foot locking mode (default `auto`). */
  footLock?: FootLockMode;
  /** Keep the hips over the origin (vertical motion kept). Default false. */
  rootAtOrigin?: boolean;
  /** Subject's standing height in metres; scales the skeleton (default: as measured by the tracker). */
  height?: number;
  /** Relabel frames where the tracker swapped the left and right legs (default true). */
  fixLegSwaps?: boolean;
  /** Focal length in pixels (e.g. from the video's metadata). */
  focalLengthPx?: number;
  /** True when `focalLengthPx` came from the video's metadata (recorded in the clip's metadata). */
  focalFromMetadata?: boolean;
  /** Horizontal field of view in degrees, when the focal length is unknown (default guess 60°). */
  fovDeg?: number;
  /** Solve fingers from hand tracks when present (default true). */
  hands?: boolean;
  /** Solve face blendshapes from face tracks when present (default true). */
  face?: boolean;
  /**
   * Depth evidence. `lifter` (default): BlazePose's world-landmark depths fused with the learned 2D → 3D
   * lifter's (`lifter.ts`), the lifter's share from how far the world landmarks disagree with the image
   * (`liftInto`); `world`: the world landmarks' depths alone (the solve before the lifter).
   */
  depth?: 'lifter' | 'world';
  /** With `depth: 'lifter'`: a fixed share of the lifter in every landmark's depth, 0..1, instead of the estimate. */
  lifterWeight?: number;
  /** Take the clip's median head pitch against the chest out of the face template (default true). */
  headNeutral?: boolean;
  /**
   * Fit the skeleton to the image landmarks after the 3D fit (`reproject.ts`; default true): the image is the
   * accurate evidence, the world landmarks keep only the depth ordering.
   */
  imageFit?: boolean;
  /**
   * Weight of the learned pose prior in the image fit (`prior.ts`; 1 = its negative log density as it is,
   * beside the image term's). Default 0 (off). Measured: on 8 rendered clips (BlazePose tracks) weight 1 takes
   * PA-MPJPE 103.9 → 99.5 mm and joint angles 18.5 → 17.4°, weight 3 to 97.3 mm; but on synthetic tracks of
   * held-out CMU trials with exact depths it moves a solve that was right (MPJPE 11–13 → 17–25 mm: the
   * mixture, from 86 trials, does not know other subjects' twists and knee habits), and with biased depths
   * it improves angles (−0.4 to −2°) but not positions. So it waits for more training data.
   */
  posePrior?: number;
  /**
   * A second image fit with the floor (default true): the lowest sole point held on the ground plane the
   * floor stage finds, in frames where the picture shows no jump (`reproject.ts`, option `floor`).
   */
  floorFit?: boolean;
}

export interface SolveProgress {
  stage: 'landmarks' | 'calibrate' | 'fit' | 'root' | 'ground' | 'hands' | 'face' | 'done';
  /** Overall fraction 0..1. */
  fraction: number;
}

/**
 * How `smoothing` (0..1) acts. Landmark tracks: 0 → no smoothing; otherwise each track's smoothing weight λ
 * is the one generalised cross-validation finds best for that track (noise against lag), times
 * `landmarkSmoothingScale(s)` = 2·10^(2(s-0.5)) (0.5 → 2×, 1 → 20×, 0.1 → 0.3×), kept between cut-offs of
 * 8 Hz and 0.8 Hz. Other tracks (joint rotations, root, pole vectors) use fixed cut-offs derived from
 * `smoothingCutoff(s)`: 16 Hz down to 1.5 Hz at 1 (log scale; 0.5 → 4.9 Hz). All are monotonic in s.
 */
export function landmarkSmoothingScale(smoothing: number): number {
  return 2 * 10 ** (2 * (Math.max(0, Math.min(1, smoothing)) - 0.5));
}

/** Cut-off frequency (Hz) of the rotation/root/pole smoothing for a strength (see above). */
export function smoothingCutoff(smoothing: number): number {
  const s = Math.max(0, Math.min(1, smoothing));
  return s > 0 ? 16 * (1.5 / 16) ** s : Number.POSITIVE_INFINITY;
}

/** Robust per-axis noise of a set of tracks: MAD of second differences (white noise σ). */
function noiseSigma(data: ArrayLike<number>, N: number, M: number, dims: number, axes: number[]): number {
  const vals: number[] = [];
  const step = Math.max(1, Math.floor(N / 2000));
  for (let f = 1; f + 1 < N; f += step) {
    for (let i = 0; i < M; i++) {
      for (const a of axes) {
        const o = (f * M + i) * dims + a;
        const r = data[o] - (data[o - M * dims] + data[o + M * dims]) / 2;
        if (Number.isFinite(r)) vals.push(Math.abs(r));
      }
    }
  }
  return (1.4826 * median(vals)) / Math.sqrt(1.5);
}

/** Solves a clip from tracks. Throws when no frame has a body. */
export function solve(
  tracks: Tracks,
  options: SolveOptions = {},
  onProgress?: (p: SolveProgress) => void,
): MotionClip {
  return solveDetailed(tracks, options, onProgress).clip;
}

export interface SolveDetails {
  clip: MotionClip;
  /** The fitted body model (proportions, landmark attachments). */
  model: BodyModel;
  /** Root (hips) position per frame in camera space `[N × 3]` (Y up, Z towards the viewer), metres: the
   *  clip's final root taken back through the world transform (with `rootAtOrigin`: the root before it). */
  rootCamera: Float64Array;
  camera: CameraModel;
  /**
   * The clip's world frame back to the solver's camera: `p_cam = rotate(rotation, p_world) + translation`
   * (absent with `rootAtOrigin`, whose root is not camera-consistent).
   */
  cameraFromWorld?: { rotation: Quat; translation: Vec3 };
}

/** `solve`, also returning the fitted body model and intermediate results (bench, tests, diagnostics). */
export function solveDetailed(
  tracks: Tracks,
  options: SolveOptions = {},
  onProgress?: (p: SolveProgress) => void,
): SolveDetails {
  const progress = (stage: SolveProgress['stage'], fraction: number) => onProgress?.({ stage, fraction });
  const warnings: string[] = [];
  const series = readLandmarks(tracks);
  const { N, fps } = series;
  const legSwaps = options.fixLegSwaps === false ? 0 : fixLegSwaps(series);
  if (legSwaps > 0) warnings.push(`${legSwaps} frames with the left and right legs swapped were relabelled`);
  let trackedCount = 0;
  for (let f = 0; f < N; f++) trackedCount += series.tracked[f];
  if (N === 0 || trackedCount === 0) throw new Error('solve: no frame with a tracked body');
  if (trackedCount < N) warnings.push(`${N - trackedCount} of ${N} frames without a body were interpolated`);
  const smoothing = Math.max(0, Math.min(1, options.smoothing ?? 0.5));
  const fc = smoothingCutoff(smoothing);
  const footLock: FootLockMode = options.footLock ?? 'auto';
  const fromFile = !options.focalLengthPx && !options.fovDeg ? tracks.video.focalLengthPx : undefined;
  const cam = cameraModel(
    series.width,
    series.height,
    fromFile ? { focalLengthPx: fromFile, focalFromMetadata: true } : options,
  );
  if (cam.source === 'fov-guess') {
    warnings.push(
      `focal length unknown: assumed a ${cam.horizontalFovDeg.toFixed(0)}° horizontal field of view`,
    );
  }
  progress('landmarks', 0.02);

  // 1. Depth evidence: the lifter's 3D landmarks from the image (scaled to the world landmarks' size), or
  // BlazePose's world landmarks. Optional pre-scaling to the requested height (the tracker's metric scale is
  // a population average).
  const world = Float64Array.from(series.world);
  if ((options.depth ?? 'lifter') === 'lifter')
    liftInto(series, world, options.lifterWeight ?? lifterShare(worldImageDisagreement(cam, series)));
  if (options.height && options.height > 0) {
    const c0 = calibrate({ N, points: world, weight: series.weight });
    const k = options.height / standingHeight(c0.proportions);
    for (let i = 0; i < world.length; i++) world[i] *= k;
  }

  // 2. Camera-space root translation from the world-landmark shape and the image.
  const T0 = rootTranslations(
    cam,
    series,
    (f, out) => out.set(world.subarray(f * 99, f * 99 + 99)),
    null,
    fps,
    fc,
  );
  progress('landmarks', 0.1);

  // 3. Fusion of world and image landmarks.
  const sigmaW = Math.min(0.1, Math.max(0.003, noiseSigma(world, N, NUM_LANDMARKS, 3, [0, 1])));
  const sigmaPx = Math.min(30, Math.max(0.5, noiseSigma(series.image, N, NUM_LANDMARKS, 2, [0, 1])));
  const fused = fuse(cam, series, world, T0.smoothed, sigmaW, sigmaPx);

  // 4. Smoothing of every landmark track.
  const points = new Float64Array(N * NUM_LANDMARKS * 3);
  const wts = new Float64Array(N);
  const track = new Float64Array(N * 3);
  for (let i = 0; i < NUM_LANDMARKS; i++) {
    for (let f = 0; f < N; f++) {
      wts[f] = series.weight[f * NUM_LANDMARKS + i];
      for (let a = 0; a < 3; a++) track[f * 3 + a] = fused[(f * NUM_LANDMARKS + i) * 3 + a];
    }
    const z = smoothSignal(track, N, 3, wts, {
      cutoffHz: Number.isFinite(fc) ? 8 : fc,
      fps,
      order: 2,
      auto: { scale: landmarkSmoothingScale(smoothing), minCutoffHz: 0.8 },
    });
    for (let f = 0; f < N; f++)
      for (let a = 0; a < 3; a++) points[(f * NUM_LANDMARKS + i) * 3 + a] = z[f * 3 + a];
  }
  // Confidence for orientation fits: weights smoothed over ±2 frames, never exactly zero.
  const conf = new Float64Array(N * NUM_LANDMARKS);
  for (let f = 0; f < N; f++) {
    for (let i = 0; i < NUM_LANDMARKS; i++) {
      let s = 0;
      let c = 0;
      for (let g = Math.max(0, f - 2); g <= Math.min(N - 1, f + 2); g++) {
        s += series.weight[g * NUM_LANDMARKS + i];
        c++;
      }
      conf[f * NUM_LANDMARKS + i] = Math.max(0.02, s / c);
    }
  }
  progress('calibrate', 0.3);

  // 5. Calibration.
  let cal = calibrate({ N, points, weight: series.weight });
  const handsOn =
    options.hands !== false && tracks.frames.some((fr) => fr.hands && (fr.hands.left || fr.hands.right));
  const fingerLengths = handsOn ? fingerLengthsFromTracks(tracks, cal.proportions.palm) : undefined;
  const templates = {
    hand: cal.hand,
    face: cal.face,
    headFromEars: cal.headFromEars,
    footLateral: cal.footLateral,
  };
  let model = buildModel(cal.proportions, templates, handsOn, fingerLengths);
  let fingerLens = fingerLengths;
  const poles = smoothPoles(points, N, fps, fc, standingHeight(cal.proportions));
  const targetsAt = (f: number) => ({
    points: points.subarray(f * NUM_LANDMARKS * 3, (f + 1) * NUM_LANDMARKS * 3),
    weights: conf.subarray(f * NUM_LANDMARKS, (f + 1) * NUM_LANDMARKS),
    poles: poles[f],
  });
  // Neck length: where the fitted chest puts the neck joint vs where the face puts the head joint.
  {
    const n0 = model.skeleton.names.length;
    const tmp = new Float64Array(n0 * 4);
    const pose0: WorldPose = { positions: new Float64Array(n0 * 3), rotations: new Float64Array(n0 * 4) };
    const reach: number[] = [];
    const stride = Math.max(1, Math.floor(N / 300));
    for (let f = 0; f < N; f += stride) {
      const faceOk = [LM.leftEar, LM.rightEar, LM.nose].every(
        (i) => series.weight[f * NUM_LANDMARKS + i] > 0.7,
      );
      if (!faceOk) continue;
      const r = fitFrame(model, targetsAt(f), tmp, 0, pose0).neckReach;
      if (Number.isFinite(r)) reach.push(r);
    }
    if (reach.length >= 3) {
      cal = { ...cal, proportions: { ...cal.proportions, neck: median(reach) } };
      model = buildModel(cal.proportions, templates, handsOn, fingerLengths);
    }
  }
  if (options.height && options.height > 0) {
    // Exactly the requested height: scale the body and the data it is fitted to.
    const k = options.height / standingHeight(cal.proportions);
    cal = scaleCalibration(cal, k);
    for (let i = 0; i < points.length; i++) points[i] *= k;
    for (let i = 0; i < T0.smoothed.length; i++) T0.smoothed[i] *= k;
    const scaledLengths = fingerLengths
      ? Object.fromEntries(Object.entries(fingerLengths).map(([name, l]) => [name, l * k]))
      : undefined;
    fingerLens = scaledLengths;
    model = buildModel(
      cal.proportions,
      { hand: cal.hand, face: cal.face, headFromEars: cal.headFromEars, footLateral: cal.footLateral },
      handsOn,
      scaledLengths,
    );
  }
  const sk = model.skeleton;
  const n = sk.names.length;

  // 6. Per-frame fit, rotation smoothing.
  const local = new Float64Array(N * n * 4);
  const rootBody = new Float64Array(N * 3);
  const pose: WorldPose = { positions: new Float64Array(n * 3), rotations: new Float64Array(n * 4) };
  for (let f = 0; f < N; f++) writeVec3(rootBody, f, fitFrame(model, targetsAt(f), local, f * n, pose).root);
  progress('fit', 0.55);
  if (Number.isFinite(fc)) {
    const q = new Float64Array(N * 4);
    for (let j = 0; j < n; j++) {
      for (let f = 0; f < N; f++) for (let c = 0; c < 4; c++) q[f * 4 + c] = local[(f * n + j) * 4 + c];
      const z = smoothQuaternions(q, N, null, { cutoffHz: fc * 1.5, fps, order: 2, robustIterations: 1 });
      for (let f = 0; f < N; f++) for (let c = 0; c < 4; c++) local[(f * n + j) * 4 + c] = z[f * 4 + c];
    }
  }

  // 6b. Head neutral. The face template is calibrated from the world landmarks, whose face depths are biased
  // (in front views the mouth comes out nearer the camera than the eyes), which pitches every head forward
  // by the same amount. People hold their heads about neutral over a clip, so the clip's median head pitch
  // against the chest (beyond ±5°, at most 35°) is taken out of the template and of every frame's head.
  if (options.headNeutral !== false) {
    const pitches: number[] = [];
    for (let f = 0; f < N; f++) {
      if (!series.tracked[f]) continue;
      const q = qMul(readQuat(local, f * n + model.joint.neck), readQuat(local, f * n + model.joint.head));
      const y = qRotate(q, [0, 1, 0]);
      pitches.push(Math.atan2(y[2], y[1]));
    }
    const med = pitches.length ? median(pitches) : 0;
    const deg = Math.PI / 180;
    if (Math.abs(med) > 5 * deg) {
      const p = Math.sign(med) * Math.min(35 * deg, Math.abs(med));
      const R = qFromAxisAngle([1, 0, 0], p);
      const Rinv = qConj(R);
      cal = {
        ...cal,
        face: cal.face.map((v) => qRotate(R, v)),
        headFromEars: qRotate(R, cal.headFromEars),
      };
      model = buildModel(
        cal.proportions,
        { hand: cal.hand, face: cal.face, headFromEars: cal.headFromEars, footLateral: cal.footLateral },
        handsOn,
        fingerLens,
      );
      for (let f = 0; f < N; f++) {
        const o = f * n + model.joint.head;
        writeQuat(local, o, qMul(readQuat(local, o), Rinv));
      }
      warnings.push(`head pitch of the face template corrected by ${((p * 180) / Math.PI).toFixed(0)}°`);
    }
  }

  // 7. Camera-space root from the image scale of the fitted skeleton.
  const predicted = new Float64Array(NUM_LANDMARKS * 3);
  const T1 = rootTranslations(
    cam,
    series,
    (f, out) => {
      poseToWorld(sk, local, f * n * 4, readVec3(rootBody, f), pose);
      predictLandmarks(model, pose, predicted);
      out.set(predicted);
    },
    T0.smoothed,
    fps,
    fc,
  );
  const rootCam: RootSeries = {
    raw: new Float64Array(N * 3),
    weight: T1.weight,
    smoothed: new Float64Array(N * 3),
  };
  for (let f = 0; f < N; f++) {
    writeVec3(rootCam.raw, f, add(readVec3(T1.raw, f), readVec3(rootBody, f)));
    writeVec3(rootCam.smoothed, f, add(readVec3(T1.smoothed, f), readVec3(rootBody, f)));
  }
  progress('root', 0.65);

  // 7b. Fit to the image: the skeleton in camera space moved so its landmarks reproject onto the image
  // landmarks, the 3D fit above only a weak depth prior; then the same temporal smoothing as the 3D fit.
  const personPx = personImageHeight(series);
  // The picture's evidence of jumps and of still feet, read by the floor fit and the floor stage.
  const jumpsNow = imageJumps(series);
  const speeds = imageFootSpeeds(series, fps);
  let probeUp: Vec3 | undefined;
  if (options.imageFit !== false) {
    // The image targets: each landmark's pixel track smoothed as the 3D tracks were (step 4).
    const image = Float64Array.from(series.image);
    if (smoothing > 0) {
      const xy = new Float64Array(N * 2);
      for (let i = 0; i < NUM_LANDMARKS; i++) {
        for (let f = 0; f < N; f++) {
          wts[f] = series.weight[f * NUM_LANDMARKS + i];
          xy[f * 2] = series.image[(f * NUM_LANDMARKS + i) * 2];
          xy[f * 2 + 1] = series.image[(f * NUM_LANDMARKS + i) * 2 + 1];
        }
        const z = smoothSignal(xy, N, 2, wts, {
          cutoffHz: 8,
          fps,
          order: 2,
          auto: { scale: landmarkSmoothingScale(smoothing), minCutoffHz: 0.8 },
        });
        for (let f = 0; f < N; f++) {
          image[(f * NUM_LANDMARKS + i) * 2] = z[f * 2];
          image[(f * NUM_LANDMARKS + i) * 2 + 1] = z[f * 2 + 1];
        }
      }
    }
    const rootFit = Float64Array.from(rootCam.smoothed);
    const priorWeight = options.posePrior ?? 0;
    const fit = imageFitPass(model, cam, { ...series, image }, local, rootFit, personPx, fps, fc, {
      ...(priorWeight > 0 ? { prior: posePrior(), priorWeight } : {}),
    });
    if (Number.isFinite(fit.afterPx)) {
      rootCam.raw.set(rootFit);
      rootCam.smoothed = rootFit;
    }
    // 7c. The same fit again, now with the floor: the floor stage (on copies) places the ground plane under
    // this fit's feet; then, in every frame the picture shows no jump, the lowest sole point is held on it.
    if (options.floorFit !== false && Number.isFinite(fit.afterPx)) {
      // (its up, when it came from standing legs, guides the last floor stage where the legs no longer
      // stand straight enough: see `groundAndLock`)
      const probe = groundAndLock(
        model,
        Float64Array.from(local),
        { raw: Float64Array.from(rootCam.raw), weight: rootCam.weight, smoothed: Float64Array.from(rootFit) },
        N,
        fps,
        fc,
        footLock,
        false,
        (rel) => imageFeet(cam, series, rootFit, rel, fps, fc),
        jumpsNow,
        speeds,
      );
      const up = qRotate(qConj(probe.tilt), [0, 1, 0]);
      if (probe.upFromLegs) probeUp = up;
      const frames = new Uint8Array(N);
      for (let f = 0; f < N; f++)
        frames[f] = series.tracked[f] && !jumpsNow[f] && !probe.support?.between[f] ? 1 : 0;
      const feet = imageStandingFeet(series, frames, speeds, personPx).map((still, s) => {
        const c = s === 0 ? probe.contacts.left : probe.contacts.right;
        return still.map((v, f) => (frames[f] && (v || c[f]) ? 1 : 0));
      }) as [Uint8Array, Uint8Array];
      const k = standingHeight(model.proportions) / 1.75;
      const root2 = Float64Array.from(rootFit);
      const fit2 = imageFitPass(model, cam, { ...series, image }, local, root2, personPx, fps, fc, {
        ...(priorWeight > 0 ? { prior: posePrior(), priorWeight } : {}),
        floor: {
          up,
          origin: probe.origin,
          frames,
          feet,
          sigma: 0.02 * k,
          ...(probe.support ? { levels: probe.support.height } : {}),
        },
      });
      if (Number.isFinite(fit2.afterPx)) {
        rootCam.raw.set(root2);
        rootCam.smoothed = root2;
      }
    }
  }
  progress('root', 0.7);

  // 8. World frame, contacts, locking, floor.
  const ground = groundAndLock(
    model,
    local,
    rootCam,
    N,
    fps,
    fc,
    footLock,
    !!options.rootAtOrigin,
    (rel) => imageFeet(cam, series, rootCam.smoothed, rel, fps, fc),
    jumpsNow,
    speeds,
    probeUp,
  );
  progress('ground', 0.85);

  // (A second image-fit pass after the floor stage, on the upper body with hips, legs and root frozen, was
  // measured: it bends the spine and arms to make up for a root the floor moved, solver bench MPJPE
  // 13.4 → 15.4 mm, for real-clip reprojection 5.15 → 4.74 %; not used.)

  // 9. Fingers and face.
  const rotations = Float32Array.from(local);
  if (hasFingers(sk)) {
    solveFingers(tracks, series, model, rotations, ground.rootPositions, ground.tilt, cam, fps, fc);
    progress('hands', 0.92);
  }
  const blendshapes =
    options.face !== false && tracks.frames.some((fr) => fr.face)
      ? solveFace(tracks, series, fps)
      : undefined;
  progress('done', 1);
  const clip: MotionClip = {
    skeleton: sk,
    fps,
    frameCount: N,
    rotations,
    rootPositions: Float32Array.from(ground.rootPositions),
    contacts: ground.contacts,
    ...(ground.support ? { support: Float32Array.from(ground.support.height) } : {}),
    ...(blendshapes ? { blendshapes } : {}),
    metadata: {
      generator: '@mocap/motion solver',
      ...(tracks.video.file ? { source: tracks.video.file } : {}),
      height: standingHeight(cal.proportions),
      camera: { focalLengthPx: cam.f, horizontalFovDeg: cam.horizontalFovDeg, source: cam.source },
      options: {
        smoothing,
        footLock,
        rootAtOrigin: !!options.rootAtOrigin,
        ...(options.height ? { height: options.height } : {}),
        hands: hasFingers(sk),
        face: !!blendshapes,
      },
      warnings: [...warnings, ...ground.warnings],
    },
  };
  return {
    clip,
    model,
    rootCamera: ground.rootCamera ?? rootCam.smoothed,
    camera: cam,
    ...(ground.rootCamera
      ? { cameraFromWorld: { rotation: qConj(ground.tilt), translation: ground.origin } }
      : {}),
  };
}

/**
 * One image-fit pass (`fitToImage`), its corrections (fit − start: the start is smooth already) smoothed over
 * time so per-frame image noise does not become jitter, then put back inside the joint limits.
 */
function imageFitPass(
  model: BodyModel,
  cam: CameraModel,
  series: LandmarkSeries,
  local: Float64Array,
  root: Float64Array,
  personPx: number,
  fps: number,
  fc: number,
  options: ImageFitOptions = {},
): ImageFitResult {
  const n = model.skeleton.names.length;
  const { N } = series;
  const start = Float64Array.from(local);
  const rootStart = Float64Array.from(root);
  const fit = fitToImage(model, cam, series, local, root, personPx, options);
  if (!Number.isFinite(fit.afterPx) || !Number.isFinite(fc)) return fit;
  const d = new Float64Array(N * 3);
  const opts = { cutoffHz: fc, fps, order: 2 as const, robustIterations: 1 };
  for (let jj = 0; jj < n; jj++) {
    let moved = false;
    for (let f = 0; f < N; f++) {
      const o = f * n + jj;
      const r = qLog(qMul(readQuat(local, o), qConj(readQuat(start, o))));
      if (r[0] !== 0 || r[1] !== 0 || r[2] !== 0) moved = true;
      writeVec3(d, f, r);
    }
    if (!moved) continue; // joints the fit does not move (fingers, toes, frozen ones)
    const z = smoothSignal(d, N, 3, null, opts);
    for (let f = 0; f < N; f++) {
      const o = f * n + jj;
      writeQuat(local, o, qMul(qExp(readVec3(z, f)), readQuat(start, o)));
    }
  }
  enforceLimits(model, local, N);
  for (let i = 0; i < root.length; i++) d[i] = root[i] - rootStart[i];
  const z = smoothSignal(d, N, 3, null, opts);
  for (let i = 0; i < root.length; i++) root[i] = rootStart[i] + z[i];
  return fit;
}

/** Median height (px) of the tracked person's landmarks in the image. */
function personImageHeight(series: LandmarkSeries): number {
  const h: number[] = [];
  for (let f = 0; f < series.N; f++) {
    if (!series.tracked[f]) continue;
    let top = Number.POSITIVE_INFINITY;
    let bottom = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < NUM_LANDMARKS; i++) {
      const v = series.image[(f * NUM_LANDMARKS + i) * 2 + 1];
      top = Math.min(top, v);
      bottom = Math.max(bottom, v);
    }
    h.push(bottom - top);
  }
  return h.length ? median(h) : 1;
}

/** Limb segments used to compare the size of two landmark sets. */
const SIZE_SEGMENTS: [number, number][] = [
  [11, 13],
  [13, 15],
  [12, 14],
  [14, 16],
  [23, 25],
  [25, 27],
  [24, 26],
  [26, 28],
  [11, 23],
  [12, 24],
  [11, 12],
  [23, 24],
];

function segmentSum(p: Float64Array, o: number): number {
  let s = 0;
  for (const [a, b] of SIZE_SEGMENTS) {
    s += Math.hypot(
      p[o + a * 3] - p[o + b * 3],
      p[o + a * 3 + 1] - p[o + b * 3 + 1],
      p[o + a * 3 + 2] - p[o + b * 3 + 2],
    );
  }
  return s;
}

/** Body landmarks whose world/image agreement `worldImageDisagreement` measures. */
const AGREEMENT_LANDMARKS = [11, 12, 13, 14, 15, 16, 23, 24, 25, 26, 27, 28];

/**
 * How far the world landmarks' shape, across the picture, stays off the image landmarks in a lasting way:
 * per tracked frame the world landmarks are placed in front of the camera (`solveTranslation`) and projected;
 * each seen body landmark's image miss, in metres at its depth, is averaged over ±0.25 s (white noise cancels,
 * a tracker's habit stays), and the RMS of those averages is returned (metres). Synthetic landmarks with white
 * noise come out at 0.2–0.3 cm; BlazePose's world landmarks at 2.5–6 cm on the quality bench's clips: its world
 * head draws another body than its image head.
 */
export function worldImageDisagreement(cam: CameraModel, series: LandmarkSeries): number {
  const { N } = series;
  const K = AGREEMENT_LANDMARKS.length;
  const miss = new Float64Array(N * K * 2).fill(Number.NaN);
  const q: Vec3 = [0, 0, 0];
  for (let f = 0; f < N; f++) {
    if (!series.tracked[f]) continue;
    const P = series.world.subarray(f * 99, f * 99 + 99);
    const uv = series.image.subarray(f * 66, f * 66 + 66);
    const wt = series.weight.subarray(f * 33, f * 33 + 33);
    const T = solveTranslation(cam, P, uv, wt, NUM_LANDMARKS, 3);
    if (!T) continue;
    for (let k = 0; k < K; k++) {
      const i = AGREEMENT_LANDMARKS[k];
      if (wt[i] <= 0.5) continue;
      q[0] = P[i * 3] + T[0];
      q[1] = P[i * 3 + 1] + T[1];
      q[2] = P[i * 3 + 2] + T[2];
      if (!(q[2] < 0)) continue;
      const [u, v] = project(cam, q);
      const m = -q[2] / cam.f;
      miss[(f * K + k) * 2] = (uv[i * 2] - u) * m;
      miss[(f * K + k) * 2 + 1] = (uv[i * 2 + 1] - v) * m;
    }
  }
  const W = Math.max(1, Math.round(series.fps * 0.25));
  let ss = 0;
  let c = 0;
  for (let j = 0; j < K * 2; j++) {
    for (let f = 0; f < N; f++) {
      if (Number.isNaN(miss[f * K * 2 + j])) continue;
      let acc = 0;
      let m = 0;
      for (let g = Math.max(0, f - W); g <= Math.min(N - 1, f + W); g++) {
        const x = miss[g * K * 2 + j];
        if (!Number.isNaN(x)) {
          acc += x;
          m++;
        }
      }
      ss += (acc / m) ** 2;
      c++;
    }
  }
  return c ? Math.sqrt(ss / c) : 0;
}

/**
 * The world landmarks' depth error is taken as `LIFTER_KAPPA` × their lasting disagreement with the image
 * (`worldImageDisagreement`): what the picture can check is a lower bound on what it cannot.
 */
export const LIFTER_KAPPA = 2;

/**
 * The lifter's share in the fused depths for a clip whose world landmarks disagree with the image by `d`
 * metres: inverse-variance weights, the world landmarks' error `LIFTER_KAPPA · d`, the lifter's its validation
 * MPJPE (training metadata; at the 1.75 m body the lifter is trained for). BlazePose's tracks (d 2.5–6 cm)
 * give 0.4–0.8; synthetic landmarks with white noise (d ≈ 0.25 cm) about 0.005, i.e. their own depths.
 */
export function lifterShare(d: number): number {
  const meta = lifterMeta();
  const varL = (((meta.validationMpjpeMm as number | undefined) ?? 75) / 1000) ** 2;
  const varW = (LIFTER_KAPPA * d) ** 2;
  return varW / (varW + varL);
}

/**
 * Fuses the lifter's depths (`lifter.ts`) into the world landmarks of tracked frames with the lifter's share
 * `share` (0..1; `lifterShare`, or the option `lifterWeight`). The lifter's output is scaled to the world
 * landmarks' overall size (median ratio of limb lengths over the clip: the tracker's metric scale is kept).
 * Depth only: across the image the world landmarks are fused with the image landmarks later (`fuse`).
 *
 * Why: BlazePose's world landmarks are weak in depth (the standing knee pushed forward, trunk leans); the
 * lifter knows from motion capture which depths go with a 2D pose; on the quality bench's rendered clips the
 * depth is most of the error (with the true depths of the solved joints PA-MPJPE would be ~50 mm, with the true
 * image-plane positions ~70). Clean synthetic world landmarks (the solver bench) are better than the lifter,
 * and those agree with the image, so there the share is ~0.
 *
 * Measured (`npm run bench -- quality`, 14 rendered clips, the same renders and tracks; before → after, i.e.
 * `depth: 'world'` → this default): PA-MPJPE 93.8 → 86.9 mm, MPJPE 142.7 → 137.6, joint angles 16.9 → 16.7°,
 * sliding 13.4 → 12.6 mm, but ground penetration 21.3 → 24.4 mm and RTE 9.10 → 9.88 % (the crouching clip:
 * penetration 85.5 → 145.5 mm, RTE 35.9 → 43.1 %); per class PA-MPJPE lower in 7 of 8 (walk 98.4 → 89.5,
 * sit 98.6 → 90.8, turn 80.8 → 70.0), the punch clip ("other") 100.5 → 101.7. Real clips: reprojection
 * 2.47 → 2.39 % of the body's height; Pose2Sim 126.4 → 122.8 mm, against its videos 62.1 → 57.7 mm; up
 * direction on the high-camera walk 17.4° → 7.2° off. Solver bench (`--max-frames 300`): 12.9 mm either way.
 * Tried and not kept: κ 1.5 (88.8 mm) and 3 (about the same as 2 but worse on the high dance clip), the share
 * per landmark from each one's validation RMS (90.7 mm on 4 clips against 88.9), from each landmark's own
 * disagreement (90.9–92.5 mm on 6 clips against 88.7), the arms alone on their validation RMS (90.9 mm),
 * test-time mirroring (the lifter also run on the mirrored picture, answers averaged: 89.2 mm), one rotation for the whole
 * clip turning the lifted bodies onto the world landmarks (no change in the up direction), the earlier
 * method-of-moments share from the lifter–world disagreement (90.8 mm, solver bench 34.6 mm: that
 * disagreement is as large on clean synthetic landmarks, where the lifter is the one that is wrong), a wider
 * lifter (192 hidden: validation 74.6 → 64.0 mm on held-out CMU, no better on the rendered clips).
 */
function liftInto(series: LandmarkSeries, world: Float64Array, share: number): void {
  const { N } = series;
  const M = NUM_LANDMARKS;
  const wL = Math.max(0, Math.min(1, share));
  if (wL === 0) return;
  const lifted = new Float64Array(N * M * 3);
  liftFrames(lifterNetwork(), N, series.image, series.weight, series.tracked, lifted);
  const ratios: number[] = [];
  for (let f = 0; f < N; f++) {
    if (!series.tracked[f]) continue;
    const o = f * M * 3;
    const a = segmentSum(lifted, o);
    const b = segmentSum(world, o);
    if (a > 0 && b > 0) ratios.push(b / a);
  }
  if (!ratios.length) return;
  const k = median(ratios);
  for (let f = 0; f < N; f++) {
    if (!series.tracked[f]) continue;
    for (let i = 0; i < M; i++) {
      const o = (f * M + i) * 3 + 2;
      world[o] += wL * (k * lifted[o] - world[o]);
    }
  }
}

interface RootSeries {
  /** Per-frame solutions `[N × 3]` (zero where none). */
  raw: Float64Array;
  /** 1 where a frame had a solution. */
  weight: Float64Array;
  /** Robustly smoothed, gaps bridged. */
  smoothed: Float64Array;
}

/**
 * Per-frame camera-space translations of body-space point sets against the image landmarks, raw and
 * smoothed. `points(f, out)` fills the 33 body-space points of frame f.
 */
function rootTranslations(
  cam: CameraModel,
  series: LandmarkSeries,
  points: (f: number, out: Float64Array) => void,
  previous: Float64Array | null,
  fps: number,
  fc: number,
): RootSeries {
  const { N } = series;
  const T = new Float64Array(N * 3);
  const w = new Float64Array(N);
  const buf = new Float64Array(NUM_LANDMARKS * 3);
  for (let f = 0; f < N; f++) {
    if (!series.tracked[f]) continue;
    points(f, buf);
    const uv = series.image.subarray(f * NUM_LANDMARKS * 2, (f + 1) * NUM_LANDMARKS * 2);
    const wt = series.weight.subarray(f * NUM_LANDMARKS, (f + 1) * NUM_LANDMARKS);
    const init = previous ? -previous[f * 3 + 2] : 3;
    const t = solveTranslation(cam, buf, uv, wt, NUM_LANDMARKS, init);
    if (t) {
      writeVec3(T, f, t);
      w[f] = 1;
    }
  }
  if (!w.some((x) => x > 0)) {
    // No usable image evidence: put the subject 3 m in front of the camera.
    for (let f = 0; f < N; f++) writeVec3(T, f, [0, 0, -3]);
    return { raw: T, weight: w.fill(1), smoothed: Float64Array.from(T) };
  }
  return { raw: T, weight: w, smoothed: smoothSignal(T, N, 3, w, { cutoffHz: fc * 0.7, fps, order: 2 }) };
}

/** Fuses world landmarks with image landmarks lifted to the world landmarks' depth (see the file header). */
function fuse(
  cam: CameraModel,
  series: LandmarkSeries,
  world: Float64Array,
  T: Float64Array,
  sigmaW: number,
  sigmaPx: number,
): Float64Array {
  const { N } = series;
  const out = Float64Array.from(world);
  const a = 1 / (sigmaW * sigmaW);
  for (let f = 0; f < N; f++) {
    if (!series.tracked[f]) continue;
    const t = readVec3(T, f);
    for (let i = 0; i < NUM_LANDMARKS; i++) {
      const o = (f * NUM_LANDMARKS + i) * 3;
      const q: Vec3 = [t[0] + world[o], t[1] + world[o + 1], t[2] + world[o + 2]];
      const depth = -q[2];
      if (!(depth > 0.2)) continue;
      const u = series.image[(f * NUM_LANDMARKS + i) * 2];
      const v = series.image[(f * NUM_LANDMARKS + i) * 2 + 1];
      const xi = ((u - cam.cx) * depth) / cam.f;
      const yi = (-(v - cam.cy) * depth) / cam.f;
      const si = (sigmaPx * depth) / cam.f;
      const b = 1 / (si * si);
      out[o] = (a * q[0] + b * xi) / (a + b) - t[0];
      out[o + 1] = (a * q[1] + b * yi) / (a + b) - t[1];
    }
  }
  return out;
}

/**
 * Pole vectors per frame: the raw elbow/knee offsets plus a default direction (see `defaultPoles`) of fixed
 * size (2 cm for elbows, 3 cm for knees, scaled with the body), temporally smoothed. The default decides
 * when the limb is nearly straight (its raw offset is then small and mostly noise). A knee cannot point
 * backwards against its foot: that part of the raw offset (hyperextension or noise) is dropped, so a
 * straight leg never spins its thigh around.
 */
function smoothPoles(points: Float64Array, N: number, fps: number, fc: number, height: number): Poles[] {
  const keys: (keyof Poles)[] = ['leftArm', 'rightArm', 'leftLeg', 'rightLeg'];
  const raw = Array.from({ length: N }, (_, f) => framePoles(points, f));
  const defs = Array.from({ length: N }, (_, f) => defaultPoles(points, f));
  const k = height / 1.75;
  const out: Poles[] = Array.from({ length: N }, () => ({}) as Poles);
  const buf = new Float64Array(N * 3);
  for (const key of keys) {
    const leg = key.endsWith('Leg');
    for (let f = 0; f < N; f++) {
      const d = defs[f][key];
      let r = raw[f][key];
      if (leg) {
        const back = dot(r, d);
        if (back < 0) r = sub(r, scale(d, back));
      }
      writeVec3(buf, f, add(r, scale(d, (leg ? 0.03 : 0.02) * k)));
    }
    const z = Number.isFinite(fc)
      ? smoothSignal(buf, N, 3, null, { cutoffHz: fc * 0.5, fps, order: 2, robustIterations: 0 })
      : buf;
    for (let f = 0; f < N; f++) out[f][key] = readVec3(z, f);
  }
  return out;
}

/**
 * Most the hips are lowered to end floating (m, for a 1.75 m body): a larger gap means a wrong pose or floor,
 * and moving the body that far would move it off its image landmarks.
 */
const MAX_DROP = 0.15;
/**
 * Support levels (`supportLevels` in ground.ts): raised ground counts as a level when it lies at least this
 * far above or below another (m, for a 1.75 m body; a stair step is about 0.18 m and stays one floor) and the
 * feet stand on it for at least `SUPPORT_HOLD` seconds.
 */
const SUPPORT_STEP = 0.3;
/** Hip travel steeper than this against the standing legs' up is not taken as level walking (rad). */
const TRAVEL_STEEP = 20 * (Math.PI / 180);
const SUPPORT_HOLD = 0.75;

/**
 * Soft-IK share of the leg's length when feet are pinned or lifted (see `twoBoneIK`). It bends a fully
 * straight leg by about 2·acos(1 − 0.63·s): 0.02 bent every pinned standing leg by ~14°, which people see
 * (and which the pose prior's training rotations inherited); 0.005 leaves ~7° and still eases the knee into
 * full extension. The rendered clips' figures do not change between 0.02, 0.005 and 0 (measured).
 */
const SOFT_IK = 0.005;

/** Moving minimum then moving average over ±w samples (edges: the available samples; NaN = unknown, left
 *  out, and filled by the average): a smooth curve never above `x` (for x ≥ 0). */
export function lowerEnvelope(x: Float64Array, w: number): Float64Array {
  const N = x.length;
  const mn = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    let m = Number.POSITIVE_INFINITY;
    for (let k = Math.max(0, i - w); k <= Math.min(N - 1, i + w); k++) if (x[k] < m) m = x[k];
    mn[i] = Number.isFinite(m) ? m : 0;
  }
  const out = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    let s = 0;
    let c = 0;
    for (let k = Math.max(0, i - w); k <= Math.min(N - 1, i + w); k++) {
      s += mn[k];
      c++;
    }
    out[i] = Number.isNaN(x[i]) ? s / c : Math.min(x[i], s / c);
  }
  return out;
}

/** Moving maximum then moving average over ±w samples: a smooth curve never below `x`. */
function envelope(x: Float64Array, w: number): Float64Array {
  const N = x.length;
  const mx = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    let m = 0;
    for (let k = Math.max(0, i - w); k <= Math.min(N - 1, i + w); k++) m = Math.max(m, x[k]);
    mx[i] = m;
  }
  const out = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    let s = 0;
    let c = 0;
    for (let k = i - w; k <= i + w; k++) {
      s += k >= 0 && k < N ? mx[k] : 0;
      c++;
    }
    out[i] = Math.max(x[i], s / c);
  }
  return out;
}

/**
 * Frames where the image shows a jump: the lower foot's image point (heel and toe landmarks of both feet)
 * at least 8 % of the body's image height above its running median over ±1 s. Untracked frames: 0.
 */
export function imageJumps(series: LandmarkSeries): Uint8Array {
  const { N } = series;
  const low = new Float64Array(N).fill(Number.NaN);
  let tracked = 0;
  for (let f = 0; f < N; f++) {
    if (!series.tracked[f]) continue;
    tracked++;
    let m = Number.NEGATIVE_INFINITY;
    for (const i of [LM.leftHeel, LM.rightHeel, LM.leftFootIndex, LM.rightFootIndex])
      m = Math.max(m, series.image[(f * NUM_LANDMARKS + i) * 2 + 1]);
    low[f] = m;
  }
  const out = new Uint8Array(N);
  if (!tracked) return out;
  const px = personImageHeight(series);
  const w = Math.max(1, Math.round(series.fps));
  for (let f = 0; f < N; f++) {
    if (!Number.isFinite(low[f])) continue;
    const near: number[] = [];
    for (let g = Math.max(0, f - w); g <= Math.min(N - 1, f + w); g++)
      if (Number.isFinite(low[g])) near.push(low[g]);
    if (median(near) - low[f] > 0.08 * px) out[f] = 1;
  }
  return out;
}

/**
 * Image speed of each foot's heel and toe landmarks (see `ImageFootSpeed`): tracks smoothed at 6 Hz
 * (weights = landmark weights), central differences over ±2 frames, divided by the body's image height
 * (median landmark extent). NaN where the landmark's weight is below 0.3.
 */
export function imageFootSpeeds(series: LandmarkSeries, fps: number): ImageFootSpeed[] {
  const { N } = series;
  const px = personImageHeight(series);
  const speed = (lm: number): Float64Array => {
    const xy = new Float64Array(N * 2);
    const w = new Float64Array(N);
    for (let f = 0; f < N; f++) {
      const k = f * NUM_LANDMARKS + lm;
      w[f] = series.tracked[f] ? series.weight[k] : 0;
      xy[f * 2] = series.image[k * 2];
      xy[f * 2 + 1] = series.image[k * 2 + 1];
    }
    const z = smoothSignal(xy, N, 2, w, { cutoffHz: 6, fps, order: 2, robustIterations: 1 });
    const out = new Float64Array(N).fill(Number.NaN);
    for (let f = 0; f < N; f++) {
      if (w[f] < 0.3) continue;
      const a = Math.max(0, f - 2);
      const b = Math.min(N - 1, f + 2);
      if (b === a) continue;
      out[f] = (Math.hypot(z[b * 2] - z[a * 2], z[b * 2 + 1] - z[a * 2 + 1]) * fps) / (b - a) / px;
    }
    return out;
  };
  return FOOT_LANDMARKS.map(([heel, toe]) => ({ heel: speed(heel), toe: speed(toe) }));
}

/**
 * Feet the picture shows standing: per side and frame (where `frames` is set), the foot's heel or toe is still
 * in the image (below `IMAGE_CONTACT_SPEED`) and its lower point is not above the other foot's lower point by
 * more than 4 % of the body's image height (a lifted foot shows higher in the picture). Static camera.
 */
export function imageStandingFeet(
  series: LandmarkSeries,
  frames: ArrayLike<number>,
  speeds: ImageFootSpeed[],
  personPx: number,
): [Uint8Array, Uint8Array] {
  const { N } = series;
  const out: [Uint8Array, Uint8Array] = [new Uint8Array(N), new Uint8Array(N)];
  const low = (f: number, s: number) => {
    const [heel, toe] = FOOT_LANDMARKS[s];
    return Math.max(
      series.image[(f * NUM_LANDMARKS + heel) * 2 + 1],
      series.image[(f * NUM_LANDMARKS + toe) * 2 + 1],
    );
  };
  for (let f = 0; f < N; f++) {
    if (!frames[f] || !series.tracked[f]) continue;
    for (let s = 0; s < 2; s++) {
      const still = speeds[s].heel[f] < IMAGE_CONTACT_SPEED || speeds[s].toe[f] < IMAGE_CONTACT_SPEED;
      if (still && low(f, s) >= low(f, 1 - s) - 0.04 * personPx) out[s][f] = 1;
    }
  }
  return out;
}

/** Landmarks of the heel and toe tip per side (left, right). */
const FOOT_LANDMARKS = [
  [LM.leftHeel, LM.leftFootIndex],
  [LM.rightHeel, LM.rightFootIndex],
] as const;

/**
 * Camera-space heel and toe points from the image landmarks: the pixel ray at the depth of the fitted foot
 * point (the smoothed root plus the fitted foot relative to it, its depth smoothed again at 2 Hz), so the
 * lateral and vertical motion is the image's. Null where the landmark is not clearly seen.
 */
function imageFeet(
  cam: CameraModel,
  series: LandmarkSeries,
  root: Float64Array,
  rel: { heel: Vec3; toe: Vec3 }[][],
  fps: number,
  fc: number,
): { heel: (Vec3 | null)[]; toe: (Vec3 | null)[] }[] {
  const { N } = series;
  return FOOT_LANDMARKS.map(([heelLm, toeLm], s) => {
    const track = (lm: number, which: 'heel' | 'toe'): (Vec3 | null)[] => {
      const z = new Float64Array(N);
      const w = new Float64Array(N);
      for (let f = 0; f < N; f++) {
        z[f] = root[f * 3 + 2] + rel[s][f][which][2];
        w[f] = 1;
      }
      const zs = smoothSignal(z, N, 1, w, { cutoffHz: Math.min(2, fc), fps, order: 2 });
      const out: (Vec3 | null)[] = [];
      for (let f = 0; f < N; f++) {
        const k = f * NUM_LANDMARKS + lm;
        if (!series.tracked[f] || series.weight[k] < 0.3) {
          out.push(null);
          continue;
        }
        const depth = Math.max(0.1, -zs[f]);
        const u = series.image[k * 2];
        const v = series.image[k * 2 + 1];
        out.push([((u - cam.cx) / cam.f) * depth, (-(v - cam.cy) / cam.f) * depth, zs[f]]);
      }
      return out;
    };
    return { heel: track(heelLm, 'heel'), toe: track(toeLm, 'toe') };
  });
}

interface GroundResult {
  rootPositions: Float64Array;
  /** Camera (body space) → world rotation. */
  tilt: Quat;
  /** The world origin in camera space (`p_world = rotate(tilt, p_cam − origin)`). */
  origin: Vec3;
  /** The final root per frame back in camera space (null with `rootAtOrigin`: not camera-consistent). */
  rootCamera: Float64Array | null;
  contacts: { left: Uint8Array; right: Uint8Array };
  /** Support levels (raised ground for part of the clip), or null: the floor at 0 throughout. */
  support: SupportLevels | null;
  /** The up direction came from standing legs (or an earlier pass's that did). */
  upFromLegs: boolean;
  warnings: string[];
}

/**
 * World frame (up, floor, origin), contacts, the root trajectory, locking and the floor constraint.
 * `local` is modified in place (the root rotation becomes world-relative, legs are re-solved where locked).
 *
 * Root trajectory: the image gives the hips' absolute camera-space position every frame, but with depth
 * noise; a planted foot gives the exact frame-to-frame motion of the hips relative to it. Both are combined
 * in one least-squares problem per axis: per-frame positions (weighted by their estimated noise) + steps
 * `r_t - r_{t-1} = -(foot_t - foot_{t-1})` (foot relative to the hips) during contacts + smoothness.
 */
function groundAndLock(
  model: BodyModel,
  local: Float64Array,
  rootCam: RootSeries,
  N: number,
  fps: number,
  fc: number,
  mode: FootLockMode,
  rootAtOrigin: boolean,
  footMotion?: (rel: { heel: Vec3; toe: Vec3 }[][]) => { heel: (Vec3 | null)[]; toe: (Vec3 | null)[] }[],
  jumps?: Uint8Array,
  imageSpeed?: ImageFootSpeed[],
  upHint?: Vec3,
): GroundResult {
  const warnings: string[] = [];
  const sk = model.skeleton;
  const n = sk.names.length;
  const j = model.joint;
  const H = standingHeight(model.proportions);
  const k = H / 1.75;
  const pose: WorldPose = { positions: new Float64Array(n * 3), rotations: new Float64Array(n * 4) };
  // Body-relative foot points (camera axes) and the standing cue.
  const relC: { heel: Vec3; toe: Vec3 }[][] = [[], []];
  // Per frame: the larger knee flexion (angle between thigh and shin; the shin's local rotation also holds
  // its twist), the hips → ankles direction and how extended the legs are (hip–ankle distance over the
  // leg's length, the smaller of the two legs).
  const kneeFlex = new Float64Array(N);
  const legReach = new Float64Array(N);
  const legUp: Vec3[] = [];
  for (let f = 0; f < N; f++) {
    poseToWorld(sk, local, f * n * 4, [0, 0, 0], pose);
    SIDES.forEach((side, s) => {
      relC[s].push(footPoints(model, pose, side));
    });
    let flex = 0;
    let reach = 1;
    for (const side of SIDES) {
      const hip = readVec3(pose.positions, j[`${side}Thigh`]);
      const knee = readVec3(pose.positions, j[`${side}Shin`]);
      const ankle = readVec3(pose.positions, j[`${side}Foot`]);
      const a = normalize(sub(knee, hip));
      const b = normalize(sub(ankle, knee));
      flex = Math.max(flex, Math.acos(Math.max(-1, Math.min(1, dot(a, b)))));
      reach = Math.min(reach, length(sub(ankle, hip)) / (length(sub(knee, hip)) + length(sub(ankle, knee))));
    }
    kneeFlex[f] = flex;
    legReach[f] = reach;
    const ankles = mid(readVec3(pose.positions, j.leftFoot), readVec3(pose.positions, j.rightFoot));
    legUp.push(normalize(sub(readVec3(pose.positions, j.hips), ankles)));
  }
  // The standing cue: hips above the ankles in frames with straight knees (< 12°). (Relaxing it to the
  // straightest legs up to 25° / 40° when fewer than 5 % of frames qualify was measured on the 14 rendered
  // clips: mean up-direction error 6.5° → 7.6°, so it stays strict.)
  let prior: Vec3 = [0, 1, 0];
  const standing = legUp.filter((_, f) => kneeFlex[f] < 12 * (Math.PI / 180));
  let legsPrior = standing.length >= Math.max(5, 0.05 * N);
  if (legsPrior) prior = normalize(standing.reduce((acc, v) => add(acc, v), [0, 0, 0] as Vec3));
  else if (upHint) {
    // The up of an earlier pass that had standing legs (the floor stage of the image fit can bend them).
    prior = upHint;
    legsPrior = true;
  } else {
    // No straight legs (a bent-knee stance, a dance): people stand upright on two feet, so in frames where
    // both feet stand still in the picture and both legs are extended (hip–ankle distance ≥ 80 % of the
    // leg: not sitting, not squatting) the hips are above the ankles' midpoint.
    const still = (s: number, f: number) => {
      const sp = imageSpeed?.[s];
      if (!sp) return false;
      const v = Math.min(sp.heel[f], sp.toe[f]);
      return v < IMAGE_CONTACT_SPEED;
    };
    const upright = legUp.filter((_, f) => legReach[f] >= 0.8 && still(0, f) && still(1, f));
    if (upright.length >= Math.max(5, 0.05 * N)) {
      const v = normalize(upright.reduce((acc, v) => add(acc, v), [0, 0, 0] as Vec3));
      // Only its pitch: a sideways lean over a clip is the dance's (hips swaying), a rolled camera is rare.
      prior = normalize([0, v[1], v[2]]);
      legsPrior = true;
    }
  }
  // Camera-space foot points on the smoothed root, for the up/floor estimate.
  const footC = (s: number, f: number, which: 'heel' | 'toe'): Vec3 =>
    add(readVec3(rootCam.smoothed, f), relC[s][f][which]);
  // Directions of real travel of the hips (std > 0.5 m) are horizontal.
  const travel = new Float64Array(9);
  {
    let c: Vec3 = [0, 0, 0];
    for (let f = 0; f < N; f++) c = add(c, scale(readVec3(rootCam.smoothed, f), 1 / N));
    const cov = new Float64Array(9);
    for (let f = 0; f < N; f++) {
      const d = sub(readVec3(rootCam.smoothed, f), c);
      for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) cov[a * 3 + b] += (d[a] * d[b]) / N;
    }
    const { values, vectors } = symmetricEigen(cov, 3);
    for (let e = 0; e < 2; e++) {
      if (!(values[e] > (0.5 * k) ** 2)) continue;
      // A path that climbs or drops steeply against the standing legs (a jump down from a box, a stage) is
      // no walk on a level floor: only its part across the legs' up counts. (Without standing legs the
      // camera's up is only a guess, and a steep path is what corrects a camera looking down.)
      const along = dot(vectors[e] as Vec3, prior);
      const v =
        legsPrior && Math.abs(along) > Math.sin(TRAVEL_STEEP)
          ? normalize(sub(vectors[e] as Vec3, scale(prior, along)))
          : vectors[e];
      for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) travel[a * 3 + b] += values[e] * v[a] * v[b];
    }
  }
  let up = estimateUp([], [], prior, 0.12 ** 2, travel);
  let floor = 0;
  /** Foot s's lower sole point at frame f (along the current up), its speed in the fit (m/s) and in the picture. */
  const lowerSole = (s: number, f: number): { p: Vec3; speed: number; vi: number } => {
    const heelLow = dot(footC(s, f, 'heel'), up) <= dot(footC(s, f, 'toe'), up);
    const which = heelLow ? 'heel' : 'toe';
    const a = footC(s, Math.max(0, f - 1), which);
    const b = footC(s, Math.min(N - 1, f + 1), which);
    const dt = (Math.min(N - 1, f + 1) - Math.max(0, f - 1)) / fps;
    const speed = dt > 0 ? Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]) / dt : 0;
    const vi = imageSpeed ? (heelLow ? imageSpeed[s].heel[f] : imageSpeed[s].toe[f]) : Number.NaN;
    return { p: footC(s, f, which), speed, vi };
  };
  for (let pass = 0; pass < 2; pass++) {
    const pts: Vec3[] = [];
    const lows: number[] = [];
    for (let s = 0; s < 2; s++) {
      for (let f = 0; f < N; f++)
        lows.push(Math.min(dot(footC(s, f, 'heel'), up), dot(footC(s, f, 'toe'), up)));
    }
    const low5 = lows.slice().sort((a, b) => a - b)[Math.floor(lows.length * 0.05)];
    const ref = pass === 0 ? low5 : floor;
    for (let s = 0; s < 2; s++) {
      for (let f = 0; f < N; f++) {
        const { p, speed, vi } = lowerSole(s, f);
        // Still in the fit, not moving in the picture, and near the floor.
        if (speed < 0.3 * k && !(vi >= IMAGE_CONTACT_SPEED) && dot(p, up) - ref < 0.06 * k) pts.push(p);
      }
    }
    if (pts.length >= 3) {
      up = estimateUp(pts, new Array(pts.length).fill(1), prior, 0.12 ** 2, travel);
      floor = median(pts.map((p) => dot(p, up)));
    } else {
      floor = low5;
      if (pass === 1) warnings.push('no foot contacts found: floor set at the lowest foot positions');
    }
  }
  // Support levels: raised ground under the feet for part of the clip (a box, a stage). Per frame, the lowest
  // foot point standing still (in the fit and in the picture) at any height, and the hips' height.
  const stillLow = new Float64Array(N).fill(Number.NaN);
  const hipsUp = new Float64Array(N);
  const lowUp = new Float64Array(N).fill(Number.POSITIVE_INFINITY);
  for (let f = 0; f < N; f++) {
    hipsUp[f] = dot(readVec3(rootCam.smoothed, f), up) - floor;
    for (let s = 0; s < 2; s++)
      for (const which of ['heel', 'toe'] as const)
        lowUp[f] = Math.min(lowUp[f], dot(footC(s, f, which), up) - floor);
    if (!(rootCam.weight[f] > 0)) continue;
    for (let s = 0; s < 2; s++) {
      // Here the picture must have seen the foot stand still.
      const { p, speed, vi } = lowerSole(s, f);
      if (!(speed < 0.3 * k && vi < IMAGE_CONTACT_SPEED)) continue;
      const h = dot(p, up) - floor;
      if (!(h >= stillLow[f])) stillLow[f] = h;
    }
  }
  const support = rootAtOrigin
    ? null
    : supportLevels(stillLow, hipsUp, SUPPORT_STEP * k, Math.round(SUPPORT_HOLD * fps), lowUp);
  if (support) {
    // The floor plane again from the contacts of every level, each brought down by its level.
    const pts: Vec3[] = [];
    for (let f = 0; f < N; f++) {
      if (support.between[f] || !Number.isFinite(stillLow[f])) continue;
      if (Math.abs(stillLow[f] - support.height[f]) > 0.06 * k) continue;
      for (let s = 0; s < 2; s++) {
        const { p } = lowerSole(s, f);
        if (dot(p, up) - floor - support.height[f] < 0.06 * k) pts.push(sub(p, scale(up, support.height[f])));
      }
    }
    if (pts.length >= 3) {
      up = estimateUp(pts, new Array(pts.length).fill(1), prior, 0.12 ** 2, travel);
      floor = median(pts.map((p) => dot(p, up)));
      const none = warnings.findIndex((w) => w.startsWith('no foot contacts found'));
      if (none >= 0) warnings.splice(none, 1);
    }
    warnings.push(
      `${support.levels.length} support levels (${support.levels.map((l) => `${(l * 100).toFixed(0)} cm`).join(', ')}): the person stands on raised ground for part of the clip`,
    );
  }
  const sup = support?.height ?? new Float64Array(N);
  /** A root series with the support level taken off its height (the floor logic below works on that). */
  const onSupport = (root: Float64Array): Float64Array => {
    if (!support) return root;
    const out = Float64Array.from(root);
    for (let f = 0; f < N; f++) out[f * 3 + 1] -= sup[f];
    return out;
  };
  // World transform: tilt up → +Y; origin on the floor under the first frame's hips.
  const tilt: Quat = qFromUnitVectors(up, [0, 1, 0]);
  const r0 = readVec3(rootCam.smoothed, 0);
  let origin = sub(r0, scale(up, dot(r0, up) - floor));
  const toWorld = (p: Vec3): Vec3 => qRotate(tilt, sub(p, origin));
  for (let f = 0; f < N; f++) writeQuat(local, f * n + j.hips, qMul(tilt, readQuat(local, f * n + j.hips)));
  const rel: { heel: Vec3; toe: Vec3 }[][] = relC.map((arr) =>
    arr.map((p) => ({ heel: qRotate(tilt, p.heel), toe: qRotate(tilt, p.toe) })),
  );
  const rawW = new Float64Array(N * 3);
  const smoothW = new Float64Array(N * 3);
  for (let f = 0; f < N; f++) {
    writeVec3(rawW, f, toWorld(readVec3(rootCam.raw, f)));
    writeVec3(smoothW, f, toWorld(readVec3(rootCam.smoothed, f)));
  }
  // Contact detection on a calm root (the image depth jitters; hips move smoothly at walking scale).
  const calm = smoothSignal(rawW, N, 3, rootCam.weight, { cutoffHz: Math.min(1.5, fc), fps, order: 2 });
  const k2 = mode === 'always' ? 2 : 1;
  const params = { height: 0.06 * k * k2, speed: 0.45 * k * k2 };
  // Feet seen in the image, in world axes (for the contact speed).
  const seen = footMotion?.(relC).map((m) => ({
    heel: m.heel.map((p) => p && toWorld(p)),
    toe: m.toe.map((p) => p && toWorld(p)),
  }));
  const detect = (root: Float64Array) =>
    SIDES.map((_, s) =>
      detectContacts(
        rel[s].map((p, f) => add(readVec3(root, f), p.heel)),
        rel[s].map((p, f) => add(readVec3(root, f), p.toe)),
        fps,
        params,
        seen?.[s],
        imageSpeed?.[s],
      ),
    );
  let contacts = detect(onSupport(calm));
  // Root trajectory: image positions + planted-foot steps.
  let rootW: Float64Array;
  if (mode === 'never' || mode === 'grounding') {
    rootW = smoothW;
  } else {
    // Noise of the per-frame image root (MAD of raw - smoothed).
    const dev: number[] = [];
    for (let f = 0; f < N; f++) {
      if (rootCam.weight[f] > 0)
        for (let a = 0; a < 3; a++) dev.push(Math.abs(rawW[f * 3 + a] - smoothW[f * 3 + a]));
    }
    const sigmaImg = Math.max(0.003, 1.4826 * median(dev));
    const sigmaStep = 0.002 * k;
    const stepW = new Float64Array(N);
    const stepT = new Float64Array(N * 3);
    for (let f = 1; f < N; f++) {
      let c = 0;
      let t: Vec3 = [0, 0, 0];
      for (let s = 0; s < 2; s++) {
        const cs = contacts[s];
        if (!cs.flags[f] || !cs.flags[f - 1] || cs.heelDown[f] !== cs.heelDown[f - 1]) continue;
        const which = cs.heelDown[f] ? 'heel' : 'toe';
        t = add(t, sub(rel[s][f - 1][which], rel[s][f][which]));
        c++;
      }
      if (c > 0) {
        stepW[f] = c * (sigmaImg / sigmaStep) ** 2;
        writeVec3(stepT, f, scale(t, 1 / c));
      }
    }
    rootW = smoothWithSteps(
      rawW,
      N,
      3,
      rootCam.weight,
      { weight: stepW, target: stepT },
      {
        cutoffHz: fc * 0.7,
        fps,
        order: 2,
      },
    );
    contacts = detect(onSupport(rootW));
  }
  // From here on the root's height is taken above the surface carrying the body (the level); it goes back at
  // the end. Frames between two levels count as flight (no floor pulls them down).
  rootW = onSupport(rootW);
  let flight = jumps;
  if (support && jumps) {
    flight = Uint8Array.from(jumps);
    for (let f = 0; f < N; f++) if (support.between[f]) flight[f] = 1;
  }
  if (rootAtOrigin) {
    for (let f = 0; f < N; f++) {
      rootW[f * 3] = 0;
      rootW[f * 3 + 2] = 0;
    }
  }
  // No floating: unless the image shows a jump, some sole point carries the weight. First the floor, then
  // per frame: where the lowest sole
  // point is above the floor, the hips come down by that much, as a smooth lower envelope over ±0.1 s (a
  // moving minimum then a moving average, never above the need), so short flight phases of a run stay;
  // during a jump the hips keep the drop of the frames around it.
  if (mode !== 'never' && flight) {
    const lowest = (f: number) => {
      let low = Number.POSITIVE_INFINITY;
      for (let s = 0; s < 2; s++) low = Math.min(low, rel[s][f].heel[1], rel[s][f].toe[1]);
      return rootW[f * 3 + 1] + low;
    };
    // A whole clip above its floor means the floor was placed too low: the floor (the world origin) moves up
    // by the median gap, which changes nothing in the picture.
    const gaps: number[] = [];
    for (let f = 0; f < N; f++) if (!flight[f] && rootCam.weight[f] > 0) gaps.push(lowest(f));
    const lift = gaps.length ? Math.max(0, median(gaps)) : 0;
    if (lift > 0) {
      for (let f = 0; f < N; f++) rootW[f * 3 + 1] -= lift;
      origin = add(origin, qRotate(qConj(tilt), [0, lift, 0]));
      if (lift > 0.03 * k) warnings.push(`floor raised by ${(lift * 100).toFixed(0)} cm to the feet`);
    }
    const need = new Float64Array(N).fill(Number.NaN);
    for (let f = 0; f < N; f++) {
      if (flight[f]) continue;
      need[f] = Math.min(MAX_DROP * k, Math.max(0, lowest(f)));
    }
    const w = Math.max(1, Math.round(0.1 * fps));
    const drop = lowerEnvelope(need, w);
    // Leading and trailing frames without a body hold the first/last seen drop (like their pose).
    const seenF = [...rootCam.weight.keys()].filter((f) => rootCam.weight[f] > 0);
    if (seenF.length) {
      for (let f = 0; f < seenF[0]; f++) drop[f] = drop[seenF[0]];
      for (let f = seenF[seenF.length - 1] + 1; f < N; f++) drop[f] = drop[seenF[seenF.length - 1]];
    }
    let dropped = 0;
    for (let f = 0; f < N; f++) {
      const d = drop[f];
      if (d > 0.03) dropped++;
      rootW[f * 3 + 1] -= d;
    }
    if (dropped > 0) warnings.push(`${dropped} frames: hips lowered to bring a floating foot to the floor`);
    if (mode !== 'grounding') contacts = detect(rootW);
  }
  if (mode === 'always') {
    // Whenever both feet are near the floor, the lower one is planted.
    for (let f = 0; f < N; f++) {
      const low = (s: number) => readVec3(rootW, f)[1] + Math.min(rel[s][f].heel[1], rel[s][f].toe[1]);
      const lowL = low(0);
      const lowR = low(1);
      if (Math.min(lowL, lowR) < 0.12 * k) contacts[lowL <= lowR ? 0 : 1].flags[f] = 1;
    }
    for (let s = 0; s < 2; s++) contacts[s].flags = cleanFlags(contacts[s].flags, 2, 2);
  }
  // Locks on the final root.
  const ankleW: Vec3[][] = [[], []];
  const footRotW: Quat[][] = [[], []];
  for (let f = 0; f < N; f++) {
    poseToWorld(sk, local, f * n * 4, readVec3(rootW, f), pose);
    SIDES.forEach((side, s) => {
      ankleW[s].push(readVec3(pose.positions, j[`${side}Foot`]));
      footRotW[s].push(readQuat(pose.rotations, j[`${side}Foot`]));
    });
  }
  const planned: FootLock[][] = SIDES.map((side, s) => {
    if (mode === 'never' || mode === 'grounding') {
      return Array.from({ length: N }, () => ({ ankle: null, rotation: null }) as FootLock);
    }
    return planFootLocks(
      ankleW[s],
      footRotW[s],
      model.foot[side],
      contacts[s].flags,
      contacts[s].heelDown,
      0,
      !rootAtOrigin,
      0.015 * k,
    );
  });
  // Ease the corrections in and out: the per-frame corrections (ankle offset, foot rotation) are smoothed
  // over time (6 Hz), held during contacts (weight 20) and pulled back to zero outside them (weight 0.02),
  // so legs never snap at a contact's start, end or heel/toe change.
  const locks: FootLock[][] = planned.map((plan, s) => {
    if (!plan.some((l) => l.ankle)) return plan;
    const dA = new Float64Array(N * 3);
    const wA = new Float64Array(N);
    const dR = new Float64Array(N * 3);
    const wR = new Float64Array(N);
    for (let f = 0; f < N; f++) {
      const l = plan[f];
      wA[f] = l.ankle ? 20 : 0.02;
      if (l.ankle) writeVec3(dA, f, sub(l.ankle, ankleW[s][f]));
      wR[f] = l.rotation ? 20 : 0.02;
      if (l.rotation) writeVec3(dR, f, qLog(qMul(l.rotation, qConj(footRotW[s][f]))));
    }
    const ease = { cutoffHz: 6, fps, order: 2 as const, robustIterations: 0 };
    const sA = smoothSignal(dA, N, 3, wA, ease);
    const sR = smoothSignal(dR, N, 3, wR, ease);
    return Array.from({ length: N }, (_, f) => ({
      ankle: add(ankleW[s][f], readVec3(sA, f)),
      rotation: qMul(qExp(readVec3(sR, f)), footRotW[s][f]),
    }));
  });
  // Floor: how far each foot must be lifted so no sole point sinks, as a smooth envelope (a moving maximum
  // followed by a moving average over ±0.08 s is never below the need), so the lift eases in and out.
  const lowestOf = (side: Side, target: Vec3, rot: Quat) =>
    Math.min(
      add(target, qRotate(rot, model.foot[side][0]))[1],
      add(target, qRotate(rot, model.foot[side][1]))[1],
    );
  const lifts = SIDES.map((side, s) => {
    const need = new Float64Array(N);
    for (let f = 0; f < N; f++) {
      const l = locks[s][f];
      need[f] = Math.max(0, -lowestOf(side, l.ankle ?? ankleW[s][f], l.rotation ?? footRotW[s][f]));
    }
    return envelope(need, Math.max(1, Math.round(0.08 * fps)));
  });
  // Apply locks, grounding and the floor constraint frame by frame.
  const footLow = (side: Side) => {
    const { heel, toe } = footPoints(model, pose, side);
    return Math.min(heel[1], toe[1]);
  };
  const applyFeet = (f: number, root: Vec3): void => {
    poseToWorld(sk, local, f * n * 4, root, pose);
    for (let s = 0; s < 2; s++) {
      const side = SIDES[s];
      const fj = j[`${side}Foot`];
      const lock = locks[s][f];
      let target = lock.ankle ?? readVec3(pose.positions, fj);
      const rot = lock.rotation ?? readQuat(pose.rotations, fj);
      // Grounding pins the lowest sole point to the floor; otherwise the (eased) lift keeps it above.
      const lowest = lowestOf(side, target, rot);
      const lift = mode === 'grounding' ? -lowest : Math.max(lifts[s][f], -lowest);
      if (!lock.ankle && !lock.rotation && lift === 0) continue;
      target = [target[0], target[1] + lift, target[2]];
      const soft = mode === 'grounding' ? 0 : SOFT_IK;
      solveLimb(model, side, 'leg', target, currentLegPole(model, pose, side), rot, local, f * n, pose, soft);
    }
    poseToWorld(sk, local, f * n * 4, root, pose);
  };
  let lifted = 0;
  for (let f = 0; f < N; f++) {
    let root = readVec3(rootW, f);
    applyFeet(f, root);
    if (mode === 'grounding') {
      // A foot the leg cannot bring down to the floor: lower the hips and solve both legs again.
      const floating = Math.max(footLow('left'), footLow('right'));
      if (floating > 5e-4) {
        root = [root[0], root[1] - floating, root[2]];
        writeVec3(rootW, f, root);
        applyFeet(f, root);
      }
    }
    const low = lowestFootHeight(model, pose);
    if (low < -1e-4) {
      root = [root[0], root[1] - low, root[2]];
      writeVec3(rootW, f, root);
      lifted++;
    }
  }
  if (lifted > 0) warnings.push(`${lifted} frames: hips raised to keep the feet above the floor`);
  for (let f = 0; f < N; f++) rootW[f * 3 + 1] += sup[f];
  const flags = (s: number) => (mode === 'grounding' ? new Uint8Array(N).fill(1) : contacts[s].flags);
  let rootCamera: Float64Array | null = null;
  if (!rootAtOrigin) {
    rootCamera = new Float64Array(N * 3);
    const back = qConj(tilt);
    for (let f = 0; f < N; f++) writeVec3(rootCamera, f, add(qRotate(back, readVec3(rootW, f)), origin));
  }
  return {
    rootPositions: rootW,
    tilt,
    origin,
    rootCamera,
    contacts: { left: flags(0), right: flags(1) },
    support,
    upFromLegs: legsPrior,
    warnings,
  };
}

export { LM };
