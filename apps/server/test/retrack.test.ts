/**
 * "Re-track from here" of the 2D repair editor (issue 23) through the API on SQLite and PostgreSQL with the real
 * re-track worker (lite model) on a 2 s clip of a person: free accounts refused with the spec's message, bad
 * poses rejected (400), someone else's video and job not reachable, a made video's job runs with progress and
 * answers the new frames after the edited one (the person followed from the corrected pose, compared with a
 * normal track of the same clip). The editor's draft is kept on the server: saved, read back from another
 * session, a stale copy refused (revision), discarded; free accounts and other owners refused.
 */
import { trackVideo } from '@mocap/vision';
import { runRetrackWorker } from '@mocap/worker';
import { beforeAll, describe, expect, it } from 'vitest';
import type { VideoView } from '../src/index.ts';
import { databases, useServer } from './harness.ts';
import { waitFor } from './queue-helpers.ts';
import { markMade, uploadForm, uploadVideo, useFixtures } from './video-helpers.ts';

const fx = useFixtures();

interface RetrackView {
  jobId: string;
  status: string;
  progress: number;
  from: number;
  to: number;
  frames?: { index: number; state: string; image?: number[][] }[];
}

describe.each(databases)('2D repair re-track on %s', (kind) => {
  const t = useServer(kind, { env: { CAPTURE_MODEL: 'lite' } });
  let a: { token: string; id: number };
  let b: { token: string; id: number };
  let video: VideoView;
  let normal: Awaited<ReturnType<typeof trackVideo>>;

  beforeAll(async () => {
    a = await t.register(`ra-${kind}@example.com`);
    b = await t.register(`rb-${kind}@example.com`);
    const form = uploadForm(fx.personSmall, { name: 'person', tags: 'x' });
    video = await uploadVideo<VideoView>(t.app, a.token, form);
    await markMade(t.infra, t.services, video.id as number, ['Mixamo']);
    normal = await trackVideo(fx.personSmall, { model: 'lite', workers: 1, keepWarm: false });
  }, 120_000);

  const start = (token: string, body: unknown) =>
    t.call<RetrackView>('POST', '/product/video/2d/retrack', { token, body });

  it('refuses free accounts, bad poses and other people’s videos', async () => {
    const pose = normal.frames[10].image!;
    const free = await start(a.token, { id: video.id, frame: 10, pose });
    expect(free.message).toBe('此功能不向免费用户开放');
    for (const u of [a, b]) {
      await t.infra.store.repos.users.update(
        u.id,
        { level: 'monthly', vexpiredAt: t.clock.now() + 86_400_000 },
        t.clock.now(),
      );
    }
    expect((await start(a.token, { id: video.id, frame: 10, pose: pose.slice(0, 20) })).code).toBe(400);
    expect((await start(a.token, { id: video.id, frame: -1, pose })).code).toBe(400);
    const noHips = pose.map((p, j) => (j === 23 ? [Number.NaN, 0] : p));
    expect((await start(a.token, { id: video.id, frame: 10, pose: noHips })).code).toBe(400);
    const theirs = await start(b.token, { id: video.id, frame: 10, pose });
    expect(theirs.code).not.toBe(0);
  });

  it('runs the tracker forward from the edited frame with progress; the owner gets the new frames', async () => {
    const K = 10;
    const pose = normal.frames[K].image!;
    const s = await start(a.token, { id: video.id, frame: K, pose });
    expect(s.code, s.message).toBe(0);
    expect(s.data.status).toBe('waiting');
    // Not visible to someone else.
    const peek = await t.call('GET', `/product/video/2d/retrack?jobId=${s.data.jobId}`, { token: b.token });
    expect(peek.code).toBe(404);
    const worker = runRetrackWorker({ queue: t.services.retrack.queue, storage: t.infra.storage });
    try {
      const progress = new Set<number>();
      const done = await waitFor(
        async () => {
          const r = await t.call<RetrackView>('GET', `/product/video/2d/retrack?jobId=${s.data.jobId}`, {
            token: a.token,
          });
          expect(r.code, r.message).toBe(0);
          progress.add(r.data.progress);
          if (r.data.status === 'failed') throw new Error('re-track failed');
          return r.data.status === 'done' ? r.data : null;
        },
        120_000,
        'the re-track job',
      );
      const n = normal.frames.length;
      expect(done.from).toBe(K + 1);
      expect(done.frames!.map((f) => f.index)).toEqual(
        Array.from({ length: n - K - 1 }, (_, i) => K + 1 + i),
      );
      expect(done.to).toBe(n - 1);
      expect(done.progress).toBe(100);
      // Followed from the corrected pose: the same person as the normal track, frame by frame.
      const hip = (im: number[][]) => [(im[23][0] + im[24][0]) / 2, (im[23][1] + im[24][1]) / 2];
      let near = 0;
      for (const f of done.frames!) {
        const o = normal.frames[f.index];
        if (!f.image || !o.image || !o.roi) continue;
        const [x, y] = hip(f.image);
        const [u, v] = hip(o.image);
        if (Math.hypot(x - u, y - v) < 0.1 * o.roi.size) near++;
      }
      expect(near).toBeGreaterThanOrEqual(Math.floor(0.9 * (n - K - 1)));
    } finally {
      await worker.close();
    }
  }, 180_000);

  it('keeps the editor draft on the server: read back anywhere, stale saves refused, discarded', async () => {
    const url = `/product/video/2d/draft?id=${video.id}`;
    const draft = {
      keys: {
        '30': { '15': { x: 101.5, y: 220 } },
        '49': { '15': { x: 140, y: 230 }, '40': { x: 1, y: 2 } },
      },
      swaps: [{ from: 44, to: 63, part: 'legs' }],
    };
    // Nothing saved yet: null (not an error, not a 404).
    const none = await t.call('GET', url, { token: a.token });
    expect(none.code, none.message).toBe(0);
    expect(none.data).toBeNull();
    const put = (token: string, rev: number, d: unknown = draft) =>
      t.call<{ rev: number; at: number; base: string; draft: typeof draft }>(
        'PUT',
        '/product/video/2d/draft',
        {
          token,
          body: { id: video.id, base: 'b1', rev, draft: d },
        },
      );
    const first = await put(a.token, 0);
    expect(first.code, first.message).toBe(0);
    expect(first.data.rev).toBe(1);
    // Another session of the same owner reads it back as saved.
    const login = await t.call<{ token: string }>('POST', '/product/auth/login', {
      body: { username: `ra-${kind}@example.com`, password: t.encrypt('secret-pass') },
    });
    expect(login.code, login.message).toBe(0);
    const again = login.data.token;
    expect(again).not.toBe(a.token);
    const got = await t.call<{ rev: number; base: string; draft: typeof draft }>('GET', url, {
      token: again,
    });
    expect(got.code, got.message).toBe(0);
    expect(got.data).toMatchObject({ rev: 1, base: 'b1', draft });
    // A save from a copy that started before the last save is refused; the stored draft comes back with it.
    const second = await put(again, 1, { ...draft, swaps: [] });
    expect(second.data.rev).toBe(2);
    const stale = await put(a.token, 1);
    expect(stale.code).toBe(307);
    expect((stale.data as unknown as { rev: number }).rev).toBe(2);
    // Malformed drafts are rejected.
    expect((await put(a.token, 2, { keys: { '1': { '2': { x: 'a' } } }, swaps: [] })).code).toBe(400);
    // Someone else cannot read, save or discard it.
    expect((await t.call('GET', url, { token: b.token })).code).not.toBe(0);
    expect((await put(b.token, 2)).code).not.toBe(0);
    expect((await t.call('DELETE', url, { token: b.token })).code).not.toBe(0);
    // Discarded: gone for every session.
    const del = await t.call<{ deleted: boolean }>('DELETE', url, { token: a.token });
    expect(del.data).toEqual({ deleted: true });
    expect((await t.call('GET', url, { token: again })).data).toBeNull();
  });

  it('refuses the draft to free accounts', async () => {
    const c = await t.register(`rc-${kind}@example.com`);
    const r = await t.call('GET', `/product/video/2d/draft?id=${video.id}`, { token: c.token });
    expect(r.message).toBe('此功能不向免费用户开放');
    const p = await t.call('PUT', '/product/video/2d/draft', {
      token: c.token,
      body: { id: video.id, base: 'x', rev: 0, draft: { keys: {}, swaps: [] } },
    });
    expect(p.message).toBe('此功能不向免费用户开放');
  });
});
