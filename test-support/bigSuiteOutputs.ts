/**
 * What a big suite's run prints, for each runner whose text names every test (the inventory's test and
 * bench/inventory.ts read the same): `size` passing tests, and their JUnit XML in 50 pytest modules.
 */
export function bigSuiteTexts(size: number): Record<string, string> {
  const many = (line: (index: number) => string) => Array.from({ length: size }, (_, index) => line(index)).join('\n');
  return {
    mocha: `\n  suite\n${many((index) => `    ✔ test ${index}`)}\n\n  ${size} passing (3s)\n`,
    tap: `TAP version 13\n${many((index) => `# Subtest: t${index}\nok ${index + 1} - t${index}\n  ---\n  duration_ms: 0.1\n  ...`)}\n1..${size}\n# tests ${size}\n# pass ${size}\n# fail 0\n`,
    go: `${many((index) => `=== RUN   TestX${index}\n--- PASS: TestX${index} (0.00s)`)}\nPASS\nok  \texample.com/x\t0.1s\n`,
    pytest: `${many((index) => `tests/test_a.py::test_${index} PASSED [ 50%]`)}\n=== ${size} passed in 3.00s ===\n`,
    cargo: `${many((index) => `test m::t${index} ... ok`)}\ntest result: ok. ${size} passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n`,
  };
}

export const BIG_SUITE_MODULES = 50;

export function bigSuiteJUnit(size: number): string {
  const cases = Array.from(
    { length: size },
    (_, index) =>
      `<testcase classname="tests.test_m${index % BIG_SUITE_MODULES}.TestCase" name="test_${index}" time="0.001"/>`,
  );
  return `<?xml version="1.0"?><testsuites><testsuite name="pytest">${cases.join('\n')}</testsuite></testsuites>`;
}
