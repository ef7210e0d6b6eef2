import { dedent, firstLines, makeCounts, MAX_FAILURES, type ParsedFailure, type TestOutcome } from './outcome';

const CLOSING = /^(\d+) specs?, (\d+) failures?(?:, (\d+) pending specs?)?\s*$/;
const HEAD = /^(\d+)\) (.+)$/;

/**
 * jasmine's console reporter: `6 specs, 2 failures, 2 pending specs`, and under `Failures:` each
 * `N) full name` with its `Message:` and `Stack:` (in the order the specs ran, which `--random`
 * shuffles). Pending specs (xit, a spec without a body) count as skipped.
 */
export function parseJasmineOutput(output: string): TestOutcome | null {
  if (!/^\d+ specs?, \d+ failures?/m.test(output)) return null;
  const lines = output.split('\n');
  const closingAt = lines.findLastIndex((line) => CLOSING.test(line));
  if (closingAt === -1) return null;
  const closing = CLOSING.exec(lines[closingAt] as string) as RegExpExecArray;
  const specs = Number(closing[1]);
  const failed = Number(closing[2]);
  const pending = Number(closing[3] ?? 0);
  const counts = makeCounts(specs - failed - pending, failed, pending, specs);
  const summary = [
    lines[closingAt] as string,
    ...lines.slice(closingAt + 1, closingAt + 2).filter((line) => line.startsWith('Finished in ')),
  ];
  return {
    runner: 'jasmine',
    source: 'text output',
    counts,
    failures: readFailures(lines.slice(0, closingAt)).slice(0, MAX_FAILURES),
    summary,
  };
}

function readFailures(lines: string[]): ParsedFailure[] {
  const start = lines.findIndex((line) => line === 'Failures:');
  if (start === -1) return [];
  const failures: ParsedFailure[] = [];
  let index = start + 1;
  while (index < lines.length) {
    const head = HEAD.exec(lines[index] as string);
    if (!head) {
      if (/^(Pending|Suite error|Incomplete):?/.test(lines[index] as string)) break;
      index++;
      continue;
    }
    const body: string[] = [];
    index++;
    while (
      index < lines.length &&
      !HEAD.test(lines[index] as string) &&
      !/^(Pending|Incomplete):?/.test(lines[index] as string)
    )
      body.push(lines[index++] as string);
    const block = dedent(body);
    const messageAt = block.findIndex((line) => line.trim() === 'Message:');
    const stackAt = block.findIndex((line, at) => at > messageAt && line.trim() === 'Stack:');
    const message = messageAt === -1 ? block : block.slice(messageAt + 1, stackAt === -1 ? undefined : stackAt);
    failures.push({
      testId: (head[2] as string).trim(),
      message: firstLines(dedent(message).join('\n')),
      detail: block.join('\n'),
    });
  }
  return failures;
}
