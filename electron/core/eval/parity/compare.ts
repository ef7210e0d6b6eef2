import type { TestCounts } from '../../verifier/types';
import type { ReferenceResult } from './referenceReports';

export interface LatheResult {
  counts: TestCounts | null;
  firstFailure: { testId: string; message: string; location?: string | null } | null;
}

export interface ParityCheck {
  counts: boolean;
  /** The first failure's name (or both have none). */
  name: boolean;
  /** The runner's first message line is in Lathe's message (or both have no failure). */
  message: boolean;
}

/** How a runner names a test in its own report: as it is, or pytest's dotted `module.Class.test`. */
export type IdStyle = 'exact' | 'pytest-dotted';

/** `tests/test_a.py::Outer::test_x[1]` → `tests.test_a.Outer.test_x[1]`, the JUnit `classname.name` form. */
export function dotted(nodeId: string): string {
  // A parameter id is the runner's text (`[sum(a)::integer]`): only the path before it is split.
  const bracket = nodeId.indexOf('[');
  const params = bracket === -1 ? '' : nodeId.slice(bracket);
  const [file = '', ...rest] = (bracket === -1 ? nodeId : nodeId.slice(0, bracket)).split('::');
  return `${[file.replace(/\.py$/, '').split('/').join('.'), ...rest].join('.')}${params}`;
}

/** Error-class prefixes and whitespace differ between a runner's text and its report; the words do not. */
function normalized(message: string): string {
  return message.replace(/^\s*(\w*Error)(\s*\[[\w-]+\])?:\s*/, '').replace(/\s+/g, '');
}

export function compareWithReference(lathe: LatheResult, reference: ReferenceResult, idStyle: IdStyle): ParityCheck {
  const counts =
    lathe.counts !== null &&
    (['passed', 'failed', 'skipped', 'total'] as const).every((key) => lathe.counts?.[key] === reference.counts[key]);
  const ours = lathe.firstFailure;
  const theirs = reference.firstFailure;
  if (!ours || !theirs) return { counts, name: !ours && !theirs, message: !ours && !theirs };
  const name = idStyle === 'pytest-dotted' ? dotted(ours.testId) === theirs.testId : ours.testId === theirs.testId;
  const expected = normalized(theirs.message.split('\n')[0] ?? '');
  const ourFirstLine = normalized(ours.message.split('\n')[0] ?? '');
  const message =
    normalized(ours.message).includes(expected) || (ourFirstLine.length > 0 && expected.includes(ourFirstLine));
  return { counts, name, message };
}

/** How the excerpt names a test: pytest's dotted `module.Class.test[x]` shows as `…::test[x]`, so its last part is looked for. */
function shownName(testId: string, idStyle: IdStyle): string {
  if (idStyle === 'exact') return testId;
  const base = testId.split('[')[0] ?? testId;
  return `${base.slice(base.lastIndexOf('.') + 1)}${testId.slice(base.length)}`;
}

/** Whether the excerpt names every failure the runner reports, with its message's first line. */
export function excerptShowsEveryFailure(excerpt: string, reference: ReferenceResult, idStyle: IdStyle): boolean {
  const text = excerpt.replace(/\s+/g, '');
  return reference.failures.every(
    (failure) =>
      text.includes(shownName(failure.testId, idStyle).replace(/\s+/g, '')) &&
      text.includes(normalized(failure.message)),
  );
}

/* eslint-disable no-control-regex -- the control characters XML 1.0 cannot hold are the point */
const NOT_IN_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;
/* eslint-enable no-control-regex */

/**
 * An inventory as sorted `outcome id` lines, ids in the report's style: two inventories list the same
 * tests exactly when these are equal. A JUnit report cannot carry a title's control characters
 * (vitest drops them) and its reader trims attribute values, so ids are compared without either.
 */
export function inventoryLines(tests: readonly { id: string; outcome: string }[], idStyle: IdStyle): string[] {
  return tests
    .map(
      (test) =>
        `${test.outcome} ${(idStyle === 'pytest-dotted' ? dotted(test.id) : test.id).replace(NOT_IN_XML, '').trim()}`,
    )
    .sort();
}

/**
 * Whether Lathe's inventory lists the same tests as the runner's own report, each with the same
 * outcome, as a multiset (a reporter's tree and its JSON list tests in different orders; the same id
 * twice is two tests). A missing inventory matches nothing.
 */
export function inventoryMatches(
  ours: readonly { id: string; outcome: string }[] | null,
  reference: ReferenceResult,
  idStyle: IdStyle,
): boolean {
  if (!ours) return false;
  const theirs = inventoryLines(
    reference.tests.map((test) => ({ id: test.testId, outcome: test.outcome })),
    'exact',
  );
  const mine = inventoryLines(ours, idStyle);
  return mine.length === theirs.length && mine.every((line, index) => line === theirs[index]);
}
