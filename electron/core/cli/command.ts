import { parseArgs, type ParseArgsConfig } from 'node:util';
import { LatheError } from '../../../shared/errors';

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Present when stderr is a terminal: a live status line can be redrawn there. */
  status?: (line: string) => void;
  /** Reads one line of the user's answer (human gates); absent when nobody can answer. */
  ask?: (question: string) => Promise<string | null>;
  /** Releases what the io holds open (stdin), so the process can exit. */
  dispose?: () => void;
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
