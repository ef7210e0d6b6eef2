import fs from 'node:fs';
import path from 'node:path';
import { writeJunkGguf } from '../test-support/gguf';
import { makeTempDir, makeTempRepo } from '../test-support/tempRepo';
import { expect, test } from '../test-support/e2e/fixtures';
import { screen, watchPageProblems } from '../test-support/e2e/screens';

test("the core's start checks show beside their fields, and nothing is created", async ({ app }) => {
  // No package.json test script, no pytest, no Makefile: no test command is detected.
  const repo = makeTempRepo({ files: { 'README.md': '# notes\n', 'src/a.js': 'export const a = 1;\n' } });
  const junk = writeJunkGguf(makeTempDir('lathe-e2e-models-'));
  const { page } = app;
  const problems = watchPageProblems(page);
  await page.reload();
  try {
    await page.getByLabel('Repository path').fill(repo.dir);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await expect(page.getByTestId('repo-branch')).toHaveText('main');

    await page.getByLabel('Goal', { exact: true }).fill('Add a function b() next to a()');
    await page.getByLabel('Every role', { exact: true }).selectOption({ label: 'Custom spec…' });
    await page.getByLabel('Every role: custom model spec').fill(`llama:${junk}`);
    await page.getByRole('button', { name: 'Start run' }).click();

    const modelProblem = page.locator('#model-all-problem');
    await expect(modelProblem).toContainText(`${junk} cannot be used: not a GGUF file`);
    await expect(page.getByLabel('Every role', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    const testProblem = page.locator('#test-command-problem');
    await expect(testProblem).toContainText('No test command: none is configured and none was found');
    await expect(page.getByLabel('Test command')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('run-view')).toHaveCount(0);
    await screen(page, 'start-preflight-errors');

    expect(repo.git('for-each-ref', '--format=%(refname)', 'refs/heads')).toBe('refs/heads/main');
    expect(repo.git('worktree', 'list').split('\n')).toHaveLength(1);
    expect(fs.existsSync(path.join(repo.dir, '.lathe', 'runs'))).toBe(false);
    expect(problems).toEqual([]);
  } finally {
    repo.remove();
  }
});
