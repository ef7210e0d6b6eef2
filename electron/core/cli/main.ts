import { LatheError } from '../../../shared/errors';
import { UsageError, notYetAvailable, type CliIo, type Command } from './command';
import { ExitCode } from './exitCodes';
import { serveCommand } from './commands/serve';

const commands: Command[] = [
  notYetAvailable(
    'run',
    'run a goal against a repository',
    'Usage: lathe run --repo DIR --goal TEXT [--workflow NAME] [--model SPEC] ...',
    'it lands with the engine',
  ),
  serveCommand,
  notYetAvailable('models', 'list the GGUF models Lathe can use', 'Usage: lathe models [--dir D] [--json]', 'it lands with local inference'),
  notYetAvailable('runs', 'list the runs recorded in a repository', 'Usage: lathe runs --repo DIR', 'it lands with the engine'),
  notYetAvailable('undo', 'undo a run', 'Usage: lathe undo --repo DIR RUN_ID', 'it lands with the engine'),
  notYetAvailable(
    'demo',
    'run the bundled example goal headless (replay model)',
    'Usage: lathe demo [--model SPEC]\n\nWill copy resources/examples/js-stats into a temp repo and run its goal with a bundled replay transcript.',
    'it lands with the engine',
  ),
];

function overview(): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    'Usage: lathe <command> [options]',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    'Run `lathe <command> --help` for a command\'s options.',
  ].join('\n');
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(overview());
    return name === undefined ? ExitCode.usage : ExitCode.success;
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) {
    io.err(`lathe: unknown command '${name}'\n\n${overview()}`);
    return ExitCode.usage;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`lathe ${name}: ${error.message}\n\n${command.usage}`);
      return ExitCode.usage;
    }
    const latheError = LatheError.from(error);
    io.err(`lathe ${name}: ${latheError.message} [${latheError.code}]`);
    return ExitCode.infraError;
  }
}

export function processIo(): CliIo {
  return {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
    cwd: process.cwd(),
  };
}
