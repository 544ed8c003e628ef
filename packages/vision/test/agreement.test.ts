import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { letterbox, NORM_0_1, NORM_MINUS1_1, type Rect, warpToTensor } from '../src/image/warp.ts';
import { MODEL_NAMES, type ModelName } from '../src/models.ts';
import { DETECTOR_SIZE, detectPeople } from '../src/pose/detector.ts';
import { FACE_SIZE, faceRectFromPose, IRIS_SIZE } from '../src/pose/face.ts';
import { HAND_OUTPUTS, HAND_SIZE, handRectFromPose } from '../src/pose/hands.ts';
import { decodePose, LANDMARK_SIZE, POSE_OUTPUTS, roiToRect } from '../src/pose/landmarks.ts';
import { transformRect } from '../src/pose/regions.ts';
import { createSession, type ModelSession } from '../src/runtime/index.ts';
import { decodeImage, type Frame } from '../src/video/index.ts';
import { POSE_JPG } from './fixtures/video-fixtures.ts';

/**
 * onnxruntime on our converted models vs the reference tfjs-wasm on the original TF.js models, on real crops
 * of a real photo (the crops the pipeline itself would make). Tolerance, elementwise on every output the
 * pipeline uses: |ort − tfjs| ≤ 2e-3 + 2e-4·|tfjs| (landmark pixels are 0..256, detector regressions are in
 * 224-pixel units, metres ~1, scores 0..1).
 */
const tolerance = (ref: number) => 2e-3 + 2e-4 * Math.abs(ref);

describe('onnxruntime agrees with tfjs-wasm on real crops', () => {
  let image: Frame;
  const crops = new Map<ModelName, Float32Array>();
  const outputs: Partial<Record<ModelName, string[]>> = {
    'blazepose-lite': POSE_OUTPUTS,
    'blazepose-full': POSE_OUTPUTS,
    'blazepose-heavy': POSE_OUTPUTS,
    'handlandmark-full': Object.values(HAND_OUTPUTS),
    'handlandmark-lite': Object.values(HAND_OUTPUTS),
    facemesh: ['output_mesh', 'output_faceflag'],
  };

  beforeAll(async () => {
    image = await decodeImage(POSE_JPG);
    const ort = (m: ModelName) => createSession(m, { backend: 'ort', outputs: outputs[m] });
    const detector = await ort('blazepose-detector');
    crops.set(
      'blazepose-detector',
      warpToTensor(image, letterbox(image.width, image.height).rect, DETECTOR_SIZE, NORM_MINUS1_1),
    );
    const [person] = await detectPeople(detector, image);
    const poseCrop = warpToTensor(image, roiToRect(person.roi), LANDMARK_SIZE, NORM_0_1);
    for (const m of ['blazepose-lite', 'blazepose-full', 'blazepose-heavy'] as const) crops.set(m, poseCrop);
    const full = await ort('blazepose-full');
    const pose = decodePose(await full.run(poseCrop), person.roi);
    const p = (k: number): [number, number] => [pose.image[k][0], pose.image[k][1]];
    const handCrop = warpToTensor(image, handRectFromPose(p(16), p(18), p(20)), HAND_SIZE, NORM_0_1);
    crops.set('handlandmark-full', handCrop);
    crops.set('handlandmark-lite', handCrop);
    const faceRect = faceRectFromPose(pose.image);
    crops.set('facemesh', warpToTensor(image, faceRect, FACE_SIZE, NORM_0_1));
    // An eye-sized region around the (subject's) left eye points of the body pose.
    const eye: Rect = transformRect(
      {
        cx: p(2)[0],
        cy: p(2)[1],
        width: faceRect.width / 5,
        height: faceRect.width / 5,
        rotation: faceRect.rotation,
      },
      2.3,
    );
    crops.set('iris', warpToTensor(image, eye, IRIS_SIZE, NORM_0_1));
    await Promise.all([detector.dispose(), full.dispose()]);
  });

  const sessions: ModelSession[] = [];
  afterAll(async () => {
    await Promise.all(sessions.map((s) => s.dispose()));
  });

  it.each(MODEL_NAMES)('%s', async (model) => {
    const a = await createSession(model, { backend: 'ort', outputs: outputs[model] });
    const b = await createSession(model, { backend: 'tfjs', outputs: outputs[model] });
    sessions.push(a, b);
    const input = crops.get(model)!;
    const [oa, ob] = [await a.run(input), await b.run(input)];
    expect(Object.keys(oa).sort()).toEqual(Object.keys(ob).sort());
    for (const key of Object.keys(ob)) {
      const x = oa[key];
      const y = ob[key];
      expect(x.length, key).toBe(y.length);
      let worst = 0;
      for (let i = 0; i < y.length; i++) worst = Math.max(worst, Math.abs(x[i] - y[i]) - tolerance(y[i]));
      expect(worst, `${model} ${key}: worst excess over tolerance`).toBeLessThanOrEqual(0);
    }
    if (model.startsWith('blazepose-') && model !== 'blazepose-detector') {
      // The crop really shows a person: the test is on meaningful activations, not on noise.
      expect(ob.output_poseflag[0]).toBeGreaterThan(0.9);
    }
  });
});
