/**
 * The entry of `npm run bench` and `npm run train`: runs the default export of `<name>.ts` in the entry's folder
 * with the remaining arguments, `name` one of that folder's scripts (every .ts file but index.ts and `skip`).
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export async function runNamed(entryUrl: string, command: string, skip: string[] = []): Promise<void> {
  const here = dirname(fileURLToPath(entryUrl));
  const available = readdirSync(here)
    .filter((f) => f.endsWith('.ts') && f !== 'index.ts' && !skip.includes(f))
    .map((f) => f.slice(0, -3));
  const [name, ...args] = process.argv.slice(2);
  if (!name || !available.includes(name)) {
    console.error(`usage: npm run ${command} -- <${available.join('|')}> [args...]`);
    process.exit(name ? 2 : 1);
  }
  const mod = (await import(pathToFileURL(join(here, `${name}.ts`)).href)) as {
    default: (args: string[]) => Promise<void>;
  };
  await mod.default(args);
}
