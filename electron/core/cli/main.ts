import { createInterface } from 'node:readline';
import { LatheError } from '../../../shared/errors';
import { PREFLIGHT_FAILED, preflightProblemsOf } from '../../../shared/schemas/preflight';
import { UsageError, type CliIo, type Command } from './command';
import { ExitCode } from './exitCodes';
/**
 * Each command's module is loaded only when it runs: `lathe --help` and a replay run never load the
 * model runtime or the commands they do not use (see docs/cli.md, "start time").
 */
interface CommandEntry {
  name: string;
  summary: string;
  load: () => Promise<Command>;
}

export const commands: CommandEntry[] = [
  {
    name: 'run',
    summary: 'run a goal against a repository',
    load: async () => (await import('./commands/run')).runCommand,
  },
  {
    name: 'serve',
    summary: 'serve the Lathe window to a local browser',
    load: async () => (await import('./commands/serve')).serveCommand,
  },
  {
    name: 'models',
    summary: 'list the GGUF models Lathe can use',
    load: async () => (await import('./commands/models')).modelsCommand,
  },
  {
    name: 'runs',
    summary: 'list the runs recorded in a repository',
    load: async () => (await import('./commands/runs')).runsCommand,
  },
  { name: 'undo', summary: 'undo a run', load: async () => (await import('./commands/undo')).undoCommand },
  {
    name: 'diff',
    summary: "print a run's diff against its base (the commit it started at)",
    load: async () => (await import('./commands/diff')).diffCommand,
  },
  {
    name: 'merge',
    summary: 'merge a complete run into the branch it started from (fast-forward)',
    load: async () => (await import('./commands/merge')).mergeCommand,
  },
  {
    name: 'prune',
    summary: "remove finished runs' branches, worktrees and artifacts",
    load: async () => (await import('./commands/prune')).pruneCommand,
  },
  {
    name: 'demo',
    summary: 'run the bundled example goal headless (replay model unless --model)',
    load: async () => (await import('./commands/demo')).demoCommand,
  },
  {
    name: 'doctor',
    summary: 'check this machine for what Lathe needs (llama.cpp, memory, models, git, sandbox, tests)',
    load: async () => (await import('./commands/doctor')).doctorCommand,
  },
  {
    name: 'eval',
    summary: 'measure a model and workflow on the task suite (hidden acceptance tests)',
    load: async () => (await import('./commands/eval')).evalCommand,
  },
];

function overview(): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    'Usage: lathe <command> [options]',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    "Run `lathe <command> --help` for a command's options.",
    'Exit codes: 0 done, 1 goal not met (or a merge the repository refused), 2 git or infrastructure error, 64 usage error.',
  ].join('\n');
}

/** What the user asked for is wrong (exit 64), as opposed to the machine or repository failing (exit 2). */
const USAGE_ERROR_CODES = new Set([
  'BAD_CONFIG',
  'UNKNOWN_WORKFLOW',
  'GOAL_CHANGED',
  'RUN_NOT_FOUND',
  'CALL_NOT_FOUND',
  'RUN_UNDONE',
  'FOLLOW_UP_REFUSED',
  'NO_MODEL',
  'NOT_A_REPO',
  'BAD_EVAL_SUITE',
  'BAD_EVAL_TASK',
  'BAD_CORPUS',
  PREFLIGHT_FAILED,
]);

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(overview());
    return name === undefined ? ExitCode.usage : ExitCode.success;
  }
  const entry = commands.find((candidate) => candidate.name === name);
  if (!entry) {
    io.err(`lathe: unknown command '${name}'\n\n${overview()}`);
    return ExitCode.usage;
  }
  const command = await entry.load();
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`lathe ${name}: ${error.message}\n\n${command.usage}`);
      return ExitCode.usage;
    }
    const latheError = LatheError.from(error);
    const problems = preflightProblemsOf(latheError);
    if (problems)
      io.err(
        [
          `lathe ${name}: cannot start: nothing was created`,
          ...problems.map((problem) => `  - ${problem.message} [${problem.code}]`),
        ].join('\n'),
      );
    else io.err(`lathe ${name}: ${latheError.message} [${latheError.code}]`);
    return USAGE_ERROR_CODES.has(latheError.code) ? ExitCode.usage : ExitCode.infraError;
  }
}

/** The real process: a live status line only on a terminal; answers (human gates) read line by line from stdin. */
export function processIo(): CliIo {
  let reader: ReturnType<typeof createInterface> | null = null;
  let lines: AsyncIterator<string> | null = null;
  const stdout = quietWhenClosed(process.stdout);
  const stderr = quietWhenClosed(process.stderr);
  return {
    out: (line) => stdout(`${line}\n`),
    err: (line) => stderr(`${line}\n`),
    env: process.env,
    cwd: process.cwd(),
    status: process.stderr.isTTY
      ? (line) => stderr(`\r\x1b[K${line.slice(0, (process.stderr.columns || 80) - 1)}`)
      : undefined,
    ask: async (question) => {
      stdout(question);
      reader ??= createInterface({ input: process.stdin, terminal: false });
      lines ??= reader[Symbol.asyncIterator]();
      const next = await lines.next();
      return next.done ? null : next.value;
    },
    dispose: () => reader?.close(),
  };
}

/**
 * A write that stops quietly once the reader has gone (`lathe runs | head -2`): EPIPE is the reader
 * closing its end, not an error of the command, which finishes (a run keeps its log) with its own code.
 */
export function quietWhenClosed(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
    closed = true;
  });
  return (text) => {
    if (!closed) stream.write(text);
  };
}
