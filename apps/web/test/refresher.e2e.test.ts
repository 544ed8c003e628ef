/**
 * The 2D repair editor end to end (issue 23) in Chromium against the real server (in-process worker, lite
 * tracking model) on a rendered clip with known truth (packages/quality: the X Bot walking towards the
 * camera, 3 s at 960×540, ground-truth joints per frame).
 *
 * A monthly account uploads the clip; once made, the test corrupts the left wrist's track over 20 frames (saved
 * through `PUT /video/2d`, re-solved), then in the editor: the timeline flags those frames, the wrist is dragged
 * back to its true place on two keyframes (first and last corrupted frame; the frames between are
 * interpolated), undo/redo restore and re-apply, save → re-solve; the solved wrist's error against the ground
 * truth on those frames must drop by at least half. The same with a left/right leg swap over 20 frames, made as
 * BlazePose makes one (see `trackerLegSwap`: the picture's x/y and the world's x/y exchanged, depth and visibility
 * left with the labels), the swap on a range (in zh with the one-click fix of the whole stretch found swapped).
 * For these legs seen from the front the halving is not asserted: the repair gives back exactly the uncorrupted
 * tracks (asserted), and the solver relabels leg swaps itself; the log gives the figures. The halving is asserted
 * on a leg swap seen from the side that the solver cannot undo: the man walking past the camera, where the tracker
 * itself takes one leg for the other for a few frames (its own swap on the uncorrupted tracks, found against the
 * truth) and, corrupted, never takes them back — its labels stay swapped to the clip's end (`sideSwapFrames`), so
 * the only boundary is the tracker's own and the solver's leg-swap pass leaves the stretch as it is. The timeline
 * must flag at least 90 % of it from the picture's places alone and nothing elsewhere that the uncorrupted tracks do
 * not flag; the whole-stretch fix (zh) offers exactly the flagged stretch; the swap on that stretch (en; desktop:
 * keyboard marks and clicks; phone: taps) must give back the tracker's own tracks on the corrupted frames and bring
 * the solved knees' and ankles' error there (against the truth) to at most half the corrupted solve's. The draft
 * is autosaved on the server: a second browser (another device) opens the same unsaved edits.
 * Hand points are editable: on tracks given a hand, a fingertip dragged in the editor (zh, then en) is saved where
 * it was dropped. A free account is refused (page and API). The phone layout (/refresherM) repeats the wrist flow
 * with touch events (CDP touch: drag, long-press to hide) and the side-view leg swap by taps. Screenshots `refresher-*-{en,zh}.png`.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MotionClip, motionJson, solve } from '@mocap/motion';
import {
  alignRigid,
  CLIPS,
  ensureRendered,
  type GroundTruth,
  jointIndexOf,
  pageSpec,
  type RecordedJoint,
  Renderer,
  solvedJoints,
} from '@mocap/quality';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyse, type TracksDoc } from '../src/pages/refresher/model.ts';
import {
  type ContextOptions,
  DESKTOP,
  e2eUnavailable,
  PHONE,
  shot,
  TESTDATA,
  useE2e,
  waitFor,
} from './e2e-harness.ts';

const missing = e2eUnavailable();
const CI = process.env.CI === 'true';
const ADMIN = { email: 'admin-rf@example.com', password: 'admin-rf-pass-1' };

type Img = [number, number, number, number, number];
type P3 = [number, number, number];
interface Hand {
  score: number;
  handedness: number;
  image: P3[];
  world: P3[];
}
interface Frame {
  index: number;
  time: number;
  image?: Img[];
  world?: [number, number, number][];
  hands?: { left: Hand | null; right: Hand | null };
}
interface Clip {
  gt: GroundTruth;
  video: string;
  name: string;
}
interface Doc {
  format: string;
  video: { width: number; height: number };
  frames: Frame[];
}

const WRIST = 15;
const WRIST_FRAMES = [30, 49] as const;
const LEG_FRAMES = [44, 63] as const;
const LEG_PAIRS = [
  [25, 26],
  [27, 28],
  [29, 30],
  [31, 32],
] as const;

function multipart(fields: Record<string, string>, file: { name: string; data: Buffer }) {
  const boundary = `----rf${Date.now()}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: video/mp4\r\n\r\n`,
    ),
  );
  parts.push(file.data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

/** Ground-truth joint of a recorded name projected into the picture (pixels). */
function projected(gt: GroundTruth, f: number, joint: RecordedJoint): [number, number] {
  const j = jointIndexOf(joint);
  const c = gt.camera[f];
  const k = gt.intrinsics;
  const x = c[j * 3];
  const y = c[j * 3 + 1];
  const z = c[j * 3 + 2];
  return [k.cx + (k.fx * x) / -z, k.cy - (k.fy * y) / -z];
}

