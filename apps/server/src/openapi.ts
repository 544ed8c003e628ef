/**
 * The OpenAPI document of the API, generated from the zod schemas the routes validate with (`@mocap/contracts`
 * and the slices' schemas) through @fastify/swagger: the app is built on a throw-away SQLite data folder with the
 * production defaults and asked for its document. `npm run openapi` writes it to `docs/openapi.json` (committed);
 * `test/openapi.test.ts` fails when the committed document is stale.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { createInfra, createServices } from './wiring.ts';

export const OPENAPI_PATH = join(import.meta.dirname, '..', '..', '..', 'docs', 'openapi.json');

/** The document as it is committed: pretty JSON with a final newline. */
export async function generateOpenApi(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'mocap-openapi-'));
  try {
    const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', NODE_ENV: 'production' });
    const infra = await createInfra(config);
    try {
      const app = await buildApp({
        config,
        infra,
        services: createServices(infra),
        logger: false,
        webDist: null,
      });
      await app.ready();
      const doc = app.swagger();
      await app.close();
      return `${JSON.stringify(doc, null, 2)}\n`;
    } finally {
      await infra.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) {
  const text = await generateOpenApi();
  writeFileSync(OPENAPI_PATH, text);
  console.log(`wrote ${OPENAPI_PATH} (${text.length} bytes)`);
}
