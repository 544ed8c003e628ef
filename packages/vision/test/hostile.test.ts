import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackVideo } from '../src/pipeline.ts';
import { VideoError } from '../src/video/index.ts';
import {
  CLIPS,
  makeAudioOnly,
  makeEmptyFile,
  makeNobodyClip,
  makeTempDir,
  makeTextFile,
  makeTruncated,
  makeUndecodable,
  removeDir,
} from './fixtures/video-fixtures.ts';

/** Hostile inputs to the whole `video → tracks` stage: a clear VideoError or an empty track with a warning. */
describe('trackVideo on hostile inputs', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await makeTempDir('mocap-hostile-');
  });
  afterAll(() => removeDir(dir));

  const expectVideoError = async (file: string, code: string) => {
    const err = await trackVideo(file, { model: 'lite' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(VideoError);
    expect((err as VideoError).code).toBe(code);
    expect((err as VideoError).message).toMatch(/\w/);
  };

  it('a text file named .mp4', async () => expectVideoError(await makeTextFile(dir), 'not_a_video'));
  it('a zero-byte file', async () => expectVideoError(await makeEmptyFile(dir), 'empty_file'));
  it('an audio-only mp4', async () => expectVideoError(await makeAudioOnly(dir), 'no_video_stream'));
  it('a missing file', async () => expectVideoError(`${dir}/nope.mp4`, 'not_found'));
  it('an mp4 whose frames do not decode', async () =>
    expectVideoError(await makeUndecodable(CLIPS.treadmill, dir), 'decode_failed'));

  it('a truncated mp4: a clean error or the frames that decode, never a crash or a hang', async () => {
    const file = await makeTruncated(CLIPS.treadmill, dir, 0.4);
    const result = await trackVideo(file, { model: 'lite' }).then(
      (tracks) => ({ tracks }),
      (error: unknown) => ({ error }),
    );
    if ('error' in result) {
      expect(result.error).toBeInstanceOf(VideoError);
    } else {
      expect(result.tracks.frames.length).toBeGreaterThan(0);
      expect(result.tracks.frames.length).toBeLessThan(90);
    }
  });

  it('a clip with nobody in it: an empty track and a warning', async () => {
    const file = await makeNobodyClip(dir, { seconds: 2 });
    const tracks = await trackVideo(file, { model: 'lite' });
    expect(tracks.frames.length).toBe(50);
    expect(tracks.frames.every((f) => f.state === 'lost' && !f.image)).toBe(true);
    expect(tracks.warnings).toContain('nobody was found in the video');
  });
});
