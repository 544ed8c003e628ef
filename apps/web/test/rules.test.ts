/** The pure rules of the web app: guard, menus, upload checks, envelope codes, sizes, RSA, clip sampling. */
import { constants, createHash, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { en } from '../src/i18n/en.ts';
import { zh } from '../src/i18n/zh.ts';
import { isFbxType } from '../src/lib/bonetypes.ts';
import { interpretEnvelope } from '../src/lib/envelope.ts';
import { guard, PUBLIC_PATHS, sidebarWidthFor } from '../src/lib/guard.ts';
import { hasKey, setLangForTests, t } from '../src/lib/i18n.ts';
import {
  ADMIN_MENU,
  COMPANY_MENU,
  isMenuItemActive,
  MENU_PATHS,
  MENU_VALUES,
  menuFor,
  PHONE_MENU,
} from '../src/lib/menu.ts';
import { messageStyleFor } from '../src/lib/messages.ts';
import { PLAN_LIMITS, planOf, remakeCost, uploadCost } from '../src/lib/plans.ts';
import { encryptOaepFallback, encryptPassword, parseRsaPublicKey, pemToDer, sha256 } from '../src/lib/rsa.ts';
import { designScale, isZoomKey } from '../src/lib/scale.ts';
import { normaliseNotices, normaliseStatus, normaliseUser, noticeButtonFontSize } from '../src/lib/types.ts';
import {
  checkBoneType,
  checkCategoryTag,
  checkCoins,
  checkDuration,
  checkFiles,
  checkTag,
  checkTitle,
} from '../src/lib/uploadValidation.ts';
import { frameAt, parseClip, sampleRoot, sampleRotation, supportPlatforms } from '../src/three/clip.ts';

setLangForTests('zh');
const say = (p: { key: string; vars?: Record<string, string | number> } | null) =>
  p ? t(p.key, p.vars) : null;

describe('navigation guard', () => {
  it('lets the public paths through without a token', () => {
    for (const p of ['/home', '/login', '/register', '/']) expect(guard(p, false).redirect).toBeNull();
    expect(PUBLIC_PATHS).toEqual(['/home', '/login', '/register', '/']);
  });
  it('sends every other path to /home without a token', () => {
    for (const p of [
      '/index/myProPc',
      '/index/upload',
      '/userCenter',
      '/404',
      '/index/square?x=1',
      '/loginx',
    ])
      expect(guard(p, false).redirect).toBe('/home');
  });
  it('lets everything through with a token, /login included', () => {
    for (const p of ['/login', '/index/myProPc', '/userCenter', '/home'])
      expect(guard(p, true).redirect).toBeNull();
  });
  it('names the page title', () => {
    expect(t(guard('/index/myProPc', true).titleKey)).toBe('我的项目');
    expect(t(guard('/index/uploadMobile', true).titleKey)).toBe('上传视频');
    expect(guard('/login/', false).titleKey).toBe('title.login');
    expect(guard('/something', true).titleKey).toBe('title.app');
  });
  it('widens the sidebar to 277 px on the refresher pages only', () => {
    expect(sidebarWidthFor('/refresher')).toBe(277);
    expect(sidebarWidthFor('/refresherM')).toBe(277);
    expect(sidebarWidthFor('/index/myProPc')).toBeNull();
  });
});

describe('menu rules', () => {
  it('phones get home, upload, experiment', () => {
    expect(menuFor({ phone: true, company: false }).map((i) => i.label)).toEqual([
      'menu.home',
      'menu.upload',
      'menu.experiment',
    ]);
    expect(menuFor({ phone: true, company: true })).toBe(PHONE_MENU);
  });
  it('company users get the company menu in the spec order', () => {
    const m = menuFor({ phone: false, company: true });
    expect(m).toBe(COMPANY_MENU);
    expect(m.map((i) => [i.name, i.value])).toEqual([
      ['UserDetailCompany', 1],
      ['Recharge', 2],
      ['Consume', 3],
      ['Tutorial', 4],
      ['Marked', 5],
    ]);
  });
  it('everyone else gets the administrator list minus its last 9 entries', () => {
    const m = menuFor({ phone: false, company: false });
    expect(m).toEqual(ADMIN_MENU.slice(0, ADMIN_MENU.length - 9));
    expect(m.map((i) => i.value)).toEqual([MENU_VALUES.home, MENU_VALUES.upload, MENU_VALUES.square]);
    // The 9 removed entries are exactly the administrator entries of spec §6.
    expect(ADMIN_MENU.slice(-9).map((i) => i.label)).toEqual([
      'menu.user',
      'menu.company',
      'menu.block',
      'menu.briefing',
      'menu.extension',
      'menu.service',
      'menu.video',
      'menu.tag',
      'menu.animation',
    ]);
  });
  it('uses the spec menu values and fields', () => {
    expect(MENU_VALUES).toEqual({
      home: 1,
      upload: 2,
      user: 3,
      video: 4,
      square: 6,
      tag: 9,
      briefing: 12,
      service: 13,
      block: 14,
      company: 17,
      animation: 21,
      extension: 22,
    });
    for (const i of ADMIN_MENU) {
      expect(Object.keys(i).sort()).toEqual(['icon', 'iconOn', 'label', 'name', 'path', 'value']);
      expect(i.iconOn).toBe(`${i.icon}On`);
      expect(MENU_PATHS).toContain(i.path.replace('/index/', ''));
    }
  });
  it('keeps every entry but upload inactive until the first upload', () => {
    const items = menuFor({ phone: false, company: false });
    const before = items.filter((i) => isMenuItemActive(i, { hasUploaded: false, company: false }));
    expect(before.map((i) => i.value)).toEqual([MENU_VALUES.upload]);
    expect(items.every((i) => isMenuItemActive(i, { hasUploaded: true, company: false }))).toBe(true);
    const phone = PHONE_MENU.filter((i) => isMenuItemActive(i, { hasUploaded: false, company: false }));
    expect(phone.map((i) => i.value)).toEqual([MENU_VALUES.upload]);
    expect(t('menu.uploadFirst')).toBe('请先上传视频');
  });
});

const file = (name: string, type: string, size: number, lastModified = 1): File => {
  const f = new File([new Uint8Array(4)], name, { type, lastModified });
  Object.defineProperty(f, 'size', { value: size });
  return f;
};
const MB = 1024 * 1024;

describe('upload validations', () => {
  it('MP4 only', () => {
    expect(say(checkFiles([file('a.mov', 'video/quicktime', MB)], [], 'free').problem)).toBe(
      '文件格式错误,请重新选择!',
    );
    expect(say(checkFiles([file('a.txt.mp4', 'text/plain', MB)], [], 'free').problem)).toBe(
      '文件格式错误,请重新选择!',
    );
    expect(say(checkFiles([file('a.mp4', 'video/mp4', 0)], [], 'free').problem)).toBe(
      '文件格式错误,请重新选择!',
    );
    expect(checkFiles([file('a.MP4', 'video/mp4', MB)], [], 'free').file?.name).toBe('a.MP4');
  });
  it('size: 50M for free uploads, the plan limit otherwise', () => {
    expect(say(checkFiles([file('a.mp4', 'video/mp4', 51 * MB)], [], 'free').problem)).toBe(
      '视频上传大小不能大于50M',
    );
    expect(checkFiles([file('a.mp4', 'video/mp4', 50 * MB)], [], 'free').problem).toBeNull();
    expect(checkFiles([file('a.mp4', 'video/mp4', 199 * MB)], [], 'monthly').problem).toBeNull();
    expect(say(checkFiles([file('a.mp4', 'video/mp4', 201 * MB)], [], 'monthly').problem)).toBe(
      '视频上传大小不能大于200M',
    );
    expect(say(checkFiles([file('a.mp4', 'video/mp4', 401 * MB)], [], 'yearly').problem)).toBe(
      '视频上传大小不能大于400M',
    );
  });
  it('one video only, and no duplicate', () => {
    const a = file('a.mp4', 'video/mp4', MB, 5);
    expect(say(checkFiles([a, file('b.mp4', 'video/mp4', MB)], [], 'free').problem)).toBe(
      '当前限制选择 最多1 个视频',
    );
    expect(say(checkFiles([file('b.mp4', 'video/mp4', MB)], [a], 'free').problem)).toBe(
      '当前限制选择 最多1 个视频',
    );
    expect(say(checkFiles([file('a.mp4', 'video/mp4', MB, 5)], [a], 'free').problem)).toBe('当前文件已存在');
  });
  it('duration by plan: 30 / 60 / 120 s', () => {
    expect(say(checkDuration(30.5, 'free'))).toBe('视频时长不能超过30秒');
    expect(checkDuration(30, 'free')).toBeNull();
    expect(checkDuration(59.9, 'monthly')).toBeNull();
    expect(say(checkDuration(61, 'monthly'))).toBe('视频时长不能超过60秒');
    expect(say(checkDuration(121, 'yearly'))).toBe('视频时长不能超过120秒');
    expect(checkDuration(Number.NaN, 'free')?.key).toBe('upload.unreadable');
    setLangForTests('en');
    expect(say(checkDuration(31, 'free'))).toBe('video duration cannot exceed 30 seconds');
    setLangForTests('zh');
  });
  it('title at most 15 characters (counted as characters, not UTF-16 units)', () => {
    expect(checkTitle('一二三四五六七八九十一二三四五')).toBeNull();
    expect(say(checkTitle('一二三四五六七八九十一二三四五六'))).toBe('标题最多 15 个字符');
    expect(checkTitle('😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀')).toBeNull();
    expect(checkTitle('   ')?.key).toBe('upload.titleRequired');
  });
  it('category or tag required; no comma in a tag', () => {
    expect(say(checkCategoryTag('', []))).toBe('分类和标签至少选择一项');
    expect(checkCategoryTag('3', [])).toBeNull();
    expect(checkCategoryTag('', ['dance'])).toBeNull();
    expect(say(checkCategoryTag('', ['a,b']))).toBe('标签内容不能包含有（，）逗号');
    expect(say(checkTag('舞蹈，街舞'))).toBe('标签内容不能包含有（，）逗号');
    expect(checkTag('舞蹈')).toBeNull();
  });
  it('free users FBX only', () => {
    expect(say(checkBoneType('VMD-TDA', 'free'))).toBe('免费版用户只能选择 FBX 格式');
    expect(say(checkBoneType('bvh', 'free'))).toBe('免费版用户只能选择 FBX 格式');
    expect(checkBoneType('BoyFBX', 'free')).toBeNull();
    expect(checkBoneType('Mixamo', 'free')).toBeNull();
    expect(checkBoneType('VMD-TDA', 'monthly')).toBeNull();
    expect(isFbxType('UnityAnim')).toBe(false);
  });
  it('coins: 1 V per second to upload, 1 V per 2 s (rounded up to 2 s) to remake', () => {
    expect(uploadCost(9.2)).toBe(10);
    expect(uploadCost(10)).toBe(10);
    expect(remakeCost(9)).toBe(5);
    expect(remakeCost(10)).toBe(5);
    expect(remakeCost(10.1)).toBe(6);
    expect(say(checkCoins(10, 9))).toBe('你的V币余额不足,无法制作视频');
    expect(checkCoins(10, 10)).toBeNull();
  });
  it('plan limits of the spec', () => {
    expect(PLAN_LIMITS.free).toMatchObject({ queue: 2, durationSec: 30, fileSizeMb: 100, uploadCheckMb: 50 });
    expect(PLAN_LIMITS.monthly).toMatchObject({ queue: 5, durationSec: 60, fileSizeMb: 200 });
    expect(PLAN_LIMITS.yearly).toMatchObject({ queue: 10, durationSec: 120, fileSizeMb: 400 });
    expect(planOf({ level: 'yearly', vexpiredAt: Date.now() + 1e6 })).toBe('yearly');
    expect(planOf({ level: 'monthly', vexpiredAt: Date.now() - 1e6 })).toBe('free');
    expect(planOf({ level: 2 })).toBe('yearly');
  });
});

describe('envelope codes (spec §8)', () => {
  const run = (body: unknown, quiet?: 'motionDownload' | 'videoUpload' | 'regenFbxs') =>
    interpretEnvelope(body as never, t, hasKey, quiet);
  it('0 returns data', () => {
    expect(run({ code: 0, message: 'ok', data: { a: 1 } })).toEqual({ kind: 'ok', data: { a: 1 } });
  });
  it('401, 407, 408, 421 force a logout with the server message or a translated default', () => {
    expect(run({ code: 401, message: 'token revoked' })).toEqual({
      kind: 'logout',
      code: 401,
      message: 'token revoked',
    });
    expect(run({ code: 407 })).toMatchObject({ kind: 'logout', message: '用户名或密码错误' });
    expect(run({ code: 408, message: '' })).toMatchObject({
      kind: 'logout',
      message: '账号已被禁用,请联系管理员',
    });
    expect(run({ code: 421 })).toMatchObject({ kind: 'logout', message: '登录超时,请重新登录' });
    expect(run({ code: '401' })).toMatchObject({ kind: 'logout' });
  });
  it('400 is silent', () => {
    expect(run({ code: 400, message: 'bad' })).toMatchObject({ kind: 'silent' });
  });
  it('300 shows the message except for motion download, video upload and regen fbxs', () => {
    expect(run({ code: 300, message: '用户名或密码错误' })).toMatchObject({
      kind: 'show',
      message: '用户名或密码错误',
    });
    for (const q of ['motionDownload', 'videoUpload', 'regenFbxs'] as const)
      expect(run({ code: 300, message: 'x' }, q)).toMatchObject({ kind: 'silent', message: 'x' });
  });
  it('411, 307, 1047 show the server message', () => {
    for (const code of [411, 307, 1047])
      expect(run({ code, message: '你的V币余额不足,无法制作视频' })).toEqual({
        kind: 'show',
        code,
        message: '你的V币余额不足,无法制作视频',
      });
  });
  it('other codes show the translated net.{code} text', () => {
    expect(run({ code: 500, message: 'TypeError: x is undefined' })).toMatchObject({
      kind: 'show',
      message: '服务器内部错误',
    });
    expect(run({ code: 410, message: 'whatever' })).toMatchObject({
      kind: 'show',
      message: '验证码错误,请确认',
    });
    expect(run({ code: 306 })).toMatchObject({ message: '没有权限,请联系管理员' });
    // A code without a catalogue text falls back to the server's own message.
    expect(run({ code: 4242, message: 'odd' })).toMatchObject({ kind: 'show', message: 'odd' });
  });
  it('a missing code is 服务器错误', () => {
    expect(run(null)).toMatchObject({ kind: 'show', message: '服务器错误' });
    expect(run({ message: 'x' })).toMatchObject({ kind: 'show', message: '服务器错误' });
    expect(run('<html>' as never)).toMatchObject({ kind: 'show', message: '服务器错误' });
  });
  it('toast on in-app pages, notification elsewhere', () => {
    expect(messageStyleFor('/capture/index/myProPc')).toBe('toast');
    expect(messageStyleFor('/capture/userCenter')).toBe('toast');
    for (const p of ['/capture/login', '/capture/register', '/capture/home', '/capture/', '/capture'])
      expect(messageStyleFor(p)).toBe('notification');
  });
});

describe('i18n', () => {
  it('en and zh have the same keys and no empty strings', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
    for (const [k, v] of Object.entries(zh)) expect(v.trim(), k).not.toBe('');
  });
  it('the spec Chinese messages are exact', () => {
    expect(zh['auth.agreeRequired']).toBe('请请勾选用户协议和隐私声明!');
    expect(zh['auth.passwordMismatch']).toBe('两个密码不一致。请检查并再次输入');
    expect(zh['auth.codeFormat']).toBe('请输入四位数验证码~');
    expect(zh['auth.noRepeat']).toBe('请勿重复发送!');
    expect(zh['auth.emailRequired']).toBe('请输入邮箱!');
    expect(zh['auth.passwordRequired']).toBe('请输入密码!');
    expect(zh['auth.loginOk']).toBe('登录成功!');
    expect(zh['download.noFile']).toBe('此视频无该文件');
    expect(zh['project.failed']).toBe('你的视频制作失败,请重新上传');
    expect(zh['net.serverError']).toBe('服务器错误');
  });
});

