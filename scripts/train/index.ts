/**
 * `npm run train -- <name> [args...]`: runs `scripts/train/<name>.ts`'s default export (training scripts of
 * the learned parts; each writes its weights into the source tree with a note of data and commit).
 */
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const available = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'index.ts' && f !== 'mlp-train.ts' && f !== 'cmu.ts')
  .map((f) => f.slice(0, -3));
const [name, ...args] = process.argv.slice(2);
if (!name || !available.includes(name)) {
  console.error(`usage: npm run train -- <${available.join('|')}> [args...]`);
  process.exit(name ? 2 : 1);
}
const mod = (await import(`./${name}.ts`)) as { default: (args: string[]) => Promise<void> };
await mod.default(args);
