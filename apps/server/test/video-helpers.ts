/**
 * Helpers of the video, motion, jobs and e2e tests: test clips made with ffmpeg into a temp folder (the real
 * test videos are read from ../shared/testdata, never copied into the repo), multipart bodies for
 * `app.inject`, a zip reader, and a way to mark a video made without running the capture path.
 */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSkeleton, exportBoneType, motionJson, restClip } from '@mocap/motion';
import { type RunningWorker, runExportWorker } from '@mocap/worker';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  type CaptureJobData,
  createVideoStore,
  type Infra,
  type Services,
  type VideoOutputs,
} from '../src/index.ts';
import { readZip } from '../src/modules/motion/planzip.ts';
import type { TestServer } from './harness.ts';

export const TESTDATA = join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'testdata');
/** 3.3 s, 12 fps, one person: the shortest real clip (tracked with the lite model in tests). */
export const PERSON_CLIP = join(TESTDATA, 'videos', 'mmhuman3d_single_person_basketball_outdoor.mp4');

/** Runs ffmpeg quietly, overwriting its output. */
export function ffmpeg(args: string[]): void {
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { stdio: 'pipe' });
}

/**
 * An H.264 clip (yuv420p) of an ffmpeg test source such as `testsrc=size=96x64:rate=10:duration=2` written to
 * `out`; `options` (a filter, a container) go with the output. Returns `out`.
 */