describe('shell sizes', () => {
  it('notice button font: 20, then 18, 16, 14 past 5, 7, 9 characters', () => {
    expect(noticeButtonFontSize('立即体验')).toBe(20);
    expect(noticeButtonFontSize('12345')).toBe(20);
    expect(noticeButtonFontSize('123456')).toBe(18);
    expect(noticeButtonFontSize('1234567')).toBe(18);
    expect(noticeButtonFontSize('12345678')).toBe(16);
    expect(noticeButtonFontSize('123456789')).toBe(16);
    expect(noticeButtonFontSize('1234567890')).toBe(14);
  });
  it('notices sorted by page, the link is the last jumpTo item', () => {
    const n = normaliseNotices([
      {
        id: 2,
        page: 2,
        jumpTo: 'a,b,https://x.test/c',
        button: 'Go',
        url: '',
        type: 1,
        title: 'B',
        content: '',
      },
      {
        id: 1,
        page: 1,
        jumpTo: '/capture/index/square',
        button: '',
        url: 'v.mp4',
        type: 2,
        title: 'A',
        content: '',
      },
    ]);
    expect(n.map((x) => x.id)).toEqual(['1', '2']);
    expect(n[1].link).toBe('https://x.test/c');
    expect(n[0].isVideo).toBe(true);
    expect(n[1].isVideo).toBe(false);
  });
  it('design size 1920×952 scales by the tighter axis, clamped', () => {
    expect(designScale(1920, 952)).toBe(1);
    expect(designScale(1366, 657)).toBeCloseTo(0.69, 2);
    expect(designScale(3840, 1904)).toBe(1.6);
    expect(designScale(800, 400)).toBe(0.6);
  });
  it('ctrl/cmd with + - = 0 is a zoom key', () => {
    const k = (key: string, ctrlKey = true, code = '') => isZoomKey({ key, ctrlKey, metaKey: false, code });
    expect(k('+')).toBe(true);
    expect(k('-')).toBe(true);
    expect(k('=')).toBe(true);
    expect(k('', true, 'NumpadAdd')).toBe(true);
    expect(k('+', false)).toBe(false);
    expect(k('c')).toBe(false);
  });
  it('reads the server records', () => {
    const u = normaliseUser({
      user: {
        id: 7,
        email: 'a@b.c',
        username: 'a',
        surplus: 42,
        level: 'monthly',
        vexpiredAt: Date.now() + 1e9,
        type: 1,
      },
      roles: ['user'],
      uploadCount: 0,
    });
    expect(u).toMatchObject({ id: 7, surplus: 42, plan: 'monthly', company: false, uploadCount: 0 });
    expect(normaliseUser({ user: { type: 2 }, roles: [] }).company).toBe(true);
    expect(normaliseStatus(2)).toBe('made');
    expect(normaliseStatus('in_progress')).toBe('inProgress');
    expect(normaliseStatus('failed')).toBe('failed');
  });
});

