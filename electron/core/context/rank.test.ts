import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { feedbackFrom } from '../../../shared/engine/testFeedback';
import type { TestSummary } from '../../../shared/engine/runState';
import { failureExcerpt, failureViews } from '../verifier/excerpt';
import { parsePytestOutput } from '../verifier/parsers/pytest';
import { buildContext } from './buildContext';
import { failingTestNames, failingTestSpans } from './failingTestCode';
import { failureText } from './failureText';
import { querySignals } from './querySignals';
import { isTestPath, rankFiles } from './rank';
import { buildRepoMap } from './repoMap';

/** SQLite's keywords: the lexer's table, as long as a real one. */
const KEYWORDS =
  'ABORT ACTION ADD AFTER ALL ALTER ANALYZE AND ANY AS ASC ATTACH AUTOINCREMENT BEFORE BEGIN BETWEEN BY CASCADE CASE CAST CHECK COLLATE COLUMN COMMIT CONFLICT CONSTRAINT CREATE CROSS CURRENT_DATE CURRENT_TIME DATABASE DEFAULT DEFERRABLE DEFERRED DELETE DESC DETACH DISTINCT DROP EACH ELSE END ESCAPE EXCEPT EXCLUSIVE EXISTS EXPLAIN FAIL FOR FOREIGN FROM FULL GLOB GROUP HAVING IF IGNORE IMMEDIATE IN INDEX INDEXED INITIALLY INNER INSERT INSTEAD INTERSECT INTO IS ISNULL JOIN KEY LEFT LIKE LIMIT MATCH NATURAL NO NOT NOTNULL NULL OF OFFSET ON OR ORDER OUTER PLAN PRAGMA PRIMARY QUERY RAISE RECURSIVE REFERENCES REGEXP REINDEX RELEASE RENAME REPLACE RESTRICT RIGHT ROLLBACK ROW SAVEPOINT SELECT SET TABLE TEMP TEMPORARY THEN TO TRANSACTION TRIGGER UNION UNIQUE UPDATE USING VACUUM VALUES VIEW VIRTUAL WHEN WHERE WITH WITHOUT SCHEMA'.split(
    ' ',
  );

/**
 * A small SQL splitter shaped like sqlparse: the failing test calls the package's `split`, its data
 * is SQL full of keywords, and the bug is in the splitter the goal names.
 */
function sqlRepo(): TempRepo {
  const passing = Array.from(
    { length: 40 },
    (_, index) =>
      `def test_split_simple_${index}():\n    assert len(sqlkit.split("SELECT ${index}; SELECT 2;")) == 2\n`,
  ).join('\n');
  return makeTempRepo({
    files: {
      'sqlkit/__init__.py':
        'from sqlkit.engine.splitter import StatementSplitter\nfrom sqlkit.lexer import tokenize\n\n\ndef split(sql):\n    """Split sql into statements."""\n    return [str(statement).strip() for statement in StatementSplitter().process(tokenize(sql))]\n\n\ndef format(sql, **options):\n    return sql\n',
      'sqlkit/lexer.py': `from sqlkit.keywords import KEYWORDS\n\n\ndef tokenize(sql):\n    for word in sql.replace(';', ' ; ').split():\n        yield (KEYWORDS.get(word.upper(), 'Name'), word)\n`,
      'sqlkit/keywords.py': `KEYWORDS = {\n${KEYWORDS.map((word) => `    '${word}': 'Keyword',`).join('\n')}\n    ';': 'Punctuation',\n}\n`,
      'sqlkit/engine/__init__.py': '',
      'sqlkit/engine/splitter.py': [
        'class StatementSplitter:',
        '    """Splits a token stream into statements; BEGIN ... END blocks stay whole."""',
        '',
        '    def __init__(self):',
        '        self._reset()',
        '',
        '    def _reset(self):',
        '        self.level = 0',
        '        self._begin_depth = 0',
        '        self._seen_begin = False',
        '',
        '    def _change_splitlevel(self, ttype, value):',
        '        unified = value.upper()',
        "        if ttype == 'Keyword' and unified == 'BEGIN':",
        '            self._seen_begin = True',
        '            self._begin_depth += 1',
        '            return 1',
        "        if ttype == 'Keyword' and unified == 'END' and self._begin_depth > 0:",
        '            self._begin_depth -= 1',
        '            return -1',
        '        return 0',
        '',
        '    def process(self, stream):',
        '        current = []',
        '        for ttype, value in stream:',
        '            self.level += self._change_splitlevel(ttype, value)',
        '            current.append(value)',
        "            if value == ';' and self.level <= 0:",
        "                yield ' '.join(current)",
        '                current = []',
        '                self._reset()',
        '        if current:',
        "            yield ' '.join(current)",
        '',
      ].join('\n'),
      'tests/test_split.py': `import sqlkit\n\n\n${passing}\n\ndef test_split_begin_transaction():\n    sql = """BEGIN TRANSACTION;\nDELETE FROM "schema"."table_a" USING "table_a_temp" WHERE "schema"."table_a"."id" = "table_a_temp"."id";\nINSERT INTO "schema"."table_a" SELECT * FROM "table_a_temp";\nEND TRANSACTION;"""\n    statements = sqlkit.split(sql)\n    assert len(statements) == 4\n`,
    },
  });
}