export function sourceClip(source: string, out: string, options: string[] = []): string {
  ffmpeg(['-f', 'lavfi', '-i', source, ...options, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', out]);
  return out;
}

/**
 * Tiny synthetic clips (no person) in a temp folder that lives as long as the calling test file; `hue(i)` tints
 * clip `i` so each has distinct bytes (a new MD5).
 */
export function useTestClips(
  prefix: string,
  hue: (i: number) => number,
): (i: number, seconds?: number) => { filename: string; data: Buffer } {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return (i, seconds = 2) => {
    const out = join(dir, `c${i}.mp4`);
    sourceClip(`testsrc=size=96x64:rate=10:duration=${seconds}`, out, ['-vf', `hue=h=${hue(i)}`]);
    return { filename: `c${i}.mp4`, data: readFileSync(out) };
  };
}

export interface Fixtures {
  dir: string;
  person: string;
  /** The same clip cut to 2 s and scaled to 360×640 (cheaper captures where the content does not matter). */
  personSmall: string;
  /** Tiny synthetic clips (no person in them), distinct bytes each. */
  synthetic(i: number, seconds?: number): string;
  textAsMp4: string;
  empty: string;
  truncated: string;
  huge: string;
  audioOnly: string;
  long31s: string;
  mov: string;
}

/**
 * The fixture clips of a test file or block: made before its tests, their folder removed after them (the object
 * is filled in place, so `fx.person` etc. read as usual inside the tests).
 */
export function useFixtures(): Fixtures {
  const fx = {} as Fixtures;
  beforeAll(() => {
    Object.assign(fx, makeFixtures());
  });
  afterAll(() => rmSync(fx.dir, { recursive: true, force: true }));
  return fx;
}

export function makeFixtures(): Fixtures {
  const dir = mkdtempSync(join(tmpdir(), 'mocap-vid-'));
  const person = join(dir, 'person.mp4');
  copyFileSync(PERSON_CLIP, person);
  const personSmall = join(dir, 'person-small.mp4');
  ffmpeg([
    '-i',
    PERSON_CLIP,
    '-t',
    '2',
    '-vf',
    'scale=360:640',
    '-an',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    personSmall,
  ]);
  const made = new Map<string, string>();
  const synthetic = (i: number, seconds = 1) => {
    const key = `${i}-${seconds}`;
    const have = made.get(key);
    if (have) return have;
    const out = join(dir, `synthetic-${key}.mp4`);
    sourceClip(`testsrc=size=96x64:rate=10:duration=${seconds}`, out, ['-vf', `hue=h=${(i * 37) % 360}`]);
    made.set(key, out);
    return out;
  };
  const textAsMp4 = join(dir, 'notes.mp4');
  writeFileSync(textAsMp4, 'this is a text file, not a video\n'.repeat(50));
  const empty = join(dir, 'empty.mp4');
  writeFileSync(empty, '');
  // moov at the end (ffmpeg's default): cutting the file loses the index.
  const truncated = join(dir, 'truncated.mp4');
  sourceClip('testsrc=size=160x120:rate=10:duration=2', truncated);
  truncateSync(truncated, Math.floor(statSync(truncated).size / 2));
  const huge = join(dir, 'huge.mp4');
  sourceClip('color=c=gray:size=4200x64:rate=5:duration=0.4', huge);
  const audioOnly = join(dir, 'audio.mp4');
  ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-c:a', 'aac', audioOnly]);
  const long31s = join(dir, 'long.mp4');
  sourceClip('testsrc=size=64x48:rate=2:duration=31', long31s);
  const mov = join(dir, 'quicktime.mp4');
  sourceClip('testsrc=size=64x48:rate=5:duration=1', mov, ['-f', 'mov']);
  return { dir, person, personSmall, synthetic, textAsMp4, empty, truncated, huge, audioOnly, long31s, mov };
}

export interface Part {
  name: string;
  value?: string;
  file?: { filename: string; data: Buffer; type?: string };
}

/** A multipart/form-data body for `app.inject`. */
export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----mocap${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if (p.file) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${p.name}"; filename="${p.file.filename}"\r\nContent-Type: ${p.file.type ?? 'video/mp4'}\r\n\r\n`,
        ),
      );
      chunks.push(p.file.data, Buffer.from('\r\n'));
    } else {
      chunks.push(
        Buffer.from(`Content-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value ?? ''}\r\n`),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** The usual upload form: one file and the fields. */
export function uploadForm(
  file: string | { filename: string; data: Buffer },
  fields: Record<string, string | string[]> = {},
): { payload: Buffer; headers: Record<string, string> } {
  const f = typeof file === 'string' ? { filename: file.split('/').pop()!, data: readFileSync(file) } : file;
  const all: Record<string, string | string[]> = {
    name: 'walk',
    boneType: 'Mixamo',
    tags: 'dance',
    ...fields,
  };
  const parts: Part[] = [];
  for (const [k, v] of Object.entries(all)) {
    for (const one of Array.isArray(v) ? v : [v]) parts.push({ name: k, value: one });
  }
  parts.push({ name: 'file', file: f });
  return multipart(parts);
}

/** POSTs a multipart form to `url` as `token` through `app.inject`; answers the envelope. */
export async function postForm<T = { id: number } & Record<string, unknown>>(
  app: { inject: FastifyInstance['inject'] },
  url: string,
  token: string,
  form: { payload: Buffer; headers: Record<string, string> },
  headers: Record<string, string> = {},
): Promise<{ code: number; message: string; data: T }> {
  const r = await app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${token}`, ...form.headers, ...headers },
    payload: form.payload,
  });
  return r.json();
}

/** POSTs a video upload form to `/product/video/upload` as `token`; answers the envelope. */
export const postUpload = <T = { id: number } & Record<string, unknown>>(
  app: { inject: FastifyInstance['inject'] },
  token: string,
  form: { payload: Buffer; headers: Record<string, string> },
  headers: Record<string, string> = {},
) => postForm<T>(app, '/product/video/upload', token, form, headers);

/** Uploads a form that must be accepted (code 0, else the test fails with the message); answers the video. */
export async function uploadVideo<T = { id: number } & Record<string, unknown>>(
  app: { inject: FastifyInstance['inject'] },
  token: string,
  form: { payload: Buffer; headers: Record<string, string> },
): Promise<T> {
  const body = await postUpload<T>(app, token, form);
  expect(body.code, body.message).toBe(0);
  return body.data;
}

/** PUTs `payload` to an upload grant's URL (`GET /cos/sts/upload`, local storage) through `app.inject`. */
export function putGranted(
  app: { inject: FastifyInstance['inject'] },
  grant: { uploadUrl: string; headers: Record<string, string> },
  payload: Buffer,
) {
  const url = new URL(grant.uploadUrl, 'http://x');
  return app.inject({ method: 'PUT', url: url.pathname + url.search, headers: grant.headers, payload });
}

/** The entries of a zip by name (the server's own reader: stored or deflated, no zip64). */
export const unzip = (buf: Uint8Array): Map<string, Buffer> =>
  new Map(readZip(buf).map((f) => [f.name, Buffer.from(f.data)]));

/**
 * Marks a waiting video made with real zips of a short rest-pose clip for the given bone types, through the
 * same hooks a worker calls (no tracking: for tests of downloads and the square).
 */
export async function markMade(
  infra: Infra,
  services: Services,
  videoId: number,
  boneTypes: string[] = ['Mixamo', 'Unreal4', 'bvh'],
): Promise<void> {
  const v = await createVideoStore(infra.database).repos.videos.findById(videoId);
  if (!v) throw new Error(`no video ${videoId}`);
  const data: CaptureJobData = {
    videoId,
    userId: v.userId,
    mode: 'capture',
    seq: v.jobSeq,
    chargeRef: v.chargeRef,
  };
  const jv = await services.captureJobs.started(data, 1);
  if (!jv) throw new Error(`video ${videoId} cannot start`);
  const clip = restClip(createSkeleton(), 10, 30);
  const outputs: VideoOutputs = { zips: {}, frameCount: 10, fps: 30 };
  for (const bt of boneTypes) {
    const out = exportBoneType(clip, bt as never, { name: v.name });
    const key = `${jv.prefix}/zips/${bt.replace(/[^A-Za-z0-9.-]+/g, '_')}.zip`;
    await infra.storage.put(key, out.bytes);
    outputs.zips![bt] = { key, fileName: out.fileName, size: out.bytes.byteLength };
  }
  outputs.clipKey = `${jv.prefix}/clip.json`;
  await infra.storage.put(outputs.clipKey, motionJson.write(clip));
  outputs.tracksKey = `${jv.prefix}/tracks.json`;
  await infra.storage.put(
    outputs.tracksKey,
    JSON.stringify({ format: 'mocap-tracks', version: 1, frames: [] }),
  );
  await services.captureJobs.completed(data, outputs);
  await services.captureJobs.queue.remove(`capture-${videoId}-${v.jobSeq}`);
}

/**
 * The worker's export jobs (lower-body zips, the animation library's zips) running for the server `t` from
 * before the block's tests to after them.
 */
export function useExportWorker(t: TestServer): void {
  let worker: RunningWorker | undefined;
  beforeAll(() => {
    worker = runExportWorker({
      queue: t.services.motion.exportQueue,
      storage: t.infra.storage,
      motion: t.services.motion,
      animation: t.services.animation,
    });
  });
  afterAll(async () => worker?.close());
}
