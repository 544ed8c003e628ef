/**
 * The upload page's cost reads the video track's length from the MP4 boxes (issue 15.7: a 10.000 s video with
 * 10.008 s of audio showed 11 V in the confirm dialog and was charged 10 V). Compared with ffprobe's video stream
 * duration, which the server charges by.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mp4VideoSeconds } from '../src/lib/mp4.ts';
import { TESTDATA } from './e2e-harness.ts';

const probe = (file: string, stream: 'v:0' | 'a:0') =>
  Number(
    spawnSync(
      'ffprobe',
      ['-v', 'error', '-select_streams', stream, '-show_entries', 'stream=duration', '-of', 'csv=p=0', file],
      { encoding: 'utf8' },
    ).stdout.trim(),
  );

const clips = [
  'glamr_basketball_gym_two_people.mp4',
  'romp_sample_video2_studio_dance.mp4',
  'mmhuman3d_single_person_basketball_outdoor.mp4',
].map((n) => join(TESTDATA, 'videos', n));

describe.skipIf(!clips.every(existsSync) || spawnSync('ffprobe', ['-version']).status !== 0)(
  'mp4VideoSeconds',
  () => {
    it('the video track’s length as ffprobe reads it, not the longer audio’s', async () => {
      const gym = clips[0]!;
      const audio = probe(gym, 'a:0');
      const video = probe(gym, 'v:0');
      expect(audio).toBeGreaterThan(video); // the case of the report: audio runs 8 ms longer
      expect(await mp4VideoSeconds(new Blob([readFileSync(gym)]))).toBeCloseTo(video, 3);
      for (const c of clips.slice(1))
        expect(await mp4VideoSeconds(new Blob([readFileSync(c)]))).toBeCloseTo(probe(c, 'v:0'), 3);
    });

    it('not an MP4: null (the page keeps the browser’s duration)', async () => {
      expect(await mp4VideoSeconds(new Blob([Buffer.from('not a video at all, just text')]))).toBeNull();
      expect(await mp4VideoSeconds(new Blob([]))).toBeNull();
    });
  },
);
