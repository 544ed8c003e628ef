/**
 * The renderer's node side: headless Chromium (playwright-core, the system's /usr/bin/chromium, software
 * WebGL through SwiftShader) opens `page/index.html` from a loopback server; every frame is posed at an exact
 * time, rendered, read back and piped as raw RGB into ffmpeg (H.264, yuv420p), while the page returns the
 * ground truth (mapped joints' world positions, the camera's view matrix).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { type RenderServer, startRenderServer } from './server.ts';

export const CHROMIUM_PATH = process.env.MOCAP_CHROMIUM ?? '/usr/bin/chromium';

/** What the page is asked to render (see `page/render.js`). URLs are relative to the server. */
export interface PageSpec {
  width: number;
  height: number;
  fps: number;
  frames: number;
  seed: number;
  character: {
    url: string;
    /** Standing height the model is scaled to, metres. */
    height: number;
    /** role → candidate bone names. */
    roles: Record<string, string[]>;
    /** Add eyes, brows, nose, mouth and ears to a featureless head (see `addFace` in the page). */
    face?: boolean;
    /** Material overrides (applied to every material of the character). */
    material?: { roughness?: number; metalness?: number };
  };
  motion:
    | { kind: 'own'; clip: string; start?: number; rootMotion?: 'auto' | 'none' }
    | { kind: 'bvh'; url: string; start?: number; roles: Record<string, string[]>; rootMotion?: 'none' };
  camera: {
    /** Vertical field of view, degrees. */
    fovDeg: number;
    /** Camera height above the floor, metres. */
    height: number;
    /** Horizontal distance to the motion's centre (increased automatically if the subject would leave the frame). */
    distance: number;
    /** Azimuth of the camera around the motion's centre, degrees (0 = on +Z). */
    yawDeg: number;
    /** Height of the point looked at. */
    lookHeight: number;
    /** Pan to follow the subject (tripod pan; position fixed). */
    pan?: boolean;
  };
  /** Ground-truth points, recorded in this order (a bone origin, or a marker: see `correspondence.ts`). */
  gtPoints: { name: string; bone: string[]; from?: string[]; offset?: [number, number, number] }[];
}

export interface SetupInfo {
  frames: number;
  fps: number;
  /** Length of the source animation, seconds. */
  duration: number;
  /** Camera distance actually used, metres. */
  distance: number;
  /** Root speed added to an in-place cycle, m/s (0 when the clip moves by itself). */
  rootSpeed: number;
  floorShift: number;
  intrinsics: { fx: number; fy: number; cx: number; cy: number; width: number; height: number };
  rendererInfo: string;
}

export interface RenderedFrames {
  info: SetupInfo;
  /** Per frame: world positions of `gtPoints` (`[R × 3]` flat), metres, Y up, floor at y = 0. */
  joints: number[][];
  /** Per frame: the camera's view matrix (world → camera, column-major 4×4; camera x right, y up, looking down -z). */
  views: number[][];
}

export interface CharacterInspection {
  bones: { name: string; parent?: string; pos: number[] }[];
  animations: { name: string; duration: number; tracks: number }[];
  box: number[][];
  meshes: { name: string; skinned: boolean; materials: { type: string; color?: string; map: boolean }[] }[];
}

/** The page's API (`window.mocap`). */
export interface PageApi {
  ready: boolean;
  inspect(url: string): Promise<CharacterInspection>;
  setup(spec: PageSpec): Promise<SetupInfo>;
  frame(i: number): Promise<{ joints: number[]; view: number[] }>;
}
type PageGlobal = { mocap?: PageApi };

