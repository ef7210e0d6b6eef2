import fs from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { TestCounts } from './types';
import type { TestRecord } from '../../../shared/schemas/testInventory';
import { firstLines, MAX_FAILURES, type ParsedFailure, type TestOutcome } from './parsers/outcome';

type XmlNode = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  isArray: (name) => ['testsuite', 'testcase', 'failure', 'error', 'skipped'].includes(name),
  processEntities: true,
  htmlEntities: true,
});

/** Element values; one with text and no attributes (mocha xunit's `<failure>text</failure>`) parses as its text. */
function asNodes(value: unknown): XmlNode[] {
  const node = (item: unknown): XmlNode[] =>
    typeof item === 'string' ? [{ '#text': item }] : typeof item === 'object' && item !== null ? [item as XmlNode] : [];
  return Array.isArray(value) ? value.flatMap(node) : node(value);
}

function attribute(node: XmlNode, name: string): string {
  const value = node[`@_${name}`];
  return typeof value === 'string' ? value : '';
}

function body(node: XmlNode): string {
  const text = node['#text'];
  return typeof text === 'string' ? text.trim() : '';
}

interface FoundCase {
  node: XmlNode;
  suites: string[];
}

/** Every <testcase> at any depth (node's reporter nests suites inside suites), with its suite names. */
function collectCases(node: XmlNode, out: FoundCase[], suites: string[]): void {
  for (const testCase of asNodes(node.testcase)) out.push({ node: testCase, suites });
  for (const suite of asNodes(node.testsuite)) {
    const name = attribute(suite, 'name');
    collectCases(suite, out, name ? [...suites, name] : suites);
  }
  for (const group of asNodes(node.testsuites)) collectCases(group, out, suites);
}

export interface JUnitOptions {
  /** Which runner wrote it: it decides how a test is named. */
  runner: 'pytest' | 'node:test' | 'vitest' | string;
  /** The repository, to name a pytest test by its node id (`tests/test_a.py::Class::test`). */
  repoDir?: string | null;
}

/** Counts, failures and every test from JUnit XML (pytest, node --test, vitest, jest-junit, mocha's xunit); null when unreadable. */
export function parseJUnit(xml: string, options: JUnitOptions = { runner: 'junit' }): TestOutcome | null {
  let root: XmlNode;
  try {
    root = parser.parse(xml) as XmlNode;
  } catch {
    // catch-ok: a report that is not XML is no structured result: the runner's text output is read instead
    return null;
  }
  if (!root.testsuites && !root.testsuite) return null;
  const cases: FoundCase[] = [];
  collectCases(root, cases, []);
  const counts: TestCounts = { passed: 0, failed: 0, skipped: 0, total: 0 };
  const failures: ParsedFailure[] = [];
  const tests: TestRecord[] = [];
  const naming = caseNaming(options);
  for (const { node: testCase, suites } of cases) {
    counts.total++;
    const name = naming(testCase, suites);
    const failure = asNodes(testCase.failure)[0] ?? asNodes(testCase.error)[0];
    let outcome: TestRecord['outcome'] = 'passed';
    if (failure) {
      counts.failed++;
      outcome = 'failed';
      if (failures.length < MAX_FAILURES) failures.push(failureOf(name, failure, options));
    } else if (testCase.skipped !== undefined) {
      counts.skipped++;
      outcome = 'skipped';
    } else {
      counts.passed++;
    }
    tests.push(name.file ? { id: name.testId, outcome, file: name.file } : { id: name.testId, outcome });
  }
  return { runner: options.runner, source: 'JUnit XML', counts, failures, summary: [], tests };
}

interface CaseName {
  testId: string;
  file: string | null;
}

/**
 * How a <testcase> is named, failing or not. pytest's module lookup is kept per classname: a suite
 * of thousands of tests lives in a few dozen modules, and each lookup costs a file-system call.
 */
function caseNaming(options: JUnitOptions): (testCase: XmlNode, suites: string[]) => CaseName {
  const modules = new Map<string, { module: string; rest: string[] } | null>();
  return (testCase, suites) => {
    const classname = attribute(testCase, 'classname');
    const name = attribute(testCase, 'name') || '(unnamed)';
    const file = attribute(testCase, 'file') || null;
    if (options.runner === 'vitest' && classname) return { testId: `${classname} > ${name}`, file: classname };
    // playwright: classname is the file, name the `describe › test` path its text output shows.
    if (options.runner === 'playwright' && classname) return { testId: name, file: classname };
    if (options.runner === 'pytest' && classname) {
      if (!modules.has(classname)) modules.set(classname, pytestModule(classname, options.repoDir ?? null));
      const found = modules.get(classname);
      return found
        ? { testId: [found.module, ...found.rest, name].join('::'), file: found.module }
        : { testId: `${classname}::${name}`, file };
    }
    // Printed to the output by an unknown producer (mocha's xunit: classname is the suites' path).
    if (options.runner === 'JUnit')
      return { testId: !classname || name.startsWith(classname) ? name : `${classname} ${name}`, file };
    if (classname && classname !== 'test') return { testId: `${classname}::${name}`, file };
    // node --test uses classname "test" and nests suites instead.
    return { testId: [...suites, name].join(' > '), file };
  };
}

function failureOf(name: CaseName, failure: XmlNode, options: JUnitOptions): ParsedFailure {
  const detail = body(failure);
  const message = attribute(failure, 'message').trim() || detail;
  const errorLines =
    options.runner === 'pytest' ? pytestErrorLines(detail) : options.runner === 'node:test' ? nodeCause(detail) : null;
  return { testId: name.testId, message: firstLines(errorLines ?? message), detail, file: name.file };
}

/**
 * node's JUnit message drops the error's line breaks, and its body wraps the error in an
 * ERR_TEST_FAILURE whose `cause:` is the error the test threw: that is the message, as spec shows it.
 */
function nodeCause(detail: string): string | null {
  const lines = detail.split('\n');
  const at = lines.findIndex((line) => /^\s*cause: /.test(line));
  if (at === -1) return null;
  const indent = /^\s*/.exec(lines[at] as string)?.[0].length ?? 0;
  const message = [(lines[at] as string).trim().slice('cause: '.length)];
  for (const line of lines.slice(at + 1)) {
    if (/^\s+at /.test(line) || ((/^\s*/.exec(line)?.[0].length ?? 0) < indent && line.trim() !== '')) break;
    message.push(line.slice(indent));
  }
  return message.join('\n');
}

/** pytest's `E   …` lines say more than its message attribute, which keeps only the first line. */
function pytestErrorLines(detail: string): string | null {
  const lines = detail.split('\n').filter((line) => /^E {3}/.test(line));
  return lines.length > 0 ? lines.map((line) => line.slice(4)).join('\n') : null;
}

/** `tests.test_a.Outer` → module `tests/test_a.py` and `Outer`, when that module file exists (the node id's parts). */
function pytestModule(classname: string, repoDir: string | null): { module: string; rest: string[] } | null {
  if (!repoDir) return null;
  const parts = classname.split('.');
  for (let cut = parts.length; cut > 0; cut--) {
    const module = `${parts.slice(0, cut).join('/')}.py`;
    if (fs.existsSync(path.join(repoDir, module))) return { module, rest: parts.slice(cut) };
  }
  return null;
}
