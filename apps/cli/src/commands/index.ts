import { convert } from './convert.ts';
import { dance } from './dance.ts';
import { track } from './track.ts';
import type { Command } from './types.ts';

/** Every CLI command, by name. Add a command: one file in this folder and one line here. */
export const commands: Record<string, Command> = {
  track,
  convert,
  dance,
};
