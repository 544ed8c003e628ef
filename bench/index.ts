/**
 * `npm run bench -- <name> [args...]`: runs `bench/<name>.ts`'s default export with the remaining arguments.
 * Benchmarks print figures (tables); they are not tests and assert nothing.
 */
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const available = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
  .map((f) => f.slice(0, -3));
const [name, ...args] = process.argv.slice(2);
if (!name || !available.includes(name)) {
  console.error(`usage: npm run bench -- <${available.join('|')}> [args...]`);
  process.exit(name ? 2 : 1);
}
const mod = (await import(`./${name}.ts`)) as { default: (args: string[]) => Promise<void> };
await mod.default(args);
