import { readReplay, writeReplay } from '../exampleRepo';

interface Entry {
  role: string;
  json?: unknown;
}

/**
 * The bundled supervised transcript for js-stats, reshaped for step gates in `both` mode: the
 * Supervisor scores T1's step below its threshold, the user rejects it with a comment, the Coder adds
 * the asked-for test in a second attempt, and every later gate passes. Per role, in call order.
 */
export function writeGateTranscript(dir: string): string {
  const bundled = readReplay('js-stats.supervised.json').outputs as Entry[];
  const byRole = (role: string) => bundled.filter((entry) => entry.role === role);
  const [plan] = byRole('planner');
  const [coderT1, coderFix, coderT2] = byRole('coder');
  const [testerFail, testerPass, testerT2] = byRole('tester');
  const [planGate, fixPlanReview, codeGateT1, , codeGateT2, stepGateT2, goalGate] = byRole('supervisor');
  if (
    !plan ||
    !coderT1 ||
    !coderFix ||
    !coderT2 ||
    !testerFail ||
    !testerPass ||
    !testerT2 ||
    !planGate ||
    !fixPlanReview ||
    !codeGateT1 ||
    !codeGateT2 ||
    !stepGateT2 ||
    !goalGate
  ) {
    throw new Error('the bundled supervised transcript changed shape');
  }
  const evenLengthTest = {
    role: 'coder',
    json: {
      edits: [
        {
          path: 'test/stats.test.js',
          search: '  assert.deepEqual(values, [3, 1, 2]);\n});\n',
          replace:
            "  assert.deepEqual(values, [3, 1, 2]);\n});\n\ntest('median of an even-length list is the mean of the middle pair', () => {\n  assert.equal(median([4, 1, 3, 2]), 2.5);\n});\n",
        },
      ],
    },
  };
  const stepGateLow = {
    role: 'supervisor',
    json: {
      approved: false,
      score: 64,
      issues: ['No test covers an even-length list'],
      feedback: 'median() looks right, but add a test for an even-length list.',
    },
  };
  const supervisor = (score: number, feedback: string) => ({
    role: 'supervisor',
    json: { approved: true, score, issues: [], feedback },
  });
  return writeReplay(dir, 'js-stats.supervised-human-gates', [
    plan,
    planGate,
    coderT1,
    testerFail,
    fixPlanReview,
    coderFix,
    testerPass,
    codeGateT1,
    stepGateLow,
    evenLengthTest,
    {
      role: 'tester',
      json: {
        task_id: 'T1',
        summary: 'All five tests pass, including the even-length case.',
        findings: [],
        fix_plan: [],
      },
    },
    supervisor(90, 'The new test covers the even-length case.'),
    supervisor(91, 'Step complete: tests pass, including the new one.'),
    coderT2,
    testerT2,
    codeGateT2,
    stepGateT2,
    goalGate,
  ]);
}

/**
 * A dev-agent transcript whose one Coder answer (the whole fix) comes after `delayMs`, so a test can
 * pause or stop the run while the Coder works. The answer is there twice: a stopped call uses up its
 * entry, and the resumed run then takes the second one.
 */
/** The dev-agent Coder's whole fix of js-stats' median(), as a unified diff. */
export const MEDIAN_FIX = {
  diff: "--- a/src/stats.js\n+++ b/src/stats.js\n@@ -7,5 +7,7 @@\n /** Middle value of a non-empty list of numbers (the mean of the two middle values for an even count). */\n export function median(values) {\n   if (values.length === 0) throw new RangeError('median() of an empty list');\n-  return mean(values);\n+  const sorted = [...values].sort((a, b) => a - b);\n+  const middle = Math.floor(sorted.length / 2);\n+  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;\n }\n",
};

export function writeSlowCoderTranscript(dir: string, name: string, delayMs: number): string {
  return writeReplay(dir, name, [
    { role: 'coder', json: MEDIAN_FIX, delay_ms: delayMs },
    { role: 'coder', json: MEDIAN_FIX },
  ]);
}

/**
 * The bundled supervised transcript for js-stats without the Supervisor: for a run whose plan, step and
 * goal gates are human and whose code gate is off, so only the Planner, the Coder and the Tester answer.
 */
export function writeHumanGatesTranscript(dir: string): string {
  const bundled = readReplay('js-stats.supervised.json').outputs as Entry[];
  return writeReplay(
    dir,
    'js-stats.supervised-human-only',
    bundled.filter((entry) => entry.role !== 'supervisor'),
  );
}
