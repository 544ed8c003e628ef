/**
 * manageModel (issue 21): the capture model of each plan's new uploads and which models are enabled, as the
 * administrator sets them; refused settings; usage per model; bundled characters; audited; operators refused.
 */
import { describe, expect, it } from 'vitest';
import { createVideoStore } from '../src/index.ts';
import { databases, useServer } from './harness.ts';
import { uploadForm, uploadVideo, useTestClips } from './video-helpers.ts';

const clip = useTestClips('mocap-models-', (i) => i * 61);

interface Settings {
  enabled: { lite: boolean; full: boolean; heavy: boolean };
  byPlan: { free: string; monthly: string; yearly: string };
}

describe.each(databases)('capture models on %s', (kind) => {
  const t = useServer(kind, { env: { CAPTURE_MODEL: 'lite' } });

  it('new uploads use the plan’s model; a plan cannot use a disabled model; usage and characters listed', async () => {
    const admin = await t.adminToken();
    const u = await t.register(`m-${kind}@models.test`);
    const op = await t.register(`op-${kind}@models.test`);
    await t.call('POST', '/product/role/assign', {
      token: admin,
      body: { userId: op.id, roles: ['operator'] },
    });

    const first = await t.call<Settings & { characters: { name: string }[] }>('POST', '/product/model/list', {
      token: admin,
    });
    expect(first.code, first.message).toBe(0);
    // Until an administrator chooses, every plan uses the configured model.
    expect(first.data.byPlan).toEqual({ free: 'lite', monthly: 'lite', yearly: 'lite' });
    expect(first.data.characters.map((c) => c.name)).toContain('Mixamo');

    const save = (body: Settings, token = admin) =>
      t.call<Settings>('POST', '/product/model/save', { token, body });
    const saveCode = (body: Settings) => t.code('POST', '/product/model/save', { token: admin, body });
    /** The settings with lite, full, heavy enabled or not and the free plan's model (the paid plans: heavy). */
    const settings = ([lite, full, heavy]: [boolean, boolean, boolean], free: string): Settings => ({
      enabled: { lite, full, heavy },
      byPlan: { free, monthly: 'heavy', yearly: 'heavy' },
    });
    expect(await saveCode(settings([true, true, true], 'full'))).toBe(0);

    const upload = async (i: number) => {
      const form = uploadForm(clip(i), { name: `m${i}`, tags: 'x', boneType: 'Mixamo' });
      const r = await uploadVideo(t.app, u.token, form);
      return (await createVideoStore(t.infra.database).repos.videos.findById(r.id as number))!;
    };
    expect((await upload(1)).modelType).toBe('full');

    // Disabling the model the free plan uses is refused; moving the plan first works.
    const refused = await save(settings([true, false, true], 'full'));
    expect(refused.code).toBe(400);
    expect(refused.message).toContain('free');
    expect(await saveCode(settings([false, false, false], 'heavy'))).toBe(400);
    expect(await saveCode(settings([true, false, true], 'lite'))).toBe(0);
    expect((await upload(2)).modelType).toBe('lite');

    const list = await t.call<{ usage: { model: string; videos: number; last30Days: number }[] }>(
      'POST',
      '/product/model/list',
      { token: admin },
    );
    expect(list.data.usage).toEqual(
      expect.arrayContaining([
        { model: 'full', videos: 1, last30Days: 1 },
        { model: 'lite', videos: 1, last30Days: 1 },
      ]),
    );
    // Audited with before/after; operators are refused.
    const audit = await t.call<{ list: { before: Settings; after: Settings; code: number }[] }>(
      'POST',
      '/product/audit/search',
      {
        token: admin,
        body: { route: '/model/save', page: 1, size: 10 },
      },
    );
    const ok = audit.data.list.filter((r) => r.code === 0);
    expect(ok[0]!.before.byPlan.free).toBe('full');
    expect(ok[0]!.after.byPlan.free).toBe('lite');
    expect((await t.call('POST', '/product/model/list', { token: op.token })).code).toBe(406);
    expect((await save(first.data, op.token)).code).toBe(406);
  });
});
