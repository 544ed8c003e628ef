/**
 * The OpenAPI document of the API, generated from the zod schemas the routes validate with (`@mocap/contracts`
 * and the slices' schemas) through @fastify/swagger: the app is built on a throw-away SQLite data folder with the
 * production defaults and asked for its document. `npm run openapi` writes it to `docs/openapi.json` (committed),
 * and the public API's own document (what an API key may call, issue 20) to `docs/public-api.json`, from which
 * the same npm script regenerates the typed client (packages/client/src/schema.ts); `test/openapi.test.ts` fails
 * when either committed document is stale, packages/client/test/schema.test.ts when the client is.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { publicApiDocument } from './modules/company/public-api.ts';
import { createInfra, createServices } from './wiring.ts';

export const OPENAPI_PATH = join(import.meta.dirname, '..', '..', '..', 'docs', 'openapi.json');
export const PUBLIC_API_PATH = join(import.meta.dirname, '..', '..', '..', 'docs', 'public-api.json');

const committed = (doc: unknown) => `${JSON.stringify(doc, null, 2)}\n`;

/** The full document and the public API's, as they are committed: pretty JSON with a final newline. */
export async function generateOpenApiDocs(): Promise<{ full: string; publicApi: string }> {
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
      return { full: committed(doc), publicApi: committed(publicApiDocument(doc)) };
    } finally {
      await infra.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The full document as it is committed. */
export const generateOpenApi = async (): Promise<string> => (await generateOpenApiDocs()).full;

if (process.argv[1] === import.meta.filename) {
  const { full, publicApi } = await generateOpenApiDocs();
  writeFileSync(OPENAPI_PATH, full);
  writeFileSync(PUBLIC_API_PATH, publicApi);
  console.log(`wrote ${OPENAPI_PATH} (${full.length} bytes), ${PUBLIC_API_PATH} (${publicApi.length} bytes)`);
}
