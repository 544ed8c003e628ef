/**
 * Console video pages (issue 21): manageVideo lists every video with owner, status, square flag and feedback;
 * an operator marks feedback handled, takes a video off the square, re-runs it at no cost to the owner and
 * deletes it; support may only look; videoDownHistory shows who downloaded what, when, for how many coins.
 * Runs on SQLite and PostgreSQL with real uploads (ffmpeg-made clips).
 */
import { describe, expect, it } from 'vitest';
import { databases, useServer } from './harness.ts';
import { markMade, uploadForm, uploadVideo, useTestClips } from './video-helpers.ts';

const clip = useTestClips('mocap-console-', (i) => i * 47);

interface Row {
  id: number;
  email: string;
  status: number;
  inSquare: boolean;
  feedback: string | null;
  feedbackStatus: number;
}

describe.each(databases)('console videos and downloads on %s', (kind) => {
  const t = useServer(kind);

  it('lists, handles feedback, takes off the square, re-runs free, deletes; support only looks; download history', async () => {
    const admin = await t.adminToken();
    const owner = await t.register(`owner-${kind}@console.test`);
    const op = await t.register(`op-${kind}@console.test`);
    const sup = await t.register(`sup-${kind}@console.test`);
    for (const [u, role] of [
      [op, 'operator'],
      [sup, 'support'],
    ] as const)
      expect(
        (
          await t.call('POST', '/product/role/assign', {
            token: admin,
            body: { userId: u.id, roles: [role] },
          })
        ).code,
      ).toBe(0);

    const form = uploadForm(clip(1), { name: 'jump', tags: 'x', boneType: 'Mixamo' });
    const up = await uploadVideo(t.app, owner.token, form);
    const vid = up.id as number;
    await markMade(t.infra, t.services, vid, ['Mixamo']);
    expect((await t.call('PUT', `/product/video/square/${vid}/1`, { token: owner.token })).code).toBe(0);
    expect(
      (
        await t.call('POST', '/product/video/setFeedback', {
          token: owner.token,
          body: { id: vid, content: 'feet slide' },
        })
      ).code,
    ).toBe(0);

    // Support sees it among open feedback, with the owner's e-mail.
    const open = await t.call<{ list: Row[]; total: number }>('POST', '/product/admin/video/search', {
      token: sup.token,
      body: { feedback: 'open' },
    });
    expect(open.code, open.message).toBe(0);
    expect(open.data.list.map((r) => r.id)).toEqual([vid]);
    expect(open.data.list[0]).toMatchObject({
      email: `owner-${kind}@console.test`,
      status: 2,
      inSquare: true,
      feedback: 'feet slide',
      feedbackStatus: 0,
    });
    // ...but changes nothing.
    for (const [path, body] of [
      ['/product/admin/video/feedbackStatus', { id: vid, status: 1 }],
      ['/product/admin/video/square', { id: vid, flag: false }],
      ['/product/admin/video/rerun', { id: vid }],
      ['/product/admin/video/delete', { ids: [vid] }],
    ] as const)
      expect((await t.call('POST', path, { token: sup.token, body })).code, path).toBe(406);

    // The operator handles the feedback and takes it off the square: the square no longer lists it.
    expect(
      (
        await t.call('POST', '/product/admin/video/feedbackStatus', {
          token: op.token,
          body: { id: vid, status: 1 },
        })
      ).code,
    ).toBe(0);
    expect(
      (
        await t.call('POST', '/product/admin/video/square', {
          token: op.token,
          body: { id: vid, flag: false },
        })
      ).code,
    ).toBe(0);
    const square = await t.call<{ list: { id: number }[] }>('POST', '/product/video/square', {
      token: owner.token,
      body: {},
    });
    expect(square.data.list.map((v) => v.id)).not.toContain(vid);
    const handled = await t.call<{ list: Row[] }>('POST', '/product/admin/video/search', {
      token: op.token,
      body: { feedback: 'handled' },
    });
    expect(handled.data.list.map((r) => r.id)).toEqual([vid]);

    // A download by the owner shows in the history.
    const dl = await t.app.inject({
      method: 'GET',
      url: `/product/motion/download/video/${vid}/Mixamo`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(dl.statusCode).toBeLessThan(400);
    const hist = await t.call<{
      list: { videoId: number; email: string; boneType: string; coins: number }[];
      total: number;
      coins: number;
    }>('POST', '/product/admin/download/search', { token: sup.token, body: { keyword: `owner-${kind}` } });
    expect(hist.code, hist.message).toBe(0);
    expect(hist.data.total).toBe(1);
    expect(hist.data.list[0]).toMatchObject({
      videoId: vid,
      email: `owner-${kind}@console.test`,
      boneType: 'Mixamo',
    });
    expect(hist.data.coins).toBe(hist.data.list[0]!.coins);

    // Re-run at no cost to the owner: back to "not made", a new job, the balance unchanged.
    const balance = async () =>
      (await t.call<{ user: { surplus: number } }>('GET', '/product/auth/info', { token: owner.token })).data
        .user.surplus;
    const before = await balance();
    const rr = await t.call('POST', '/product/admin/video/rerun', { token: op.token, body: { id: vid } });
    expect(rr.code, rr.message).toBe(0);
    const after = await t.call<{ list: Row[] }>('POST', '/product/admin/video/search', {
      token: op.token,
      body: { id: vid },
    });
    expect(after.data.list[0]!.status).toBe(0);
    expect(await balance()).toBe(before);
    // Waiting: a second re-run is refused.
    expect(
      (await t.call('POST', '/product/admin/video/rerun', { token: op.token, body: { id: vid } })).code,
    ).toBe(307);

    // Audited with before/after.
    const audit = await t.call<{
      list: { route: string; before: { status: number } | null; after: { status: number } | null }[];
    }>('POST', '/product/audit/search', {
      token: admin,
      body: { route: '/admin/video/rerun', page: 1, size: 10 },
    });
    const ok = audit.data.list.find((r) => r.before?.status === 2);
    expect(ok?.after?.status).toBe(0);

    // Delete (once made again): gone for the owner too.
    await markMade(t.infra, t.services, vid, ['Mixamo']);
    const del = await t.call<{ deleted: number[] }>('POST', '/product/admin/video/delete', {
      token: op.token,
      body: { ids: [vid] },
    });
    expect(del.code, del.message).toBe(0);
    expect(del.data.deleted).toEqual([vid]);
    const mine = await t.call<{ list: unknown[] }>('POST', '/product/video/center', {
      token: owner.token,
      body: {},
    });
    expect(mine.data.list).toHaveLength(0);
  });
});
