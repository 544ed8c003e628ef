import { commands } from './commands/index.ts';
import { UsageError } from './commands/types.ts';

const HELP = `mocap — video to 3D motion capture

Usage: mocap <command> [options]

Commands:
${Object.entries(commands)
  .map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`)
  .join('\n')}

Run \`mocap <command> --help\` for a command's options.`;

/** Runs the CLI; returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${HELP}\n`);
    return name ? 0 : 1;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`mocap: unknown command '${name}'\n\n${HELP}\n`);
    return 2;
  }
  try {
    if (rest.includes('--help') || rest.includes('-h')) {
      process.stdout.write(`${command.usage}\n`);
      return 0;
    }
    return await command.run(rest);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`mocap ${name}: ${message}\n`);
    if (err instanceof UsageError) process.stderr.write(`\n${command.usage}\n`);
    return err instanceof UsageError ? 2 : 1;
  }
}
