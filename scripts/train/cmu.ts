/**
 * The CMU motion-capture trials the training scripts may use (the CMU licence allows shipping weights
 * trained on them): `../shared/testdata/bvh/cmu` and `bvh/cmu_more`, one file per trial (the same trial id
 * NN_MM appears in both folders as different conversions; the first found is used), the quality bench's
 * trials (`HELD_OUT`) never.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bvh } from '../../packages/motion/src/index.ts';

type BvhDocument = bvh.BvhDocument;

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(here, '..', '..');
export const DATA = join(ROOT, '..', 'shared', 'testdata', 'bvh');
/** The CMU trials the quality bench renders: never trained on. */
export const HELD_OUT = new Set(['1_1', '2_4', '2_6', '5_3']);

function listBvh(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...listBvh(p));
    else if (e.endsWith('.bvh')) out.push(p);
  }
  return out;
}

/** CMU trial id from a file name (`cmu_002_04.bvh`, `02_04.bvh`, `131_03.bvh` → `2_4`, `131_3`). */
export function trialId(file: string): string | null {
  const m = /(\d+)_(\d+)\.bvh$/.exec(file);
  return m ? `${Number(m[1])}_${Number(m[2])}` : null;
}

export interface CmuTrial {
  id: string;
  /** Path relative to `DATA`. */
  file: string;
  doc: BvhDocument;
}

/**
 * Every usable trial once, in file order: `load` turns a trial into what the script needs, or null when it
 * cannot use that file (another conversion of the same trial is then tried). Held-out trials and unreadable
 * files are left out.
 */
export function cmuTrials<T>(load: (trial: CmuTrial) => T | null): T[] {
  const files = [...listBvh(join(DATA, 'cmu')), ...listBvh(join(DATA, 'cmu_more'))];
  const seen = new Set<string>();
  const out: T[] = [];
  for (const file of files) {
    const id = trialId(file);
    if (!id || seen.has(id) || HELD_OUT.has(id)) continue;
    let doc: BvhDocument;
    try {
      doc = bvh.read(readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    const item = load({ id, file: file.slice(DATA.length + 1), doc });
    if (item === null) continue;
    seen.add(id);
    out.push(item);
  }
  return out;
}