describe.skipIf(missing !== null && !CI)('2D repair editor e2e (chromium + real server)', () => {
  /** The wrist clip: a man walking past the camera (arms swing in the picture). */
  let side: Clip;
  /** The leg clip: the X Bot walking towards the camera (legs apart in the picture). */
  let front: Clip;
  let renderer: Renderer | undefined;

  beforeAll(async () => {
    if (missing) throw new Error(`e2e cannot run: ${missing}`);
    const render = async (id: string, seconds = 3): Promise<Clip> => {
      const clip = CLIPS.find((c) => c.id === id)!;
      const spec = { ...pageSpec(clip, seconds), width: 960, height: 540 };
      const r = await ensureRendered(
        seconds === 3 ? `rf-${id}` : `rf-${id}-${seconds}s`,
        spec,
        join(tmpdir(), 'mocap-refresher-renders'),
        async () => {
          renderer ??= await Renderer.open(TESTDATA);
          return renderer;
        },
      );
      return { gt: r.gt, video: r.video, name: `${id}.mp4` };
    };
    // 4 s: the side walk's corrupted stretch (the tracker's own swap carried to the end) runs ~55 frames, so the
    // solver's own relabelling (a cost per relabelled frame) does not undo it; on 3 s (25 frames) whether it
    // did depended on the renderer's pixels (it did with Chromium 156.0.8078.108).
    side = await render('male-walk-side', 4);
    front = await render('xbot-walk-front');
    await renderer?.close();
  }, 900_000);
  const e2e = useE2e({ CAPTURE_MODEL: 'heavy', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  afterAll(() => {
    if (process.env.RF_E2E_LOG) console.log(e2e.server()?.log().slice(-4000));
  });
  const api = e2e.api;

  const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown, token?: string) =>
    api.raw<T>(method, path, body, token);
  const ok = <T = Record<string, unknown>>(method: string, path: string, body?: unknown, token?: string) =>
    api.call<T>(method, path, body, token);
  const { encrypt } = api;
  const register = async (email: string) => (await api.register(email, 'rf-pass-123')).token;
  const upgrade = async (token: string) => {
    const admin = (
      await ok<{ token: string }>('POST', '/auth/login', {
        username: ADMIN.email,
        password: await encrypt(ADMIN.password),
      })
    ).token;
    const info = await ok<{ user: { id: number } }>('GET', '/auth/info', undefined, token);
    await ok('POST', `/user/updateLevel/${info.user.id}/monthly/30`, {}, admin);
  };
  const upload = async (token: string, clip: Clip): Promise<number> => {
    const m = multipart(
      { name: clip.name.replace(/\.mp4$/, '').slice(0, 15), boneType: 'Mixamo', tags: 'walk' },
      { name: clip.name, data: readFileSync(clip.video) },
    );
    const r = await fetch(`${e2e.server().url}/product/video/upload`, {
      method: 'POST',
      headers: { 'content-type': m.type, authorization: `Bearer ${token}` },
      body: m.body,
    });
    const env = (await r.json()) as { code: number; message: string; data: { id: number } };
    if (env.code !== 0) throw new Error(`upload: ${env.code} ${env.message}`);
    return env.data.id;
  };
  const waitMade = async (id: number, token: string, after?: number) =>
    waitFor(
      async () => {
        const v = await ok<{ status: number; repairCount: number; error?: string }>(
          'POST',
          '/video/queryVideoById',
          { id },
          token,
        );
        if (v.status === 3) throw new Error(`video failed: ${v.error}`);
        return v.status === 2 && (after === undefined || v.repairCount > after) ? v : null;
      },
      300_000,
      'the video to be made',
    );
  /** A paying account (`email`) with `clip` uploaded and made: its token and the video's id. */
  const paidWithVideo = async (email: string, clip: Clip) => {
    const token = await register(email);
    await upgrade(token);
    const id = await upload(token, clip);
    await waitMade(id, token);
    return { token, id };
  };
  const tracksOf = async (id: number, token: string): Promise<Doc> => {
    const d = await ok<{ poseUrl: string }>('GET', `/video/2d?id=${id}`, undefined, token);
    return (await (await fetch(new URL(d.poseUrl, e2e.server().url))).json()) as Doc;
  };
  /**
   * Mean error (m) of a solved joint against the truth over frames [a, b]: the solved clip aligned rigidly to the
   * truth over the whole clip, then the joint taken relative to the hips on both sides (the body's own pose, as
   * root-relative MPJPE; the clip's global drift is not what a 2D repair changes).
   */
  const solvedError = async (
    id: number,
    token: string,
    clip: Clip,
    joint: RecordedJoint,
    a: number,
    b: number,
  ) => {
    const c = await ok<{ url: string }>('GET', `/motion/video/${id}/clip_url`, undefined, token);
    const motion = motionJson.read(await (await fetch(new URL(c.url, e2e.server().url))).text());
    return errorOf(motion, clip, joint, a, b);
  };
  const errorOf = (motion: MotionClip, clip: Clip, joint: RecordedJoint, a: number, b: number) => {
    const gt = clip.gt;
    const est = solvedJoints(motion);
    const n = Math.min(est.length, gt.world.length);
    const aligned = alignRigid(est.slice(0, n), gt.world.slice(0, n)).aligned;
    const j = jointIndexOf(joint);
    const h = jointIndexOf('hips');
    let s = 0;
    for (let f = a; f <= b; f++) {
      const e = aligned[f]!;
      const g = gt.world[f];
      const d = [0, 1, 2].map((k) => e[j * 3 + k] - e[h * 3 + k] - (g[j * 3 + k] - g[h * 3 + k]));
      s += Math.hypot(d[0], d[1], d[2]);
    }
    return s / (b - a + 1);
  };
  /** The video's solved clip as the server stores it. */
  const clipOf = async (id: number, token: string) => {
    const c = await ok<{ url: string }>('GET', `/motion/video/${id}/clip_url`, undefined, token);
    return motionJson.read(
      await (await fetch(new URL(c.url, e2e.server().url), { cache: 'no-store' })).text(),
    );
  };
  /** Mean error of both legs' knees and ankles (all the swapped joints the truth records) on the leg frames. */
  const bothLegs = (motion: MotionClip) =>
    (['leftShin', 'leftFoot', 'rightShin', 'rightFoot'] as const).reduce(
      (s, j) => s + errorOf(motion, front, j, ...LEG_FRAMES) / 4,
      0,
    );
  /** Moves the left wrist away from its place (image and world) on frames [a, b]. */
  const corruptWrist = (doc: Doc): Doc => {
    const frames = doc.frames.map((f) => {
      if (f.index < WRIST_FRAMES[0] || f.index > WRIST_FRAMES[1] || !f.image || !f.world) return f;
      const im = f.image.map((p) => [...p] as Img);
      const w = f.world.map((p) => [...p] as [number, number, number]);
      const torso = Math.hypot(
        (im[11][0] + im[12][0]) / 2 - (im[23][0] + im[24][0]) / 2,
        (im[11][1] + im[12][1]) / 2 - (im[23][1] + im[24][1]) / 2,
      );
      const pxPerM =
        torso /
        Math.hypot(
          (w[11][0] + w[12][0]) / 2 - (w[23][0] + w[24][0]) / 2,
          (w[11][1] + w[12][1]) / 2 - (w[23][1] + w[24][1]) / 2,
        );
      const side = im[WRIST][0] >= (im[11][0] + im[12][0]) / 2 ? 1 : -1;
      const dx = side * 0.8 * torso;
      const dy = -0.7 * torso;
      im[WRIST] = [im[WRIST][0] + dx, im[WRIST][1] + dy, im[WRIST][2], 0.95, 0.99];
      w[WRIST] = [w[WRIST][0] + dx / pxPerM, w[WRIST][1] + dy / pxPerM, w[WRIST][2] - 0.15];
      return { ...f, image: im, world: w };
    });
    return { ...doc, frames };
  };
  /**
   * A left/right leg swap over frames [a, b] as BlazePose makes one: the places in the picture (x, y) and the
   * world landmarks' x and y exchanged, the picture's depth, visibility and presence and the world's depth left
   * with the labels (measured on this side-walk clip tracked by the heavy model: its own 15 swapped frames kept the near leg
   * nearer and more visible in the picture, and the world's x/y agreed with the picture's labelling on all 90
   * frames; the same on the real side walks of testdata). The editor finds it from the picture's places alone.
   */
  const trackerLegSwap =
    ([a, b]: readonly [number, number], keep: ReadonlySet<number> = new Set()) =>
    (doc: Doc): Doc => ({
      ...doc,
      frames: doc.frames.map((f) => {
        if (f.index < a || f.index > b || keep.has(f.index) || !f.image || !f.world) return f;
        const im = f.image.map((p) => [...p] as Img);
        const w = f.world.map((p) => [...p] as P3);
        for (const [l, r] of LEG_PAIRS) {
          const L = im[l];
          const R = im[r];
          im[l] = [R[0], R[1], L[2], L[3], L[4]];
          im[r] = [L[0], L[1], R[2], R[3], R[4]];
          const WL = w[l];
          const WR = w[r];
          w[l] = [WR[0], WR[1], WL[2]];
          w[r] = [WL[0], WL[1], WR[2]];
        }
        return { ...f, image: im, world: w };
      }),
    });
  const corruptLegs = trackerLegSwap(LEG_FRAMES);

  /**
   * The frames where the tracker itself has the side walker's legs swapped: its knee and ankle labelled left lie
   * nearer the true right ones in the picture (and the other way round) than the true left ones.
   */
  const trackerSwapped = (doc: Doc): number[] => {
    const out: number[] = [];
    const n = Math.min(doc.frames.length, side.gt.world.length);
    for (let f = 0; f < n; f++) {
      const im = doc.frames[f].image;
      if (!im) continue;
      let kept = 0;
      let exchanged = 0;
      for (const [l, r, nl, nr] of [
        [25, 26, 'leftShin', 'rightShin'],
        [27, 28, 'leftFoot', 'rightFoot'],
      ] as const) {
        const L = projected(side.gt, f, nl);
        const R = projected(side.gt, f, nr);
        kept += Math.hypot(im[l][0] - L[0], im[l][1] - L[1]) + Math.hypot(im[r][0] - R[0], im[r][1] - R[1]);
        exchanged +=
          Math.hypot(im[l][0] - R[0], im[l][1] - R[1]) + Math.hypot(im[r][0] - L[0], im[r][1] - L[1]);
      }
      if (exchanged < kept) out.push(f);
    }
    return out;
  };
  /**
   * The leg swap seen from the side as the tracker makes it and the solver cannot undo: the tracker takes one leg
   * for the other (its own swap on the uncorrupted tracks, the last one that leaves at least 20 frames after it)
   * and, here, never takes them back — the corruption keeps its labels swapped from the frame where it swapped
   * them back to the clip's end. So the swapped stretch runs from the tracker's own swap to the end: there is no
   * second boundary, and the one it has is the tracker's own. Returns [first corrupted frame, last frame] and the
   * tracker's swap it continues.
   */
  const sideSwapFrames = (doc: Doc): { a: number; b: number; own: [number, number] } => {
    const last = Math.min(doc.frames.length, side.gt.world.length) - 1;
    const swapped = new Set(trackerSwapped(doc));
    let end = last - 20;
    while (end > 0 && !swapped.has(end)) end--;
    expect(end, "the tracker's own leg swap on the side walk").toBeGreaterThan(0);
    let start = end;
    while (swapped.has(start - 1)) start--;
    return { a: end + 1, b: last, own: [start, end] };
  };
  /** Mean error of both legs' knees and ankles over frames [a, b]. */
  const legsOf = (motion: MotionClip, clip: Clip, a: number, b: number) =>
    (['leftShin', 'leftFoot', 'rightShin', 'rightFoot'] as const).reduce(
      (s, j) => s + errorOf(motion, clip, j, a, b) / 4,
      0,
    );

  const context = async (
    lang: 'en' | 'zh',
    token: string,
    device: ContextOptions = DESKTOP,
  ): Promise<BrowserContext> => {
    const ctx = await e2e.context(lang, token, device);
    ctx.on('page', (pg) => {
      pg.on('pageerror', (e) => console.log(`pageerror: ${e.message}`));
      pg.on('console', (m) => m.type() === 'error' && console.log(`console error: ${m.text()}`));
    });
    return ctx;
  };
  /** A new browser in `lang` signed in with `token`, on the editor of the video `id` (the phone's editor with PHONE). */
  const openEditor = async (lang: 'en' | 'zh', token: string, id: number, device?: ContextOptions) => {
    const ctx = await context(lang, token, device);
    const page = await ctx.newPage();
    await page.goto(`${e2e.server().url}/capture/refresher?id=${id}`);
    return { ctx, page };
  };
  /** The editor loaded (or why not: the load-failure advice, a refusal, a spinner). */
  const waitReady = async (page: Page) => {
    try {
      await page.waitForFunction(
        () =>
          document.querySelector('[data-testid="rf-editor"]')?.getAttribute('data-phase') === 'ready' ||
          !!document.querySelector('[data-testid="rf-load-failed"],[data-testid="rf-refused"]'),
        undefined,
        { timeout: 60_000, polling: 250 },
      );
    } catch (e) {
      const phase = await page
        .getByTestId('rf-editor')
        .getAttribute('data-phase', { timeout: 2000 })
        .catch(() => 'none');
      throw new Error(
        `editor not ready (phase ${phase}) at ${page.url()}: ${((await page.locator('#root').textContent()) ?? '').slice(0, 300)}`,
        {
          cause: e,
        },
      );
    }
    const failed = await page.locator('[data-testid="rf-load-failed"],[data-testid="rf-refused"]').count();
    if (failed > 0) throw new Error(`editor refused to load: ${await page.locator('#root').textContent()}`);
  };
  const frameOf = async (page: Page) => Number(await page.getByTestId('rf-frame').getAttribute('data-frame'));
  /** Frame stepping by keyboard (→ ←, Shift for 10). */
  const goTo = async (page: Page, target: number) => {
    for (let k = 0; k < 200; k++) {
      const f = await frameOf(page);
      if (f === target) break;
      const d = target - f;
      if (Math.abs(d) >= 10) await page.keyboard.press(d > 0 ? 'Shift+ArrowRight' : 'Shift+ArrowLeft');
      else await page.keyboard.press(d > 0 ? 'ArrowRight' : 'ArrowLeft');
    }
    expect(await frameOf(page)).toBe(target);
    await page.waitForFunction(
      () => {
        const v = document.querySelector('[data-testid="rf-video"]') as HTMLVideoElement | null;
        return !!v && !v.seeking && v.readyState >= 2;
      },
      undefined,
      { polling: 100 },
    );
  };
  /** Screen position of an image pixel (the overlay canvas covers the picture exactly). */
  const screenOf = async (page: Page, doc: Doc, x: number, y: number) => {
    // Let a frame change's zoom origin and drawing settle first.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const box = (await page.getByTestId('rf-overlay').boundingBox())!;
    return { x: box.x + (x / doc.video.width) * box.width, y: box.y + (y / doc.video.height) * box.height };
  };
  const mouseDrag = async (page: Page, from: { x: number; y: number }, to: { x: number; y: number }) => {
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 8 });
    await page.mouse.up();
  };
  /** One CDP session per page: a touch sequence (start, moves, end) must go through the same session. */
  const sessions = new WeakMap<Page, CDPSession>();
  const touch = async (
    page: Page,
    type: 'touchStart' | 'touchMove' | 'touchEnd',
    p?: { x: number; y: number },
  ) => {
    let cdp = sessions.get(page);
    if (!cdp) {
      cdp = await page.context().newCDPSession(page);
      sessions.set(page, cdp);
    }
    await cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: p ? [{ x: p.x, y: p.y, id: 1, radiusX: 4, radiusY: 4, force: 1 }] : [],
    });
  };
  const touchDrag = async (page: Page, from: { x: number; y: number }, to: { x: number; y: number }) => {
    await touch(page, 'touchStart', from);
    for (let s = 1; s <= 8; s++) {
      await touch(page, 'touchMove', {
        x: from.x + ((to.x - from.x) * s) / 8,
        y: from.y + ((to.y - from.y) * s) / 8,
      });
    }
    await touch(page, 'touchEnd');
  };
  const runs = async (page: Page, kind: string) =>
    page.$$eval(`[data-testid="rf-timeline"] .rf-run[data-kind="${kind}"]`, (els) =>
      els.map((e) => ({
        from: Number(e.getAttribute('data-from')),
        to: Number(e.getAttribute('data-to')),
        points: (e.getAttribute('data-points') ?? '').split(',').filter(Boolean).map(Number),
      })),
    );
  /** Frames of the timeline's swap runs that concern the legs. */
  const legSwapFlagged = async (page: Page) =>
    (await runs(page, 'swap'))
      .filter((r) => r.points.includes(25))
      .flatMap((r) => Array.from({ length: r.to - r.from + 1 }, (_, k) => r.from + k));
  const wristFlagged = async (page: Page) =>
    (await runs(page, 'jump')).filter(
      (r) => r.points.includes(WRIST) && r.to >= WRIST_FRAMES[0] && r.from <= WRIST_FRAMES[1],
    );
  const waitResolved = async (page: Page, before: number) => {
    await waitFor(
      async () => Number(await page.getByTestId('rf-repairs').getAttribute('data-count')) > before,
      300_000,
      'the re-solve',
    );
    await page.getByTestId('rf-solve-progress').waitFor({ state: 'detached' });
  };
  /** The server's draft of a video: its number of keyframes (null when there is none). */
  const serverKeys = async (id: number, token: string) => {
    const d = await ok<{ draft: { keys: Record<string, Record<string, unknown>> } } | null>(
      'GET',
      `/video/2d/draft?id=${id}`,
      undefined,
      token,
    );
    return d ? Object.values(d.draft.keys).reduce((a, k) => a + Object.keys(k).length, 0) : null;
  };
  /**
   * The zh pass left its unsaved edits as the draft on the server: the en pass (another browser) opens them, then
   * discards them, and the server's draft is gone.
   */
  const discardCarried = async (page: Page, id: number, token: string, edits: RegExp) => {
    await page.getByTestId('rf-draft-note').waitFor();
    expect(await page.getByTestId('rf-edits').textContent()).toMatch(edits);
    await page.getByTestId('rf-draft-discard').click();
    expect(await page.getByTestId('rf-edits').textContent()).toMatch(/^0 /);
    await waitFor(async () => (await serverKeys(id, token)) === null, 20_000, 'the draft to be discarded');
  };
  /**
   * Drags the wrist back to its true place on the first and last corrupted frame (by mouse or by touch): each drag
   * selects the wrist, and after both no wrist run is flagged.
   */
  const dragWristBack = async (page: Page, doc: Doc, drag: typeof mouseDrag) => {
    for (const f of WRIST_FRAMES) {
      await goTo(page, f);
      const cur = doc.frames[f].image![WRIST];
      const [tx, ty] = projected(side.gt, f, 'leftHand');
      await drag(page, await screenOf(page, doc, cur[0], cur[1]), await screenOf(page, doc, tx, ty));
      expect(await page.getByTestId('rf-selected').getAttribute('data-point')).toBe(String(WRIST));
    }
    await expect.poll(() => wristFlagged(page)).toEqual([]);
  };
  /** The zh pass ends here: its edits (`keys` keyframes) stay unsaved, as the server's draft, then its browser closes. */
  const leaveZhDraft = async (ctx: BrowserContext, id: number, token: string, keys: number) => {
    await waitFor(async () => (await serverKeys(id, token)) === keys, 20_000, 'the zh draft on the server');
    await ctx.close();
  };
  /** SHA-256 of the video's Mixamo zip as a download gives it. */
  const zipHash = async (id: number, token: string) => {
    const d = await ok<{ paths: string[] }>('GET', `/motion/download/video/${id}/Mixamo`, undefined, token);
    const bytes = Buffer.from(await (await fetch(new URL(d.paths[0], e2e.server().url))).arrayBuffer());
    expect(bytes.length).toBeGreaterThan(1000);
    return createHash('sha256').update(bytes).digest('hex');
  };
  const repairsOf = async (page: Page) =>
    Number(await page.getByTestId('rf-repairs').getAttribute('data-count'));
  /** Saves the edits (`rf-save` clicked, or tapped on a phone) and waits for the re-solve. */
  const saveAndResolve = async (page: Page, how: 'click' | 'tap' = 'click') => {
    const repairs = await repairsOf(page);
    await page.getByTestId('rf-save')[how]();
    await waitResolved(page, repairs);
  };
  /**
   * A pass's end: zh leaves its edits (`keys` keyframes) unsaved as the server's draft, en saves them and waits for
   * the re-solve; then its browser closes.
   */
  const endPass = async (
    lang: 'en' | 'zh',
    ctx: BrowserContext,
    page: Page,
    draft: { id: number; token: string; keys: number },
    how: 'click' | 'tap' = 'click',
  ) => {
    if (lang === 'zh') await leaveZhDraft(ctx, draft.id, draft.token, draft.keys);
    else {
      await saveAndResolve(page, how);
      await ctx.close();
    }
  };

  /** Corrupts the wrist through the API and waits for the corrupted solve. Returns the solved wrist error. */
  const corruptAndSolve = async (id: number, token: string, corrupt: (d: Doc) => Doc) => {
    const before = (await ok<{ repairCount: number }>('POST', '/video/queryVideoById', { id }, token))
      .repairCount;
    await ok('PUT', '/video/2d', { id, tracks: corrupt(await tracksOf(id, token)) }, token);
    await waitMade(id, token, before);
  };

  /**
   * The side-view leg swap (see `sideSwapFrames`, made as `trackerLegSwap` makes one) on the video's tracks and
   * re-solved, then repaired in the editor (zh: the one-click fix of the whole flagged stretch, left as the draft;
   * en: the draft discarded, the flagged stretch marked as a range and swapped, saved), on the desktop by keyboard
   * marks and clicks, on the phone by taps. The solved legs' error on the corrupted frames must at least halve
   * against the corrupted solve, and the repaired tracks be the tracker's own again there.
   */
  const sideSwapRepair = async (id: number, token: string, phone: boolean) => {
    const original = await tracksOf(id, token);
    const { a, b, own: trackerRun } = sideSwapFrames(original);
    // The frames the editor flags as legs swapped on the tracker's own tracks (its own swaps).
    const own = new Set(
      analyse(original as unknown as TracksDoc)
        .filter((p) => p.kind === 'swap' && p.points.includes(25))
        .flatMap((p) => Array.from({ length: p.to - p.from + 1 }, (_, k) => p.from + k)),
    );
    const l0 = legsOf(await clipOf(id, token), side, a, b);
    // Frames the tracker itself has swapped (flagged on its own tracks) stay as they are: swapped again they
    // would be right, and split the stretch in two.
    await corruptAndSolve(id, token, trackerLegSwap([a, b], own));
    const corrupted = await clipOf(id, token);
    const l1 = legsOf(corrupted, side, a, b);
    console.log(
      `${phone ? 'phone' : 'desktop'}: side-view legs: the tracker's own swap ${trackerRun.join('-')} kept from ${a} to the end (${b}): knees+ankles on ${a}-${b} ${(l0 * 100).toFixed(1)} → corrupted ${(l1 * 100).toFixed(1)} cm; the solver's own relabelling: ${JSON.stringify(corrupted.metadata.warnings?.filter((w) => /swapped/.test(w)) ?? [])}`,
    );
    // The solver does not undo it: the corrupted solve is far off on those frames.
    expect(l1).toBeGreaterThan(l0 + 0.05);
    const tap = (testid: string) =>
      phone ? page.getByTestId(testid).tap() : page.getByTestId(testid).click();
    let page!: Page;
    for (const lang of ['zh', 'en'] as const) {
      const ctx = await context(lang, token, phone ? PHONE : DESKTOP);
      page = await ctx.newPage();
      await page.goto(`${e2e.server().url}/capture/refresher?id=${id}`);
      if (phone) await page.waitForURL(/\/refresherM\?id=/);
      await waitReady(page);
      if (lang === 'en') await discardCarried(page, id, token, /^0 keyframes, 1 /);
      // The timeline flags the swapped stretch as a whole (at least 90 % of its frames) and nothing the tracker's
      // own tracks do not flag elsewhere.
      const flagged = await legSwapFlagged(page);
      const inside = flagged.filter((f) => f >= a && f <= b);
      const elsewhere = flagged.filter((f) => f < a || f > b);
      const legRuns = (await runs(page, 'swap')).filter((r) => r.points.includes(25));
      console.log(
        `${lang}: legs flagged swapped on ${inside.length}/${b - a + 1} frames of ${a}-${b} (runs ${JSON.stringify(legRuns.filter((r) => r.to >= a && r.from <= b).map((r) => [r.from, r.to]))}); elsewhere ${JSON.stringify(elsewhere)}, the tracker's own tracks flag ${JSON.stringify([...own])}`,
      );
      expect(inside.length).toBeGreaterThanOrEqual(0.9 * (b - a + 1));
      expect(elsewhere.filter((f) => !own.has(f))).toEqual([]);
      // The flagged stretch that holds the clip's end: from where the tracker swapped the legs.
      const stretch = legRuns.find((r) => r.from <= b && b <= r.to)!;
      expect(stretch).toBeDefined();
      expect(stretch.from).toBeLessThanOrEqual(a);
      await goTo(page, Math.round((a + b) / 2));
      // The whole-stretch fix offers exactly that flagged stretch.
      const run = page.getByTestId('rf-swap-run');
      await run.waitFor();
      expect([
        Number(await run.getAttribute('data-from')),
        Number(await run.getAttribute('data-to')),
      ]).toEqual([stretch.from, stretch.to]);
      await shot(page, `refresher-${phone ? 'm-' : ''}sideswap-flagged-${lang}`);
      if (lang === 'zh') {
        await tap('rf-swap-run');
      } else {
        await goTo(page, stretch.from);
        await tap('rf-range-start');
        await goTo(page, stretch.to);
        await tap('rf-range-end');
        expect(await page.getByTestId('rf-range-label').textContent()).toContain(String(stretch.from));
        await tap('rf-part-legs');
        await tap('rf-swap-range');
      }
      expect(await page.getByTestId('rf-edits').textContent()).toMatch(
        /^0 keyframes, 1 swap$|^0 个关键帧，1 次互换$/,
      );
      // The swap leaves no flag on the stretch.
      await expect
        .poll(async () => (await legSwapFlagged(page)).filter((f) => f >= stretch.from && f <= b))
        .toEqual([]);
      await goTo(page, Math.round((a + b) / 2));
      if (phone) {
        // Looked at magnified 2× around the body (the picture is small on a phone), the picture in view.
        await tap('rf-zoom');
        await expect
          .poll(async () => (await page.getByTestId('rf-overlay').boundingBox())!.width)
          .toBeGreaterThan(
            1.9 * (await page.getByTestId('rf-stage').evaluate((e) => (e as HTMLElement).offsetWidth)),
          );
        await page.getByTestId('rf-stage').scrollIntoViewIfNeeded();
      }
      await shot(page, `refresher-${phone ? 'm-' : ''}sideswap-${lang}`);
      await endPass(lang, ctx, page, { id, token, keys: 0 }, phone ? 'tap' : 'click');
    }
    const l2 = legsOf(await clipOf(id, token), side, a, b);
    console.log(
      `${phone ? 'phone' : 'desktop'}: side-view leg swap ${a}-${b} repaired by the swap on the flagged stretch: knees+ankles uncorrupted ${(l0 * 100).toFixed(1)} → corrupted ${(l1 * 100).toFixed(1)} → repaired ${(l2 * 100).toFixed(1)} cm (ratio ${(l2 / l1).toFixed(2)})`,
    );
    // The repaired tracks are the tracker's own again on the corrupted frames (picture and world).
    const repaired = await tracksOf(id, token);
    for (let f = a; f <= b; f++) {
      if (own.has(f)) continue; // not corrupted (see above); the stretch's swap relabels them too
      for (const j of [25, 28]) {
        expect(repaired.frames[f].image![j][0]).toBeCloseTo(original.frames[f].image![j][0], 1);
        expect(repaired.frames[f].world![j][0]).toBeCloseTo(original.frames[f].world![j][0], 3);
        expect(repaired.frames[f].world![j][2]).toBeCloseTo(original.frames[f].world![j][2], 3);
      }
    }
    // The acceptance point: after the repair and re-solve the legs' error on those frames is at most half the
    // corrupted one, and the repair takes back at least half of what the swap added (1 mm slack).
    expect(l2).toBeLessThanOrEqual(l1 / 2);
    expect(l2 - l0).toBeLessThanOrEqual((l1 - l0) / 2 + 0.001);
  };

  it('desktop: the corrupted wrist is flagged, dragged back on two keyframes, undo/redo, re-solved: error halves; leg swap likewise', async () => {
    const { token, id } = await paidWithVideo('rf-paid@example.com', side);
    const e0 = await solvedError(id, token, side, 'leftHand', ...WRIST_FRAMES);

    await corruptAndSolve(id, token, corruptWrist);
    const e1 = await solvedError(id, token, side, 'leftHand', ...WRIST_FRAMES);
    console.log(
      `wrist error on frames ${WRIST_FRAMES.join('-')}: original ${(e0 * 100).toFixed(1)} cm, corrupted ${(e1 * 100).toFixed(1)} cm`,
    );
    expect(e1).toBeGreaterThan(e0 + 0.05);

    const doc = await tracksOf(id, token);
    // zh first (looked at, edited, not saved), then en (edited, undo/redo, draft reload, saved).
    for (const lang of ['zh', 'en'] as const) {
      const { ctx, page } = await openEditor(lang, token, id);
      await waitReady(page);
      expect((await page.getByTestId('rf-sidebar').boundingBox())!.width).toBeCloseTo(277, 0);
      await page.getByTestId('rf-viewer').and(page.locator('[data-ready="1"]')).waitFor();
      if (lang === 'en') await discardCarried(page, id, token, /^2 /);
      // The timeline flags the corrupted frames (a jump run of the left wrist covering all 20 frames).
      const flagged = await wristFlagged(page);
      expect(flagged.length).toBeGreaterThan(0);
      expect(Math.min(...flagged.map((r) => r.from))).toBeLessThanOrEqual(WRIST_FRAMES[0]);
      expect(Math.max(...flagged.map((r) => r.to))).toBeGreaterThanOrEqual(WRIST_FRAMES[1]);
      // Next problem goes to the start of a flagged stretch.
      await page.getByTestId('rf-next-problem').click();
      const starts = await page.$$eval('.rf-run', (els) =>
        els.map((e) => Number(e.getAttribute('data-from'))),
      );
      expect(starts).toContain(await frameOf(page));
      await goTo(page, WRIST_FRAMES[0]);
      await shot(page, `refresher-flagged-${lang}`);
      await dragWristBack(page, doc, mouseDrag);
      await shot(page, `refresher-repaired-${lang}`);
      if (lang === 'zh') {
        await leaveZhDraft(ctx, id, token, 2);
        continue;
      }
      // Undo restores (both keyframes gone: the frames are flagged again), redo re-applies.
      await page.getByTestId('rf-undo').click();
      await page.keyboard.press('Control+z');
      expect(await page.getByTestId('rf-edits').textContent()).toMatch(/^0 /);
      expect((await wristFlagged(page)).length).toBeGreaterThan(0);
      await page.getByTestId('rf-redo').click();
      await page.keyboard.press('Control+Shift+z');
      expect(await page.getByTestId('rf-edits').textContent()).toMatch(/^2 /);
      await expect.poll(() => wristFlagged(page)).toEqual([]);
      // The draft is autosaved on the server: it is there through the API, and another browser (a fresh context:
      // no storage shared with this one, as on another device) opens the same unsaved edits.
      await waitFor(async () => (await serverKeys(id, token)) === 2, 20_000, 'the draft on the server');
      const stored = await ok<{ draft: { keys: Record<string, unknown> } }>(
        'GET',
        `/video/2d/draft?id=${id}`,
        undefined,
        token,
      );
      expect(
        Object.keys(stored.draft.keys)
          .map(Number)
          .sort((a, b) => a - b),
      ).toEqual([...WRIST_FRAMES]);
      await ctx.close();
      const other = await context(lang, token);
      const page2 = await other.newPage();
      await page2.goto(`${e2e.server().url}/capture/refresher?id=${id}`);
      await waitReady(page2);
      await page2.getByTestId('rf-draft-note').waitFor();
      expect(await page2.getByTestId('rf-edits').textContent()).toMatch(/^2 /);
      await expect.poll(() => wristFlagged(page2)).toEqual([]);
      await shot(page2, `refresher-draft-restored-${lang}`);
      await page2.reload();
      await waitReady(page2);
      expect(await page2.getByTestId('rf-edits').textContent()).toMatch(/^2 /);
      const repairs = await repairsOf(page2);
      await page2.getByTestId('rf-save').click();
      await waitResolved(page2, repairs);
      const e2 = await solvedError(id, token, side, 'leftHand', ...WRIST_FRAMES);
      console.log(
        `wrist error after the repair: ${(e2 * 100).toFixed(1)} cm (corrupted ${(e1 * 100).toFixed(1)} cm)`,
      );
      expect(e2).toBeLessThanOrEqual(e1 / 2);
      expect(await repairsOf(page2)).toBe(repairs + 1);
      // Saved as the repair: the draft is gone from the server.
      expect(await serverKeys(id, token)).toBeNull();
      // The editor now shows the saved tracks: nothing left to edit, the wrist no longer flagged.
      expect(await page2.getByTestId('rf-edits').textContent()).toMatch(/^0 /);
      expect(await wristFlagged(page2)).toEqual([]);
      const saved = await tracksOf(id, token);
      const [gx, gy] = projected(side.gt, WRIST_FRAMES[0], 'leftHand');
      const w0 = saved.frames[WRIST_FRAMES[0]].image![WRIST];
      expect(Math.hypot(w0[0] - gx, w0[1] - gy)).toBeLessThan(4);
      await shot(page2, `refresher-saved-${lang}`);
      await other.close();
    }

    // Left/right leg swap over 20 frames (the clip seen from the front): flagged, swapped back on the range,
    // re-solved.
    const legId = await upload(token, front);
    await waitMade(legId, token);
    const original = await tracksOf(legId, token);
    const k0 = await solvedError(legId, token, front, 'leftShin', ...LEG_FRAMES);
    const a0 = await solvedError(legId, token, front, 'leftFoot', ...LEG_FRAMES);
    const both0 = bothLegs(await clipOf(legId, token));
    await corruptAndSolve(legId, token, corruptLegs);
    const k1 = await solvedError(legId, token, front, 'leftShin', ...LEG_FRAMES);
    const a1 = await solvedError(legId, token, front, 'leftFoot', ...LEG_FRAMES);
    const corrupted = await clipOf(legId, token);
    const both1 = bothLegs(corrupted);
    console.log(
      `leg swap frames ${LEG_FRAMES.join('-')}: knee ${(k0 * 100).toFixed(1)} → corrupted ${(k1 * 100).toFixed(1)} cm, ankle ${(a0 * 100).toFixed(1)} → ${(a1 * 100).toFixed(1)} cm; both legs ${(both0 * 100).toFixed(1)} → ${(both1 * 100).toFixed(1)} cm; the solver's own relabelling: ${JSON.stringify(corrupted.metadata.warnings?.filter((w) => /swapped/.test(w)) ?? [])}`,
    );
    for (const lang of ['zh', 'en'] as const) {
      const { ctx, page } = await openEditor(lang, token, legId);
      await waitReady(page);
      if (lang === 'en') await discardCarried(page, legId, token, /^0 keyframes, 1 /);
      const swaps = await runs(page, 'swap');
      const hit = swaps.filter((r) => r.to >= LEG_FRAMES[0] && r.from <= LEG_FRAMES[1]);
      expect(hit.length).toBeGreaterThan(0);
      expect(Math.abs(Math.min(...hit.map((r) => r.from)) - LEG_FRAMES[0])).toBeLessThanOrEqual(2);
      expect(Math.abs(Math.max(...hit.map((r) => r.to)) - LEG_FRAMES[1])).toBeLessThanOrEqual(2);
      await goTo(page, LEG_FRAMES[0]);
      if (lang === 'zh') {
        // Re-track from here (server job, progress shown): the tracker labels the legs itself from the next frame
        // on, so the swapped stretch after this frame is no longer flagged; undo takes the new frames back.
        await page.keyboard.press('r');
        await page.getByTestId('rf-retrack-progress').waitFor();
        await shot(page, `refresher-retrack-${lang}`);
        await page.getByTestId('rf-retrack-progress').waitFor({ state: 'detached', timeout: 180_000 });
        await expect
          .poll(async () => Number(await page.getByTestId('rf-edits').getAttribute('data-retracked')))
          .toBeGreaterThan(0);
        const after = (await runs(page, 'swap')).filter(
          (r) => r.to > LEG_FRAMES[0] + 1 && r.from <= LEG_FRAMES[1],
        );
        console.log(`after re-track from frame ${LEG_FRAMES[0]}: swap runs ${JSON.stringify(after)}`);
        expect(after).toEqual([]);
        await page.getByTestId('rf-undo').click();
        expect(Number(await page.getByTestId('rf-edits').getAttribute('data-retracked'))).toBe(0);
        expect((await runs(page, 'swap')).some((r) => r.to >= LEG_FRAMES[1] - 2)).toBe(true);
        await goTo(page, LEG_FRAMES[0]);
      }
      if (lang === 'zh') {
        // The tracker's swapped stretch around this frame, fixed whole with one click.
        await goTo(page, LEG_FRAMES[0] + 5);
        const run = page.getByTestId('rf-swap-run');
        await shot(page, `refresher-swaprun-${lang}`);
        expect(Math.abs(Number(await run.getAttribute('data-from')) - LEG_FRAMES[0])).toBeLessThanOrEqual(2);
        expect(Math.abs(Number(await run.getAttribute('data-to')) - LEG_FRAMES[1])).toBeLessThanOrEqual(2);
        await run.click();
      } else {
        await goTo(page, LEG_FRAMES[0] + 5);
        await page.getByTestId('rf-swap-run').waitFor();
        await shot(page, `refresher-swaprun-${lang}`);
        await goTo(page, LEG_FRAMES[0]);
        await page.keyboard.press('[');
        await goTo(page, LEG_FRAMES[1]);
        await page.keyboard.press(']');
        await page.getByTestId('rf-part-legs').click();
        await page.getByTestId('rf-swap-range').click();
      }
      await expect
        .poll(async () =>
          (await runs(page, 'swap')).filter((r) => r.to >= LEG_FRAMES[0] && r.from <= LEG_FRAMES[1]),
        )
        .toEqual([]);
      await shot(page, `refresher-swap-${lang}`);
      await endPass(lang, ctx, page, { id: legId, token, keys: 0 });
    }
    const k2 = await solvedError(legId, token, front, 'leftShin', ...LEG_FRAMES);
    const a2 = await solvedError(legId, token, front, 'leftFoot', ...LEG_FRAMES);
    const both2 = bothLegs(await clipOf(legId, token));
    console.log(
      `after the swap repair: knee ${(k2 * 100).toFixed(1)} cm, ankle ${(a2 * 100).toFixed(1)} cm; both legs ${(both2 * 100).toFixed(1)} cm (ratio ${(both2 / both1).toFixed(2)})`,
    );
    const legBefore = (k1 + a1) / 2;
    const legAfter = (k2 + a2) / 2;
    // The repaired tracks equal the original ones on those frames.
    const repaired = await tracksOf(legId, token);
    for (let f = LEG_FRAMES[0]; f <= LEG_FRAMES[1]; f++) {
      expect(repaired.frames[f].image![25][0]).toBeCloseTo(original.frames[f].image![25][0], 1);
    }
    console.log(
      `legs (knee+ankle)/2: original ${((k0 + a0) * 50).toFixed(1)} cm, corrupted ${(legBefore * 100).toFixed(1)} cm, repaired ${(legAfter * 100).toFixed(1)} cm (ratio ${(legAfter / legBefore).toFixed(2)})`,
    );
    // What any 2D repair of these frames could reach at best: the original tracks with the knees and ankles put
    // exactly on the truth (projected) on those frames, solved here as the server solves them.
    const perfect: Doc = {
      ...original,
      frames: original.frames.map((f) => {
        if (f.index < LEG_FRAMES[0] || f.index > LEG_FRAMES[1] || !f.image) return f;
        const im = f.image.map((p) => [...p] as Img);
        for (const [j, name] of [
          [25, 'leftShin'],
          [26, 'rightShin'],
          [27, 'leftFoot'],
          [28, 'rightFoot'],
        ] as const) {
          const [x, y] = projected(front.gt, f.index, name);
          im[j] = [x, y, im[j][2], 1, 1];
        }
        return { ...f, image: im };
      }),
    };
    const best = solve(perfect as unknown as Parameters<typeof solve>[0], { hands: false, face: false });
    const legBest =
      (errorOf(best, front, 'leftShin', ...LEG_FRAMES) + errorOf(best, front, 'leftFoot', ...LEG_FRAMES)) / 2;
    console.log(
      `legs: a 2D repair with the true knees and ankles on those frames would reach ${(legBest * 100).toFixed(1)} cm (ratio ${(legBest / legBefore).toFixed(2)}); the issue asks for ratio <= 0.5`,
    );
    // Why the swap costs so little: the solver relabels leg swaps itself (image motion only), which on this
    // frontal walk undoes part of the corrupted stretch before any repair. The same corrupted tracks solved
    // without that relabelling:
    const unfixed = solve(corruptLegs(original) as unknown as Parameters<typeof solve>[0], {
      hands: false,
      face: false,
      fixLegSwaps: false,
    });
    const legUnfixed =
      (errorOf(unfixed, front, 'leftShin', ...LEG_FRAMES) +
        errorOf(unfixed, front, 'leftFoot', ...LEG_FRAMES)) /
      2;
    console.log(
      `legs: the corrupted tracks solved without the solver's own relabelling: ${(legUnfixed * 100).toFixed(1)} cm (the repair's ratio against that ${(legAfter / legUnfixed).toFixed(2)})`,
    );
    // The swap repair puts the tracker's own labels back: the solve returns to the uncorrupted error and not
    // above the corrupted one (which the solver's own relabelling may already have brought back there).
    expect(legAfter).toBeLessThanOrEqual((k0 + a0) / 2 + 0.01);
    expect(legAfter).toBeLessThanOrEqual(legBefore + 0.002);

    // The leg swap the solver cannot undo (the side walk: the tracker's own swap kept to the clip's end): repaired
    // by the swap on the flagged stretch, the legs' error at least halves.
    await sideSwapRepair(id, token, false);
  }, 2_400_000);

  it('hands: a fingertip dragged on the overlay is saved where it was dropped (en and zh)', async () => {
    // Hand points are editable. These clips are captured without hands, so the test gives the front clip's tracks
    // a left hand (21 points fanned out from the tracked wrist towards its index and pinky, segments 6 px; world =
    // picture / the frame's scale), then drags the index fingertip on one frame and saves: the saved tracks hold it
    // where it was dropped, the other points and frames as they were.
    const { token, id } = await paidWithVideo('rf-hand@example.com', front);
    const withHand = (doc: Doc): Doc => ({
      ...doc,
      frames: doc.frames.map((f) => {
        if (!f.image || !f.world) return f;
        const im = f.image;
        const w = f.world;
        const pxPerM =
          Math.hypot(im[11][0] - im[23][0], im[11][1] - im[23][1]) /
          Math.hypot(w[11][0] - w[23][0], w[11][1] - w[23][1]);
        const wr = im[15];
        const dx = (im[19][0] + im[17][0]) / 2 - wr[0];
        const dy = (im[19][1] + im[17][1]) / 2 - wr[1];
        const base = Math.hypot(dx, dy) > 1 ? Math.atan2(dy, dx) : Math.PI / 2;
        const image: P3[] = [[wr[0], wr[1], 0]];
        for (let i = 1; i < 21; i++) {
          const finger = Math.floor((i - 1) / 4);
          const r = 8 + 6 * (((i - 1) % 4) + 1);
          const a = base + ((finger - 2) * 22 * Math.PI) / 180;
          image.push([wr[0] + r * Math.cos(a), wr[1] + r * Math.sin(a), 0]);
        }
        const world = image.map((p) => [(p[0] - wr[0]) / pxPerM, (p[1] - wr[1]) / pxPerM, 0] as P3);
        return { ...f, hands: { left: { score: 0.95, handedness: 0.9, image, world }, right: null } };
      }),
    });
    await corruptAndSolve(id, token, withHand);
    const handDoc = await tracksOf(id, token);
    const HF = 20;
    const TIP = 33 + 8;
    const tip = handDoc.frames[HF].hands!.left!.image[8];
    const target = [tip[0] + 6, tip[1] - 4];
    for (const lang of ['zh', 'en'] as const) {
      const { ctx, page } = await openEditor(lang, token, id);
      await waitReady(page);
      if (lang === 'en') await discardCarried(page, id, token, /^1 /);
      await goTo(page, HF);
      // Select the body's wrist (a click, no move: no edit), then magnify 2x around it.
      const wr = handDoc.frames[HF].image![15];
      const at = await screenOf(page, handDoc, wr[0], wr[1]);
      await page.mouse.click(at.x, at.y);
      expect(await page.getByTestId('rf-selected').getAttribute('data-point')).toBe('15');
      await page.getByTestId('rf-zoom').click();
      await mouseDrag(
        page,
        await screenOf(page, handDoc, tip[0], tip[1]),
        await screenOf(page, handDoc, target[0], target[1]),
      );
      expect(await page.getByTestId('rf-selected').getAttribute('data-point')).toBe(String(TIP));
      expect(await page.getByTestId('rf-selected').textContent()).toContain(
        lang === 'zh' ? '左手食指尖' : 'left hand index tip',
      );
      expect(await page.getByTestId('rf-edits').textContent()).toMatch(/^1 /);
      await shot(page, `refresher-hand-${lang}`);
      await endPass(lang, ctx, page, { id, token, keys: 1 });
    }
    const saved = await tracksOf(id, token);
    const got = saved.frames[HF].hands!.left!;
    console.log(
      `hand: index tip dragged to ${target.map((v) => v.toFixed(1))}, saved at ${got.image[8].slice(0, 2).map((v) => v.toFixed(1))}`,
    );
    expect(Math.hypot(got.image[8][0] - target[0], got.image[8][1] - target[1])).toBeLessThan(1.5);
    expect(got.world[8]).not.toEqual(handDoc.frames[HF].hands!.left!.world[8]);
    expect(got.image[12]).toEqual(handDoc.frames[HF].hands!.left!.image[12]);
    expect(saved.frames[HF + 5].hands!.left!.image[8]).toEqual(handDoc.frames[HF + 5].hands!.left!.image[8]);
  }, 900_000);

  it('refuses a free account: the page says so and the server refuses the repair; a load failure gives the advice', async () => {
    const token = await register('rf-free@example.com');
    for (const lang of ['en', 'zh'] as const) {
      const { ctx, page } = await openEditor(lang, token, 1);
      const box = page.getByTestId('rf-refused');
      await box.waitFor();
      expect(await box.textContent()).toContain(
        lang === 'zh' ? '此功能不向免费用户开放' : 'not open to free users',
      );
      await shot(page, `refresher-free-${lang}`);
      await ctx.close();
    }
    const put = await call(
      'PUT',
      '/video/2d',
      { id: 1, tracks: { format: 'mocap-tracks', frames: [{}] } },
      token,
    );
    expect(put.message).toBe('此功能不向免费用户开放');
    const get = await call('GET', '/video/2d?id=1', undefined, token);
    expect(get.message).toBe('此功能不向免费用户开放');
    // Once paid, a video the editor cannot load (here someone else's) gets the load-failure advice of spec §8.
    await upgrade(token);
    const other = await register('rf-other@example.com');
    await upgrade(other);
    const theirs = await upload(other, side);
    for (const lang of ['en', 'zh'] as const) {
      const { ctx, page } = await openEditor(lang, token, theirs);
      const box = page.getByTestId('rf-load-failed');
      await box.waitFor();
      expect(await box.textContent()).toContain(
        lang === 'zh' ? '请使用最新版谷歌浏览器' : 'Please use the latest Chrome',
      );
      expect(await box.textContent()).toContain(lang === 'zh' ? '5秒以内' : 'under 5 seconds');
      await shot(page, `refresher-load-failed-${lang}`);
      await ctx.close();
    }
    // Four pages, an upload and screenshots: more than vitest's default 5 s on a loaded machine.
  }, 180_000);

  it('phone: the same wrist repair by touch (drag, long-press hides), bottom timeline, re-solve halves the error, the download is remade', async () => {
    const { token, id } = await paidWithVideo('rf-phone@example.com', side);
    await corruptAndSolve(id, token, corruptWrist);
    const e1 = await solvedError(id, token, side, 'leftHand', ...WRIST_FRAMES);
    for (const lang of ['zh', 'en'] as const) {
      const { ctx, page } = await openEditor(lang, token, id, PHONE);
      await page.waitForURL(/\/refresherM\?id=/);
      await waitReady(page);
      if (lang === 'en') await discardCarried(page, id, token, /^2 /);
      // The timeline sits at the bottom of the screen.
      const tl = (await page.getByTestId('rf-timeline').boundingBox())!;
      expect(tl.y + tl.height).toBeGreaterThan(PHONE.viewport.height - 80);
      expect((await wristFlagged(page)).length).toBeGreaterThan(0);
      await goTo(page, WRIST_FRAMES[0]);
      await shot(page, `refresher-m-flagged-${lang}`);
      const doc = await tracksOf(id, token);
      // Long-press hides a point; undo brings it back.
      const nose = doc.frames[WRIST_FRAMES[0]].image![0];
      const at = await screenOf(page, doc, nose[0], nose[1]);
      await touch(page, 'touchStart', at);
      await page.waitForFunction(
        () => /hidden|已隐藏/.test(document.querySelector('[data-testid="rf-selected"]')?.textContent ?? ''),
        undefined,
        { polling: 100 },
      );
      await touch(page, 'touchEnd');
      expect(await page.getByTestId('rf-edits').textContent()).toMatch(/^1 /);
      await page.getByTestId('rf-undo').tap();
      expect(await page.getByTestId('rf-edits').textContent()).toMatch(/^0 /);
      // Magnified 2× around the body for the drags (the picture is small on a phone).
      await page.getByTestId('rf-zoom').tap();
      await expect
        .poll(async () => (await page.getByTestId('rf-overlay').boundingBox())!.width)
        .toBeGreaterThan(
          1.9 * (await page.getByTestId('rf-stage').evaluate((e) => (e as HTMLElement).offsetWidth)),
        );
      await dragWristBack(page, doc, touchDrag);
      await shot(page, `refresher-m-repaired-${lang}`);
      if (lang === 'zh') {
        await leaveZhDraft(ctx, id, token, 2);
        continue;
      }
      const zipBefore = await zipHash(id, token);
      await saveAndResolve(page, 'tap');
      // The downloads use the repair: the bone type's zip was made again from the new solve.
      expect(await zipHash(id, token)).not.toBe(zipBefore);
      await ctx.close();
    }
    const e2 = await solvedError(id, token, side, 'leftHand', ...WRIST_FRAMES);
    console.log(`phone: wrist error ${(e1 * 100).toFixed(1)} → ${(e2 * 100).toFixed(1)} cm`);
    expect(e2).toBeLessThanOrEqual(e1 / 2);
    // The side-view leg swap, repaired by touch: range marks, legs, swap on the range, save.
    await sideSwapRepair(id, token, true);
  }, 1_800_000);
});
