/**
 * Locating the ffmpeg / ffprobe binaries and running them with a hard time limit.
 *
 * Resolution order for each binary:
 * 1. the `FFMPEG_PATH` / `FFPROBE_PATH` environment variable, when set;
 * 2. `ffmpeg` / `ffprobe` found on `PATH` (the system's, e.g. Debian's apt package);
 * 3. the static binary shipped in `@ffmpeg-installer/ffmpeg` / `@ffprobe-installer/ffprobe`. npm may not
 *    have run their postinstall `chmod u+x`, so the binary is made executable at first use if needed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, chmodSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const EXE = process.platform === 'win32' ? '.exe' : '';

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `name` on `PATH`, if any. */
export function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name + EXE);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Makes `file` executable by its owner (and group/others when they can read it) if it is not already, as
 * the installer packages' skipped postinstall would have. Returns `file`.
 */
export function ensureExecutable(file: string, pkg = path.basename(file)): string {
  if (isExecutableFile(file)) return file;
  try {
    const mode = statSync(file).mode;
    // u+x, and g+x / o+x where g/o may read (what `chmod +x` would do under a typical umask).
    chmodSync(file, mode | 0o100 | ((mode & 0o040) >> 2) | ((mode & 0o004) >> 2));
  } catch (err) {
    throw new Error(
      `${path.basename(file)} from ${pkg} (${file}) is not executable and could not be made executable: ` +
        `${(err as Error).message}. Install ffmpeg on PATH (e.g. apt-get install ffmpeg) or set ` +
        `${pkg.includes('ffprobe') ? 'FFPROBE_PATH' : 'FFMPEG_PATH'}.`,
    );
  }
  return file;
}

function installerBinary(pkg: '@ffmpeg-installer/ffmpeg' | '@ffprobe-installer/ffprobe'): string | undefined {
  try {
    const mod = require(pkg) as { path?: unknown };
    return typeof mod.path === 'string' ? mod.path : undefined;
  } catch {
    // Not installed, or no binary for this platform (the packages throw a string in that case).
    return undefined;
  }
}

function resolveBinary(
  name: 'ffmpeg' | 'ffprobe',
  envVar: 'FFMPEG_PATH' | 'FFPROBE_PATH',
  pkg: '@ffmpeg-installer/ffmpeg' | '@ffprobe-installer/ffprobe',
): string {
  const override = process.env[envVar];
  if (override) {
    if (!isExecutableFile(override)) {
      throw new Error(`${envVar} is set to ${override}, which is not an executable file.`);
    }
    return override;
  }
  const onPath = findOnPath(name);
  if (onPath) return onPath;
  const shipped = installerBinary(pkg);
  if (shipped) return ensureExecutable(shipped, pkg);
  throw new Error(
    `${name} was not found: it is not on PATH, ${envVar} is not set and ${pkg} has no binary for ` +
      `${process.platform}-${process.arch}. Install ffmpeg (e.g. apt-get install ffmpeg).`,
  );
}

/** Path of the ffmpeg binary to use (`FFMPEG_PATH`, else `PATH`, else `@ffmpeg-installer/ffmpeg`). */
export function ffmpegPath(): string {
  return resolveBinary('ffmpeg', 'FFMPEG_PATH', '@ffmpeg-installer/ffmpeg');
}

/** Path of the ffprobe binary to use (`FFPROBE_PATH`, else `PATH`, else `@ffprobe-installer/ffprobe`). */
export function ffprobePath(): string {
  return resolveBinary('ffprobe', 'FFPROBE_PATH', '@ffprobe-installer/ffprobe');
}

export interface RunOptions {
  /** Kill the child (SIGKILL) after this many milliseconds. Default 60 s. */
  timeoutMs?: number;
  /** Kill the child when aborted; `run` then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Kill the child and reject when stdout grows beyond this many bytes. Default 512 MiB. */
  maxStdoutBytes?: number;
}

export interface RunResult {
  /** Exit code, or null when the child was killed by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  /** The last 64 KiB of stderr. */
  stderr: string;
  /** True when the child was killed because `timeoutMs` elapsed. */
  timedOut: boolean;
  pid: number | undefined;
}

/** Keeps the last `limit` bytes of a stream's text. */
export class TailBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  constructor(private readonly limit = 64 * 1024) {}
  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size - this.chunks[0]!.length >= this.limit) this.size -= this.chunks.shift()!.length;
  }
  toString(): string {
    const all = Buffer.concat(this.chunks);
    return all.subarray(Math.max(0, all.length - this.limit)).toString('utf8');
  }
}

/**
 * Resolves once `child` has exited and its stdio streams are closed. If the streams are still open a
 * second after exit (a grandchild holding the pipe), they are destroyed so this always settles.
 */
