import { makeTempRepo } from '../test-support/tempRepo';
import { expect, test } from '../test-support/e2e/fixtures';

test('opens a repository by path and shows its branch, state and empty runs list', async ({ app }, testInfo) => {
  const repo = makeTempRepo({
    branch: 'feature/e2e-check',
    files: { 'src/index.js': 'export const a = 1;\n', 'README.md': '# fixture\n' },
  });
  repo.write('src/index.js', 'export const a = 2;\n');
  try {
    const { page } = app;
    await expect(page.getByTestId('app-version')).toHaveText(/^v\d+\.\d+\.\d+/);
    await expect(page.getByRole('status', { name: 'connection' })).toHaveText('connected');
    expect(page.url()).not.toContain('token=');

    await page.getByLabel('Repository path').fill(repo.dir);
    await page.getByRole('button', { name: 'Open', exact: true }).click();

    await expect(page.getByTestId('repo-branch')).toHaveText('feature/e2e-check');
    await expect(page.getByTestId('repo-state')).toHaveText('dirty: 1 changed file');
    await expect(page.getByRole('list', { name: 'changed files' })).toContainText('src/index.js');
    await expect(page.getByTestId('runs-empty')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('start-screen.png'), fullPage: true });
  } finally {
    repo.remove();
  }
});

test('shows a clear error for a folder that is not a repository', async ({ app }) => {
  const { page } = app;
  await page.getByLabel('Repository path').fill('/');
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('not inside a git repository');
});
