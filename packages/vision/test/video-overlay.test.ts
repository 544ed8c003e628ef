import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { HandTrack, ImageLandmark, TrackFrame, TrackState, Vec3 } from '@mocap/contracts';
import { HAND_LANDMARKS, POSE_LANDMARKS } from '@mocap/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOverlayWriter,
  decodeFrames,
  drawTrackFrame,
  type Frame,
  OVERLAY_COLORS,
  overlayMetrics,
  probeVideo,
  type Rgb,
} from '../src/video/index.ts';
import { CLIPS, childPids, isAlive, makeTempDir, removeDir } from './fixtures/video-fixtures.ts';

const GREY = 100;

function blank(width: number, height: number): Frame {
  return { index: 7, time: 0.25, width, height, data: new Uint8Array(width * height * 3).fill(GREY) };
}

function px(f: Frame, x: number, y: number): [number, number, number] {
  const i = (Math.floor(y) * f.width + Math.floor(x)) * 3;
  return [f.data[i]!, f.data[i + 1]!, f.data[i + 2]!];
}

const untouched = [GREY, GREY, GREY];

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(
    Buffer.from(b.buffer, b.byteOffset, b.byteLength),
  );
}

/** A standing figure, facing the camera, in a 640x360 frame (the subject's left is image right). */
function figure(scale = 1, visibility = 0.9): ImageLandmark[] {
  const at: Record<string, [number, number]> = {
    nose: [320, 60],
    left_eye_inner: [326, 54],
    left_eye: [330, 54],
    left_eye_outer: [334, 54],
    right_eye_inner: [314, 54],
    right_eye: [310, 54],
    right_eye_outer: [306, 54],
    left_ear: [340, 58],
    right_ear: [300, 58],
    mouth_left: [326, 70],
    mouth_right: [314, 70],
    left_shoulder: [360, 100],
    right_shoulder: [280, 100],
    left_elbow: [390, 150],
    right_elbow: [250, 150],
    left_wrist: [400, 200],
    right_wrist: [240, 200],
    left_pinky: [404, 214],
    right_pinky: [236, 214],
    left_index: [400, 218],
    right_index: [240, 218],
    left_thumb: [394, 212],
    right_thumb: [246, 212],
    left_hip: [345, 200],
    right_hip: [295, 200],
    left_knee: [350, 260],
    right_knee: [290, 260],
    left_ankle: [352, 320],
    right_ankle: [288, 320],
    left_heel: [348, 330],
    right_heel: [292, 330],
    left_foot_index: [362, 336],
    right_foot_index: [278, 336],
  };
  return POSE_LANDMARKS.map((name) => {
    const [x, y] = at[name]!;
    return [x * scale, y * scale, 0, visibility, 0.99];
  });
}

const L = (name: (typeof POSE_LANDMARKS)[number]) => POSE_LANDMARKS.indexOf(name);

function track(state: TrackState, image?: ImageLandmark[], extra: Partial<TrackFrame> = {}): TrackFrame {
  return { index: 7, time: 0.25, state, score: image ? 0.95 : 0, image, ...extra };
}

function hand(x0: number, y0: number): HandTrack {
  const image: Vec3[] = HAND_LANDMARKS.map((_, i) => [x0 + (i % 5) * 12, y0 - Math.floor(i / 5) * 12, 0]);
  return { score: 0.9, handedness: 0.8, image, world: image.map(() => [0, 0, 0]) };
}

function expectColor(actual: number[], want: Rgb) {
  expect(actual).toEqual([...want]);
}

