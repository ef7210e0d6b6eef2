import type { TestRecord } from '../../../../shared/schemas/testInventory';

/** One line of a reporter's tree: a suite title (`outcome` null) or a test, at its indentation. */
export interface TreeLine {
  indent: number;
  title: string;
  outcome: TestRecord['outcome'] | null;
}

/**
 * Tests named by the suites they are indented under, as mocha's spec and jest's verbose reporters
 * print them: a suite holds the lines indented deeper than it, up to the next line at its depth or
 * shallower. `join` is how the runner joins a full title (mocha: ' ', jest: ' › ').
 */
export function testsFromTree(lines: TreeLine[], join: string): TestRecord[] {
  const suites: { indent: number; title: string }[] = [];
  const tests: TestRecord[] = [];
  for (const line of lines) {
    while (suites.length > 0 && (suites.at(-1) as { indent: number }).indent >= line.indent) suites.pop();
    if (line.outcome === null) suites.push({ indent: line.indent, title: line.title });
    else tests.push({ id: [...suites.map((suite) => suite.title), line.title].join(join), outcome: line.outcome });
  }
  return tests;
}

export function indentOf(line: string): number {
  return /^ */.exec(line)?.[0].length ?? 0;
}
