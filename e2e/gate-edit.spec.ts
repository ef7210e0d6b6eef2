import { makeExampleRepo } from '../test-support/exampleRepo';
import { makeTempDir } from '../test-support/tempRepo';
import { writeSlowCoderTranscript } from '../test-support/e2e/gateTranscript';
import { expect, test } from '../test-support/e2e/fixtures';
import { screen, watchPageProblems } from '../test-support/e2e/screens';

/** Issue 29: the person edits a pending code gate's change in the diff and approves with the edits. */

const GOAL = 'Fix median() in src/stats.js so the median test passes.';
const USER_LINE = '// Reviewed at the code gate by a person.';

test('a pending code gate: edit its diff in Monaco, approve with the edits, the branch carries them as the user’s commit', async ({
  app,
}) => {
  test.setTimeout(120_000);
  const { page } = app;
  const problems = watchPageProblems(page);
  const repo = makeExampleRepo('js-stats');
  const replays = makeTempDir('lathe-e2e-replay-');
  try {
    await page.getByRole('button', { name: 'New run', exact: true }).click();
    await page.getByLabel('Repository path').fill(repo.dir);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await expect(page.getByTestId('repo-branch')).toHaveText('main');
    await page.getByLabel('Goal', { exact: true }).fill(GOAL);
    await page.getByRole('radio', { name: 'dev-agent' }).check();
    await page.getByLabel('Every role', { exact: true }).selectOption({ label: 'Custom spec…' });
    await page.getByLabel('Every role: custom model spec').fill(writeSlowCoderTranscript(replays, 'coder', 0));
    await page.getByLabel(/^code gate/).selectOption('human');
    await page.getByLabel(/^step gate/).selectOption('off');
    await page.getByRole('button', { name: 'Start run' }).click();
    await expect(page.getByTestId('run-view')).toBeVisible();
    await expect.poll(() => new URL(page.url()).searchParams.get('run')).toMatch(/^\d{8}T\d{6}Z/);
    const runId = new URL(page.url()).searchParams.get('run') ?? '';

    // The code gate waits; its diff opens in the Changes tab, editable.
    const gate = page.getByTestId('pending-gate');
    await expect(gate).toContainText('code gate', { timeout: 30_000 });
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'waiting_for_gate');
    const gateHead = repo.git('rev-parse', `lathe/${runId}`).trim();
    await gate.getByRole('button', { name: /^Open the diff/ }).click();
    await expect(page.getByRole('tab', { name: /Changes/ })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('gate-edit-note')).toBeVisible();
    await page
      .getByTestId('file-list')
      .getByRole('button', { name: /src\/stats\.js/ })
      .click();
    await expect(
      page.locator('[data-testid="diff-editor"][data-path="src/stats.js"][data-diff-ready="true"]'),
    ).toBeVisible();
    const modified = page.locator('.monaco-diff-editor .modified-in-monaco-diff-editor');
    await expect(modified).toContainText('sorted');
    await modified.locator('.view-lines').click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.type(USER_LINE);
    await page.keyboard.press('Enter');
    await expect(modified).toContainText(USER_LINE);
    await expect(page.getByTestId('gate-edit-note')).toContainText('1 file edited.');

    // The gate card offers the edits; before approving, a look at it.
    await page.getByRole('tab', { name: /Activity/ }).click();
    const approveEdits = gate.getByTestId('approve-with-edits');
    await expect(approveEdits).toHaveText('Approve with my edits (1 file)');
    await expect(approveEdits).toHaveAttribute('title', 'src/stats.js');
    // The whole card, from its title down to its buttons.
    await page.mouse.wheel(0, -5000);
    await expect(gate).toBeInViewport();
    await screen(page, 'gate-edit', { fullPage: false });
    await approveEdits.click();

    // The run verifies the edit and completes; the branch's head is the person's commit.
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });
    await expect(page.getByTestId('pending-gate')).toHaveCount(0);
    const head = repo.git('rev-parse', `lathe/${runId}`).trim();
    expect(head).not.toBe(gateHead);
    const userCommit = repo.git('log', '--format=%H', `${gateHead}..lathe/${runId}`).trim().split('\n');
    expect(userCommit).toHaveLength(1);
    expect(repo.git('log', '-1', '--format=%B', userCommit[0] ?? '')).toMatch(/^Lathe-Role: user$/m);
    const content = repo.git('show', `lathe/${runId}:src/stats.js`);
    expect(content.split('\n')[0]).toBe(USER_LINE);
    expect(content).toContain('const sorted = [...values].sort((a, b) => a - b);');

    // The timeline says the person edited the gate's change.
    const timeline = page.getByTestId('timeline');
    const userEdit = timeline.locator('[role="listitem"][data-type="user_edit"]');
    await expect(userEdit).toHaveCount(1);
    await expect(userEdit).toContainText('you edited 1 file at the code gate');
    await userEdit.scrollIntoViewIfNeeded();
    await screen(page, 'gate-edit-committed', { fullPage: false });
    expect(problems).toEqual([]);
  } finally {
    repo.remove();
  }
});
