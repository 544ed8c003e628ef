/**
 * The committed OpenAPI document (docs/openapi.json) is the one the app generates from its schemas: a route or
 * schema change without `npm run openapi` fails here (CI).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateOpenApiDocs, OPENAPI_PATH, PUBLIC_API_PATH } from '../src/openapi.ts';

describe('OpenAPI document', () => {
  it('docs/openapi.json is up to date (regenerate with `npm run openapi`)', async () => {
    const { full: generated, publicApi } = await generateOpenApiDocs();
    const committed = readFileSync(OPENAPI_PATH, 'utf8');
    const doc = JSON.parse(generated) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.0.3');
    expect(Object.keys(doc.paths)).toContain('/product/sysConfig/maintainInfo');
    expect(committed === generated, 'docs/openapi.json is stale: run `npm run openapi` and commit it').toBe(
      true,
    );
    // the public API's own document (issue 20), from which packages/client is generated
    const pub = JSON.parse(publicApi) as { info: { title: string }; paths: Record<string, unknown> };
    expect(pub.info.title).toBe('mocap public API');
    expect(Object.keys(pub.paths)).toContain('/product/video/upload');
    expect(Object.keys(pub.paths).some((p) => p.includes('/admin/'))).toBe(false);
    expect(
      readFileSync(PUBLIC_API_PATH, 'utf8') === publicApi,
      'docs/public-api.json is stale: run `npm run openapi` and commit it',
    ).toBe(true);
  });
});
