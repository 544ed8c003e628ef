/**
 * Issue 17: every package and app keeps one `src/index.ts` front door that names what it exports — no
 * `export * from` (a namespace re-export, `export * as name from`, is a named export and allowed).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const doors = ['packages', 'apps'].flatMap((dir) =>
  readdirSync(join(root, dir))
    .map((name) => join(dir, name, 'src', 'index.ts'))
    .filter((file) => existsSync(join(root, file))),
);

describe('front doors', () => {
  it('finds the packages’ front doors', () => {
    expect(doors).toContain(join('packages', 'motion', 'src', 'index.ts'));
    expect(doors).toContain(join('packages', 'quality', 'src', 'index.ts'));
  });

  it.each(doors)('%s names its exports (no export * from)', (file) => {
    const text = readFileSync(join(root, file), 'utf8');
    const bare = text.split('\n').filter((line) => /^\s*export\s+\*\s+from\s/.test(line));
    expect(bare).toEqual([]);
  });
});
