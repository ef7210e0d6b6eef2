import { parseCargoOutput } from './parsers/cargo';
import { parseGoOutput } from './parsers/goTest';
import { parseJestOutput } from './parsers/jest';
import { parseMochaOutput } from './parsers/mocha';
import { parseNodeSpecOutput } from './parsers/nodeSpec';
import { combineOutcomes, makeCounts, stripAnsi, type TestOutcome } from './parsers/outcome';
import { parsePytestOutput } from './parsers/pytest';
import { parseTapOutput } from './parsers/tap';
import { parseUnittestOutput } from './parsers/unittest';
import { parseVitestOutput } from './parsers/vitest';

/** The runners whose text output Lathe reads, in the words the excerpt uses when it reads none. */
export const TEXT_RUNNERS = 'mocha, jest, vitest, node:test (spec and TAP), TAP, pytest, unittest, go test and cargo test';

const PARSERS = [parseMochaOutput, parseJestOutput, parseVitestOutput, parseNodeSpecOutput, parseTapOutput, parsePytestOutput, parseUnittestOutput, parseGoOutput, parseCargoOutput];

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

/** A home-made runner's last `N passed, N failed[, N skipped]` line, when no known runner spoke. */
function parsePlainCounts(output: string): TestOutcome | null {
  const plain = [...output.matchAll(/^(?:\w+: )?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$/gm)].at(-1);
  if (!plain) return null;
  return { runner: 'plain', source: 'closing line', counts: makeCounts(Number(plain[1]), Number(plain[2]), Number(plain[3] ?? 0)), failures: [], summary: [plain[0].trim()] };
}
