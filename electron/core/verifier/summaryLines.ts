import type { TestCounts } from '../workspace/types';
import { firstLines, type TestOutcome } from './junit';

/* eslint-disable no-control-regex -- ANSI colour codes are control characters by definition */
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
/* eslint-enable no-control-regex */

function counts(passed: number, failed: number, skipped: number, total?: number): TestCounts {
  return { passed, failed, skipped, total: total ?? passed + failed + skipped };
}

/**
 * Counts from a runner's closing lines when it wrote no JUnit: pytest, node --test (spec and TAP),
 * jest, vitest, cargo, go -v and the plain `N passed, N failed`. Null when none matches.
 */
export function parseSummaryLines(raw: string): TestOutcome | null {
  const output = raw.replace(ANSI, '');
  const outcome = parseCounts(output);
  if (!outcome) return null;
  return { counts: outcome, firstFailure: findFirstFailure(output) };
}

function number(text: string, pattern: RegExp): number {
  const match = pattern.exec(text);
  return match ? Number(match[1]) : 0;
}

function parseCounts(output: string): TestCounts | null {
  const lines = output.split('\n');
  const pytest = lines.reverse().find((line) => /^=+ .*\b(passed|failed|error|errors|skipped|no tests ran)\b.* in [\d.]+s/.test(line) || /^\d+ (passed|failed)\b.* in [\d.]+s/.test(line));
  if (pytest) {
    const failed = number(pytest, /(\d+) failed/) + number(pytest, /(\d+) errors?/);
    return counts(number(pytest, /(\d+) passed/), failed, number(pytest, /(\d+) skipped/) + number(pytest, /(\d+) xfailed/));
  }
  const nodeTests = /^(?:ℹ|#) tests (\d+)$/m.exec(output);
  if (nodeTests) {
    const skipped = number(output, /^(?:ℹ|#) skipped (\d+)$/m) + number(output, /^(?:ℹ|#) todo (\d+)$/m);
    return counts(number(output, /^(?:ℹ|#) pass (\d+)$/m), number(output, /^(?:ℹ|#) fail (\d+)$/m), skipped, Number(nodeTests[1]));
  }
  const jest = /^Tests:\s+(.*\d+ total)$/m.exec(output);
  if (jest) {
    const line = jest[1] as string;
    return counts(number(line, /(\d+) passed/), number(line, /(\d+) failed/), number(line, /(\d+) skipped/) + number(line, /(\d+) todo/), number(line, /(\d+) total/));
  }
  const vitest = /^\s*Tests\s+(.*\(\d+\))\s*$/m.exec(output);
  if (vitest) {
    const line = vitest[1] as string;
    return counts(number(line, /(\d+) passed/), number(line, /(\d+) failed/), number(line, /(\d+) skipped/) + number(line, /(\d+) todo/), number(line, /\((\d+)\)/));
  }
  const cargo = [...output.matchAll(/^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored/gm)];
  if (cargo.length > 0) {
    const sum = (index: number) => cargo.reduce((total, match) => total + Number(match[index]), 0);
    return counts(sum(1), sum(2), sum(3));
  }
  const goPass = (output.match(/^\s*--- PASS: /gm) ?? []).length;
  const goFail = (output.match(/^\s*--- FAIL: /gm) ?? []).length;
  const goSkip = (output.match(/^\s*--- SKIP: /gm) ?? []).length;
  if (goPass + goFail + goSkip > 0) return counts(goPass, goFail, goSkip);
  const plain = [...output.matchAll(/^(?:\w+: )?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$/gm)].at(-1);
  if (plain) return counts(Number(plain[1]), Number(plain[2]), Number(plain[3] ?? 0));
  return null;
}

function findFirstFailure(output: string): TestOutcome['firstFailure'] {
  const pytest = /^FAILED (\S+)(?: - (.*))?$/m.exec(output);
  if (pytest) return { testId: pytest[1] as string, message: firstLines(pytest[2] ?? '') };
  const nodeSpec = /^\s*✖ (.+?)(?: \([\d.]+m?s\))?$/m.exec(output);
  if (nodeSpec) return { testId: (nodeSpec[1] as string).trim(), message: firstLines(/^\s+(?:AssertionError|Error)[^\n]*$/m.exec(output)?.[0]?.trim() ?? '') };
  const tap = /^not ok \d+ - (.+)$/m.exec(output);
  if (tap) return { testId: (tap[1] as string).trim(), message: '' };
  const jest = /^\s*● (.+)$/m.exec(output);
  if (jest) return { testId: (jest[1] as string).trim(), message: '' };
  const cargo = /^test (\S+) \.\.\. FAILED$/m.exec(output);
  if (cargo) return { testId: cargo[1] as string, message: '' };
  const go = /^\s*--- FAIL: (\S+)/m.exec(output);
  if (go) return { testId: go[1] as string, message: '' };
  return null;
}
