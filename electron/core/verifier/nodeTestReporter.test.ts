import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { verify } from './verify';

const repos: TempRepo[] = [];
const dirs: string[] = [];
afterEach(() => {
  repos.splice(0).forEach((repo) => repo.remove());
  dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
});

const PROJECT = {
  'package.json': '{"type":"module"}\n',
  'src/half.js': 'export function half(n) {\n  if (n < 0) {\n    return -half(-n);\n  }\n  return n / 2;\n}\n',
  'test/half.test.js':
    "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { half } from '../src/half.js';\ntest('halves', () => assert.equal(half(4), 2));\ntest('fails', () => assert.equal(half(4), 3));\n",
};

describe('node --test with coverage (the supervised workflow asks for it on every step)', () => {
  it('writes JUnit and lcov without a MaxListenersExceededWarning at the top of the test log', async () => {
    const repo = makeTempRepo({ files: PROJECT });
    repos.push(repo);
    const artifactRoot = makeTempDir('lathe-artifacts-');
    dirs.push(artifactRoot);
    const result = await verify({
      workDir: repo.dir,
      argv: ['node', '--test'],
      timeoutMs: 60_000,
      artifactRoot,
      coverageFor: ['src/half.js'],
    });
    const log = fs.readFileSync(result.logPath, 'utf8');
    expect(log).not.toMatch(/MaxListenersExceededWarning|Warning:/);
    expect(log.split('\n')[0]).toMatch(/^✔ halves/);
    expect(result).toMatchObject({
      status: 'FAIL',
      counts: { passed: 1, failed: 1, total: 2 },
      firstFailure: { testId: 'fails' },
    });
    // Lines 2-3 (the negative branch) never run: node's own lcov reporter counts 4 of 6 lines.
    expect(result.coverage?.files['src/half.js']).toBeCloseTo((4 / 6) * 100, 0);
  });
});
