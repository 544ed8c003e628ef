/**
 * Videos through the HTTP API on SQLite and PostgreSQL (no worker runs here: jobs stay queued): hostile
 * uploads each get the spec's message with nothing charged or stored, field rules, the charge, queue limits,
 * the direct-upload flow, lists, edit, delete with refund, square, collect, remake, and authorisation.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createVideoStore, type VideoView } from '../src/index.ts';
import { databases, type TestServer, useServer } from './harness.ts';
import { markMade, postUpload, putGranted, uploadForm, useFixtures } from './video-helpers.ts';

const fx = useFixtures();

/** Every stored file under DATA_DIR/files (the temp area excluded). */
function storedFiles(t: TestServer): string[] {
  const root = join(t.dataDir, 'files');
  const out: string[] = [];
  const walk = (d: string) => {
    let entries: import('node:fs').Dirent[] = [];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name === '.tmp') continue;
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(join(d, e.name));
    }
  };
  walk(root);
  return out;
}

describe.each(databases)('videos on %s', (kind) => {
  // Many uploads of one account at once (the transaction's queue/balance guards): no per-account upload slot limit.
  const t = useServer(kind, { env: { CAPTURE_MODEL: 'lite', UPLOADS_PER_USER: '100' } });
  let a: { token: string; id: number };
  let b: { token: string; id: number };
  const balance = async (id: number) => t.services.coins.balance(id);
  const upload = (
    token: string,
    file: Parameters<typeof uploadForm>[0],
    fields?: Record<string, string | string[]>,
  ) => {
    return postUpload<VideoView>(t.app, token, uploadForm(file, fields));
  };
  const setBalance = async (id: number, target: number) => {
    const now = await balance(id);
    if (now !== target)
      await t.services.coins.change(id, target - now, 'admin', `test-set:${id}:${Math.random()}`);
  };
  const videoRows = async (userId: number) =>
    (await createVideoStore(t.infra.database).repos.videos.list({ userId, page: 1, size: 100 })).total;

  beforeAll(async () => {
    a = await t.register(`a-${kind}@example.com`);
    b = await t.register(`b-${kind}@example.com`);
  });

  it('refuses hostile uploads with the spec message, charging and storing nothing', async () => {
    await setBalance(a.id, 500);
    const before = await balance(a.id);
    const cases: [string, Parameters<typeof uploadForm>[0], string][] = [
      ['text named .mp4', fx.textAsMp4, '文件格式错误,请重新选择!'],
      ['zero bytes', fx.empty, '文件格式错误,请重新选择!'],
      ['truncated', fx.truncated, '文件格式错误,请重新选择!'],
      ['audio only', fx.audioOnly, '文件格式错误,请重新选择!'],
      ['QuickTime renamed .mp4', fx.mov, '文件格式错误,请重新选择!'],
      ['huge picture', fx.huge, 'video resolution cannot exceed 4096x4096'],
      ['over the free duration (31 s > 30 s)', fx.long31s, 'video duration cannot exceed 30 seconds'],
      [
        'over the free size (100M)',
        { filename: 'big.mp4', data: Buffer.alloc(100 * 1024 * 1024 + 10, 1) },
        '视频上传大小不能大于100M',
      ],
    ];
    for (const [what, file, message] of cases) {
      const r = await upload(a.token, file);
      expect(r.message, what).toBe(message);
      expect(r.code, what).toBe(307);
    }
    expect(await balance(a.id)).toBe(before);
    expect(await videoRows(a.id)).toBe(0);
    expect(storedFiles(t)).toEqual([]);
    expect(readdirSync(join(t.dataDir, 'tmp'))).toEqual([]);
  });

  it('checks the form fields with the spec messages', async () => {
    const cases: [Record<string, string | string[]>, number, string][] = [
      [{ name: '一二三四五六七八九十一二三四五六' }, 307, 'Video title at most 15 characters'],
      [{ tags: '' }, 307, '分类和标签至少选择一项'],
      [{ tags: 'jump,run' }, 307, '标签内容不能包含有（，）逗号'],
      [{ tags: ['ok', '跑，跳'] }, 307, '标签内容不能包含有（，）逗号'],
      [{ boneType: 'VMD-TDA' }, 307, '免费版用户只能选择 FBX 格式'],
      [{ boneType: 'UnityAnim' }, 307, '免费版用户只能选择 FBX 格式'],
      [{ captureType: 'hands' }, 307, '此功能不向免费用户开放'],
      [{ boneType: 'NoSuchRig' }, 400, 'unknown bone type'],
    ];
    for (const [fields, code, message] of cases) {
      const r = await upload(a.token, fx.synthetic(1), fields);
      expect(r.code, JSON.stringify(fields)).toBe(code);
      expect(r.message, JSON.stringify(fields)).toContain(message);
    }
    // Two files in one request.
    const form = uploadForm(fx.synthetic(1));
    const two = Buffer.concat([
      form.payload.subarray(
        0,
        form.payload.length - `--${form.headers['content-type']!.split('boundary=')[1]}--\r\n`.length,
      ),
      Buffer.from(
        `--${form.headers['content-type']!.split('boundary=')[1]}\r\nContent-Disposition: form-data; name="file2"; filename="b.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
      ),
      readFileSync(fx.synthetic(2)),
      Buffer.from(`\r\n--${form.headers['content-type']!.split('boundary=')[1]}--\r\n`),
    ]);
    const r = await t.app.inject({
      method: 'POST',
      url: '/product/video/upload',
      headers: { authorization: `Bearer ${a.token}`, ...form.headers },
      payload: two,
    });
    expect(r.json().message).toBe('当前限制选择 最多1 个视频');
    expect(await videoRows(a.id)).toBe(0);
    expect(storedFiles(t)).toEqual([]);
  });

  let first: VideoView;
  it('uploads an MP4: 1 V per second (rounded up) charged with the row, stored, queued at low priority', async () => {
    await setBalance(a.id, 100);
    const r = await upload(a.token, fx.person, { name: '投篮', tags: ['basketball', 'outdoor'] });
    expect(r.code, r.message).toBe(0);
    first = r.data;
    expect(first.status).toBe(0);
    expect(first.statusName).toBe('not made');
    expect(first.duration).toBeCloseTo(3.33, 1);
    expect(first.tags).toEqual(['basketball', 'outdoor']);
    expect(first.width).toBe(1080);
    expect(first.height).toBe(1920);
    expect(await balance(a.id)).toBe(100 - 4); // 3.33 s → 4 V
    const ledger = await t.services.coins.records({ userId: a.id, page: 1, size: 10 });
    expect(ledger.list[0]).toMatchObject({ amount: -4, reason: 'upload', balanceAfter: 96 });
    expect(storedFiles(t).map((f) => f.split('/').pop())).toEqual(['source.mp4']);
    expect(statSync(storedFiles(t)[0]!).size).toBe(statSync(fx.person).size);
    const job = await t.services.captureJobs.queue.getJob(`capture-${first.id}-0`);
    expect(job?.state).toBe('waiting');
    expect(job?.priority).toBe('low');
    // The same file again is a duplicate.
    const again = await upload(a.token, fx.person);
    expect(again.message).toBe('当前文件已存在');
    expect(await balance(a.id)).toBe(96);
  });

  it('refuses a second file at the queue limit (free: 2) and a video the balance cannot pay', async () => {
    const second = await upload(a.token, fx.synthetic(3));
    expect(second.code, second.message).toBe(0);
    const before = await balance(a.id);
    const third = await upload(a.token, fx.synthetic(4));
    expect(third.code).toBe(307);
    expect(third.message).toBe('at most 2 videos can wait in the queue on your plan; wait until one is made');
    expect(await balance(a.id)).toBe(before);
    // B has 1 V: a 3 s clip costs 3.
    await setBalance(b.id, 1);
    const poor = await upload(b.token, fx.synthetic(5, 3));
    expect(poor.message).toBe('你的V币余额不足,无法制作视频');
    expect(await balance(b.id)).toBe(1);
    expect(await videoRows(b.id)).toBe(0);
    const q = await t.call<{ list: { id: number; position: number | null }[]; limit: number }>(
      'POST',
      '/product/video/searchQueue',
      { token: a.token },
    );
    expect(q.data.limit).toBe(2);
    expect(q.data.list.map((v) => v.id)).toContain(first.id);
    expect(q.data.list.every((v) => typeof v.position === 'number')).toBe(true);
  });

  it('uploads directly to storage with temporary credentials, then confirms', async () => {
    await setBalance(b.id, 50);
    const c = await t.call<{
      credentials: { tmpSecretId: string; tmpSecretKey: string; sessionToken: string };
      startTime: number;
      expiredTime: number;
      uploadUrl: string;
      headers: Record<string, string>;
    }>('GET', '/product/cos/sts/upload?fileName=clip.mp4', { token: b.token });
    expect(c.code).toBe(0);
    expect(c.data.expiredTime - c.data.startTime).toBe(1800);
    const put = await putGranted(t.app, c.data, readFileSync(fx.synthetic(6, 2)));
    expect(put.json().code).toBe(0);
    // Someone else cannot confirm B's upload.
    const stolen = await t.call('POST', '/product/video/uploads', {
      token: a.token,
      body: { sessionToken: c.data.credentials.sessionToken, name: 'x', tags: 'y', boneType: 'Mixamo' },
    });
    expect(stolen.code).toBe(406);
    const ok = await t.call<VideoView>('POST', '/product/video/uploads', {
      token: b.token,
      body: {
        sessionToken: c.data.credentials.sessionToken,
        name: 'direct',
        tags: ['t'],
        boneType: 'Mixamo',
      },
    });
    expect(ok.code, ok.message).toBe(0);
    expect(ok.data.duration).toBeCloseTo(2, 1);
    expect(await balance(b.id)).toBe(48);
    // The upload area is emptied: only the video's own copy remains.
    expect(storedFiles(t).filter((f) => f.includes('uploadZM'))).toEqual([]);
    // A text file uploaded directly is refused by content too.
    const c2 = await t.call<{
      credentials: { sessionToken: string };
      uploadUrl: string;
      headers: Record<string, string>;
    }>('GET', '/product/cos/sts/upload', { token: b.token });
    await putGranted(t.app, c2.data, readFileSync(fx.textAsMp4));
    const bad = await t.call('POST', '/product/video/uploads', {
      token: b.token,
      body: { sessionToken: c2.data.credentials.sessionToken, name: 'bad', tags: 't', boneType: 'Mixamo' },
    });
    expect(bad.message).toBe('文件格式错误,请重新选择!');
    expect(await balance(b.id)).toBe(48);
  });

  it('keeps user A out of user B’s videos (read, change, delete, download, progress)', async () => {
    const id = first.id; // A's video
    const tries: [string, 'GET' | 'POST' | 'PUT' | 'DELETE', string, unknown?][] = [
      ['read', 'POST', '/product/video/queryVideoById', { id }],
      ['edit', 'PUT', '/product/video', { id, name: 'mine now' }],
      ['delete', 'DELETE', `/product/video/center/${id}`],
      ['publish', 'PUT', `/product/video/square/${id}/1`],
      ['remake', 'POST', '/product/video/videoRedo', { id }],
      ['feedback', 'POST', '/product/video/setFeedback', { id, content: 'x' }],
      ['wait', 'POST', `/product/video/checkWaiting/${id}`],
      ['download', 'GET', `/product/motion/download/video/${id}/Mixamo`],
      ['pose', 'GET', `/product/motion/video/${id}/pose_url`],
      ['price', 'GET', `/product/motion/preMotionDownload/${id}`],
      ['bulk', 'POST', '/product/motion/MotionBulkDownload', { ids: [id], boneType: 'Mixamo' }],
      ['delete batch', 'POST', '/product/motion/DeleteBatch', { ids: [id] }],
      ['progress', 'GET', `/product/video/progress/${id}`],
    ];
    for (const [what, method, url, body] of tries) {
      const r = await t.call(method, url, { token: b.token, body });
      expect(r.code, `${what}: ${r.message}`).toBe(406);
    }
    const mine = await t.call<{ list: VideoView[] }>('POST', '/product/video/center', {
      token: b.token,
      body: {},
    });
    expect(mine.data.list.every((v) => v.creatorId === b.id)).toBe(true);
    const stillThere = await t.call<VideoView>('POST', '/product/video/queryVideoById', {
      token: a.token,
      body: { id },
    });
    expect(stillThere.data.name).toBe('投篮');
    // Logged out: refused.
    const none = await t.call('POST', '/product/video/center', { body: {} });
    expect(none.code).toBe(401);
  });

  it('lists, edits, shares on the square, collects; B sees only shared made videos', async () => {
    await markMade(t.infra, t.services, first.id);
    const edit = await t.call<VideoView>('PUT', '/product/video', {
      token: a.token,
      body: { id: first.id, name: 'dribble', description: 'court', tags: ['ball'] },
    });
    expect(edit.code, edit.message).toBe(0);
    expect(edit.data).toMatchObject({ name: 'dribble', description: 'court', tags: ['ball'], status: 2 });
    const badEdit = await t.call('PUT', '/product/video', {
      token: a.token,
      body: { id: first.id, tags: ['a,b'] },
    });
    expect(badEdit.message).toBe('标签内容不能包含有（，）逗号');
    const sq0 = await t.call<{ total: number }>('POST', '/product/video/square', {
      token: b.token,
      body: {},
    });
    expect(sq0.data.total).toBe(0);
    const pub = await t.call<VideoView>('PUT', `/product/video/square/${first.id}/1`, { token: a.token });
    expect(pub.data.inSquare).toBe(1);
    const sq = await t.call<{ list: VideoView[]; total: number }>('POST', '/product/video/square', {
      token: b.token,
      body: { keyword: 'drib' },
    });
    expect(sq.data.total).toBe(1);
    expect(sq.data.list[0]).toMatchObject({
      id: first.id,
      creatorName: expect.any(String),
      price: 4,
      collected: false,
    });
    const col = await t.call<{ collected: boolean }>('PUT', `/product/video/collect/${first.id}`, {
      token: b.token,
    });
    expect(col.data.collected).toBe(true);
    // Square items carry my collected flag (B's, not A's).
    const flag = async (token: string) =>
      (
        await t.call<{ list: (VideoView & { collected: boolean })[] }>('POST', '/product/video/square', {
          token,
          body: {},
        })
      ).data.list.find((v) => v.id === first.id)?.collected;
    expect(await flag(b.token)).toBe(true);
    expect(await flag(a.token)).toBe(false);
    const mineCollected = await t.call<{ total: number }>('POST', '/product/video/square', {
      token: b.token,
      body: { collected: true },
    });
    expect(mineCollected.data.total).toBe(1);
    const seen = await t.call<VideoView & { collected: boolean }>('POST', '/product/video/queryVideoById', {
      token: b.token,
      body: { id: first.id },
    });
    expect(seen.data).toMatchObject({ collected: true, collectCount: 1, error: null });
    const unpub = await t.call('PUT', `/product/video/square/${first.id}/0`, { token: a.token });
    expect(unpub.code).toBe(0);
    expect(
      (await t.call('POST', '/product/video/queryVideoById', { token: b.token, body: { id: first.id } }))
        .code,
    ).toBe(406);
    const last = await t.call<{ boneType: string }>('GET', '/product/video/getLastModelType', {
      token: a.token,
    });
    expect(last.data.boneType).toBe('Mixamo');
  });

  it('remakes: a free remake, then 您的视频免费制作次数已用完, then a paid one at 1 V per 2 s', async () => {
    const before = await balance(a.id);
    const r1 = await t.call<VideoView & { charged: number }>('POST', '/product/video/videoRedo', {
      token: a.token,
      body: { id: first.id },
    });
    expect(r1.code, r1.message).toBe(0);
    expect(r1.data).toMatchObject({ status: 0, charged: 0, freeRemakes: 0, remakeCount: 1 });
    expect(await balance(a.id)).toBe(before);
    const busy = await t.call('POST', '/product/video/videoRedo', { token: a.token, body: { id: first.id } });
    expect(busy.message).toBe('the video is already waiting or being made');
    await markMade(t.infra, t.services, first.id);
    const r2 = await t.call('POST', '/product/video/videoRedo', { token: a.token, body: { id: first.id } });
    expect(r2.message).toBe('您的视频免费制作次数已用完');
    const r3 = await t.call<{ charged: number }>('POST', '/product/video/videoRedo', {
      token: a.token,
      body: { id: first.id, paid: true },
    });
    expect(r3.code, r3.message).toBe(0);
    expect(r3.data.charged).toBe(2); // 3.33 s → 4 s → 2 V
    expect(await balance(a.id)).toBe(before - 2);
  });

  it('concurrent uploads on one account: queue limit and balance hold, ledger sums to the balance', async () => {
    const c = await t.register(`c-${kind}@example.com`);
    await t.infra.store.repos.users.update(
      c.id,
      { level: 'yearly', vexpiredAt: t.clock.now() + 86_400_000 },
      t.clock.now(),
    );
    // 12 different 1 s clips at once: the yearly queue holds 10.
    await setBalance(c.id, 1000);
    const many = await Promise.all(
      Array.from({ length: 12 }, (_, i) => upload(c.token, fx.synthetic(100 + i))),
    );
    const okCount = many.filter((r) => r.code === 0).length;
    expect(okCount).toBe(10);
    expect(
      many
        .filter((r) => r.code !== 0)
        .map((r) => `${r.message}${r.data ? ` ${JSON.stringify(r.data)}` : ''}`),
    ).toEqual([
      'at most 10 videos can wait in the queue on your plan; wait until one is made',
      'at most 10 videos can wait in the queue on your plan; wait until one is made',
    ]);
    expect(await balance(c.id)).toBe(1000 - 10);
    // Free the queue, then 6 uploads at once with coins for 3 (1 V each).
    const list = await t.call<{ list: VideoView[] }>('POST', '/product/video/center', {
      token: c.token,
      body: { size: 100 },
    });
    for (const v of list.data.list) await markMade(t.infra, t.services, v.id, ['Mixamo']);
    await setBalance(c.id, 3);
    const poor = await Promise.all(
      Array.from({ length: 6 }, (_, i) => upload(c.token, fx.synthetic(200 + i))),
    );
    expect(poor.filter((r) => r.code === 0).length).toBe(3);
    expect(poor.filter((r) => r.code !== 0).map((r) => r.message)).toEqual(
      Array(3).fill('你的V币余额不足,无法制作视频'),
    );
    expect(await balance(c.id)).toBe(0);
    expect(await t.services.coins.ledgerSum(c.id)).toBe(0);
    expect(await videoRows(c.id)).toBe(13);
    // Every accepted upload stored exactly one source file; refused ones left nothing.
    const sources = storedFiles(t).filter((f) => f.includes(`/u${c.id}/`) && f.endsWith('/source.mp4'));
    expect(sources.length).toBe(13);
  });

  it('deletes a video not yet made with a refund, and its files', async () => {
    const q = await t.call<{ list: VideoView[] }>('POST', '/product/video/center', {
      token: a.token,
      body: { status: [0] },
    });
    const waiting = q.data.list.find((v) => v.id !== first.id)!;
    const before = await balance(a.id);
    const del = await t.call<{ deleted: number[] }>('DELETE', `/product/video/center/${waiting.id}`, {
      token: a.token,
    });
    expect(del.data.deleted).toEqual([waiting.id]);
    expect(await balance(a.id)).toBe(before + Math.ceil(waiting.duration - 1e-6));
    expect(await t.services.captureJobs.queue.getJob(`capture-${waiting.id}-0`)).toBeNull();
    expect(
      storedFiles(t).some((f) => f.includes(waiting.id.toString()) && f.endsWith(`/${waiting.md5}`)),
    ).toBe(false);
    expect(
      (await t.call('POST', '/product/video/queryVideoById', { token: a.token, body: { id: waiting.id } }))
        .code,
    ).toBe(404);
    // Deleting the video waiting for its paid remake refunds the remake (2 V), not the upload.
    const beforeRemakeDelete = await balance(a.id);
    const del2 = await t.call<{ deleted: number[] }>('DELETE', `/product/video/center/${first.id}`, {
      token: a.token,
    });
    expect(del2.data.deleted).toEqual([first.id]);
    expect(await balance(a.id)).toBe(beforeRemakeDelete + 2);
    const sum = await t.services.coins.ledgerSum(a.id);
    expect(sum).toBe(await balance(a.id));
  });
});
