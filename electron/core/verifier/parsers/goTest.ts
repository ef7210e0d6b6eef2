import type { TestRecord } from '../../../../shared/schemas/testInventory';
import {
  checkedInventory,
  firstLines,
  makeCounts,
  MAX_FAILURES,
  type ParsedFailure,
  type TestOutcome,
} from './outcome';

const RESULT_LINE = /^(\s*)--- (PASS|FAIL|SKIP): (\S+) \([\d.]+s\)$/;
const PACKAGE_LINE = /^(ok|FAIL|\?)\s+\S+/;

const GO_OUTCOMES = { pass: 'passed', fail: 'failed', skip: 'skipped' } as const satisfies Record<
  GoTest['status'],
  TestRecord['outcome']
>;

interface GoTest {
  name: string;
  status: 'pass' | 'fail' | 'skip';
  log: string[];
}

/**
 * `go test -v` text and `go test -json` events. Only leaf tests count: a test that ran subtests is
 * their group (as a describe block is), though go itself reports it too. A package that failed to
 * build is a failure of its own.
 */
export function parseGoOutput(output: string): TestOutcome | null {
  const json = parseGoJson(output);
  if (json) return json;
  const lines = output.split('\n');
  const logs = new Map<string, string[]>();
  const results: GoTest[] = [];
  let current: string | null = null;
  let after: { name: string; indent: number } | null = null;
  let verbose = false;
  for (const line of lines) {
    const run = /^=== (?:RUN|CONT|PAUSE|NAME)\s+(\S+)$/.exec(line);
    if (run) {
      verbose = true;
      current = run[1] as string;
      after = null;
      continue;
    }
    const result = RESULT_LINE.exec(line);
    if (result) {
      const name = result[3] as string;
      results.push({ name, status: (result[2] as string).toLowerCase() as GoTest['status'], log: [] });
      after = { name, indent: (result[1] as string).length };
      current = null;
      continue;
    }
    if (PACKAGE_LINE.test(line) || /^(PASS|FAIL)$/.test(line)) {
      current = null;
      after = null;
      continue;
    }
    const owner =
      after &&
      ((/^\s*/.exec(line)?.[0].length ?? 0) > after.indent ||
        /^(panic:|\t|goroutine |\S+\(.*\)$|created by )/.test(line))
        ? after.name
        : current;
    if (owner) appendLog(logs, owner, [line]);
  }
  if (results.length === 0) return null;
  for (const test of results) test.log = logs.get(test.name) ?? [];
  // Without -v go prints only the failing tests' `--- FAIL` lines: an inventory would be those alone.
  return outcomeOf(
    results,
    lines.filter((line) => PACKAGE_LINE.test(line)),
    'text output',
    verbose,
  );
}

function appendLog(logs: Map<string, string[]>, test: string, lines: string[]): void {
  const log = logs.get(test);
  if (log) log.push(...lines);
  else logs.set(test, [...lines]);
}

function parseGoJson(output: string): TestOutcome | null {
  const events = output
    .split('\n')
    .filter((line) => line.startsWith('{"Time"') || line.startsWith('{"Action"'))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as { Action?: string; Package?: string; Test?: string; Output?: string }];
      } catch (error) {
        // go test -json interleaves build output that is not JSON.
        if (!(error instanceof SyntaxError)) throw error;
        return [];
      }
    });
  if (events.length === 0) return null;
  const logs = new Map<string, string[]>();
  const results: GoTest[] = [];
  const packages: string[] = [];
  for (const event of events) {
    if (event.Action === 'output' && event.Test) {
      appendLog(logs, event.Test, (event.Output ?? '').replace(/\n$/, '').split('\n'));
    } else if (event.Test && (event.Action === 'pass' || event.Action === 'fail' || event.Action === 'skip')) {
      results.push({ name: event.Test, status: event.Action, log: [] });
    } else if (!event.Test && event.Action === 'output' && event.Output && PACKAGE_LINE.test(event.Output)) {
      packages.push(event.Output.trimEnd());
    }
  }
  for (const test of results) test.log = (logs.get(test.name) ?? []).filter((line) => !/^\s*(=== |--- )/.test(line));
  return outcomeOf(results, packages, 'go test -json', true);
}

/** `namesEveryTest`: the output lists passing tests too (`-v`, `-json`), so the leaves are the inventory. */
function outcomeOf(results: GoTest[], packages: string[], source: string, namesEveryTest: boolean): TestOutcome {
  // A test is a group when another's name continues it past a `/`; indexed once, not pair by pair.
  const groups = new Set<string>();
  for (const test of results)
    for (let at = test.name.indexOf('/'); at !== -1; at = test.name.indexOf('/', at + 1))
      groups.add(test.name.slice(0, at));
  const leaves = results.filter((test) => !groups.has(test.name));
  const count = (status: GoTest['status']) => leaves.filter((test) => test.status === status).length;
  const failures: ParsedFailure[] = leaves
    .filter((test) => test.status === 'fail')
    .slice(0, MAX_FAILURES)
    .map((test) => {
      const log = test.log.filter((line) => line.trim() !== '');
      // A panic's message is its first lines; the goroutine dump after them is stack, not message.
      const dump = log.findIndex((line) => /^goroutine \d+ \[/.test(line.trim()));
      return {
        testId: test.name,
        message: firstLines((dump === -1 ? log : log.slice(0, dump)).map((line) => line.trim()).join('\n')),
        detail: log.join('\n'),
      };
    });
  for (const line of packages) {
    const broken = /^FAIL\s+(\S+)\s+\[(build failed|setup failed)\]/.exec(line);
    if (broken && failures.length < MAX_FAILURES)
      failures.push({ testId: `${broken[1]} [${broken[2]}]`, message: broken[2] as string, detail: '' });
  }
  const counts = makeCounts(count('pass'), count('fail'), count('skip'));
  const tests = leaves.map((test): TestRecord => ({ id: test.name, outcome: GO_OUTCOMES[test.status] }));
  return {
    runner: 'go test',
    source,
    counts,
    failures,
    summary: packages,
    tests: namesEveryTest ? checkedInventory(tests, counts, failures) : undefined,
  };
}