/** Encodes raw RGB frames to an H.264 MP4 with ffmpeg. */
function startEncoder(out: string, width: number, height: number, fps: number) {
  const ff = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${width}x${height}`, '-r', String(fps), '-i', '-'],
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18', '-pix_fmt', 'yuv420p', '-threads', '1'],
      out,
    ],
    { stdio: ['pipe', 'ignore', 'pipe'] },
  );
  let stderr = '';
  ff.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const done = new Promise<void>((ok, fail) => {
    ff.on('error', fail);
    ff.on('close', (code) =>
      code === 0 ? ok() : fail(new Error(`ffmpeg exited with ${code}: ${stderr.trim()}`)),
    );
  });
  let failed: Error | null = null;
  ff.stdin.on('error', (e: Error) => {
    failed = e;
  });
  const write = (buf: Buffer) =>
    new Promise<void>((ok, fail) => {
      if (failed) fail(failed);
      else if (!ff.stdin.write(buf)) ff.stdin.once('drain', ok);
      else ok();
    });
  const end = async () => {
    ff.stdin.end();
    await done;
  };
  return { write, end };
}

export class Renderer {
  private constructor(
    private readonly ctx: BrowserContext,
    private readonly page: Page,
    private readonly server: RenderServer,
    private readonly userDir: string,
  ) {}

  /** Starts Chromium and the page. `dataRoot` is served read-only under `/data/`. */
  static async open(dataRoot: string): Promise<Renderer> {
    const server = await startRenderServer(dataRoot);
    const userDir = mkdtempSync(join(tmpdir(), 'mocap-chromium-'));
    let ctx: BrowserContext;
    try {
      ctx = await chromium.launchPersistentContext(userDir, {
        executablePath: CHROMIUM_PATH,
        headless: true,
        args: [
          '--no-sandbox',
          '--use-angle=swiftshader',
          '--enable-unsafe-swiftshader',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
    } catch (e) {
      await server.close();
      rmSync(userDir, { recursive: true, force: true });
      throw new Error(`cannot start Chromium at ${CHROMIUM_PATH}: ${(e as Error).message}`);
    }
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/page/index.html`);
    await page
      .waitForFunction(() => (globalThis as PageGlobal).mocap?.ready === true, undefined, { timeout: 30_000 })
      .catch(() => {
        throw new Error(`render page did not load: ${errors.join('; ') || 'timeout'}`);
      });
    return new Renderer(ctx, page, server, userDir);
  }

  /** Bones, animations, bounds and materials of a character file (a path under the data root). */
  inspect(dataPath: string): Promise<CharacterInspection> {
    return this.page.evaluate((u) => (globalThis as PageGlobal).mocap!.inspect(u), `/data/${dataPath}`);
  }

  /**
   * Renders one clip: `outMp4` (written atomically) and the ground truth. Each call gets a fresh page so
   * scenes do not leak into each other.
   */
  async render(spec: PageSpec, outMp4: string, onProgress?: (done: number, total: number) => void) {
    await this.page.reload();
    await this.page.waitForFunction(() => (globalThis as PageGlobal).mocap?.ready === true);
    const info = await this.page.evaluate((s) => (globalThis as PageGlobal).mocap!.setup(s), spec);
    mkdirSync(dirname(outMp4), { recursive: true });
    const tmp = `${outMp4}.part.mp4`;
    const enc = startEncoder(tmp, spec.width, spec.height, spec.fps);
    const expected = spec.width * spec.height * 3;
    this.server.onFrame = async (_i, data) => {
      if (data.length !== expected) throw new Error(`frame has ${data.length} bytes, expected ${expected}`);
      await enc.write(data);
    };
    const joints: number[][] = [];
    const views: number[][] = [];
    try {
      for (let i = 0; i < spec.frames; i++) {
        const r = await this.page.evaluate((k) => (globalThis as PageGlobal).mocap!.frame(k), i);
        joints.push(r.joints);
        views.push(r.view);
        onProgress?.(i + 1, spec.frames);
      }
      await enc.end();
    } catch (e) {
      await enc.end().catch(() => {});
      rmSync(tmp, { force: true });
      throw e;
    } finally {
      this.server.onFrame = null;
    }
    renameSync(tmp, outMp4);
    return { info, joints, views } satisfies RenderedFrames;
  }

  async close(): Promise<void> {
    await this.ctx.close().catch(() => {});
    await this.server.close();
    rmSync(this.userDir, { recursive: true, force: true });
  }
}
