/**
 * Generates src/schema.ts — the types of every operation of the public API — from docs/public-api.json (written
 * by `npm run openapi` with docs/openapi.json) through openapi-typescript. `npm run generate -w @mocap/client`;
 * test/schema.test.ts fails when the committed src/schema.ts is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';

const ROOT = join(import.meta.dirname, '..', '..', '..');
export const PUBLIC_API_PATH = join(ROOT, 'docs', 'public-api.json');
export const SCHEMA_PATH = join(import.meta.dirname, '..', 'src', 'schema.ts');

const HEADER = `/**
 * The public API's operations as TypeScript types. GENERATED from docs/public-api.json by
 * packages/client/scripts/generate.ts (openapi-typescript): do not edit; run \`npm run generate -w @mocap/client\`.
 */
/* biome-ignore-all format: generated */
/* biome-ignore-all lint: generated */
`;

/** The text of src/schema.ts for an OpenAPI document (JSON text). */
export async function generateSchema(documentJson: string): Promise<string> {
  const ast = await openapiTS(JSON.parse(documentJson), { silent: true, alphabetize: true });
  return `${HEADER}\n${astToString(ast)}`;
}

if (process.argv[1] === import.meta.filename) {
  const text = await generateSchema(readFileSync(PUBLIC_API_PATH, 'utf8'));
  writeFileSync(SCHEMA_PATH, text);
  console.log(`wrote ${SCHEMA_PATH} (${text.length} bytes)`);
}
