import fs from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { TestCounts } from '../workspace/types';
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

function asNodes(value: unknown): XmlNode[] {
  if (Array.isArray(value)) return value.filter((item): item is XmlNode => typeof item === 'object' && item !== null);
  return typeof value === 'object' && value !== null ? [value as XmlNode] : [];
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

/** Counts and failures from JUnit XML (pytest, node --test, vitest, jest-junit, mocha's xunit); null when unreadable. */
export function parseJUnit(xml: string, options: JUnitOptions = { runner: 'junit' }): TestOutcome | null {
  let root: XmlNode;
  try {
    root = parser.parse(xml) as XmlNode;
  } catch {
    return null;
  }
  if (!root.testsuites && !root.testsuite) return null;
  const cases: FoundCase[] = [];
  collectCases(root, cases, []);
  const counts: TestCounts = { passed: 0, failed: 0, skipped: 0, total: 0 };
  const failures: ParsedFailure[] = [];
  for (const { node: testCase, suites } of cases) {
    counts.total++;
    const failure = asNodes(testCase.failure)[0] ?? asNodes(testCase.error)[0];
    if (failure) {
      counts.failed++;
      if (failures.length < MAX_FAILURES) failures.push(failureOf(testCase, failure, suites, options));
    } else if (testCase.skipped !== undefined) {
      counts.skipped++;
    } else {
      counts.passed++;
    }
  }
  return { runner: options.runner, source: 'JUnit XML', counts, failures, summary: [] };
}

function failureOf(testCase: XmlNode, failure: XmlNode, suites: string[], options: JUnitOptions): ParsedFailure {
  const classname = attribute(testCase, 'classname');
  const name = attribute(testCase, 'name') || '(unnamed)';
  const detail = body(failure);
  const message = attribute(failure, 'message').trim() || detail;
  let testId: string;
  let file: string | null = attribute(testCase, 'file') || null;
  if (options.runner === 'vitest' && classname) {
    testId = `${classname} > ${name}`;
    file = classname;
  } else if (options.runner === 'pytest' && classname) {
    const nodeId = pytestNodeId(classname, name, options.repoDir ?? null);
    testId = nodeId ?? `${classname}::${name}`;
    file = nodeId ? (nodeId.split('::')[0] as string) : file;
  } else if (classname && classname !== 'test') {
    testId = `${classname}::${name}`;
  } else {
    // node --test uses classname "test" and nests suites instead.
    testId = [...suites, name].join(' > ');
  }
  const errorLines = options.runner === 'pytest' ? pytestErrorLines(detail) : options.runner === 'node:test' ? nodeCause(detail) : null;
  return { testId, message: firstLines(errorLines ?? message), detail, file };
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

/** `tests.test_a.Outer` + `test_x` → `tests/test_a.py::Outer::test_x`, when that module file exists. */
function pytestNodeId(classname: string, name: string, repoDir: string | null): string | null {
  if (!repoDir) return null;
  const parts = classname.split('.');
  for (let cut = parts.length; cut > 0; cut--) {
    const module = `${parts.slice(0, cut).join('/')}.py`;
    if (fs.existsSync(path.join(repoDir, module))) return [module, ...parts.slice(cut), name].join('::');
  }
  return null;
}
