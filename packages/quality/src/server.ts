/**
 * A tiny loopback HTTP server for the render page: serves the page (`page/`), three.js from node_modules
 * (`/three/`), read-only test data (`/data/`, from the test-data folder in place: never copied) and receives
 * rendered frames (`POST /frame/<i>`, raw RGB bytes) which it hands to a callback before answering, so the
 * page waits for the encoder (back-pressure).
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const PAGE_DIR = resolve(here, '..', 'page');
const require = createRequire(import.meta.url);
/** three's package folder (its main entry is `build/three.cjs`). */
export const THREE_DIR = resolve(dirname(require.resolve('three')), '..');

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.glb': 'model/gltf-binary',
  '.fbx': 'application/octet-stream',
  '.bvh': 'text/plain; charset=utf-8',
  '.png': 'image/png',
};

export interface RenderServer {
  url: string;
  /** Called with each posted frame; the page's request completes when the returned promise does. */
  onFrame: ((index: number, data: Buffer) => Promise<void>) | null;
  close(): Promise<void>;
}

/** Resolves `rel` inside `root`; null when it escapes the root or does not exist. */
function inside(root: string, rel: string): string | null {
  const p = normalize(join(root, decodeURIComponent(rel)));
  if (p !== root && !p.startsWith(root + sep)) return null;
  return existsSync(p) && statSync(p).isFile() ? p : null;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((ok, fail) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => ok(Buffer.concat(parts)));
    req.on('error', fail);
  });
}

export async function startRenderServer(dataRoot: string): Promise<RenderServer> {
  const roots: Record<string, string> = { page: PAGE_DIR, three: THREE_DIR, data: resolve(dataRoot) };
  const state: RenderServer = { url: '', onFrame: null, close: async () => {} };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const frame = /^\/frame\/(\d+)$/.exec(url.pathname);
    if (req.method === 'POST' && frame) {
      readBody(req)
        .then((body) => (state.onFrame ? state.onFrame(Number(frame[1]), body) : undefined))
        .then(() => {
          res.writeHead(204);
          res.end();
        })
        .catch((e: Error) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(e.message);
        });
      return;
    }
    const m = /^\/(page|three|data)\/(.+)$/.exec(url.pathname);
    const file = m ? inside(roots[m[1]], m[2]) : null;
    if (req.method !== 'GET' || !file) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end(`not found: ${url.pathname}`);
      return;
    }
    res.writeHead(200, {
      'content-type': MIME[extname(file).toLowerCase()] ?? 'application/octet-stream',
      'cache-control': 'no-store',
    });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    });
  return state;
}
