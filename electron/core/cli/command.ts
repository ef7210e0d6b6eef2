import { parseArgs, type ParseArgsConfig } from 'node:util';
import { LatheError } from '../../../shared/errors';
import { ExitCode } from './exitCodes';

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(args: string[], io: CliIo): Promise<number>;
}

export type ParsedOptions<T extends NonNullable<ParseArgsConfig['options']>> = ReturnType<
  typeof parseArgs<{ options: T; args: string[]; strict: true; allowPositionals: true }>
>;

/** Strict option parsing: an unknown or malformed flag is a usage error, never ignored. */
export function parseCommandArgs<T extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: T,
): ParsedOptions<T> {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

export class UsageError extends LatheError {
  constructor(message: string) {
    super('USAGE', message);
  }
}

export function wantsHelp(args: string[]): boolean {
  return args.includes('--help') || args.includes('-h');
}

/** A command whose issue has not landed: it says so and exits 64 instead of pretending. */
export function notYetAvailable(name: string, summary: string, usage: string, landsWith: string): Command {
  return {
    name,
    summary,
    usage,
    run: async (args, io) => {
      if (wantsHelp(args)) {
        io.out(usage);
        return ExitCode.success;
      }
      io.err(`lathe ${name}: not available yet (${landsWith}).`);
      return ExitCode.usage;
    },
  };
}
