/**
 * One test per route the route-table audit (issue 25) found with no test calling it successfully: each calls the
 * route as its client does, asserts its real effect (state changed, the right data returned) and its main error
 * answer in the `{code, message, data}` envelope. Runs on SQLite and PostgreSQL like the rest of the suite.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { Codes, DefaultMessages } from '../src/errors.ts';
import { createVideoStore, type VideoView } from '../src/index.ts';
import { databases, useServer } from './harness.ts';
import {
  ffmpeg,
  markMade,
  multipart,
  unzip,
  uploadForm,
  uploadVideo,
  useTestClips,
} from './video-helpers.ts';

const clip = useTestClips('mocap-routes-', (i) => (i * 41) % 360);

interface UserView {
  id: number;
  level: string;
  beta: boolean;
  extensionStaff: boolean;
}

describe.each(databases)('routes the audit found untested, on %s', (kind) => {
  const t = useServer(kind);
  let admin: string;
  let a: { token: string; id: number };
  let b: { token: string; id: number };
  let seq = 0;

  const upload = async (token: string, name: string): Promise<VideoView> => {
    const form = uploadForm(clip(++seq), { name, tags: 'x', boneType: 'Mixamo' });
    return await uploadVideo<VideoView>(t.app, token, form);
  };
  const stored = async (id: number) => createVideoStore(t.infra.database).repos.videos.findById(id);
  /**
   * An administrator flag route on user b: `{ flag: true }` sets `field`, a call with `flipBody` (none: no body)
   * flips it back, and b itself is refused and changes nothing.
   */
  const setsAndFlips = async (
    method: 'PUT' | 'POST',
    url: string,
    field: 'beta' | 'testFlag',
    flipBody?: object,
  ) => {
    const flagOf = async () => (await t.services.accounts.getUser(b.id))[field];
    const set = await t.call<Record<typeof field, boolean>>(method, url, {
      token: admin,
      body: { flag: true },
    });
    expect(set.code, set.message).toBe(0);
    expect(set.data[field]).toBe(true);
    expect(await flagOf()).toBe(true);
    const flipped = await t.call<Record<typeof field, boolean>>(method, url, {
      token: admin,
      ...(flipBody ? { body: flipBody } : {}),
    });
    expect(flipped.code, flipped.message).toBe(0);
    expect(flipped.data[field]).toBe(false);
    expect(await flagOf()).toBe(false);
    const byUser = await t.call(method, url, { token: b.token, body: { flag: true } });
    expect(byUser.code).toBe(Codes.INSUFFICIENT_PERMISSION);
    expect(await flagOf()).toBe(false);
  };

  // Fresh accounts per test: a free plan lets only 2 videos wait, and one test moves the clock a month on.
  let n = 0;
  beforeEach(async () => {
    n++;
    admin = await t.adminToken();
    a = await t.register(`rc-a${n}-${kind}@example.com`);
    b = await t.register(`rc-b${n}-${kind}@example.com`);
  });

  it('DELETE /video deletes my videos and refunds one not yet made; another user is refused', async () => {
    const before = await t.services.coins.balance(a.id);
    const v = await upload(a.token, 'to delete');
    expect(await t.services.coins.balance(a.id)).toBe(before - 2);
    const foreign = await t.call('DELETE', '/product/video', { token: b.token, body: { ids: [v.id] } });
    expect(foreign.code).toBe(Codes.INSUFFICIENT_PERMISSION);
    expect(await stored(v.id)).toBeTruthy();
    const r = await t.call<{ deleted: number[] }>('DELETE', '/product/video', {
      token: a.token,
      body: { ids: [v.id] },
    });
    expect(r.code, r.message).toBe(0);
    expect(r.data.deleted).toEqual([v.id]);
    expect(await stored(v.id)).toBeFalsy();
    expect(await t.services.coins.balance(a.id)).toBe(before);
    const gone = await t.call('POST', '/product/video/queryVideoById', {
      token: a.token,
      body: { id: v.id },
    });
    expect(gone.code).toBe(Codes.NOT_FOUND);
  });

  it('POST /video/search finds my videos by keyword; administrators search one user’s', async () => {
    const mine = await upload(a.token, 'searchme');
    await upload(a.token, 'other');
    const other = await upload(b.token, 'searchme');
    const r = await t.call<{ list: VideoView[]; total: number }>('POST', '/product/video/search', {
      token: a.token,
      body: { keyword: 'searchme', page: 1, size: 20 },
    });
    expect(r.code, r.message).toBe(0);
    expect(r.data.list.map((v) => v.id)).toEqual([mine.id]);
    expect(r.data.total).toBe(1);
    // A user's userId filter cannot widen the search to someone else.
    const widened = await t.call<{ list: VideoView[] }>('POST', '/product/video/search', {
      token: a.token,
      body: { keyword: 'searchme', userId: b.id },
    });
    expect(widened.data.list.map((v) => v.id)).toEqual([mine.id]);
    const byAdmin = await t.call<{ list: VideoView[] }>('POST', '/product/video/search', {
      token: admin,
      body: { keyword: 'searchme', userId: b.id },
    });
    expect(byAdmin.data.list.map((v) => v.id)).toEqual([other.id]);
    const none = await t.call('POST', '/product/video/search', { body: {} });
    expect(none.code).toBe(Codes.UNAUTHENTICATED);
  });

  it('PUT /video/fbxs and PUT /motion/model/{id} choose the bone type within the plan', async () => {
    const v = await upload(a.token, 'bones');
    const r1 = await t.call('PUT', '/product/video/fbxs', {
      token: a.token,
      body: { id: v.id, boneType: 'Unreal4' },
    });
    expect(r1.code, r1.message).toBe(0);
    expect((await stored(v.id))!.boneType).toBe('Unreal4');
    const r2 = await t.call('PUT', `/product/motion/model/${v.id}`, {
      token: a.token,
      body: { boneType: 'C4D' },
    });
    expect(r2.code, r2.message).toBe(0);
    const view = await t.call<VideoView>('POST', '/product/video/queryVideoById', {
      token: a.token,
      body: { id: v.id },
    });
    expect(view.data.boneType).toBe('C4D');
    // Free plan: FBX bone types only; unknown names are a parameter error; others' videos are refused.
    const bvh = await t.call('PUT', '/product/video/fbxs', {
      token: a.token,
      body: { id: v.id, boneType: 'bvh' },
    });
    expect(bvh.code).toBe(Codes.REFUSED);
    expect(bvh.message).toBeTruthy();
    const unknown = await t.call('PUT', `/product/motion/model/${v.id}`, {
      token: a.token,
      body: { boneType: 'NoSuchRig' },
    });
    expect(unknown.code).toBe(Codes.PARAMETER_ERROR);
    const foreign = await t.call('PUT', `/product/motion/model/${v.id}`, {
      token: b.token,
      body: { boneType: 'Mixamo' },
    });
    expect(foreign.code).toBe(Codes.INSUFFICIENT_PERMISSION);
    expect((await stored(v.id))!.boneType).toBe('C4D');
  });

  it('POST /motion/zip/{id} signs the zip of the chosen (or asked) bone type', async () => {
    const v = await upload(a.token, 'zipped');
    await markMade(t.infra, t.services, v.id, ['Mixamo', 'Unreal4']);
    const fetchZip = async (path: string) => {
      const u = new URL(path, 'http://x');
      const res = await t.app.inject({ method: 'GET', url: u.pathname + u.search });
      expect(res.statusCode).toBe(200);
      return unzip(res.rawPayload);
    };
    const def = await t.call<{ paths: string[]; bonetype: string }>('POST', `/product/motion/zip/${v.id}`, {
      token: a.token,
    });
    expect(def.code, def.message).toBe(0);
    expect(def.data.bonetype).toBe('Mixamo');
    expect([...(await fetchZip(def.data.paths[0]!)).keys()]).toContain('README.txt');
    const asked = await t.call<{ paths: string[]; bonetype: string }>('POST', `/product/motion/zip/${v.id}`, {
      token: a.token,
      body: { boneType: 'Unreal4' },
    });
    expect(asked.code, asked.message).toBe(0);
    expect(asked.data.bonetype).toBe('Unreal4');
    expect(asked.data.paths[0]).not.toBe(def.data.paths[0]);
    expect((await fetchZip(asked.data.paths[0]!)).size).toBeGreaterThan(0);
    // A private video of someone else.
    const foreign = await t.call('POST', `/product/motion/zip/${v.id}`, { token: b.token });
    expect(foreign.code).toBe(Codes.INSUFFICIENT_PERMISSION);
  });

  it('POST /video/setFeedbackStatus: administrators mark feedback handled', async () => {
    const v = await upload(a.token, 'feedback');
    expect(
      (
        await t.call('POST', '/product/video/setFeedback', {
          token: a.token,
          body: { id: v.id, content: 'feet slide' },
        })
      ).code,
    ).toBe(0);
    expect(await stored(v.id)).toMatchObject({ feedback: 'feet slide', feedbackStatus: 0 });
    const byUser = await t.call('POST', '/product/video/setFeedbackStatus', {
      token: a.token,
      body: { id: v.id, status: 1 },
    });
    expect(byUser.code).toBe(Codes.INSUFFICIENT_PERMISSION);
    expect((await stored(v.id))!.feedbackStatus).toBe(0);
    const r = await t.call('POST', '/product/video/setFeedbackStatus', {
      token: admin,
      body: { id: v.id, status: 1 },
    });
    expect(r.code, r.message).toBe(0);
    expect((await stored(v.id))!.feedbackStatus).toBe(1);
    const missing = await t.call('POST', '/product/video/setFeedbackStatus', {
      token: admin,
      body: { id: 999_999, status: 1 },
    });
    expect(missing.code).toBe(Codes.NOT_FOUND);
  });

  it('PUT /user/beta/{id} sets or flips the beta flag (administrators only)', async () => {
    // Flip: a request with no body at all flips the flag.
    await setsAndFlips('PUT', `/product/user/beta/${b.id}`, 'beta');
  });

  it('POST /user/setExtensionStaff marks promotion staff (administrators only)', async () => {
    const r = await t.call<UserView>('POST', '/product/user/setExtensionStaff', {
      token: admin,
      body: { id: b.id },
    });
    expect(r.code, r.message).toBe(0);
    expect(r.data.extensionStaff).toBe(true);
    expect((await t.services.accounts.getUser(b.id)).extensionStaff).toBe(true);
    const cleared = await t.call<UserView>('POST', '/product/user/setExtensionStaff', {
      token: admin,
      body: { id: b.id, flag: false },
    });
    expect(cleared.data.extensionStaff).toBe(false);
    const byUser = await t.call('POST', '/product/user/setExtensionStaff', {
      token: b.token,
      body: { id: b.id },
    });
    expect(byUser.code).toBe(Codes.INSUFFICIENT_PERMISSION);
    expect((await t.services.accounts.getUser(b.id)).extensionStaff).toBe(false);
  });

  it('PUT /user/update/vip/level sets the plan for a number of days', async () => {
    const c = await t.register(`rc-c-${kind}@example.com`);
    const r = await t.call<UserView>('PUT', '/product/user/update/vip/level', {
      token: admin,
      body: { id: c.id, level: 'monthly', days: 30 },
    });
    expect(r.code, r.message).toBe(0);
    expect(r.data.level).toBe('monthly');
    const info = await t.call<{ user: { level: string } }>('GET', '/product/auth/info', { token: c.token });
    expect(info.data.user.level).toBe('monthly');
    const bad = await t.call('PUT', '/product/user/update/vip/level', {
      token: admin,
      body: { id: c.id, level: 'platinum' },
    });
    expect(bad.code).toBe(Codes.PARAMETER_ERROR);
    const byUser = await t.call('PUT', '/product/user/update/vip/level', {
      token: c.token,
      body: { id: c.id, level: 'yearly' },
    });
    expect(byUser.code).toBe(Codes.INSUFFICIENT_PERMISSION);
    // The plan ends after its days.
    t.clock.advance(31 * 86_400_000);
    expect(t.services.accounts.view(await t.services.accounts.getUser(c.id)).level).toBe('free');
  });

  it('PUT /company/reset/{a}/{b}/{c} resets a company password with a mailed code', async () => {
    const email = `rc-co-${kind}@example.com`;
    const co = await t.register(email, { company: true, password: 'company-old' });
    t.clock.advance(61_000);
    expect((await t.call('POST', `/product/code/company/${email}/2`)).code).toBe(0);
    const code = await t.lastCode(email);
    // The individual reset route does not reset a company account.
    const asUser = await t.call('PUT', `/product/user/reset/${email}/-/2`, {
      body: { code, password: t.encrypt('company-new') },
    });
    expect(asUser.code).toBe(Codes.WRONG_CODE);
    const wrong = await t.call('PUT', `/product/company/reset/${email}/-/2`, {
      body: { code: code === '1111' ? '2222' : '1111', password: t.encrypt('company-new') },
    });
    expect(wrong.code).toBe(Codes.WRONG_CODE);
    const r = await t.call('PUT', `/product/company/reset/${email}/-/2`, {
      body: { code, password: t.encrypt('company-new') },
    });
    expect(r.code, r.message).toBe(0);
    expect((await t.call('GET', '/product/auth/company/info', { token: co.token })).code).toBe(
      Codes.LOGIN_TIMEOUT,
    );
    const login = await t.call('POST', '/product/auth/company/login', {
      body: { username: email, password: t.encrypt('company-new') },
    });
    expect(login.code, login.message).toBe(0);
    const old = await t.call('POST', '/product/auth/company/login', {
      body: { username: email, password: t.encrypt('company-old') },
    });
    expect(old.code).toBe(Codes.BAD_CREDENTIALS);
  });

  it('POST /sysConfig/saveMark switches the price-list mark that maintainInfo reports', async () => {
    const on = await t.call<{ markBtn: boolean }>('POST', '/product/sysConfig/saveMark', {
      token: admin,
      body: { markBtn: true },
    });
    expect(on.code, on.message).toBe(0);
    expect(on.data.markBtn).toBe(true);
    expect((await t.call<{ markBtn: boolean }>('GET', '/product/sysConfig/maintainInfo')).data.markBtn).toBe(
      true,
    );
    await t.call('POST', '/product/sysConfig/saveMark', { token: admin, body: { markBtn: false } });
    expect((await t.call<{ markBtn: boolean }>('GET', '/product/sysConfig/maintainInfo')).data.markBtn).toBe(
      false,
    );
    const bad = await t.call('POST', '/product/sysConfig/saveMark', { token: admin, body: {} });
    expect(bad.code).toBe(Codes.PARAMETER_ERROR);
    const byUser = await t.call('POST', '/product/sysConfig/saveMark', {
      token: a.token,
      body: { markBtn: true },
    });
    expect(byUser.code).toBe(Codes.INSUFFICIENT_PERMISSION);
    expect((await t.call<{ markBtn: boolean }>('GET', '/product/sysConfig/maintainInfo')).data.markBtn).toBe(
      false,
    );
  });

  it('POST /notice/list returns every notice, disabled ones too (administrators only)', async () => {
    const on = await t.call<{ id: number }>('POST', '/product/notice/save', {
      token: admin,
      body: { title: 'shown notice', content: 'hello', enabled: true },
    });
    const off = await t.call<{ id: number }>('POST', '/product/notice/save', {
      token: admin,
      body: { title: 'hidden notice', content: 'later', enabled: false },
    });
    expect([on.code, off.code]).toEqual([0, 0]);
    const r = await t.call<{ id: number; title: string; enabled: boolean }[]>(
      'POST',
      '/product/notice/list',
      {
        token: admin,
      },
    );
    expect(r.code, r.message).toBe(0);
    const mine = r.data.filter((n) => n.id === on.data.id || n.id === off.data.id);
    expect(mine.map((n) => [n.title, n.enabled]).sort()).toEqual([
      ['hidden notice', false],
      ['shown notice', true],
    ]);
    const byUser = await t.call('POST', '/product/notice/list', { token: a.token });
    expect(byUser.code).toBe(Codes.INSUFFICIENT_PERMISSION);
  });

  it('POST /machineInfo/add registers a machine by hand; a second of the same name is refused', async () => {
    const r = await t.call<{ id: number; name: string; capacity: number }>(
      'POST',
      '/product/machineInfo/add',
      {
        token: admin,
        body: { name: `gpu-${kind}`, host: '10.0.0.9', capacity: 3, remark: 'rack 2' },
      },
    );
    expect(r.code, r.message).toBe(0);
    expect(r.data).toMatchObject({ name: `gpu-${kind}`, capacity: 3 });
    const list = await t.call<{ id: number; name: string }[]>('POST', '/product/machineInfo/list', {
      token: admin,
    });
    expect(list.data.filter((m) => m.name === `gpu-${kind}`).map((m) => m.id)).toEqual([r.data.id]);
    const again = await t.call('POST', '/product/machineInfo/add', {
      token: admin,
      body: { name: `gpu-${kind}` },
    });
    expect(again.code).toBe(Codes.REFUSED);
    const byUser = await t.call('POST', '/product/machineInfo/add', {
      token: a.token,
      body: { name: 'mine' },
    });
    expect(byUser.code).toBe(Codes.INSUFFICIENT_PERMISSION);
  });

  it('POST /video/checkWaiting/{id} reports status, progress and queue position of my video', async () => {
    const v = await upload(a.token, 'waiting');
    const w = await t.call<{ id: number; status: number; progress: number; position: number | null }>(
      'POST',
      `/product/video/checkWaiting/${v.id}`,
      { token: a.token },
    );
    expect(w.code, w.message).toBe(0);
    expect(w.data).toMatchObject({ id: v.id, status: 0 });
    expect(typeof w.data.position).toBe('number');
    await markMade(t.infra, t.services, v.id, ['Mixamo']);
    const done = await t.call<{ status: number; progress: number; position: number | null }>(
      'POST',
      `/product/video/checkWaiting/${v.id}`,
      { token: a.token },
    );
    expect(done.data).toMatchObject({ status: 2, progress: 100, position: null });
    const foreign = await t.call('POST', `/product/video/checkWaiting/${v.id}`, { token: b.token });
    expect(foreign.code).toBe(Codes.INSUFFICIENT_PERMISSION);
  });

  it('POST /user/test/{id} sets or flips the internal-test flag (administrators only)', async () => {
    await setsAndFlips('POST', `/product/user/test/${b.id}`, 'testFlag', {});
  });

  it('GET /user/invited/{id} gives my invite code and how many I invited', async () => {
    const before = await t.call<{ userId: number; inviteCode: string; referralCount: number }>(
      'GET',
      `/product/user/invited/${a.id}`,
      { token: a.token },
    );
    expect(before.code, before.message).toBe(0);
    expect(before.data).toMatchObject({ userId: a.id, referralCount: 0 });
    expect(before.data.inviteCode).toBe((await t.services.accounts.getUser(a.id)).inviteCode);
    await t.register(`rc-inv${n}-${kind}@example.com`, { inviteCode: before.data.inviteCode });
    const after = await t.call<{ referralCount: number }>('GET', `/product/user/invited/${a.id}`, {
      token: admin,
    });
    expect(after.data.referralCount).toBe(1);
    const foreign = await t.call('GET', `/product/user/invited/${a.id}`, { token: b.token });
    expect(foreign.code).toBe(Codes.INSUFFICIENT_PERMISSION);
  });

  it('POST /user/scheduled/monthlyTopUp tops free accounts up to 50 V once a month', async () => {
    await t.services.coins.change(a.id, -20, 'upload', `rc-spend:${a.id}`);
    expect(await t.services.coins.balance(a.id)).toBe(30);
    // Into the next month (the clock of the test server), with a fresh administrator session.
    t.clock.advance(32 * 86_400_000);
    const token = await t.adminToken();
    const byUser = await t.call('POST', '/product/user/scheduled/monthlyTopUp', {
      token: (await t.register(`rc-m${n}-${kind}@example.com`)).token,
    });
    expect(byUser.code).toBe(Codes.INSUFFICIENT_PERMISSION);
    const r = await t.call<{ period: string; skipped: boolean; toppedUp: number; coins: number }>(
      'POST',
      '/product/user/scheduled/monthlyTopUp',
      { token },
    );
    expect(r.code, r.message).toBe(0);
    expect(r.data.skipped).toBe(false);
    expect(r.data.toppedUp).toBeGreaterThanOrEqual(1);
    expect(await t.services.coins.balance(a.id)).toBe(50);
    const row = (await t.services.coins.records({ userId: a.id, page: 1, size: 1 })).list[0];
    expect(row).toMatchObject({ reason: 'monthly_topup', amount: 20, balanceAfter: 50 });
    const again = await t.call<{ skipped: boolean }>('POST', '/product/user/scheduled/monthlyTopUp', {
      token,
    });
    expect(again.data.skipped).toBe(true);
    expect(await t.services.coins.balance(a.id)).toBe(50);
  });

  it('GET /admin/user/{id} and /admin/company/{id}: an account’s detail for administrators', async () => {
    const v = await upload(a.token, 'detail');
    const r = await t.call<{
      user: { id: number; email: string };
      ledger: { list: { amount: number }[]; total: number };
      videos: { list: { id: number }[]; total: number };
    }>('GET', `/product/admin/user/${a.id}`, { token: admin });
    expect(r.code, r.message).toBe(0);
    expect(r.data.user).toMatchObject({ id: a.id, email: `rc-a${n}-${kind}@example.com` });
    expect(r.data.videos.list.map((x) => x.id)).toEqual([v.id]);
    expect(r.data.ledger.list.some((e) => e.amount === -2)).toBe(true);
    const co = await t.register(`rc-co${n}-${kind}@example.com`, { company: true });
    const c = await t.call<{ user: { id: number; type: number } }>('GET', `/product/admin/company/${co.id}`, {
      token: admin,
    });
    expect(c.code, c.message).toBe(0);
    expect(c.data.user).toMatchObject({ id: co.id, type: 2 });
    expect((await t.call('GET', `/product/admin/user/${a.id}`, { token: b.token })).code).toBe(
      Codes.INSUFFICIENT_PERMISSION,
    );
    expect((await t.call('GET', '/product/admin/user/999999', { token: admin })).code).toBe(Codes.NOT_FOUND);
  });

  it('GET /admin/video/{id}/preview signs any video for administrators', async () => {
    const v = await upload(a.token, 'preview');
    const r = await t.call<{ source: string; thumbnail: string | null }>(
      'GET',
      `/product/admin/video/${v.id}/preview`,
      { token: admin },
    );
    expect(r.code, r.message).toBe(0);
    const u = new URL(r.data.source, 'http://x');
    const res = await t.app.inject({ method: 'GET', url: u.pathname + u.search });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.subarray(4, 8).toString()).toBe('ftyp');
    expect((await t.call('GET', `/product/admin/video/${v.id}/preview`, { token: b.token })).code).toBe(
      Codes.INSUFFICIENT_PERMISSION,
    );
  });

  it('POST /role/members lists the accounts holding a role', async () => {
    const assign = await t.call('POST', '/product/role/assign', {
      token: admin,
      body: { userId: b.id, roles: ['operator'] },
    });
    expect(assign.code, assign.message).toBe(0);
    const r = await t.call<{ id: number; roles: string[] }[]>('POST', '/product/role/members', {
      token: admin,
      body: { key: 'operator' },
    });
    expect(r.code, r.message).toBe(0);
    expect(r.data.map((u) => u.id)).toContain(b.id);
    expect(r.data.map((u) => u.id)).not.toContain(a.id);
    expect(
      (await t.call('POST', '/product/role/members', { token: a.token, body: { key: 'operator' } })).code,
    ).toBe(Codes.INSUFFICIENT_PERMISSION);
  });

  it('POST /music/search finds my music cards by name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mocap-rc-music-'));
    let hz = 300;
    const send = async (token: string, name: string) => {
      // A distinct tone each time (the same file twice is refused: 当前文件已存在).
      hz += 50;
      const wav = join(dir, `${name}-${hz}.wav`);
      ffmpeg(['-f', 'lavfi', '-i', `sine=frequency=${hz}:duration=2`, wav]);
      const form = multipart([
        { name: 'name', value: name },
        { name: 'file', file: { filename: `${name}.wav`, data: readFileSync(wav) } },
      ]);
      const res = await t.app.inject({
        method: 'POST',
        url: '/product/music/upload',
        headers: { authorization: `Bearer ${token}`, ...form.headers },
        payload: form.payload,
      });
      expect(res.json().code, res.json().message).toBe(0);
      return res.json().data as { id: number };
    };
    const mine = await send(a.token, 'findme');
    await send(a.token, 'other');
    await send(b.token, 'findme');
    const r = await t.call<{ list: { id: number; name: string }[]; total: number }>(
      'POST',
      '/product/music/search',
      {
        token: a.token,
        body: { keyword: 'findme' },
      },
    );
    expect(r.code, r.message).toBe(0);
    expect(r.data.list.map((m) => m.id)).toEqual([mine.id]);
    expect((await t.call('POST', '/product/music/search', { body: {} })).code).toBe(Codes.UNAUTHENTICATED);
    rmSync(dir, { recursive: true, force: true });
  });

  it('GET /docs/yaml serves the OpenAPI document as YAML', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/product/docs/yaml' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/^openapi: ['"]?3\./m);
    expect(res.body).toContain('/product/video/search:');
    expect(res.body).toContain('/product/machineInfo/add:');
  });
});

