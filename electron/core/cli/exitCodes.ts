/** Exit codes of every `lathe` command (documented in docs/cli.md). */
export const ExitCode = {
  success: 0,
  goalNotMet: 1,
  infraError: 2,
  usage: 64,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
