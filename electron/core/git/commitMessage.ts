import { headline, SUBJECT_MAX } from '../../../shared/headline';
import type { StepCommit } from './types';

export const LATHE_AUTHOR = { name: 'Lathe', email: 'lathe@localhost' } as const;

const TRAILER_VALUE = /[\r\n]+/g;

function oneLine(text: string, max: number): string {
  const flat = text.replace(TRAILER_VALUE, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The goal is bounded by the run preflight (the smallest role window); this only keeps a commit sane. */
const BODY_MAX = 256 * 1024;

/**
 * `lathe(<taskId>): <title>` within git's 72 characters (the title's first line, cut at a word with
 * `…`), the body (the whole title when it was cut, then the goal), then git trailers so
 * `git log --format=%(trailers)` and `git interpret-trailers` read the run, task, role and attempt back.
 */
export function formatCommitMessage(commit: StepCommit): string {
  const taskId = oneLine(commit.taskId, 32) || 'task';
  const prefix = `lathe(${taskId}): `;
  const title = headline(commit.title, SUBJECT_MAX - prefix.length);
  const subject = `${prefix}${title || 'step'}`;
  const trailers = [
    `Lathe-Run: ${oneLine(commit.runId, 64)}`,
    `Lathe-Task: ${taskId}`,
    `Lathe-Role: ${oneLine(commit.role, 32)}`,
  ];
  if (commit.attempt !== undefined) trailers.push(`Lathe-Attempt: ${Math.max(0, Math.floor(commit.attempt))}`);
  // A cut title is kept whole in the body, unless the body already holds it (a goal used as the title).
  const fullTitle =
    title === commit.title.trim() || commit.body?.includes(commit.title.trim()) ? '' : commit.title.trim();
  const body = [fullTitle, commit.body ?? '']
    .map((part) => part.replace(/\r\n?/g, '\n').trim())
    .filter(Boolean)
    .join('\n\n');
  const bounded = body.length > BODY_MAX ? `${body.slice(0, BODY_MAX)}\n…` : body;
  return [subject, ...(bounded ? ['', bounded] : []), '', ...trailers, ''].join('\n');
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