/**
 * Spec §7 "The calls it makes", as the client makes them (method, path under /product; `{x}` parameters filled with
 * sample values). Each must reach a route of the server: without a token it may be refused (401) or its input
 * rejected (400), but never answered by the not-found handler. Digital-human and animation families (exact paths
 * "not shown") are left to their own issues; `/sysInfo/*` (no paths given) is the reports the server chose.
 */
const SPEC_CALLS: [string, string][] = [
  ['POST', '/auth/login'],
  ['POST', '/auth/company/login'],
  ['POST', '/passport/3rd/login'],
  ['POST', '/user/register'],
  ['POST', '/company/register'],
  ['GET', '/auth/info'],
  ['GET', '/auth/company/info'],
  ['GET', '/company/1'],
  ['DELETE', '/auth/logout'],
  ['PUT', '/user/center'],
  ['POST', '/code/not-an-email/9'],
  ['POST', '/code/company/not-an-email/9'],
  ['PUT', '/user/reset/not-an-email/-/2'],
  ['PUT', '/company/reset/not-an-email/-/2'],
  ['POST', '/user/bind/github/1'],
  ['GET', '/user/bind/github/1'],
  ['GET', '/user/sku/role'],
  ['POST', '/user/saveLastLogin'],
  ['GET', '/user/getIsUse'],
  ['POST', '/user/teaching/getConfirmationTeaching'],
  ['POST', '/user/teaching/setConfirmationTeaching'],
  ['POST', '/user/search'],
  ['POST', '/user/test/1'],
  ['POST', '/user/blackFlag/1'],
  ['POST', '/user/updateLevel/1/monthly/30'],
  ['POST', '/user/addTime/1/1'],
  ['PUT', '/user/surplus/1/1'],
  ['PUT', '/user/beta/1'],
  ['PUT', '/user/update/vip/level'],
  ['POST', '/user/countUser'],
  ['POST', '/user/setExtensionStaff'],
  ['POST', '/user/referral/record'],
  ['POST', '/user/referral/cashBack'],
  ['POST', '/user/referral/cash'],
  ['POST', '/user/referral/email'],
  ['POST', '/user/referral/award'],
  ['GET', '/user/invited/1'],
  ['POST', '/companyOrder/sendCashBack'],
  ['GET', '/user/getRandomBackCashCode'],
  ['POST', '/user/setBackCashCode'],
  ['POST', '/sysConfig/setCashBack'],
  ['POST', '/user/surplus/record'],
  ['POST', '/user/order/record'],
  ['GET', '/user/order/X1'],
  ['GET', '/companyOrder/queryDetail/X1'],
  ['POST', '/alipay/palace/1'],
  ['POST', '/wx/prepay/1'],
  ['GET', '/wx/order/X1'],
  ['POST', '/wx/company/prepay/1'],
  ['POST', '/alipay/company/palace/1'],
  ['GET', '/auth/enhanced/purchasing'],
  ['POST', '/code/personInvoice'],
  ['POST', '/code/personInvoice/business'],
  ['POST', '/video/center'],
  ['POST', '/video/square'],
  ['POST', '/video/search'],
  ['POST', '/video/searchQueue'],
  ['POST', '/video/upload'],
  ['POST', '/video/uploads'],
  ['PUT', '/video'],
  ['DELETE', '/video'],
  ['PUT', '/video/fbxs'],
  ['PUT', '/video/square/1/1'],
  ['DELETE', '/video/center/1'],
  ['GET', '/video/2d'],
  ['PUT', '/video/2d'],
  ['PUT', '/video/collect/1'],
  ['POST', '/video/checkWaiting/1'],
  ['POST', '/video/videoRedo'],
  ['GET', '/video/getLastModelType'],
  ['POST', '/video/queryVideoById'],
  ['POST', '/video/setFeedback'],
  ['POST', '/video/setFeedbackStatus'],
  ['GET', '/motion/video/1'],
  ['POST', '/motion/zip/1'],
  ['GET', '/motion/video/1/pose_url'],
  ['GET', '/motion/fbx/1/anm'],
  ['GET', '/motion/vmd/1/anm'],
  ['GET', '/motion/download/video/1/Mixamo'],
  ['PUT', '/motion/model/1'],
  ['GET', '/motion/has_download/1'],
  ['GET', '/motion/regen/1/cnt'],
  ['PUT', '/motion/1/regen/fbxs'],
  ['GET', '/motion/preMotionDownload/1'],
  ['POST', '/motion/MotionBulkDownload'],
  ['POST', '/motion/DeleteBatch'],
  ['POST', '/motion/lowerBodyDownload'],
  ['GET', '/cos/sts/download'],
  ['GET', '/cos/sts/upload'],
  ['POST', '/file/upload'],
  ['POST', '/file/write/ext'],
  ['GET', '/tomokage/checkMaintain'],
  ['GET', '/category/child/1'],
  ['POST', '/category/search'],
  ['POST', '/tag/search'],
  ['GET', '/tag/1'],
  ['GET', '/category/1'],
  ['PUT', '/category'],
  ['POST', '/category'],
  ['DELETE', '/category/1'],
  ['POST', '/companyOrder/queryAll'],
  ['POST', '/sysProduct/queryAll'],
  ['POST', '/companyOrder/createInvoice'],
  ['POST', '/company/search'],
  ['POST', '/company/surplus/record'],
  ['PUT', '/company/update/vip/level'],
  ['PUT', '/company/emailNotice'],
  ['POST', '/machineInfo/list'],
  ['POST', '/machineInfo/add'],
  ['POST', '/machineInfo/update'],
  ['POST', '/machineInfo/delete'],
  ['POST', '/sysConfig/blackListInfo'],
  ['POST', '/sysConfig/blackListInfo/insert'],
  ['POST', '/sysConfig/blackListInfo/update'],
  ['GET', '/sysConfig/maintainInfo'],
  ['POST', '/sysConfig/saveMaintain'],
  ['POST', '/sysConfig/saveMark'],
  ['POST', '/sysConfig/savePlateNumber'],
  ['GET', '/notice/getNotice'],
  ['POST', '/notice/noLongerDisplayed'],
  ['POST', '/pageView/addBehavior'],
  ['POST', '/pageView/addDigitalHumanBehavior'],
  ['POST', '/sysInfo/briefing'],
  ['POST', '/sysInfo/extension'],
  ['POST', '/sysInfo/pageView'],
  ['POST', '/tencent-email/exchange'],
];

