export interface Command {
  summary: string;
  usage: string;
  /** Returns the exit code. Throw UsageError for bad arguments. */
  run(args: string[]): Promise<number>;
}

/** Bad command-line arguments: printed with the command's usage, exit code 2. */
export class UsageError extends Error {}
