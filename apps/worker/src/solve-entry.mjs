// Worker-thread entry: registers tsx's TypeScript loader in this thread, then runs the solve/export thread.
import { register } from 'tsx/esm/api';

register();
await import('./solve-thread.ts');