describe('drawTrackFrame', () => {
  it('draws onto a copy and leaves the input frame untouched', () => {
    const frame = blank(640, 360);
    const out = drawTrackFrame(frame, track('detected', figure()));
    expect(sameBytes(frame.data, blank(640, 360).data)).toBe(true);
    expect(sameBytes(out.data, frame.data)).toBe(false);
    expect(out.data).not.toBe(frame.data);
    expect([out.index, out.time, out.width, out.height]).toEqual([7, 0.25, 640, 360]);
    expect(sameBytes(drawTrackFrame(frame).data, frame.data)).toBe(true);
  });

  it('colours landmarks by side, draws the skeleton, and leaves far pixels alone', () => {
    const out = drawTrackFrame(blank(640, 360), track('tracked', figure()));
    expectColor(px(out, 360, 100), OVERLAY_COLORS.left); // left_shoulder
    expectColor(px(out, 280, 100), OVERLAY_COLORS.right); // right_shoulder
    expectColor(px(out, 320, 60), OVERLAY_COLORS.center); // nose
    expectColor(px(out, 375, 125), OVERLAY_COLORS.left); // middle of left upper arm
    expectColor(px(out, 265, 125), OVERLAY_COLORS.right); // middle of right upper arm
    expectColor(px(out, 320, 200), OVERLAY_COLORS.center); // middle of the hip line
    expect(px(out, 600, 300)).toEqual(untouched);
    expect(px(out, 320, 150)).toEqual(untouched); // between the arms, on no bone
  });

  it('draws landmarks with visibility < 0.5 dimmer and smaller', () => {
    const lm = figure();
    lm[L('left_knee')]![3] = 0.2;
    const out = drawTrackFrame(blank(640, 360), track('tracked', lm));
    const dim = px(out, 350, 260);
    expect(dim).not.toEqual(untouched);
    expect(dim).not.toEqual([...OVERLAY_COLORS.left]);
    // Blended part-way from the background towards the colour.
    expect(dim[0]).toBeGreaterThan(GREY);
    expect(dim[0]).toBeLessThan(OVERLAY_COLORS.left[0]);
    // Smaller: at an offset that a visible point covers, the dim point does not (away from its bones).
    const { point } = overlayMetrics(640, 360);
    const off = Math.ceil(point * 0.9);
    expect(px(out, 350 - off, 260 - off + 1)).toEqual(untouched);
    expect(px(out, 360 + off - 1, 100 - off + 1)).not.toEqual(untouched);
  });

  it('shows the state as a green / blue / red badge in the top-left corner', () => {
    const { badge } = overlayMetrics(640, 360);
    const m = Math.max(4, Math.round(badge / 3));
    const centre = m + badge / 2;
    for (const [state, color] of [
      ['detected', OVERLAY_COLORS.detected],
      ['tracked', OVERLAY_COLORS.tracked],
      ['lost', OVERLAY_COLORS.lost],
    ] as const) {
      const out = drawTrackFrame(blank(640, 360), track(state, state === 'lost' ? undefined : figure()));
      expectColor(px(out, centre, centre), color);
    }
    expect(OVERLAY_COLORS.detected[1]).toBeGreaterThan(OVERLAY_COLORS.detected[0] + 100);
    expect(OVERLAY_COLORS.tracked[2]).toBeGreaterThan(OVERLAY_COLORS.tracked[0] + 100);
    expect(OVERLAY_COLORS.lost[0]).toBeGreaterThan(OVERLAY_COLORS.lost[2] + 100);
  });

  it('draws only the badge when the body is lost', () => {
    const frame = blank(640, 360);
    const out = drawTrackFrame(frame, track('lost'));
    let changed = 0;
    let maxX = 0;
    let maxY = 0;
    for (let y = 0; y < 360; y++) {
      for (let x = 0; x < 640; x++) {
        if (px(out, x, y).join() !== untouched.join()) {
          changed++;
          maxX = Math.max(maxX, x);
          maxY = Math.max(maxY, y);
        }
      }
    }
    expect(changed).toBeGreaterThan(50);
    expect(maxX).toBeLessThan(60);
    expect(maxY).toBeLessThan(60);
  });

  it('draws hands with their finger connections, face mesh points and the rotated ROI', () => {
    const face = { score: 0.9, image: [[500, 40, 0] as Vec3, [510, 44, 0] as Vec3] };
    const roi = { cx: 320, cy: 200, size: 200, rotation: Math.PI / 4 };
    const out = drawTrackFrame(
      blank(640, 360),
      track('tracked', figure(), { hands: { left: hand(450, 300), right: hand(100, 300) }, face, roi }),
    );
    expectColor(px(out, 450, 300), OVERLAY_COLORS.leftHand); // left wrist
    expectColor(px(out, 100, 300), OVERLAY_COLORS.rightHand); // right wrist
    expectColor(px(out, 106, 300), OVERLAY_COLORS.rightHand); // on the wrist → thumb_cmc bone
    expect(px(out, 500, 40)).not.toEqual(untouched); // face point
    expect(px(out, 505, 60)).toEqual(untouched);
    // ROI rotated by 45°: the middle of its top edge is at (cx + 70.7, cy - 70.7)·(sin, cos) rotated.
    const h = roi.size / 2;
    const ex = roi.cx + 0 * Math.cos(roi.rotation) - -h * Math.sin(roi.rotation);
    const ey = roi.cy + 0 * Math.sin(roi.rotation) + -h * Math.cos(roi.rotation);
    expectColor(px(out, ex, ey), OVERLAY_COLORS.roi);
    // Where the unrotated square's top edge would be, nothing.
    expect(px(out, roi.cx + 80, roi.cy - h)).toEqual(untouched);
  });

  it('scales line thickness with the frame size (visible at 1080p)', () => {
    const thickness = (w: number, h: number) => {
      const s = h / 360;
      const out = drawTrackFrame(blank(w, h), track('tracked', figure(s)));
      // Vertical run of the left-right shoulder line at x = 320·s.
      let n = 0;
      for (let y = Math.round(80 * s); y < Math.round(120 * s); y++)
        if (px(out, 320 * s, y).join() !== untouched.join()) n++;
      return n;
    };
    const small = thickness(640, 360);
    const big = thickness(1920, 1080);
    expect(small).toBeGreaterThanOrEqual(2);
    expect(big).toBeGreaterThanOrEqual(4);
    expect(big).toBeGreaterThanOrEqual(2 * small - 1);
  });

  it('maps full-resolution track coordinates onto a downscaled frame with `scale`', () => {
    const direct = drawTrackFrame(blank(640, 360), track('tracked', figure()));
    const scaled = drawTrackFrame(blank(640, 360), track('tracked', figure(3)), { scale: 1 / 3 });
    expect(sameBytes(scaled.data, direct.data)).toBe(true);
  });

  it('survives landmarks outside the frame, huge or not finite', () => {
    const lm = figure();
    lm[L('left_wrist')] = [1e9, -1e9, 0, 0.9, 0.9];
    lm[L('right_wrist')] = [Number.NaN, 10, 0, 0.9, 0.9];
    lm[L('left_ankle')] = [-50, 400, 0, 0.9, 0.9];
    const out = drawTrackFrame(
      blank(640, 360),
      track('tracked', lm, { roi: { cx: -500, cy: -500, size: 10, rotation: 0 } }),
    );
    expectColor(px(out, 360, 100), OVERLAY_COLORS.left);
    expect(out.data.length).toBe(640 * 360 * 3);
  });
});

