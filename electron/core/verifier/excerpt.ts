import type { VerifyStatus } from './types';
import { repoFrames } from './parsers/frames';
import { stripAnsi, type TestOutcome } from './parsers/outcome';
import { TEXT_RUNNERS } from './summaryLines';

/**
 * What a model is shown of a test run (outside seed 000's Tester report and seed 004's Editor):
 * at most this many characters, about a thousand tokens, so a small local model keeps room to think.
 */
export const FAILURE_EXCERPT_CHARS = 4000;

export interface ExcerptInput {
  status: VerifyStatus;
  exitCode: number | null;
  reason: string | null;
  outcome: TestOutcome | null;
  output: string;
  /** Where the tests ran: absolute stack frames are shown relative to it, and only those inside it. */
  repoDir: string | null;
  /** Why there are no results, when it is not that the output matched no runner (a failed build). */
  noResults?: string;
}

export interface FailureView {
  testId: string;
  message: string;
  location: string | null;
  frames: string[];
}

/** Each failure with its place: the first frame inside the repository, else the file its runner names. */
export function failureViews(outcome: TestOutcome | null, repoDir: string | null): FailureView[] {
  return (outcome?.failures ?? []).map((failure) => {
    const frames = repoFrames(failure.detail, repoDir);
    return { testId: failure.testId, message: failure.message, location: frames[0] ?? failure.file ?? null, frames };
  });
}

/** `FAIL, exit code 1 — mocha (spec output): 4 failed, 1252 passed, 2 skipped, 1258 total` */
export function resultLine(
  input: Pick<ExcerptInput, 'status' | 'exitCode' | 'reason' | 'outcome' | 'noResults'>,
): string {
  const exit = input.exitCode === null ? 'no exit code' : `exit code ${input.exitCode}`;
  const reason = input.reason ? ` (${input.reason})` : '';
  const { outcome } = input;
  // Without counts a PASS is the exit code's word alone: said, so that no one reads it as counted tests.
  const exitOnly = input.status === 'PASS' ? '; this PASS rests on the exit code alone' : '';
  if (!outcome)
    return `${input.status}, ${exit}${reason} — no test results: ${input.noResults ?? `Lathe found no summary it can read in the output (it reads ${TEXT_RUNNERS})`}${exitOnly}`;
  const { counts } = outcome;
  return `${input.status}, ${exit}${reason} — ${outcome.runner} (${outcome.source}): ${counts.failed} failed, ${counts.passed} passed, ${counts.skipped} skipped, ${counts.total} total`;
}

function renderFailure(index: number, view: FailureView, level: number): string {
  const title = `${index + 1}) ${view.testId.length > 300 ? `${view.testId.slice(0, 299)}…` : view.testId}`;
  if (level === 0) return title;
  const messageLines = view.message.split('\n').filter((line) => line.trim() !== '');
  const message = (level === 1 ? messageLines.slice(0, 1) : messageLines).map((line) => `   ${line}`);
  const places = level >= 3 ? view.frames.slice(0, 3) : view.location ? [view.location] : [];
  return [title, ...message, ...places.map((place) => `   at ${place}`)].join('\n');
}

/**
 * The failures, each as fully as the budget lets every one of them be shown (title, first message
 * line, whole message and place, stack frames inside the repository); earlier ones get more when
 * room is left. When even the titles do not fit, as many as fit and how many more there are.
 */
function failuresSection(views: FailureView[], budget: number): string {
  if (views.length === 0) return '';
  const heading = `Failing tests (${views.length}${views.length > 1 ? ', in the runner’s order' : ''}):`;
  const join = (blocks: string[]) => [heading, ...blocks].join('\n');
  for (let level = 3; level >= 0; level--) {
    const levels = views.map(() => level);
    const render = () => join(views.map((view, index) => renderFailure(index, view, levels[index] as number)));
    if (render().length > budget) continue;
    for (let index = 0; index < views.length; index++) {
      while ((levels[index] as number) < 3) {
        levels[index] = (levels[index] as number) + 1;
        if (render().length > budget) {
          levels[index] = (levels[index] as number) - 1;
          break;
        }
      }
    }
    return render();
  }
  const blocks: string[] = [];
  for (let index = 0; index < views.length; index++) {
    const more = `… and ${views.length - index} more (see the full log)`;
    const next = renderFailure(index, views[index] as FailureView, 0);
    if (join([...blocks, next, more]).length > budget) return join([...blocks, more]);
    blocks.push(next);
  }
  return join(blocks);
}

/** The last whole lines of the output that fit in `budget` characters. */
function tailWithin(output: string, budget: number): string {
  const lines = output.replace(/\n+$/, '').split('\n');
  const kept: string[] = [];
  let used = 0;
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index] as string;
    if (used + line.length + 1 > budget) {
      if (kept.length === 0 && budget > 40) kept.unshift(`…${line.slice(line.length - budget + 2)}`);
      break;
    }
    kept.unshift(line);
    used += line.length + 1;
  }
  return kept.join('\n');
}

/**
 * A failure-focused view of a test run within `budget` characters: the result and the runner's
 * summary lines, each failing test's name, message and the stack frames inside the repository,
 * then the end of the output with what room is left. The summary and every failing test's title
 * come before any output line, so a long passing log never pushes them out.
 */
export function failureExcerpt(input: ExcerptInput, budget = FAILURE_EXCERPT_CHARS): string {
  const output = stripAnsi(input.output);
  const head = [resultLine(input), ...(input.outcome?.summary ?? []).slice(0, 8).map((line) => `  ${line.trim()}`)]
    .join('\n')
    .slice(0, Math.floor(budget / 4));
  const views = failureViews(input.outcome, input.repoDir);
  const afterHead = budget - head.length - 2;
  const failures = failuresSection(views, Math.floor(afterHead * (views.length > 0 ? 0.7 : 0)));
  const used = head.length + (failures ? failures.length + 2 : 0);
  const tailHeading = 'Last lines of the output:\n';
  const tailBudget = budget - used - 2 - tailHeading.length;
  const tail = output.trim() && tailBudget > 40 ? `${tailHeading}${tailWithin(output, tailBudget)}` : '';
  return [head, failures, tail].filter(Boolean).join('\n\n');
}
