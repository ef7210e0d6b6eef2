import type { StepCommit } from '../workspace/types';

export const LATHE_AUTHOR = { name: 'Lathe', email: 'lathe@localhost' } as const;

const TRAILER_VALUE = /[\r\n]+/g;

function oneLine(text: string, max: number): string {
  const flat = text.replace(TRAILER_VALUE, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * `lathe(<taskId>): <title>`, the body, then git trailers so `git log --format=%(trailers)` and
 * `git interpret-trailers` read the run, task, role and attempt back.
 */
export function formatCommitMessage(commit: StepCommit): string {
  const taskId = oneLine(commit.taskId, 32) || 'task';
  const subject = `lathe(${taskId}): ${oneLine(commit.title, 180) || 'step'}`;
  const trailers = [`Lathe-Run: ${oneLine(commit.runId, 64)}`, `Lathe-Task: ${taskId}`, `Lathe-Role: ${oneLine(commit.role, 32)}`];
  if (commit.attempt !== undefined) trailers.push(`Lathe-Attempt: ${Math.max(0, Math.floor(commit.attempt))}`);
  const body = commit.body?.replace(/\r\n/g, '\n').trim().slice(0, 4000);
  return [subject, ...(body ? ['', body] : []), '', ...trailers, ''].join('\n');
}

export interface ParsedCommitMessage {
  subject: string;
  trailers: Record<string, string>;
}

export function parseCommitMessage(message: string): ParsedCommitMessage {
  const lines = message.replace(/\r\n/g, '\n').trimEnd().split('\n');
  const trailers: Record<string, string> = {};
  for (let index = lines.length - 1; index > 0; index--) {
    const match = /^([A-Za-z][A-Za-z0-9-]*): (.*)$/.exec(lines[index] as string);
    if (!match) break;
    trailers[match[1] as string] = match[2] as string;
  }
  return { subject: lines[0] ?? '', trailers };
}