export function waitForExit(
  child: ChildProcess,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      if (!child.stdout?.readableEnded && !child.stdout?.destroyed) child.stdout?.destroy();
      if (!child.stderr?.readableEnded && !child.stderr?.destroyed) child.stderr?.destroy();
    }
    let settled = false;
    const done = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(grace);
      resolve({ code, signal });
    };
    let grace: NodeJS.Timeout | undefined;
    child.once('close', (code, signal) => done(code, signal));
    child.once('error', () => done(child.exitCode, child.signalCode));
    child.once('exit', (code, signal) => {
      grace = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        child.stdin?.destroy();
        done(code, signal);
      }, 1000);
      grace.unref();
    });
    // Already fully closed before we subscribed.
    if ((child.exitCode !== null || child.signalCode !== null) && isClosed(child)) {
      done(child.exitCode, child.signalCode);
    }
  });
}

function isClosed(child: ChildProcess): boolean {
  return [child.stdout, child.stderr].every((s) => !s || s.destroyed || s.readableEnded);
}

/** True while the child process has not exited. */
export function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null && child.pid !== undefined;
}

/**
 * Runs `cmd args`, collects stdout (Buffer) and the tail of stderr, and always terminates: the child is
 * killed with SIGKILL when `timeoutMs` elapses (resolves with `timedOut: true`) or when `signal` aborts
 * (rejects with the abort reason). Rejects when the command cannot be started. Non-zero exit codes resolve
 * normally: check `code`.
 */
export function run(cmd: string, args: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const maxStdout = opts.maxStdoutBytes ?? 512 * 1024 * 1024;
  opts.signal?.throwIfAborted();
  return new Promise<RunResult>((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    const out: Buffer[] = [];
    let outSize = 0;
    const err = new TailBuffer();
    let timedOut = false;
    let failure: unknown;
    const kill = () => {
      if (isRunning(child)) child.kill('SIGKILL');
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutMs);
    const onAbort = () => {
      failure ??= opts.signal?.reason ?? new DOMException('The operation was aborted', 'AbortError');
      kill();
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      outSize += chunk.length;
      if (outSize > maxStdout) {
        failure ??= new Error(`${path.basename(cmd)} produced more than ${maxStdout} bytes of output`);
        kill();
        return;
      }
      out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.once('error', (e) => {
      failure ??= new Error(`could not run ${cmd}: ${e.message}`, { cause: e });
    });
    waitForExit(child).then(({ code, signal }) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (failure !== undefined) {
        reject(failure);
        return;
      }
      resolve({ code, signal, stdout: Buffer.concat(out), stderr: err.toString(), timedOut, pid: child.pid });
    });
  });
}

export interface FfmpegCapabilities {
  /** `-fps_mode` exists (ffmpeg >= 5.1); otherwise the older `-vsync` must be used. */
  fpsMode: boolean;
  /** `-display_rotation` exists (ffmpeg >= 6.0). */
  displayRotation: boolean;
}

const capabilityCache = new Map<string, Promise<FfmpegCapabilities>>();

/** Options supported by the ffmpeg binary at `bin` (cached per binary). */
export function ffmpegCapabilities(bin = ffmpegPath()): Promise<FfmpegCapabilities> {
  let cached = capabilityCache.get(bin);
  if (!cached) {
    cached = run(bin, ['-hide_banner', '-h', 'long'], { timeoutMs: 15_000 }).then(
      (r) => {
        const help = r.stdout.toString('utf8') + r.stderr;
        return { fpsMode: /^-fps_mode\b/m.test(help), displayRotation: /^-display_rotation\b/m.test(help) };
      },
      () => ({ fpsMode: false, displayRotation: false }),
    );
    capabilityCache.set(bin, cached);
  }
  return cached;
}

/** Output options that make ffmpeg pass every decoded frame through unchanged (no dup/drop on VFR). */
export async function passthroughSyncArgs(bin = ffmpegPath()): Promise<string[]> {
  return (await ffmpegCapabilities(bin)).fpsMode ? ['-fps_mode', 'passthrough'] : ['-vsync', 'passthrough'];
}

/**
 * The most useful line of ffmpeg/ffprobe stderr for a human: the last non-empty one, with the
 * `[demuxer @ 0x...]` prefix and any directory part of `filePath` removed.
 */
export function summarizeStderr(stderr: string, filePath?: string): string {
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => l.replace(/^\[[^\]]*@ ?0x[0-9a-f]+\]\s*/i, '').trim())
    .filter((l) => l.length > 0);
  let last = lines.at(-1) ?? '';
  if (filePath) {
    const abs = path.resolve(filePath);
    const base = path.basename(filePath);
    for (const p of [`file:${abs}`, abs, filePath]) last = last.split(p).join(base);
  }
  return last.length > 300 ? `${last.slice(0, 297)}...` : last;
}
