/**
 * Issue 25: the sidebar's community panel (spec §1/§2: QR codes of an official account, a chat group and a second
 * chat group, a tutorial link, a browser recommendation), configurable by administrators. A group's QR picture
 * is an upload (POST /file/upload, purpose qrcode) served as a signed webp.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { Codes } from '../src/errors.ts';
import { databases, useServer } from './harness.ts';
import { multipart } from './video-helpers.ts';

interface View {
  groups: { key: string; url: string; imageUrl: string | null; note: string }[];
  tutorialUrl: string;
  browserTip: boolean;
}

describe.each(databases)('community panel on %s', (kind) => {
  const t = useServer(kind);

  it('starts empty with the browser tip; administrators set links, QR pictures and the tutorial', async () => {
    const empty = await t.call<View>('GET', '/product/sysConfig/community');
    expect(empty.code, empty.message).toBe(0);
    expect(empty.data).toEqual({ groups: [], tutorialUrl: '', browserTip: true });

    const admin = await t.adminToken();
    const qr = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    const form = multipart([
      { name: 'purpose', value: 'qrcode' },
      { name: 'file', file: { filename: 'group.png', data: qr } },
    ]);
    const up = (
      await t.app.inject({
        method: 'POST',
        url: '/product/file/upload',
        headers: { authorization: `Bearer ${admin}`, ...form.headers },
        payload: form.payload,
      })
    ).json() as { code: number; data: { key: string } };
    expect(up.code).toBe(0);

    const saved = await t.call('POST', '/product/sysConfig/saveCommunity', {
      token: admin,
      body: {
        groups: {
          official: { url: 'https://example.com/official' },
          group: { imageKey: up.data.key, note: 'QQ 123456' },
        },
        tutorialUrl: 'https://example.com/tutorial',
      },
    });
    expect(saved.code, saved.message).toBe(0);
    const v = await t.call<View>('GET', '/product/sysConfig/community');
    expect(v.data.tutorialUrl).toBe('https://example.com/tutorial');
    expect(v.data.browserTip).toBe(true);
    expect(v.data.groups.map((g) => [g.key, g.url, g.note])).toEqual([
      ['official', 'https://example.com/official', ''],
      ['group', '', 'QQ 123456'],
    ]);
    expect(v.data.groups[0]!.imageUrl).toBeNull();
    // The group's picture: a signed webp of at most 512 px.
    const u = new URL(v.data.groups[1]!.imageUrl!, 'http://x');
    const res = await t.app.inject({ method: 'GET', url: u.pathname + u.search });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.format, meta.width]).toEqual(['webp', 300]);

    // Partial updates keep the rest; the tip can be turned off; a group is removed by emptying it.
    await t.call('POST', '/product/sysConfig/saveCommunity', {
      token: admin,
      body: {
        browserTip: false,
        groups: { official: { url: '' }, group2: { url: 'https://example.com/g2' } },
      },
    });
    const v2 = await t.call<View>('GET', '/product/sysConfig/community');
    expect(v2.data.browserTip).toBe(false);
    expect(v2.data.groups.map((g) => g.key)).toEqual(['group', 'group2']);
    const stored = await t.call<{ groups: { group: { imageKey: string } } }>(
      'POST',
      '/product/sysConfig/communityInfo',
      {
        token: admin,
      },
    );
    expect(stored.data.groups.group.imageKey).toBe(up.data.key);

    // Refused: plain http or script links, pictures that were not uploaded, anyone but administrators.
    for (const groups of [
      { official: { url: 'http://example.com' } },
      { official: { url: 'javascript:alert(1)' } },
      { group: { imageKey: 'uploadZM/0000.png' } },
      { group: { imageKey: 'videos/u1/x/thumb.jpg' } },
    ]) {
      const r = await t.call('POST', '/product/sysConfig/saveCommunity', { token: admin, body: { groups } });
      expect(r.code, JSON.stringify(groups)).toBe(Codes.PARAMETER_ERROR);
    }
    const user = await t.register(`community-${kind}@example.com`);
    const byUser = await t.call('POST', '/product/sysConfig/saveCommunity', {
      token: user.token,
      body: { tutorialUrl: 'https://evil.example.com' },
    });
    expect(byUser.code).toBe(Codes.INSUFFICIENT_PERMISSION);
    expect((await t.call<View>('GET', '/product/sysConfig/community')).data.tutorialUrl).toBe(
      'https://example.com/tutorial',
    );
  });
});
