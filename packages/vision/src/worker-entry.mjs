// Worker-thread entry: registers tsx's TypeScript loader in this thread, then runs the worker.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
