import { parseGoldPatch, type GoldFile } from '../electron/core/llm/oracle/goldPatch';
import { gitPatch } from './gitPatch';

/** Generated files for the fault spoilers: a Python and a JavaScript module with one bug each, their gold patches and tests. */
const filler = (name: string) =>
  `def ${name}(values):\n    # Walk the values once\n    # and keep a running total.\n    total = 0\n    for value in values:\n        total += value\n    return total\n\n\n`;
export const PY_BEFORE = [
  '"""Statistics helpers."""\n\n\n',
  filler('first_total'),
  filler('second_total'),
  'def _unused_helper(values):\n    return list(values)\n\n\n',
  'def middle(values):\n    """Return the middle value."""\n    if not values:\n        raise ValueError("no values")\n    values = list(values)\n    ordered = sorted(values)\n    return ordered[0]\n\n\n',
  'def describe(values):\n    """Describe the values.\n\n    Joined by commas, with their count.\n    """\n    result = []\n    for value in values:\n        result.append(str(value))\n    count = len(result)\n    return ", ".join(result) + " (%d)" % count\n\n\n',
  filler('third_total'),
  filler('fourth_total'),
].join('');
export const PY_AFTER = PY_BEFORE.replace('    return ordered[0]\n', '    return ordered[len(ordered) // 2]\n');
export const PY_TEST =
  'from stats import middle, describe\n\n\ndef test_describe():\n    assert describe([1]) == "1 (1)"\n\n\ndef test_middle():\n    values = [3, 1, 2]\n    assert middle(values) == 2\n';

const jsFiller = (name: string) =>
  `/**\n * Sums the values.\n * Used by the reports.\n */\nfunction ${name}(values) {\n  let total = 0;\n  for (const value of values) {\n    total += value;\n  }\n  return total;\n}\n\n`;
export const JS_BEFORE = [
  jsFiller('firstTotal'),
  jsFiller('secondTotal'),
  'function middle(values) {\n  const ordered = [...values].sort((a, b) => a - b);\n  return ordered[0];\n}\n\n',
  jsFiller('thirdTotal'),
  jsFiller('fourthTotal'),
  'module.exports = { middle, firstTotal, secondTotal, thirdTotal, fourthTotal };\n',
].join('');
export const JS_AFTER = JS_BEFORE.replace(
  '  return ordered[0];\n',
  '  return ordered[Math.floor(ordered.length / 2)];\n',
);
export const JS_TEST =
  "const assert = require('node:assert');\nconst test = require('node:test');\nconst { middle } = require('../lib/stats');\n\ntest('middle of three', () => {\n  assert.strictEqual(middle([3, 1, 2]), 2);\n});\n";

export function goldOf(before: Record<string, string>, after: Record<string, string>): GoldFile[] {
  const parsed = parseGoldPatch(gitPatch(before, after));
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.patch.files;
}

/** Each fixture: its gold files, what the writer is shown (the module and its test), and the failing test's feedback. */
export const CASES: { name: string; gold: GoldFile[]; shown: Record<string, string>; feedback: string }[] = [
  {
    name: 'Python',
    gold: goldOf({ 'stats.py': PY_BEFORE }, { 'stats.py': PY_AFTER }),
    shown: { 'stats.py': PY_BEFORE, 'tests/test_stats.py': PY_TEST },
    feedback: 'FAILED tests/test_stats.py::test_middle - assert 1 == 2',
  },
  {
    name: 'JavaScript',
    gold: goldOf({ 'lib/stats.js': JS_BEFORE }, { 'lib/stats.js': JS_AFTER }),
    shown: { 'lib/stats.js': JS_BEFORE, 'test/stats.test.js': JS_TEST },
    feedback: 'not ok 1 - middle of three',
  },
];
