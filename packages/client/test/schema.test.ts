/**
 * The committed src/schema.ts is what openapi-typescript makes of the committed docs/public-api.json (itself kept
 * fresh by apps/server/test/openapi.test.ts): a public-API change without `npm run openapi` and
 * `npm run generate -w @mocap/client` fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateSchema, PUBLIC_API_PATH, SCHEMA_PATH } from '../scripts/generate.ts';

describe('@mocap/client types', () => {
  it('src/schema.ts is generated from docs/public-api.json (regenerate: npm run generate -w @mocap/client)', async () => {
    const doc = readFileSync(PUBLIC_API_PATH, 'utf8');
    const generated = await generateSchema(doc);
    // every operation of the document is typed
    const ops = Object.entries(JSON.parse(doc).paths as Record<string, Record<string, unknown>>);
    expect(ops.length).toBeGreaterThan(10);
    for (const [path, methods] of ops) {
      expect(generated, path).toContain(`"${path}": {`);
      for (const m of Object.keys(methods)) expect(generated).toMatch(new RegExp(`\\n {8}${m}: \\{`));
    }
    expect(
      readFileSync(SCHEMA_PATH, 'utf8') === generated,
      'packages/client/src/schema.ts is stale: run `npm run generate -w @mocap/client` and commit it',
    ).toBe(true);
  });
});
