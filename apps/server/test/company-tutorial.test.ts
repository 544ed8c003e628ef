/**
 * The API tutorial's curl steps (apps/web/src/lib/companyTutorial.ts, shown on the tutorial page) run with bash
 * against a live server with only an API key: info, upload (charged 1 CV per second), status until made, and
 * the download URL of the Mixamo zip, which downloads as a zip. The JavaScript and Python examples run as written,
 * and so does the TypeScript one with the typed client (@mocap/client, through an upload grant), after the
 * compiler checked it against the generated types.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TUTORIAL_JS, TUTORIAL_PY, TUTORIAL_STEPS, TUTORIAL_TS } from '../../web/src/lib/companyTutorial.ts';
import { PUBLIC_API_OPERATIONS } from '../src/modules/company/routes.ts';
import { createVideoStore } from '../src/modules/video/store.ts';
import { databases, useServer } from './harness.ts';
import { markMade, unzip, useFixtures } from './video-helpers.ts';

const run = (cmd: string, env: Record<string, string>) =>
  new Promise<string>((resolve, reject) =>
    execFile('bash', ['-c', cmd], { env: { ...process.env, ...env } }, (err, stdout, stderr) =>
      err ? reject(new Error(`${cmd}\n${stderr}`)) : resolve(stdout),
    ),
  );

const fx = useFixtures();

describe.each(databases)('API tutorial on %s', (kind) => {
  const t = useServer(kind, { env: { CAPTURE_MODEL: 'lite' } });
  let base = '';
  let key = '';
  let id = 0;
  let coId = 0;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/product`;
    const co = await t.register(`tut-${kind}@example.com`, { company: true });
    coId = co.id;
    await t.services.coins.change(co.id, 50, 'admin', `tut-${kind}`, { currency: 'CV' });
    const k = await t.call<{ key: string }>('POST', '/product/company/apiKeys', {
      token: co.token,
      body: { name: 'tutorial' },
    });
    key = k.data.key;
  });

  it('every curl step works as written', async () => {
    expect(TUTORIAL_STEPS.map((s) => s.key)).toEqual(['co.tut.s1', 'co.tut.s2', 'co.tut.s3', 'co.tut.s4']);
    const env = () => ({ BASE: base, KEY: key, VIDEO: fx.synthetic(11, 4), ID: String(id) });
    const info = JSON.parse(await run(TUTORIAL_STEPS[0]!.curl, env()));
    expect(info.code).toBe(0);
    expect(info.data.company.cvCoin).toBe(50);

    const up = JSON.parse(await run(TUTORIAL_STEPS[1]!.curl, env()));
    expect(up.code, up.message).toBe(0);
    id = up.data.id;
    expect(await t.services.coins.balance((info.data.user as { id: number }).id, 'CV')).toBe(46);

    const waiting = JSON.parse(await run(TUTORIAL_STEPS[2]!.curl, env()));
    expect(waiting.data.id).toBe(id);
    expect(waiting.data.status).toBe(0);
    await markMade(t.infra, t.services, id, ['Mixamo']);
    const made = JSON.parse(await run(TUTORIAL_STEPS[2]!.curl, env()));
    expect(made.data.status).toBe(2);

    const dl = JSON.parse(await run(TUTORIAL_STEPS[3]!.curl, env()));
    expect(dl.code, dl.message).toBe(0);
    // the signed URL names PUBLIC_URL's host; this server listens on a random port
    expect(dl.data.paths.length).toBeGreaterThan(0);
    const signed = new URL(dl.data.paths[0], base);
    const url = new URL(signed.pathname + signed.search, base).toString();
    const res = await fetch(url);
    const zip = new Uint8Array(await res.arrayBuffer());
    expect(res.status, `${url} ${Buffer.from(zip).toString().slice(0, 200)}`).toBe(200);
    const entries = unzip(zip);
    expect([...entries.keys()].some((n) => n.toLowerCase().endsWith('.fbx'))).toBe(true);
  });

  it('the public API has its own OpenAPI document: every operation a key calls, no administrator route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/product/company/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { info: { title: string }; paths: Record<string, Record<string, unknown>> };
    expect(doc.info.title).toBe('mocap public API');
    for (const [method, path] of PUBLIC_API_OPERATIONS)
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeTruthy();
    // the tutorial's calls are all documented
    for (const s of TUTORIAL_STEPS) {
      const m = /\$BASE(\/[^"]+)"/.exec(s.curl);
      const path = `/product${m![1]!.replace('$ID', '{id}').replace('/video/{id}/Mixamo', '/{bodyType}/{id}/{boneType}')}`;
      expect(Object.keys(doc.paths), path).toContain(path);
    }
    expect(
      Object.keys(doc.paths).some((p) => /\/(user\/search|admin|sysConfig|company\/search)/.test(p)),
    ).toBe(false);
  });

  // The TypeScript example imports @mocap/client: it is written inside the repository (an ignored .cache folder)
  // so that the workspace package resolves, type-checked with the repository's compiler, then run with tsx.
  const ROOT = join(import.meta.dirname, '..', '..', '..');
  const tsDir = join(ROOT, '.cache', `tutorial-${process.pid}`);
  const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);
  afterAll(() => rmSync(tsDir, { recursive: true, force: true }));
  const TSC_FLAGS =
    '--noEmit --strict --target es2022 --module esnext --moduleResolution bundler --allowImportingTsExtensions --skipLibCheck --types node';

  for (const [lang, file, code, cmd] of [
    ['JavaScript', 'flow.mjs', TUTORIAL_JS, 'node'],
    ['Python', 'flow.py', TUTORIAL_PY, 'python3'],
    ['TypeScript', 'flow.ts', TUTORIAL_TS, bin('tsx')],
  ] as const)
    it(`the ${lang} example runs as written: upload, wait until made, a download URL of a zip`, async () => {
      const dir = lang === 'TypeScript' ? tsDir : fx.dir;
      mkdirSync(dir, { recursive: true });
      const script = join(dir, file);
      writeFileSync(script, code);
      if (lang === 'TypeScript') await run(`${bin('tsc')} ${TSC_FLAGS} ${script}`, {});
      const co = { id: coId };
      const before = await t.services.coins.balance(co.id, 'CV');
      const ran = run(`${cmd} ${script}`, {
        BASE: base,
        KEY: key,
        VIDEO: fx.synthetic(lang === 'Python' ? 31 : lang === 'TypeScript' ? 33 : 32, 2),
      });
      // the capture: marked made once the script's upload exists
      const videos = createVideoStore(t.infra.database).repos.videos;
      let newest = 0;
      for (let i = 0; i < 200 && !newest; i++) {
        const page = await videos.list({ userId: co.id, page: 1, size: 1 });
        const v = page.list[0];
        if (v && v.id !== id && v.status === 0) newest = v.id;
        else await new Promise((r) => setTimeout(r, 100));
      }
      expect(newest).toBeGreaterThan(0);
      id = newest;
      await markMade(t.infra, t.services, newest, ['Mixamo']);
      const out = (await ran).trim();
      expect(before - (await t.services.coins.balance(co.id, 'CV'))).toBe(2);
      const signed = new URL(out, base);
      const res = await fetch(new URL(signed.pathname + signed.search, base));
      expect(res.status).toBe(200);
      const entries = unzip(new Uint8Array(await res.arrayBuffer()));
      expect([...entries.keys()].some((n) => n.toLowerCase().endsWith('.fbx'))).toBe(true);
    }, 60_000);
});
