/**
 * `npm run bench -- <name> [args...]`: runs `bench/<name>.ts`'s default export with the remaining arguments.
 * Benchmarks print figures (tables); they are not tests and assert nothing.
 */
import { runNamed } from '../scripts/run-named.ts';

await runNamed(import.meta.url, 'bench');