describe('password encryption (RSA-OAEP, SHA-256)', () => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const decrypt = (b64: string) =>
    privateDecrypt(
      { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(b64, 'base64'),
    ).toString();

  it('WebCrypto path decrypts with the private key', async () => {
    expect(decrypt(await encryptPassword('pässwörd-123', pem))).toBe('pässwörd-123');
  });
  it('the BigInt fallback (insecure contexts) decrypts with the private key too', () => {
    const der = pemToDer(pem);
    const c = encryptOaepFallback(new TextEncoder().encode('s3cret!'), der);
    expect(c.length).toBe(256);
    expect(decrypt(Buffer.from(c).toString('base64'))).toBe('s3cret!');
    expect(parseRsaPublicKey(der).e).toBe(65537n);
  });
  it('sha256 matches node', () => {
    for (const s of ['', 'abc', 'x'.repeat(1000)])
      expect(Buffer.from(sha256(new TextEncoder().encode(s))).toString('hex')).toBe(
        createHash('sha256').update(s).digest('hex'),
      );
  });
  it('refuses garbage keys clearly', () => {
    expect(() => pemToDer('-----BEGIN PUBLIC KEY-----\n-----END PUBLIC KEY-----')).toThrow(
      /empty public key/,
    );
  });
});

describe('clip sampling for the preview', () => {
  const doc = {
    format: 'mocap-motion',
    version: 1,
    fps: 10,
    frameCount: 2,
    joints: [
      { name: 'hips', parent: null, offset: [0, 1, 0], restRotation: [0, 0, 0, 1], tip: [0, 0, 0] },
      { name: 'spine', parent: 'hips', offset: [0, 0.1, 0], restRotation: [0, 0, 0, 1], tip: [0, 0, 0] },
    ],
    frames: [
      { time: 0, rootPosition: [0, 1, 0], rotations: [0, 0, 0, 1, 0, 0, 0, 1], positions: [] },
      {
        time: 0.1,
        rootPosition: [1, 1, 0],
        rotations: [0, 0, 0, 1, 0, Math.SQRT1_2, 0, Math.SQRT1_2],
        positions: [],
      },
    ],
  };
  it('parses, interpolates position linearly and rotation spherically', () => {
    const c = parseClip(doc);
    expect(c.parents).toEqual([-1, 0]);
    expect(c.duration).toBeCloseTo(0.2);
    expect(frameAt(c, 0.05)).toEqual({ f0: 0, f1: 1, a: expect.closeTo(0.5, 6) });
    expect(sampleRoot(c, 0.05, [0, 0, 0])[0]).toBeCloseTo(0.5);
    const q = sampleRotation(c, 1, 0.05, [0, 0, 0, 0]);
    // Half of a 90° turn about Y is 45°.
    expect(2 * Math.atan2(q[1], q[3])).toBeCloseTo(Math.PI / 4, 5);
    expect(sampleRoot(c, 99, [0, 0, 0])[0]).toBe(1);
  });
  it('rejects what is not a clip', () => {
    expect(() => parseClip({ format: 'other' })).toThrow(/not a mocap-motion clip/);
  });
  it('draws raised ground under the frames that stand on it, and none for a clip on the floor', () => {
    expect(supportPlatforms(parseClip(doc))).toEqual([]);
    const frames = [0, 1, 2, 3].map((f) => ({
      rootPosition: [f * 0.1, 1, 0.5],
      rotations: [0, 0, 0, 1, 0, 0, 0, 1],
      support: f < 2 ? 0.8 : 0,
    }));
    const raised = parseClip({ ...doc, frameCount: 4, frames });
    expect(Array.from(raised.support ?? [])).toEqual([expect.closeTo(0.8, 6), expect.closeTo(0.8, 6), 0, 0]);
    const [p, ...more] = supportPlatforms(raised, 0.5);
    expect(more).toEqual([]);
    expect(p.height).toBeCloseTo(0.8, 6);
    expect(p.x0).toBeCloseTo(-0.5, 6);
    expect(p.x1).toBeCloseTo(0.6, 6);
    expect(p.z0).toBeCloseTo(0, 6);
    expect(p.z1).toBeCloseTo(1, 6);
  });
});
