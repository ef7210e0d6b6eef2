import path from 'node:path';
import crypto from 'node:crypto';
import { LatheError } from '../../../shared/errors';
import type { ShellResult } from './types';
import { runProcess } from '../basics/processTree';

/** An allowed command: an argv prefix (`['npm', 'test']` allows `npm test --silent`, not `npm publish`). */
export type ShellAllowRule = readonly string[];

/** Seed 001's ShellTool whitelist. */
export const DEFAULT_SHELL_ALLOWLIST: readonly ShellAllowRule[] = [
  ['pytest'],
  ['npm', 'test'],
  ['git'],
  ['pip'],
  ['npm'],
  ['make'],
];

export type ShellCheck = { allowed: true; rule: ShellAllowRule } | { allowed: false; reason: string; command: string };

/** Options git would use to run another program; refused even though `git` is allowed. */
const GIT_EXEC_OPTIONS = /^(-c|--config-env|--exec-path|--upload-pack|--receive-pack|--exec|-x|--extcmd|--tool)(=|$)/;
/** Subcommands that run arbitrary commands by design. */
const GIT_EXEC_SUBCOMMANDS = new Set([
  'filter-branch',
  'difftool',
  'mergetool',
  'submodule',
  'bisect',
  'daemon',
  'instaweb',
  'credential',
]);
const GIT_CONFIG_READS = new Set(['--get', '--get-all', '--get-regexp', '--list', '-l']);

/** Why a git argv could run another program (or set one up for later), or null. */
function gitExecRisk(argv: readonly string[]): string | null {
  const args = argv.slice(1);
  if (args.some((arg) => GIT_EXEC_OPTIONS.test(arg)))
    return 'git options that run other programs (-c, --exec-path, --upload-pack, --exec, …) are not allowed';
  const subcommand = args.find((arg) => !arg.startsWith('-'));
  if (subcommand && GIT_EXEC_SUBCOMMANDS.has(subcommand)) return `git ${subcommand} can run arbitrary commands`;
  if (subcommand && ['clone', 'fetch', 'pull', 'ls-remote', 'archive'].includes(subcommand) && args.includes('-u'))
    return 'git -u (upload-pack) runs another program';
  if (subcommand === 'config' && !args.some((arg) => GIT_CONFIG_READS.has(arg)))
    return 'git config may only be read (it can set aliases, hooks and pagers)';
  return null;
}

/** Checks argv (never a shell string) against the allowlist. */
export function checkShellCommand(
  argv: readonly string[],
  allowlist: readonly ShellAllowRule[] = DEFAULT_SHELL_ALLOWLIST,
): ShellCheck {
  const command = argv.join(' ').slice(0, 300);
  if (!Array.isArray(argv) || argv.length === 0 || argv.some((arg) => typeof arg !== 'string')) {
    return { allowed: false, reason: 'argv must be a non-empty list of strings', command };
  }
  if (argv.some((arg) => arg.includes('\0'))) return { allowed: false, reason: 'NUL byte in an argument', command };
  const program = argv[0] as string;
  // `./git` or `/tmp/x/pytest` would run whatever file has that name, not the allowed tool.
  if (program.includes('/') || program.includes('\\')) {
    const exact = allowlist.find((rule) => rule[0] === program && startsWith(argv, rule));
    if (!exact)
      return { allowed: false, reason: `${program} is a path; allowed commands are named, not located`, command };
  }
  const gitRisk = program === 'git' ? gitExecRisk(argv) : null;
  if (gitRisk) return { allowed: false, reason: gitRisk, command };
  const rule = allowlist.find((candidate) => candidate.length > 0 && startsWith(argv, candidate));
  if (!rule)
    return {
      allowed: false,
      reason: `${path.basename(program)} is not in the allowlist (${allowlist.map((entry) => entry.join(' ')).join(', ')})`,
      command,
    };
  return { allowed: true, rule };
}

function startsWith(argv: readonly string[], rule: ShellAllowRule): boolean {
  return rule.every((word, index) => argv[index] === word);
}

export interface ShellOptions {
  cwd: string;
  timeoutMs: number;
  allowlist?: readonly ShellAllowRule[];
  env?: Record<string, string>;
  outputCapBytes?: number;
  signal?: AbortSignal;
}

/** Runs an allowed command without a shell; anything else is rejected with COMMAND_NOT_ALLOWED naming it. */
export async function runShellCommand(argv: string[], options: ShellOptions): Promise<ShellResult> {
  const check = checkShellCommand(argv, options.allowlist ?? DEFAULT_SHELL_ALLOWLIST);
  if (!check.allowed) {
    throw new LatheError('COMMAND_NOT_ALLOWED', `command not allowed: ${check.command} (${check.reason})`, {
      argv: argv.slice(0, 50),
      command: check.command,
      reason: check.reason,
    });
  }
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  Object.assign(env, { GIT_TERMINAL_PROMPT: '0', CI: 'true', NO_COLOR: '1' }, options.env);
  const result = await runProcess({
    argv,
    cwd: options.cwd,
    env,
    timeoutMs: options.timeoutMs,
    capBytes: options.outputCapBytes ?? 256 * 1024,
    logFile: null,
    logCapBytes: 0,
    marker: `shell-${crypto.randomBytes(6).toString('hex')}`,
    signal: options.signal,
  });
  if (result.spawnError) {
    return {
      argv,
      exitCode: null,
      output: `could not start ${argv[0]}: ${result.spawnError}`,
      timedOut: false,
      durationMs: result.durationMs,
    };
  }
  return {
    argv,
    exitCode: result.exitCode,
    output: result.output,
    timedOut: result.timedOut,
    durationMs: result.durationMs,
  };
}