describe('createOverlayWriter', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await makeTempDir();
  });
  afterAll(() => removeDir(dir));

  it('encodes drawn frames to an H.264 yuv420p MP4', async () => {
    const info = await probeVideo(CLIPS.treadmill);
    const out = path.join(dir, 'overlay.mp4');
    const writer = createOverlayWriter(out, { width: 360, height: 360, fps: info.fps });
    let n = 0;
    for await (const frame of decodeFrames(info, { width: 360, endFrame: 24 })) {
      const lm = figure(0.5);
      await writer.write(frame, track(n % 3 === 0 ? 'detected' : 'tracked', lm, { index: frame.index }));
      n++;
    }
    expect(existsSync(out)).toBe(false); // written to a .partial file until closed
    await writer.close();
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([]);
    const video = await probeVideo(out);
    expect(video).toMatchObject({
      codec: 'h264',
      pixFmt: 'yuv420p',
      width: 360,
      height: 360,
      frameCount: 24,
    });
    expect(video.fps).toBeCloseTo(info.fps, 2);
    // The badge is visible in the encoded video (green on frame 0).
    for await (const f of decodeFrames(video, { endFrame: 1 })) {
      const [r, g, b] = px(f, 12, 12);
      expect(g).toBeGreaterThan(r + 80);
      expect(g).toBeGreaterThan(b + 60);
    }
    await expect(writer.write(blank(360, 360))).rejects.toThrow(/already closed/);
  });

  it('pads odd sizes for yuv420p', async () => {
    const out = path.join(dir, 'odd.mp4');
    const writer = createOverlayWriter(out, { width: 321, height: 241, fps: 10 });
    for (let i = 0; i < 5; i++) await writer.write(blank(321, 241), track('lost'));
    await writer.close();
    expect(await probeVideo(out)).toMatchObject({ width: 322, height: 242, frameCount: 5 });
  });

  it('rejects frames of the wrong size', async () => {
    const writer = createOverlayWriter(path.join(dir, 'wrong.mp4'), { width: 64, height: 64, fps: 10 });
    await expect(writer.write(blank(32, 32))).rejects.toThrow(/expects 64x64/);
    await writer.abort();
  });

  it('reports an ffmpeg failure instead of hanging', async () => {
    const writer = createOverlayWriter(path.join(dir, 'no-such-dir', 'x.mp4'), {
      width: 64,
      height: 64,
      fps: 10,
    });
    const t0 = Date.now();
    const result = (async () => {
      for (let i = 0; i < 200; i++) await writer.write(blank(64, 64));
      await writer.close();
    })();
    await expect(result).rejects.toThrow(/overlay x\.mp4: .*(No such file|ffmpeg)/);
    expect(Date.now() - t0).toBeLessThan(20_000);
  });

  it('abort() stops ffmpeg and deletes the partial file', async () => {
    const before = new Set(childPids());
    const out = path.join(dir, 'aborted.mp4');
    const writer = createOverlayWriter(out, { width: 64, height: 64, fps: 10 });
    await writer.write(blank(64, 64));
    const pid = childPids().find((p) => !before.has(p));
    expect(pid).toBeDefined();
    await writer.abort();
    expect(isAlive(pid!)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('aborted'))).toEqual([]);
  });
});
