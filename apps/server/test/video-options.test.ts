/**
 * Solve options of a video (smoothing, foot-lock mode, root at origin, the performer's height) through the HTTP
 * API on SQLite and PostgreSQL: validated at the edge (a bad value is refused with nothing charged or stored),
 * stored with the video, returned to the owner only, changed by a remake (fields sent replace, the others are
 * kept) and handed to the worker with the job's video.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createVideoStore, type VideoView } from '../src/index.ts';
import { databases, useServer } from './harness.ts';
import { markMade, putGranted, uploadForm, useFixtures } from './video-helpers.ts';

const fx = useFixtures();

describe.each(databases)('solve options on %s', (kind) => {
  const t = useServer(kind, { env: { CAPTURE_MODEL: 'lite' } });
  let a: { token: string; id: number };
  let b: { token: string; id: number };
  const balance = (id: number) => t.services.coins.balance(id);
  const setBalance = async (id: number, target: number) => {
    const now = await balance(id);
    if (now !== target)
      await t.services.coins.change(id, target - now, 'admin', `set:${id}:${Math.random()}`);
  };
  const upload = (token: string, file: string, fields: Record<string, string> = {}) => {
    const form = uploadForm(file, fields);
    return t.app
      .inject({
        method: 'POST',
        url: '/product/video/upload',
        headers: { authorization: `Bearer ${token}`, ...form.headers },
        payload: form.payload,
      })
      .then((r) => ({
        status: r.statusCode,
        ...(r.json() as { code: number; message: string; data: VideoView }),
      }));
  };
  const stored = async (id: number) => (await createVideoStore(t.infra.database).repos.videos.findById(id))!;
  const rows = async (userId: number) =>
    (await createVideoStore(t.infra.database).repos.videos.list({ userId, page: 1, size: 100 })).total;
  let withOptions: VideoView;

  beforeAll(async () => {
    a = await t.register(`opt-a-${kind}@example.com`);
    b = await t.register(`opt-b-${kind}@example.com`);
    // A paid plan: the queue takes more than two videos.
    await t.infra.store.repos.users.update(
      a.id,
      { level: 'yearly', vexpiredAt: t.clock.now() + 86_400_000 },
      t.clock.now(),
    );
  });

  it('refuses out-of-range or unknown options with 400, charging and storing nothing', async () => {
    await setBalance(a.id, 200);
    const cases: [Record<string, string>, string][] = [
      [{ smoothing: '1.5' }, 'smoothing'],
      [{ smoothing: 'lots' }, 'smoothing'],
      [{ footLock: 'sideways' }, 'footLock'],
      [{ rootAtOrigin: 'maybe' }, 'rootAtOrigin'],
      [{ height: '0.2' }, 'height'],
      [{ height: '175' }, 'height'], // centimetres sent as metres
    ];
    for (const [fields, path] of cases) {
      const r = await upload(a.token, fx.synthetic(40), fields);
      expect(r.status, JSON.stringify(fields)).toBe(400);
      expect(r.code).toBe(400);
      expect(r.message).toContain(path);
    }
    expect(await balance(a.id)).toBe(200);
    expect(await rows(a.id)).toBe(0);
  });

  it('stores the options with the video, returns them to the owner and gives them to the job', async () => {
    const r = await upload(a.token, fx.person, {
      smoothing: '0.8',
      footLock: 'always',
      rootAtOrigin: 'true',
      height: '1.82',
    });
    expect(r.code, r.message).toBe(0);
    withOptions = r.data;
    const want = { smoothing: 0.8, footLock: 'always', rootAtOrigin: true, height: 1.82 };
    expect(r.data.solveOptions).toEqual(want);
    expect((await stored(r.data.id)).solveOptions).toEqual(want);
    const detail = await t.call<VideoView>('POST', '/product/video/queryVideoById', {
      token: a.token,
      body: { id: r.data.id },
    });
    expect(detail.data.solveOptions).toEqual(want);
    const list = await t.call<{ list: VideoView[] }>('POST', '/product/video/center', {
      token: a.token,
      body: { page: 1, size: 10 },
    });
    expect(list.data.list.find((v) => v.id === r.data.id)?.solveOptions).toEqual(want);
    // What the worker receives with the job.
    const jv = await t.services.captureJobs.started(
      { videoId: r.data.id, userId: a.id, mode: 'capture', seq: 0, chargeRef: null },
      1,
    );
    expect(jv?.video.solveOptions).toEqual(want);
  });

  it('uses the solver defaults when no option is sent (an empty height is "as measured")', async () => {
    const r = await upload(a.token, fx.synthetic(41), { height: '', smoothing: '' });
    expect(r.code, r.message).toBe(0);
    expect(r.data.solveOptions).toEqual({
      smoothing: 0.5,
      footLock: 'auto',
      rootAtOrigin: false,
      height: null,
    });
  });

  it('a direct-to-storage upload takes the options in its JSON body, refusing a bad one', async () => {
    await setBalance(b.id, 50);
    const grant = async () => {
      const c = await t.call<{
        credentials: { sessionToken: string };
        uploadUrl: string;
        headers: Record<string, string>;
      }>('GET', '/product/cos/sts/upload?fileName=clip.mp4', { token: b.token });
      const put = await putGranted(t.app, c.data, readFileSync(fx.synthetic(42, 2)));
      expect(put.json().code).toBe(0);
      return c.data.credentials.sessionToken;
    };
    const fields = { name: 'direct', tags: ['t'], boneType: 'Mixamo' };
    const bad = await t.call('POST', '/product/video/uploads', {
      token: b.token,
      body: { sessionToken: await grant(), ...fields, footLock: 'sometimes' },
    });
    expect(bad.code).toBe(400);
    expect(await balance(b.id)).toBe(50);
    const r = await t.call<VideoView>('POST', '/product/video/uploads', {
      token: b.token,
      body: { sessionToken: await grant(), ...fields, footLock: 'never', height: 1.6 },
    });
    expect(r.code, r.message).toBe(0);
    expect(r.data.solveOptions).toEqual({
      smoothing: 0.5,
      footLock: 'never',
      rootAtOrigin: false,
      height: 1.6,
    });
  });

  it('a remake replaces the options sent and keeps the others; a bad one changes nothing', async () => {
    await markMade(t.infra, t.services, withOptions.id);
    const bad = await t.call('POST', '/product/video/videoRedo', {
      token: a.token,
      body: { id: withOptions.id, height: 10 },
    });
    expect(bad.code).toBe(400);
    const unchanged = await stored(withOptions.id);
    expect(unchanged.status).toBe(2);
    expect(unchanged.remakeCount).toBe(0);
    expect(unchanged.solveOptions.height).toBe(1.82);

    const r = await t.call<VideoView>('POST', '/product/video/videoRedo', {
      token: a.token,
      body: { id: withOptions.id, smoothing: 0.2, height: null },
    });
    expect(r.code, r.message).toBe(0);
    const want = { smoothing: 0.2, footLock: 'always', rootAtOrigin: true, height: null };
    expect(r.data.solveOptions).toEqual(want);
    expect((await stored(withOptions.id)).solveOptions).toEqual(want);

    // A remake without options (the paid one here) keeps them.
    await markMade(t.infra, t.services, withOptions.id);
    const again = await t.call<VideoView>('POST', '/product/video/videoRedo', {
      token: a.token,
      body: { id: withOptions.id, paid: true, footLock: 'grounding' },
    });
    expect(again.code, again.message).toBe(0);
    expect(again.data.solveOptions).toEqual({ ...want, footLock: 'grounding' });
    const jv = await t.services.captureJobs.started(
      { videoId: withOptions.id, userId: a.id, mode: 'capture', seq: 2, chargeRef: null },
      1,
    );
    expect(jv?.video.solveOptions).toEqual({ ...want, footLock: 'grounding' });
  });

  it('shows the options to the owner only', async () => {
    await markMade(t.infra, t.services, withOptions.id);
    const share = await t.call('PUT', `/product/video/square/${withOptions.id}/1`, { token: a.token });
    expect(share.code, share.message).toBe(0);
    const other = await t.call<VideoView>('POST', '/product/video/queryVideoById', {
      token: b.token,
      body: { id: withOptions.id },
    });
    expect(other.code, other.message).toBe(0);
    expect(other.data.solveOptions).toBeNull();
  });
});
