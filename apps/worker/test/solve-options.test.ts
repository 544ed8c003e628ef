/**
 * The user's solve options reach the solve: through the solve thread (`solveAndExport`) and through a job of the
 * runner, whose video record carries the options stored at upload or remake. Tracks are synthetic (a CMU walk
 * played through BlazePose-like landmarks with noise, `@mocap/motion` synthetic), so the effects are known:
 * root at origin keeps the walking hips over the origin, the height scales the skeleton, smoothing lowers jitter.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bvh, forwardKinematics, type MotionClip, motionJson } from '@mocap/motion';
import type {
  CaptureJobData,
  JobContext,
  JobHandler,
  JobQueue,
  VideoOutputs,
  VideoRecord,
} from '@mocap/server';
import { LocalStorage } from '@mocap/server';
import { synthetic } from '@mocap/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWorker, solveAndExport, type UserSolveOptions } from '../src/index.ts';

const SHARED = join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'testdata');
const dir = mkdtempSync(join(tmpdir(), 'mocap-solveopts-'));
const tracksPath = join(dir, 'tracks.json');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(() => {
  const doc = bvh.read(readFileSync(join(SHARED, 'bvh', 'cmu', 'cmu_002_01.bvh'), 'utf8'));
  const syn = synthetic.synthesize(doc, { seed: 3, maxFrames: 150, file: 'cmu_002_01.bvh' });
  writeFileSync(tracksPath, JSON.stringify(syn.tracks));
});

const readClip = (path: string): MotionClip => motionJson.read(readFileSync(path, 'utf8'));

/** Hips (root joint) positions per frame. */
function hips(clip: MotionClip): [number, number, number][] {
  const { positions } = forwardKinematics(clip);
  const n = clip.skeleton.names.length;
  return Array.from({ length: clip.frameCount }, (_, f) => [
    positions[f * n * 3],
    positions[f * n * 3 + 1],
    positions[f * n * 3 + 2],
  ]);
}

/** Length of the left leg (hip → knee → ankle: the shin and foot joints' offsets), metres. */
function legLength(clip: MotionClip): number {
  const s = clip.skeleton;
  let len = 0;
  for (const name of ['leftShin', 'leftFoot']) {
    const j = s.names.indexOf(name);
    expect(j, name).toBeGreaterThan(0);
    const o = s.offsets.subarray(j * 3, j * 3 + 3);
    len += Math.hypot(o[0], o[1], o[2]);
  }
  return len;
}

/** Mean magnitude of the second difference of every joint position (m/frame²): jitter. */
function jitter(clip: MotionClip): number {
  const { positions } = forwardKinematics(clip);
  const n = clip.skeleton.names.length;
  let sum = 0;
  let count = 0;
  for (let f = 1; f + 1 < clip.frameCount; f++) {
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let a = 0; a < 3; a++) {
        const o = (f * n + j) * 3 + a;
        const d = positions[o - n * 3] - 2 * positions[o] + positions[o + n * 3];
        s += d * d;
      }
      sum += Math.sqrt(s);
      count++;
    }
  }
  return sum / count;
}

describe('solve options reach the solve', () => {
  const solved: Record<string, MotionClip> = {};
  const run = async (name: string, solve: UserSolveOptions | undefined) => {
    const r = await solveAndExport(tracksPath, join(dir, name), { solve, boneTypes: ['bvh'] });
    solved[name] = readClip(r.clipPath);
    return solved[name];
  };

  it('root at origin keeps the hips over the origin while the default walks away', async () => {
    const free = await run('default', undefined);
    const pinned = await run('origin', { rootAtOrigin: true });
    const travel = (c: MotionClip) => {
      const h = hips(c);
      return Math.hypot(h.at(-1)![0] - h[0][0], h.at(-1)![2] - h[0][2]);
    };
    expect(travel(free)).toBeGreaterThan(0.5);
    for (const [x, , z] of hips(pinned)) {
      expect(Math.abs(x)).toBeLessThan(0.01);
      expect(Math.abs(z)).toBeLessThan(0.01);
    }
  });

  it("the performer's height scales the skeleton", async () => {
    const short = await run('h150', { height: 1.5 });
    const tall = await run('h200', { height: 2.0 });
    expect(legLength(tall) / legLength(short)).toBeCloseTo(2.0 / 1.5, 2);
    expect(short.metadata.height).toBeCloseTo(1.5, 2);
    expect(tall.metadata.height).toBeCloseTo(2.0, 2);
  });

  it('smoothing 1 gives a smoother motion than smoothing 0', async () => {
    const raw = await run('s0', { smoothing: 0 });
    const smooth = await run('s1', { smoothing: 1 });
    expect(jitter(smooth)).toBeLessThan(jitter(raw) * 0.8);
  });
});

/** A queue that runs the jobs given to `push` one after another with the runner's handler. */
function oneShotQueue() {
  let handler: JobHandler<CaptureJobData> | undefined;
  const queue = {
    kind: 'db',
    name: 'capture',
    process(h: JobHandler<CaptureJobData>) {
      handler = h;
      return { id: 'test', running: () => 0, close: async () => {} };
    },
  } as unknown as JobQueue<CaptureJobData>;
  const push = (data: CaptureJobData) => {
    const job: JobContext<CaptureJobData> = {
      id: `${data.mode}-${data.videoId}-${data.seq}`,
      data,
      attempt: 1,
      maxAttempts: 1,
      progress: async () => {},
      signal: new AbortController().signal,
    };
    return handler!(job);
  };
  return { queue, push };
}

describe('the runner solves with the options stored with the video', () => {
  it('a re-solve job uses the video record’s options (root at origin, height)', async () => {
    const storage = new LocalStorage({ root: join(dir, 'storage'), secret: 'x'.repeat(32) });
    const prefix = 'videos/u1/abc';
    await storage.putFile(`${prefix}/tracks.json`, tracksPath, { contentType: 'application/json' });
    const video = {
      id: 7,
      userId: 1,
      name: 'walk',
      captureType: 'body',
      modelType: 'lite',
      storagePrefix: prefix,
      outputs: { tracksKey: `${prefix}/tracks.json` },
      solveOptions: { smoothing: 0.5, footLock: 'auto', rootAtOrigin: true, height: 1.9 },
    } as unknown as VideoRecord;
    const completed: VideoOutputs[] = [];
    const { queue, push } = oneShotQueue();
    const worker = runWorker(
      {
        queue,
        storage,
        jobs: {
          started: async () => ({ video, sourceKey: `${prefix}/source.mp4`, prefix }),
          progress: async () => {},
          completed: async (_d, outputs) => {
            completed.push(outputs);
          },
          failedForGood: async () => {},
        },
      },
      { tmpDir: dir, reconcileMs: 0, heartbeatMs: 60_000 },
    );
    try {
      await push({ videoId: 7, userId: 1, mode: 'resolve', seq: 1, chargeRef: null });
    } finally {
      await worker.close();
    }
    expect(completed).toHaveLength(1);
    const clipPath = join(dir, 'stored-clip.json');
    await storage.download(completed[0]!.clipKey!, clipPath);
    const clip = readClip(clipPath);
    expect(clip.metadata.height).toBeCloseTo(1.9, 2);
    for (const [x, , z] of hips(clip)) {
      expect(Math.abs(x)).toBeLessThan(0.01);
      expect(Math.abs(z)).toBeLessThan(0.01);
    }
  });
});
