import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beatAlignment, clipKinematicBeats, clipKinematics, testTracks } from '@mocap/dance';
import { wavBytes } from '@mocap/dance/node';
import { bvh, motionJson } from '@mocap/motion';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = resolve(import.meta.dirname, '../bin/mocap.js');
const mocap = (args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 300_000 });

describe('mocap dance', () => {
  let dir: string;
  let track: ReturnType<typeof testTracks.renderTrack>;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mocap-dance-'));
    track = testTracks.renderTrack({ name: 't', sections: [{ bars: 8, bpm: 120, pattern: 'rock' }] });
    await writeFile(
      join(dir, 'track.wav'),
      wavBytes({ samples: track.samples, sampleRate: track.sampleRate }),
    );
    const r = spawnSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-i',
      join(dir, 'track.wav'),
      join(dir, 'track.mp3'),
    ]);
    expect(r.status).toBe(0);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('dances an MP3 into a JSON clip on the beats, with a progress bar; the seed decides the dance', async () => {
    const out1 = join(dir, 'a.json');
    const r = mocap(['dance', join(dir, 'track.mp3'), '-o', out1, '--seed', '7']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/done +\[#+\] 100%/);
    expect(r.stderr).toMatch(/120 BPM/);
    expect(r.stderr).toMatch(/mocap\.cs\.cmu\.edu/);
    const clip = motionJson.read(await readFile(out1, 'utf8'));
    expect(clip.fps).toBe(30);
    expect(Math.abs(clip.frameCount / 30 - track.samples.length / track.sampleRate)).toBeLessThan(0.2);
    const kb = clipKinematicBeats(clipKinematics(clip));
    expect(beatAlignment(kb, track.beats)).toBeGreaterThanOrEqual(0.24);
    // Same seed → same file; another seed → another dance.
    const out2 = join(dir, 'b.json');
    const out3 = join(dir, 'c.json');
    expect(mocap(['dance', join(dir, 'track.mp3'), '-o', out2, '--seed', '7']).status).toBe(0);
    expect(mocap(['dance', join(dir, 'track.mp3'), '-o', out3, '--seed', '8']).status).toBe(0);
    expect(await readFile(out2, 'utf8')).toBe(await readFile(out1, 'utf8'));
    expect(await readFile(out3, 'utf8')).not.toBe(await readFile(out1, 'utf8'));
  });

  it('writes BVH and bone-type zips', async () => {
    const b = join(dir, 'd.bvh');
    expect(mocap(['dance', join(dir, 'track.wav'), '-o', b]).status).toBe(0);
    const doc = bvh.read(await readFile(b, 'utf8'));
    expect(doc.frameCount).toBeGreaterThan(400);
    const z = join(dir, 'd.zip');
    const r = mocap(['dance', join(dir, 'track.wav'), '-o', z, '--bone-type', 'VMD-TDA']);
    expect(r.status, r.stderr).toBe(0);
    const bytes = await readFile(z);
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    expect(bytes.includes(Buffer.from('.vmd'))).toBe(true);
  });

  it('refuses bad arguments (exit 2) and non-audio files (exit 1)', async () => {
    const bad = mocap(['dance', join(dir, 'track.wav'), '-o', join(dir, 'x.zip')]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/-o must end in \.bvh or \.json/);
    const badType = mocap(['dance', join(dir, 'track.wav'), '-o', join(dir, 'x.zip'), '--bone-type', 'Nope']);
    expect(badType.status).toBe(2);
    await writeFile(join(dir, 'notes.txt'), 'this is not music');
    const notAudio = mocap(['dance', join(dir, 'notes.txt'), '-o', join(dir, 'x.bvh')]);
    expect(notAudio.status).toBe(1);
    expect(notAudio.stderr).toMatch(/not an audio file/);
  });
});
