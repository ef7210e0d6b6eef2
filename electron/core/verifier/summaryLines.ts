import { parseJUnit } from './junit';
import { parseAvaOutput } from './parsers/ava';
import { parseCargoOutput } from './parsers/cargo';
import { parseGoOutput } from './parsers/goTest';
import { parseJasmineOutput } from './parsers/jasmine';
import { parseJestOutput } from './parsers/jest';
import { parseMochaOutput } from './parsers/mocha';
import { parseNodeSpecOutput } from './parsers/nodeSpec';
import { parsePlaywrightOutput } from './parsers/playwright';
import { combineOutcomes, makeCounts, stripAnsi, type TestOutcome } from './parsers/outcome';
import { parsePytestOutput } from './parsers/pytest';
import { parseTapOutput } from './parsers/tap';
import { parseUnittestOutput } from './parsers/unittest';
import { parseUvuOutput } from './parsers/uvu';
import { parseVitestOutput } from './parsers/vitest';

/** The runners whose text output Lathe reads, in the words the excerpt uses when it reads none. */
export const TEXT_RUNNERS =
  'mocha, jest, vitest, ava, jasmine, uvu, playwright test, node:test (spec and TAP), TAP (tape, node-tap, qunit), JUnit XML, pytest, unittest and nose2, go test and cargo test';

const PARSERS = [
  parseMochaOutput,
  parseJestOutput,
  parseVitestOutput,
  parseAvaOutput,
  parseJasmineOutput,
  parseUvuOutput,
  parsePlaywrightOutput,
  parseNodeSpecOutput,
  parseTapOutput,
  parseJUnitInOutput,
  parsePytestOutput,
  parseUnittestOutput,
  parseGoOutput,
  parseCargoOutput,
];

/**
 * Results from a runner's text output, the runner recognised from the output itself (an `npm test`
 * or `sh -c "a && b"` names none): every runner whose summary appears contributes, so two runners
 * in one output are summed. Null when no runner's summary is there.
 */
export function parseSummaryLines(raw: string): TestOutcome | null {
  const output = stripAnsi(raw);
  const found = PARSERS.map((parse) => parse(output)).filter((outcome): outcome is TestOutcome => outcome !== null);
  return combineOutcomes(found) ?? parsePlainCounts(output);
}

/** JUnit XML printed to the output (mocha's `xunit` reporter, a script that cats its report). */
function parseJUnitInOutput(output: string): TestOutcome | null {
  const start = output.search(/<\?xml[^>]*\?>\s*<testsuites?\b|<testsuites?\b/);
  if (start === -1) return null;
  const end = Math.max(
    output.lastIndexOf('</testsuites>') + '</testsuites>'.length,
    output.lastIndexOf('</testsuite>') + '</testsuite>'.length,
  );
  if (end <= start) return null;
  const outcome = parseJUnit(output.slice(start, end), { runner: 'JUnit' });
  return outcome && outcome.counts.total > 0 ? { ...outcome, source: 'JUnit XML in the output' } : null;
}

/** A home-made runner's last `N passed, N failed[, N skipped]` line, when no known runner spoke. */
function parsePlainCounts(output: string): TestOutcome | null {
  const plain = [...output.matchAll(/^(?:\w+: )?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$/gm)].at(-1);
  if (!plain) return null;
  return {
    runner: 'plain',
    source: 'closing line',
    counts: makeCounts(Number(plain[1]), Number(plain[2]), Number(plain[3] ?? 0)),
    failures: [],
    summary: [plain[0].trim()],
  };
}
