export type { Command } from './commands/types.ts';
export { main } from './main.ts';
export { formatDuration, ProgressBar } from './progress.ts';
