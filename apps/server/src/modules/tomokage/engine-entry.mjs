// Worker-thread entry of the character engine: registers tsx's TypeScript loader in this thread, then serves.
import { register } from 'tsx/esm/api';

register();
await import('./engine-thread.ts');
