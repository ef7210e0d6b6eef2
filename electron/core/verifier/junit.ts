import { XMLParser } from 'fast-xml-parser';
import type { TestCounts } from '../workspace/types';

export interface TestOutcome {
  counts: TestCounts;
  firstFailure: { testId: string; message: string } | null;
}

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

function text(node: XmlNode | undefined): string {
  if (!node) return '';
  const message = node['@_message'];
  if (typeof message === 'string' && message.trim()) return message.trim();
  const body = node['#text'];
  return typeof body === 'string' ? body.trim() : '';
}

interface FoundCase {
  node: XmlNode;
  suites: string[];
}

/** Every <testcase> at any depth (node's reporter nests suites inside suites), with its suite names. */
function collectCases(node: XmlNode, out: FoundCase[], suites: string[]): void {
  for (const testCase of asNodes(node.testcase)) out.push({ node: testCase, suites });
  for (const suite of asNodes(node.testsuite)) {
    const name = typeof suite['@_name'] === 'string' ? suite['@_name'] : '';
    collectCases(suite, out, name ? [...suites, name] : suites);
  }
  for (const group of asNodes(node.testsuites)) collectCases(group, out, suites);
}

/** Counts and the first failure from JUnit XML (pytest, node --test, vitest, jest-junit, mocha); null when unreadable. */
export function parseJUnit(xml: string): TestOutcome | null {
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
  let firstFailure: TestOutcome['firstFailure'] = null;
  for (const { node: testCase, suites } of cases) {
    counts.total++;
    const failure = asNodes(testCase.failure)[0] ?? asNodes(testCase.error)[0];
    if (failure) {
      counts.failed++;
      if (!firstFailure) {
        const classname = typeof testCase['@_classname'] === 'string' ? testCase['@_classname'] : '';
        const name = typeof testCase['@_name'] === 'string' ? testCase['@_name'] : '(unnamed)';
        // pytest names the module in classname; node --test uses classname "test" and nests suites instead.
        const testId = classname && classname !== 'test' ? `${classname}::${name}` : [...suites, name].join(' > ');
        firstFailure = { testId, message: firstLines(text(failure)) };
      }
    } else if (testCase.skipped !== undefined) {
      counts.skipped++;
    } else {
      counts.passed++;
    }
  }
  return { counts, firstFailure };
}

export function firstLines(message: string, maxChars = 500): string {
  const lines = message.split('\n').slice(0, 6).join('\n');
  return lines.length > maxChars ? `${lines.slice(0, maxChars - 1)}…` : lines;
}
