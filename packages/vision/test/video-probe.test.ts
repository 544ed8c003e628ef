import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  probeVideo,
  run,
  toVideoMeta,
  VideoError,
  type VideoErrorCode,
  type VideoInfo,
} from '../src/video/index.ts';
import {
  CLIPS,
  ffmpeg,
  lavfi,
  listTestVideos,
  makeAudioOnly,
  makeAudioWithCover,
  makeEmptyFile,
  makeGarbageFile,
  makeLongClip,
  makeNobodyClip,
  makeRotated,
  makeTempDir,
  makeTextFile,
  makeTruncated,
  makeUndecodable,
  makeVfr,
  removeDir,
  TESTDATA_VIDEOS,
} from './fixtures/video-fixtures.ts';

/** What ffprobe / PROVENANCE.md say about each clip of the shared test data. */
const EXPECTED: Record<
  string,
  { w: number; h: number; fps: number; frames: number; codec: string; audio: boolean }
> = {
  'dme_treadmill_27_teenage_hooligan_walk.mp4': {
    w: 720,
    h: 720,
    fps: 23.976,
    frames: 90,
    codec: 'h264',
    audio: true,
  },
  'glamr_basketball_gym_two_people.mp4': {
    w: 1280,
    h: 720,
    fps: 30,
    frames: 300,
    codec: 'h264',
    audio: true,
  },
  'glamr_pexels_walking_moving_camera.mp4': {
    w: 960,
    h: 540,
    fps: 23.976,
    frames: 178,
    codec: 'h264',
    audio: false,
  },
  'hybrik_taiji_indoor.mp4': { w: 1280, h: 720, fps: 23.976, frames: 412, codec: 'h264', audio: true },
  'mmhuman3d_single_person_basketball_outdoor.mp4': {
    w: 1080,
    h: 1920,
    fps: 12,
    frames: 40,
    codec: 'h264',
    audio: false,
  },
  'romp_sample_video2_studio_dance.mp4': {
    w: 1920,
    h: 1080,
    fps: 29.97,
    frames: 300,
    codec: 'h264',
    audio: true,
  },
  'sports2d_demo4_indoor_side_walk.mp4': {
    w: 1280,
    h: 720,
    fps: 30,
    frames: 401,
    codec: 'h264',
    audio: true,
  },
  'sports2d_demo_outdoor_walk.mp4': { w: 1768, h: 994, fps: 30, frames: 230, codec: 'vp9', audio: true },
};

function expectConsistent(info: VideoInfo) {
  expect(info.frameTimes).toHaveLength(info.frameCount);
  expect(info.frameTimes[0]).toBe(0);
  for (let i = 1; i < info.frameTimes.length; i++)
    expect(info.frameTimes[i]).toBeGreaterThan(info.frameTimes[i - 1]!);
  expect(Math.abs(info.frameCount - info.duration * info.fps)).toBeLessThanOrEqual(1);
  expect(info.duration).toBeGreaterThan(info.frameTimes.at(-1)!);
  expect(info.keyFrames[0]).toBe(0);
  expect(info.width).toBeGreaterThan(0);
  expect(info.height).toBeGreaterThan(0);
}

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir();
});
afterAll(() => removeDir(dir));