describe('spec §7 calls reach a route', () => {
  const t = useServer('sqlite');
  it('every call the server has is routed (refused or rejected without a token, never not-found)', async () => {
    const unrouted: string[] = [];
    for (const [method, path] of SPEC_CALLS) {
      const res = await t.app.inject({ method: method as 'GET', url: `/product${path}` });
      const body = res.json() as { code: number; message: string };
      if (res.statusCode === 404 && body.message.startsWith(`${DefaultMessages[404]}: ${method} `))
        unrouted.push(`${method} ${path}`);
    }
    expect(unrouted).toEqual([]);
  });
  it('every route of the route table answers: no not-found handler, no placeholder', async () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const bad: string[] = [];
    let walked = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const method of Object.keys(ops)) {
        if (!['get', 'post', 'put', 'delete'].includes(method)) continue;
        // Sample parameters; streams and the download targets are answered without waiting on a body.
        const url = path.replace(/\{[^}]+\}/g, '1');
        const res = await t.app.inject({ method: method.toUpperCase() as 'GET', url });
        walked++;
        const body = res.headers['content-type']?.toString().includes('json')
          ? (res.json() as { code?: number; message?: string })
          : {};
        const message = String(body.message ?? '');
        if (res.statusCode === 404 && message.startsWith(`${DefaultMessages[404]}: ${method.toUpperCase()} `))
          bad.push(`${method.toUpperCase()} ${path}: not routed`);
        if (/not (yet )?implemented|placeholder|todo/i.test(message) || res.statusCode === 501)
          bad.push(`${method.toUpperCase()} ${path}: ${res.statusCode} ${message}`);
      }
    }
    expect(walked).toBeGreaterThan(200);
    expect(bad).toEqual([]);
  });
});
