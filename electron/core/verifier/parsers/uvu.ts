import {
  dedent,
  firstLines,
  makeCounts,
  MAX_FAILURES,
  numberIn,
  type ParsedFailure,
  type TestOutcome,
} from './outcome';

const FAIL_HEAD = /^\s+FAIL\s+(?:(\S.*?)\s+)?"(.*)"\s*$/;

/**
 * uvu's reporter: `  Total:     4` / `  Passed:    2` / `  Skipped:   1` (its total leaves skipped tests
 * out; the rest of it failed), and each failure as `FAIL  suite  "test"` with its message and stack
 * below. A test is named `suite > test` (the default suite has no name).
 */
export function parseUvuOutput(output: string): TestOutcome | null {
  if (!/^ {2}Total:\s+\d+\s*$/m.test(output)) return null;
  const lines = output.split('\n');
  const summary = lines
    .filter((line) => /^ {2}(Total|Passed|Skipped|Duration):\s+\S/.test(line))
    .map((line) => line.trim());
  if (!summary.some((line) => line.startsWith('Total:')) || !summary.some((line) => line.startsWith('Passed:')))
    return null;
  const text = summary.join('\n');
  const ran = numberIn(text, /^Total:\s+(\d+)$/m);
  const passed = numberIn(text, /^Passed:\s+(\d+)$/m);
  const counts = makeCounts(passed, ran - passed, numberIn(text, /^Skipped:\s+(\d+)$/m));
  const failures: ParsedFailure[] = [];
  for (let index = 0; index < lines.length && failures.length < MAX_FAILURES; index++) {
    const head = FAIL_HEAD.exec(lines[index] as string);
    if (!head) continue;
    const body: string[] = [];
    let next = index + 1;
    while (
      next < lines.length &&
      !FAIL_HEAD.test(lines[next] as string) &&
      !/^ {2}Total:/.test(lines[next] as string) &&
      !/^\S.*\(\d+ \/ \d+\)$/.test((lines[next] as string).trim())
    )
      body.push(lines[next++] as string);
    const block = dedent(body);
    const frameAt = block.findIndex((line) => /^\s*at /.test(line));
    const testId = head[1] ? `${head[1]} > ${head[2]}` : (head[2] as string);
    failures.push({
      testId,
      message: firstLines(
        (frameAt === -1 ? block : block.slice(0, frameAt))
          .join('\n')
          .replace(/\s*\((is|equal|ok|not|match|type|instance|throws|snapshot|fixture)\)\s*$/m, ''),
      ),
      detail: block.join('\n'),
    });
    index = next - 1;
  }
  return { runner: 'uvu', source: 'text output', counts, failures, summary };
}