describe('probeVideo on the shared test clips', () => {
  const files = listTestVideos();

  it('finds every clip listed in PROVENANCE.md', () => {
    expect(files.map((f) => path.basename(f)).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(files.map((f) => [path.basename(f), f]))('%s', async (name, file) => {
    const info = await probeVideo(file);
    const want = EXPECTED[name]!;
    expect(info.file).toBe(name);
    expect(info.path).toBe(path.resolve(file));
    expect([info.width, info.height]).toEqual([want.w, want.h]);
    expect([info.codedWidth, info.codedHeight]).toEqual([want.w, want.h]);
    expect(info.rotation).toBe(0);
    expect(info.codec).toBe(want.codec);
    expect(info.pixFmt).toBe('yuv420p');
    expect(info.hasAudio).toBe(want.audio);
    expect(info.fps).toBeCloseTo(want.fps, 2);
    expect(info.frameCount).toBe(want.frames);
    expect(info.vfr).toBe(false);
    expect(info.warnings).toEqual([]);
    expectConsistent(info);
    expect(toVideoMeta(info)).toMatchObject({
      file: name,
      width: want.w,
      height: want.h,
      frameCount: want.frames,
    });
  });

  it('reports the portrait clip as 1080x1920 without rotation, at 12 fps', async () => {
    const info = await probeVideo(CLIPS.portrait);
    expect(info).toMatchObject({ width: 1080, height: 1920, rotation: 0, fps: 12, frameCount: 40 });
    expect(info.duration).toBeCloseTo(40 / 12, 6);
    expect(info.frameTimes[1]).toBeCloseTo(1 / 12, 9);
  });

  it('reports the VP9 clip with its key frames', async () => {
    const info = await probeVideo(CLIPS.vp9);
    expect(info.codec).toBe('vp9');
    expect(info.keyFrames).toEqual([0, 60, 120, 180]);
    expect(info.frameTimes[60]).toBeCloseTo(2, 6);
  });

  it('gives B-frame clips presentation-order times and display-order key frames', async () => {
    const info = await probeVideo(CLIPS.studioDance);
    expect(info.keyFrames).toEqual([0, 81, 275]);
    expect(info.frameTimes[81]).toBeCloseTo((81 * 1001) / 30000, 6);
    expect(info.frameTimes[299]).toBeCloseTo((299 * 1001) / 30000, 6);
  });
});

describe('probeVideo: rotation metadata', () => {
  it.each([90, 180, 270] as const)(
    'reads a %i degree rotation flag and swaps the displayed size',
    async (deg) => {
      const file = await makeRotated(CLIPS.taiji, dir, deg);
      const info = await probeVideo(file);
      expect(info.rotation).toBe(deg);
      expect([info.codedWidth, info.codedHeight]).toEqual([1280, 720]);
      expect([info.width, info.height]).toEqual(deg === 180 ? [1280, 720] : [720, 1280]);
      expect(info.frameCount).toBe(412);
      expect(info.warnings).toEqual([]); // a rotation is not a mirror
      expectConsistent(info);
    },
  );
});

describe('probeVideo: camera focal length', () => {
  it("reads a phone's 35 mm-equivalent focal length and converts it to pixels over the diagonal", async () => {
    const file = path.join(dir, 'focal.mp4');
    await ffmpeg([
      ...lavfi('testsrc=size=640x360:rate=10'),
      '-t',
      '1',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-movflags',
      'use_metadata_tags',
      '-metadata',
      'com.apple.quicktime.camera.focal_length.35mm_equivalent=26',
      '-y',
      file,
    ]);
    const info = await probeVideo(file);
    // 26 mm on the 43.27 mm diagonal of a 36 × 24 mm frame → 26 / 43.27 of the 734.4 px diagonal.
    expect(info.focalLengthPx).toBeCloseTo((26 * Math.hypot(640, 360)) / Math.hypot(36, 24), 6);
    expect(toVideoMeta(info).focalLengthPx).toBe(info.focalLengthPx);
  });

  it('leaves it undefined when the file does not state it', async () => {
    const info = await probeVideo(CLIPS.taiji);
    expect(info.focalLengthPx).toBeUndefined();
    expect('focalLengthPx' in toVideoMeta(info)).toBe(false);
  });
});

describe('probeVideo: frame timing', () => {
  it('detects a variable frame rate and returns the real, uneven frame times', async () => {
    const info = await probeVideo(await makeVfr(dir));
    expect(info.vfr).toBe(true);
    expect(info.frameCount).toBe(55);
    const intervals = info.frameTimes.slice(1).map((t, i) => t - info.frameTimes[i]!);
    expect(intervals[0]).toBeCloseTo(0.1, 4);
    expect(intervals[15]).toBeCloseTo(1 / 30, 4);
    expect(intervals.at(-1)).toBeCloseTo(1 / 15, 4);
    expect(info.frameTimes[10]).toBeCloseTo(1, 4);
    // The last frame lasts one tick of the encoder's clock (1/30 s) or its real 1/15 s.
    expect(info.duration).toBeGreaterThan(2.96);
    expect(info.duration).toBeLessThan(3.001);
    expect(info.fps).toBeCloseTo(55 / info.duration, 6);
    expectConsistent(info);
  });

  it('probes a generated clip with nobody in it as a normal constant-rate video', async () => {
    const info = await probeVideo(await makeNobodyClip(dir, { seconds: 2, fps: 25 }));
    expect(info).toMatchObject({
      width: 640,
      height: 360,
      fps: 25,
      frameCount: 50,
      vfr: false,
      hasAudio: false,
    });
  });

  it('makeLongClip loops a clip to the requested length, size and rate', async () => {
    const info = await probeVideo(
      await makeLongClip(CLIPS.portrait, dir, 5, { width: 320, height: 180, fps: 15 }),
    );
    // The 3.33 s portrait clip, looped, pillarboxed into 320x180.
    expect(info).toMatchObject({
      width: 320,
      height: 180,
      frameCount: 75,
      fps: 15,
      hasAudio: false,
      vfr: false,
    });
  });

  it('keeps the first frame at time 0 when the stream starts later than the container', async () => {
    const file = path.join(dir, 'offset.mp4');
    // Audio starts at 0, video at 0.5 s.
    await ffmpeg([
      ...lavfi('testsrc2=size=160x120:rate=10:duration=2'),
      ...lavfi('sine=duration=3'),
      '-filter:v',
      'setpts=PTS+0.5/TB',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      file,
    ]);
    const info = await probeVideo(file);
    expect(info.frameTimes[0]).toBe(0);
    expect(info.frameCount).toBe(20);
    expect(info.startTime).toBeCloseTo(0.5, 3);
    expect(info.fps).toBeCloseTo(10, 3);
  });
});

describe('probeVideo: hostile inputs fail fast with a clear VideoError', () => {
  async function expectVideoError(file: string, code: VideoErrorCode, message?: RegExp) {
    const t0 = Date.now();
    const err = await probeVideo(file).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(err).toBeInstanceOf(VideoError);
    const ve = err as VideoError;
    expect(ve.code).toBe(code);
    expect(ve.file).toBe(path.basename(file));
    expect(ve.message).toContain(`"${path.basename(file)}"`);
    expect(ve.message).not.toContain(path.dirname(path.resolve(file)));
    if (message) expect(ve.message).toMatch(message);
  }

  it('missing path → not_found', () =>
    expectVideoError(path.join(dir, 'nope.mp4'), 'not_found', /not found/));
  it('zero-byte file → empty_file', async () =>
    expectVideoError(await makeEmptyFile(dir), 'empty_file', /empty/));
  it('text file named .mp4 → not_a_video', async () =>
    expectVideoError(await makeTextFile(dir), 'not_a_video', /not a video/));
  it('random bytes → not_a_video', async () => expectVideoError(await makeGarbageFile(dir), 'not_a_video'));
  it('a directory → not_a_video', () => expectVideoError(TESTDATA_VIDEOS, 'not_a_video', /directory/));
  it('a named pipe (which would block a reader forever) → not_a_video', async () => {
    const fifo = path.join(dir, 'stream.mp4');
    expect((await run('mkfifo', [fifo])).code).toBe(0);
    await expectVideoError(fifo, 'not_a_video', /not a regular file/);
  });
  it('ffprobe not answering in time → timeout', async () => {
    const err = await probeVideo(CLIPS.studioDance, { timeoutMs: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VideoError);
    expect((err as VideoError).code).toBe('timeout');
    expect((err as VideoError).message).toMatch(/"romp_sample_video2_studio_dance.mp4" took too long/);
  });
  it('audio-only mp4 → no_video_stream', async () =>
    expectVideoError(await makeAudioOnly(dir), 'no_video_stream', /no video stream.*audio/));
  it('mp3 with cover art → no_video_stream (a cover picture is not a video)', async () =>
    expectVideoError(await makeAudioWithCover(dir), 'no_video_stream', /audio besides cover art/));
  it('mp4 cut at 40 % with its index at the end → not_a_video (incomplete)', async () =>
    expectVideoError(await makeTruncated(CLIPS.treadmill, dir, 0.4), 'not_a_video', /truncated/));

  it('mp4 cut at 40 % with its index first → probes the readable frames and warns', async () => {
    const info = await probeVideo(await makeTruncated(CLIPS.walkingMovingCamera, dir, 0.4));
    expect(info.frameCount).toBeGreaterThan(20);
    expect(info.frameCount).toBeLessThan(178);
    expect(info.warnings.join('\n')).toMatch(/truncated/);
    expectConsistent(info);
  });

  it('a video whose frames are all zeroed still probes (decoding reports it)', async () => {
    const info = await probeVideo(await makeUndecodable(CLIPS.treadmill, dir));
    expect(info.frameCount).toBe(90);
  });
});
