/**
 * Music → dance through the HTTP API on SQLite and PostgreSQL, with the real music worker (`@mocap/worker`'s
 * `runMusicWorker`) on the real queue: upload checked by content, limits by plan, the per-second charge, the
 * card's progress to made, DownLoadMusicMotion per bone type (plan rules), redone with a new seed (first free,
 * then charged), delete, and another account kept out.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testTracks } from '@mocap/dance';
import { wavBytes } from '@mocap/dance/node';
import { runMusicWorker } from '@mocap/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MusicView } from '../src/index.ts';
import { databases, useServer } from './harness.ts';
import { ffmpeg, multipart, postForm, sourceClip, unzip } from './video-helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'mocap-music-test-'));
/** A WAV of one synthetic section (120 bpm) from the dance package's test tracks. */
function wavOf(name: string, bars: number, pattern: 'rock' | 'four', seed: number): Buffer {
  const t = testTracks.renderTrack({ name, sections: [{ bars, bpm: 120, pattern }], seed });
  return Buffer.from(wavBytes({ samples: t.samples, sampleRate: t.sampleRate }));
}
const wav12 = wavOf('a', 6, 'rock', 3);
const wavLong = wavOf('b', 18, 'four', 4);
// An MP3 of other music, and an MP4 video (a video is not music).
const mp3Path = join(dir, 'b.mp3');
const mp4Path = join(dir, 'v.mp4');
{
  const t = testTracks.renderTrack({
    name: 'c',
    sections: [{ bars: 5, bpm: 100, pattern: 'half' }],
    seed: 5,
  });
  const w = join(dir, 'c.wav');
  writeFileSync(w, wavBytes({ samples: t.samples, sampleRate: t.sampleRate }));
  ffmpeg(['-i', w, mp3Path]);
  sourceClip('testsrc=size=64x64:rate=10:duration=2', mp4Path);
}
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(databases)('music on %s', (kind) => {
  const t = useServer(kind, { env: { CAPTURE_MODEL: 'lite' } });
  let a: { token: string; id: number };
  let b: { token: string; id: number };
  let worker: { close(): Promise<void> } | undefined;
  const balance = (id: number) => t.services.coins.balance(id);
  const setBalance = async (id: number, target: number) => {
    const now = await balance(id);
    if (now !== target)
      await t.services.coins.change(id, target - now, 'admin', `test-set:${id}:${Math.random()}`);
  };
  const upload = (token: string, file: { filename: string; data: Buffer; type?: string }, name?: string) => {
    const form = multipart([...(name ? [{ name: 'name', value: name }] : []), { name: 'file', file }]);
    return postForm<MusicView>(t.app, '/product/music/upload', token, form);
  };
  const { fetchUrl } = t;
  /** Polls the card until `done(card)`, recording the progress values seen. */
  const waitFor = async (token: string, id: number, done: (m: MusicView) => boolean, seen: number[] = []) => {
    const until = Date.now() + 180_000;
    for (;;) {
      const r = await t.call<MusicView>('GET', `/product/music/${id}`, { token });
      expect(r.code).toBe(0);
      seen.push(r.data.progress);
      if (done(r.data)) return r.data;
      if (Date.now() > until) throw new Error(`music ${id} stuck: ${JSON.stringify(r.data)}`);
      await new Promise((res) => setTimeout(res, 100));
    }
  };

  beforeAll(async () => {
    a = await t.register(`music-a-${kind}@example.com`);
    b = await t.register(`music-b-${kind}@example.com`);
  });
  afterAll(async () => {
    await worker?.close();
  });

  it('refuses what is not music, too long, or unpaid — charging and storing nothing', async () => {
    await setBalance(a.id, 10);
    const cases: [{ filename: string; data: Buffer }, RegExp][] = [
      [{ filename: 'notes.wav', data: Buffer.from('this is text, not a wav') }, /文件格式错误/],
      [{ filename: 'empty.mp3', data: Buffer.alloc(0) }, /文件格式错误/],
      [{ filename: 'clip.mp4', data: readFileSync(mp4Path) }, /文件格式错误/],
      // Free plan: 30 s at most (this one is 36.5 s).
      [{ filename: 'long.wav', data: wavLong }, /music duration cannot exceed 30 seconds/],
      // 12.5 s costs 13 V; the balance is 10.
      [{ filename: 'song.wav', data: wav12 }, /你的V币余额不足,无法制作视频/],
    ];
    for (const [file, message] of cases) {
      const r = await upload(a.token, file);
      expect(r.code, file.filename).toBe(307);
      expect(r.message).toMatch(message);
    }
    // The title rule (at most 15 characters) worded for music, not video.
    const titled = await upload(
      a.token,
      { filename: 'song.wav', data: wav12 },
      '一二三四五六七八九十一二三四五六',
    );
    expect(titled.code).toBe(307);
    expect(titled.message).toBe('Music title at most 15 characters');
    expect(await balance(a.id)).toBe(10);
    const list = await t.call<{ total: number }>('POST', '/product/music/center', {
      token: a.token,
      body: {},
    });
    expect(list.data.total).toBe(0);
    expect(await t.infra.storage.stat('uploadMusic/none')).toBeNull();
  });

  it('uploads, charges 1 V per second, makes the dance with live progress, downloads by plan, redoes, deletes', async () => {
    await setBalance(a.id, 100);
    const up = await upload(a.token, { filename: 'song.wav', data: wav12, type: 'audio/wav' }, 'my song');
    expect(up.code, up.message).toBe(0);
    expect(up.data).toMatchObject({
      name: 'my song',
      status: 0,
      charged: Math.ceil(up.data.duration),
      currency: 'V',
    });
    expect(up.data.duration).toBeGreaterThan(12);
    expect(await balance(a.id)).toBe(100 - up.data.charged);
    // Stored under the spec's /uploadMusic/ prefix.
    const rec = await t.services.music.owned({ id: a.id } as never, up.data.id).catch(() => null);
    expect(rec?.audioKey).toMatch(/^uploadMusic\/[0-9a-f]{32}\.wav$/);
    // Duplicate: refused.
    const dup = await upload(a.token, { filename: 'again.wav', data: wav12 });
    expect(dup.message).toBe('当前文件已存在');
    // The worker makes it; the card shows progress on the way.
    worker = runMusicWorker(
      { queue: t.services.music.queue, storage: t.infra.storage, jobs: t.services.music },
      { tmpDir: join(t.dataDir, 'tmp'), reconcileMs: 0 },
    );
    const seen: number[] = [];
    const made = await waitFor(a.token, up.data.id, (m) => m.status === 2 || m.status === 3, seen);
    expect(made.status, made.error ?? '').toBe(2);
    expect(seen.some((p) => p > 0 && p < 100)).toBe(true);
    expect(made.tempo).toBeGreaterThan(115);
    expect(made.tempo).toBeLessThan(125);
    expect(made.boneTypes).toContain('Mixamo');
    expect(made.boneTypes).toContain('VMD-TDA');
    // DownLoadMusicMotion: a free account gets FBX bone types; VMD is refused.
    const dl = await t.call<{ paths: string[]; motionsName: string[] }>(
      'GET',
      `/product/music/download/0/${up.data.id}/Mixamo`,
      { token: a.token },
    );
    expect(dl.code, dl.message).toBe(0);
    const zip = unzip((await fetchUrl(dl.data.paths[0]!)).rawPayload);
    expect([...zip.keys()].some((k) => k.endsWith('.fbx'))).toBe(true);
    const vmd = await t.call('GET', `/product/music/download/0/${up.data.id}/VMD-TDA`, { token: a.token });
    expect(vmd.message).toBe('免费版用户只能选择 FBX 格式');
    await t.infra.store.repos.users.update(
      a.id,
      { level: 'monthly', vexpiredAt: t.clock.now() + 86_400_000 },
      t.clock.now(),
    );
    const vmd2 = await t.call<{ paths: string[] }>('GET', `/product/music/download/0/${up.data.id}/VMD-TDA`, {
      token: a.token,
    });
    expect(vmd2.code, vmd2.message).toBe(0);
    const vzip = unzip((await fetchUrl(vmd2.data.paths[0]!)).rawPayload);
    const vmdFile = [...vzip.entries()].find(([k]) => k.endsWith('.vmd'));
    expect(vmdFile?.[1].subarray(0, 20).toString('latin1')).toBe('Vocaloid Motion Data');
    // Read back by an independent reader (mmd-parser, as the exporters' tests): keys on the centre and both leg
    // IKs over the whole song at 30 fps.
    const modPath: string = 'mmd-parser';
    const { Parser } = (await import(modPath)) as {
      Parser: new () => {
        parseVmd(b: ArrayBuffer, lr: boolean): { motions: { boneName: string; frameNum: number }[] };
      };
    };
    const vb = vmdFile![1];
    const parsed = new Parser().parseVmd(
      vb.buffer.slice(vb.byteOffset, vb.byteOffset + vb.byteLength) as ArrayBuffer,
      false,
    );
    const bones = new Set(parsed.motions.map((m) => m.boneName));
    for (const b of ['センター', '左足ＩＫ', '右足ＩＫ']) expect(bones.has(b), b).toBe(true);
    const lastFrame = Math.max(...parsed.motions.map((m) => m.frameNum));
    expect(Math.abs(lastFrame / 30 - made.duration)).toBeLessThan(0.2);
    // The preview's URLs: the music and the dance.
    const urls = await t.call<{ audio: string; clip: string }>(
      'GET',
      `/product/music/cos_url/${up.data.id}`,
      { token: a.token },
    );
    const clip1 = (await fetchUrl(urls.data.clip)).body;
    expect(JSON.parse(clip1).format).toBe('mocap-motion');
    expect((await fetchUrl(urls.data.audio)).rawPayload.subarray(0, 4).toString()).toBe('RIFF');
    // Another account sees nothing of it.
    expect((await t.call('GET', `/product/music/${up.data.id}`, { token: b.token })).code).toBe(404);
    expect(
      (await t.call('GET', `/product/music/download/0/${up.data.id}/Mixamo`, { token: b.token })).code,
    ).toBe(404);
    // Redone: a new seed, a new dance; the first is free, the second costs 1 V per 2 s.
    const before = await balance(a.id);
    const r1 = await t.call<MusicView>('POST', `/product/music/redone/${up.data.id}`, { token: a.token });
    expect(r1.code, r1.message).toBe(0);
    expect(r1.data.seed).not.toBe(made.seed);
    expect(await balance(a.id)).toBe(before);
    const made2 = await waitFor(a.token, up.data.id, (m) => m.status === 2 && m.seed === r1.data.seed);
    expect(made2.redoneCount).toBe(1);
    const urls2 = await t.call<{ clip: string }>('GET', `/product/music/cos_url/${up.data.id}`, {
      token: a.token,
    });
    const clip2 = (await fetchUrl(urls2.data.clip)).body;
    expect(clip2).not.toBe(clip1);
    const r2 = await t.call<MusicView>('POST', `/product/music/redone/${up.data.id}`, { token: a.token });
    expect(r2.code).toBe(0);
    expect(await balance(a.id)).toBe(before - Math.ceil(Math.ceil(up.data.duration) / 2));
    await waitFor(a.token, up.data.id, (m) => m.status === 2 && m.seed === r2.data.seed);
    // Delete: the card and its files are gone.
    const del = await t.call<{ deleted: number[] }>('DELETE', '/product/music', {
      token: a.token,
      body: { ids: [up.data.id] },
    });
    expect(del.data.deleted).toEqual([up.data.id]);
    expect(await t.infra.storage.exists(rec!.audioKey)).toBe(false);
    expect((await t.call('GET', `/product/music/${up.data.id}`, { token: a.token })).code).toBe(404);
  });

  it('takes an MP3 and refunds a card deleted before it is made', async () => {
    await worker?.close();
    worker = undefined;
    await setBalance(b.id, 50);
    const up = await upload(b.token, {
      filename: 'other.mp3',
      data: readFileSync(mp3Path),
      type: 'audio/mpeg',
    });
    expect(up.code, up.message).toBe(0);
    expect(await balance(b.id)).toBe(50 - up.data.charged);
    const del = await t.call('DELETE', '/product/music', { token: b.token, body: { ids: [up.data.id] } });
    expect(del.code).toBe(0);
    expect(await balance(b.id)).toBe(50);
  });
});