/** The real pytest output of the repository's tests (they fail: BEGIN TRANSACTION opens a block). */
function pytestOutput(dir: string): string {
  const run = spawnSync('python3', ['-m', 'pytest', '-p', 'no:cacheprovider', 'tests'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
  });
  expect(run.status).toBe(1);
  return run.stdout;
}

const GOAL = 'Fix splitting of BEGIN TRANSACTION statements';

let repo: TempRepo;
let output: string;
beforeAll(() => {
  repo = sqlRepo();
  output = pytestOutput(repo.dir);
});
afterAll(() => repo.remove());

describe('failureText', () => {
  it("keeps pytest's failure and its test id, and drops progress rows, banners and the repeated summary", () => {
    const failure = failureText(output);
    expect(failure.tests).toEqual([
      {
        id: 'tests/test_split.py::test_split_begin_transaction',
        file: 'tests/test_split.py',
        name: 'test_split_begin_transaction',
      },
    ]);
    expect(failure.text).toContain('assert len(statements) == 4');
    expect(failure.text).toMatch(/tests\/test_split\.py:\d+: AssertionError/);
    expect(output).toMatch(/^tests\/test_split\.py \.+F/m);
    expect(failure.text).not.toMatch(/^tests\/test_split\.py \.+F/m);
    expect(failure.text).not.toMatch(/test session starts|rootdir|short test summary|1 failed, 40 passed/);
  });

  it("reads the Verifier's failure excerpt: the tests it lists, their places, and its raw tail less the noise", () => {
    const outcome = parsePytestOutput(output);
    const excerpt = failureExcerpt({ status: 'FAIL', exitCode: 1, reason: null, outcome, output, repoDir: repo.dir });
    const [view] = failureViews(outcome, repo.dir);
    const summary = {
      report: output,
      excerpt,
      tail: '',
      first_failure: view ? { test_id: view.testId, message: view.message, location: view.location } : null,
    } as TestSummary;
    const feedback = feedbackFrom(summary, 'first_failure', 'excerpt').text;
    expect(feedback).toMatch(
      /^First failing test: tests\/test_split\.py::test_split_begin_transaction \(tests\/test_split\.py:\d+\)\n/,
    );
    const failure = failureText(feedback);
    expect(failure.tests).toEqual([
      {
        id: 'tests/test_split.py::test_split_begin_transaction',
        file: 'tests/test_split.py',
        name: 'test_split_begin_transaction',
      },
    ]);
    expect(failure.text).toMatch(/^ {3}at tests\/test_split\.py:\d+$/m);
    expect(failure.text).toContain('assert len(statements) == 4');
    expect(failure.text).not.toMatch(/^FAIL, exit code|^Failing tests \(|^Last lines of the output|\.{20}/m);
  });

  it('reads vitest and npm output: the failing test, not the passing ones or the echoed script', () => {
    const output = [
      '',
      '> pkg@1.0.0 test',
      '> vitest run',
      '',
      ' ✓ test/a.test.ts (3 tests) 4ms',
      ' FAIL  test/query.test.ts > getQuery > parses toString',
      'AssertionError: expected 1 to be 2',
      '    at Object.<anonymous> (node_modules/vitest/dist/index.js:10:3)',
      ' ❯ test/query.test.ts:94:27',
      ' Test Files  1 failed | 1 passed (2)',
    ].join('\n');
    const failure = failureText(output);
    expect(failure.tests).toEqual([
      { id: 'test/query.test.ts > getQuery > parses toString', file: 'test/query.test.ts', name: 'parses toString' },
    ]);
    expect(failure.text.split('\n')).toEqual([
      ' FAIL  test/query.test.ts > getQuery > parses toString',
      'AssertionError: expected 1 to be 2',
      ' ❯ test/query.test.ts:94:27',
    ]);
  });
});

describe('querySignals', () => {
  it('reads a line a text points at in prose ("line N of PATH", "lines N-M in PATH"), as it reads a stack frame', () => {
    const known = new Set(['pkg/more.py', 'src/a.js', 'src/b.js']);
    const signals = querySignals(
      {
        goal: 'Fix repeat',
        feedback:
          'the fix is at line 4897 of pkg/more.py, not in what the context shows; see lines 12-20 in `src/a.js` and line 3 of src/missing.js',
      },
      known,
    );
    expect(signals.mentioned.get('pkg/more.py')).toEqual([4897]);
    expect(signals.mentioned.get('src/a.js')).toEqual([12, 20]);
    expect(signals.mentioned.has('src/b.js')).toBe(false);
    // Words about lines without a file point nowhere.
    const vague = querySignals({ goal: 'the first line of output is wrong', feedback: 'lines 1-2 differ' }, known);
    expect(vague.mentioned.size).toBe(0);
  });
});

describe('failingTestSpans and failingTestNames', () => {
  it("find the failing test's own code and the names it calls, less literals and the test file's own names", async () => {
    const map = await buildRepoMap(repo.dir);
    const signals = querySignals({ goal: GOAL, feedback: output }, new Set(map.byPath.keys()));
    const spans = failingTestSpans(map, signals, isTestPath);
    const test = map.byPath
      .get('tests/test_split.py')
      ?.symbols.find((symbol) => symbol.name === 'test_split_begin_transaction');
    expect(spans).toEqual([{ file: 'tests/test_split.py', start: test?.start, end: test?.end }]);
    const dir = repo.dir;
    const names = await failingTestNames(map, spans, async (file) => fs.readFileSync(path.join(dir, file), 'utf8'));
    expect([...names].sort()).toEqual(['split', 'sql', 'sqlkit', 'statements']);
  });
});

describe('rankFiles', () => {
  it("keeps the goal's file among the files to edit when a long failing output names the package and its data words", async () => {
    const dir = repo.dir;
    const map = await buildRepoMap(dir);
    const feedback = output;
    const goalOnly = (await rankFiles(map, { goal: GOAL })).filter((entry) => !entry.isTest);
    expect(goalOnly[0]?.file.path).toBe('sqlkit/engine/splitter.py');
    const read = async (file: string) => fs.readFileSync(path.join(dir, file), 'utf8');
    const built = await buildContext(map, { goal: GOAL, feedback }, { budgetTokens: 1500, read });
    expect(built.included.find((entry) => entry.path === 'sqlkit/engine/splitter.py')?.reason).toMatch(/^ranked #\d+/);
    expect(built.included.findIndex((entry) => entry.path === 'sqlkit/engine/splitter.py')).toBeLessThan(
      built.included.findIndex((entry) => entry.kind === 'map'),
    );
    // The failing test's own code still counts: the package's split it calls is a file to edit too.
    expect(built.included.findIndex((entry) => entry.path === 'sqlkit/__init__.py')).toBeLessThan(
      built.included.findIndex((entry) => entry.kind === 'map'),
    );
    // The same from what a writer is shown now: the Verifier's failure excerpt of that output.
    const outcome = parsePytestOutput(feedback);
    const excerpt = failureExcerpt({
      status: 'FAIL',
      exitCode: 1,
      reason: null,
      outcome,
      output: feedback,
      repoDir: dir,
    });
    const [view] = failureViews(outcome, dir);
    const summary = {
      report: feedback,
      excerpt,
      tail: '',
      first_failure: view ? { test_id: view.testId, message: view.message, location: view.location } : null,
    } as TestSummary;
    const fromExcerpt = await buildContext(
      map,
      { goal: GOAL, feedback: feedbackFrom(summary, 'first_failure', 'excerpt').text },
      { budgetTokens: 1500, read },
    );
    expect(fromExcerpt.included.findIndex((entry) => entry.path === 'sqlkit/engine/splitter.py')).toBeLessThan(
      fromExcerpt.included.findIndex((entry) => entry.kind === 'map'),
    );
  });
});
