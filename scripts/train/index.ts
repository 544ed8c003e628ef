/**
 * `npm run train -- <name> [args...]`: runs `scripts/train/<name>.ts`'s default export (training scripts of
 * the learned parts; each writes its weights into the source tree with a note of data and commit).
 */
import { runNamed } from '../run-named.ts';

await runNamed(import.meta.url, 'train', ['mlp-train.ts', 'cmu.ts']);
