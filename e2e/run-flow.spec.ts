import { makeExampleRepo } from '../test-support/exampleRepo';
import { makeTempDir } from '../test-support/tempRepo';
import { writeGateTranscript } from '../test-support/e2e/gateTranscript';
import { expect, test } from '../test-support/e2e/fixtures';
import { screen, watchPageProblems } from '../test-support/e2e/screens';

const GOAL =
  'median() returns the mean instead of the median. Fix median() in src/stats.js, test it, and document both functions in README.md.';

test('a replay run through the window: plan, diff, tests, a rejected then approved human gate, completion, history and undo', async ({
  app,
}) => {
  test.setTimeout(120_000);
  const repo = makeExampleRepo('js-stats');
  const spec = writeGateTranscript(makeTempDir('lathe-e2e-replay-'));
  const { page } = app;
  const problems = watchPageProblems(page);
  await page.reload();
  try {
    // Start screen: open the repository by path; its status and the empty model library.
    await page.getByLabel('Repository path').fill(repo.dir);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await expect(page.getByTestId('repo-branch')).toHaveText('main');
    await expect(page.getByTestId('repo-state')).toHaveText('clean');
    await expect(page.getByTestId('repo-test-command')).toContainText('node --test');
    await expect(page.getByTestId('no-models')).toBeVisible();
    await page.getByRole('button', { name: 'How to add a model' }).click();
    await expect(page.getByTestId('how-to-add-model')).toContainText('.gguf');
    await expect(page.getByTestId('no-models')).toContainText('models');
    await screen(page, '01-start-no-models');

    // The goal, the supervised workflow, the replay model, step gates in "both" mode.
    await page.getByLabel('Goal', { exact: true }).fill(GOAL);
    await page.getByRole('radio', { name: 'supervised' }).check();
    await expect(page.getByText('Supervisor-gated plan, code, step and goal')).toBeVisible();
    await page.getByLabel('Every role', { exact: true }).selectOption({ label: 'Custom spec…' });
    await page.getByLabel('Every role: custom model spec').fill(spec);
    await page.getByLabel(/^step gate/).selectOption('both');
    await expect(page.getByLabel(/^plan gate/)).toHaveValue('auto');
    await screen(page, '02-start-filled');
    await page.getByLabel('Goal', { exact: true }).press('Control+Enter');

    // Run view: the plan tree fills in and the first step gate waits for the user.
    await expect(page.getByTestId('run-view')).toBeVisible();
    const runId = new URL(page.url()).searchParams.get('run');
    expect(runId).toMatch(/^\d{8}T\d{6}Z/);
    const tree = page.getByTestId('plan-tree');
    await expect(tree.locator('[data-step-id="T1"]')).toContainText('Fix median()');
    await expect(tree.locator('[data-step-id="T2"]')).toContainText('after T1');
    const firstGate = page.getByTestId('pending-gate');
    await expect(firstGate).toContainText('step gate · T1');
    await expect(firstGate.getByTestId('gate-score')).toHaveText('64');
    await expect(firstGate).toContainText('gate threshold 70');
    await expect(firstGate).toContainText('No test covers an even-length list');
    // What the gate asks to approve: the step's files with line counts, its test result, the diff.
    await expect(firstGate.getByTestId('gate-subject')).toContainText('test/stats.test.js');
    await expect(firstGate.getByTestId('gate-test')).toContainText('Tests PASS');
    await expect(page.getByTestId('gate-badge')).toHaveText('1 gate waiting');
    await expect(page).toHaveTitle(/Gate waiting/);
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'waiting_for_gate');
    await expect(page.getByTestId('timeline')).toContainText('step gate waits for you');
    await screen(page, '03-run-gate-pending');

    // Test output: counts, the first failure highlighted in the report.
    await page.getByRole('tab', { name: /Tests/ }).click();
    await expect(page.getByTestId('test-status')).toHaveText('PASS');
    await page.getByRole('button', { name: /FAIL T1/ }).click();
    await expect(page.getByTestId('test-counts')).toContainText('2 passed');
    await expect(page.getByTestId('test-counts')).toContainText('2 failed');
    await expect(page.getByTestId('first-failure')).toContainText('median is the middle value of the sorted list');
    await expect(page.locator('[data-first-failure="true"]')).toBeVisible();
    await screen(page, '04-tests-first-failure');
    await page.getByRole('button', { name: 'Show full log' }).click();
    await expect(page.getByRole('log', { name: 'Full test log' })).toContainText('median');
    // node --test's own reporter noise (Node 20's MaxListenersExceededWarning) no longer opens the log the user reads.
    await expect(page.getByRole('log', { name: 'Full test log' })).not.toContainText('MaxListenersExceededWarning');
    await expect(page.locator('#run-tab-panel')).not.toContainText('MaxListenersExceededWarning');

    // Diff review: every change of the run in Monaco, with line counts; one edit set; inline.
    await page.getByRole('tab', { name: /Changes/ }).click();
    const files = page.getByTestId('file-list');
    await expect(files).toContainText('src/stats.js');
    await expect(files).toContainText('test/stats.test.js');
    await files.getByRole('button', { name: /src\/stats\.js/ }).click();
    await expect(page.locator('[data-testid="diff-editor"][data-diff-ready="true"]')).toBeVisible();
    await expect(page.locator('.monaco-diff-editor')).toBeVisible();
    await expect(page.locator('.monaco-diff-editor .modified-in-monaco-diff-editor')).toContainText('sorted');
    await screen(page, '05-changes-side-by-side');
    await page.getByLabel('Edit set').selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Inline' }).click();
    await expect(page.locator('[data-testid="diff-editor"][data-diff-ready="true"]')).toBeVisible();
    await screen(page, '06-changes-inline-first-commit');

    // Reject with a comment (R focuses the comment box), then the next gate of T1 waits.
    await page.getByRole('tab', { name: /Activity/ }).click();
    const firstGateId = await firstGate.getAttribute('data-gate-id');
    await page.getByRole('heading', { name: 'Plan', exact: true }).click();
    await page.keyboard.press('r');
    const comment = firstGate.getByLabel(/Comment for the agent/);
    await expect(comment).toBeFocused();
    await comment.fill('also add a test for an even-length list');
    await firstGate.getByRole('button', { name: /Reject with comment/ }).click();
    const secondGate = page.locator(`[data-testid="pending-gate"]:not([data-gate-id="${firstGateId}"])`);
    await expect(secondGate).toContainText('step gate · T1');
    await expect(secondGate.getByTestId('gate-score')).toHaveText('91');
    await expect(tree.locator('[data-step-id="T1"]')).toContainText('attempt 2/3');

    // Approve with the A shortcut; then approve T2's gate with the button.
    await page.getByRole('heading', { name: 'Plan', exact: true }).click();
    await page.keyboard.press('a');
    const thirdGate = page.locator('[data-testid="pending-gate"]');
    await expect(thirdGate).toContainText('step gate · T2');
    await screen(page, '07-second-gate-approved-third-pending');
    await thirdGate.getByRole('button', { name: /Approve/ }).click();

    // Completion.
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'complete');
    await expect(page.getByTestId('pending-gate')).toHaveCount(0);
    await expect(page.getByTestId('gate-badge')).toHaveCount(0);
    await expect(tree.locator('[data-step-id="T1"]')).toHaveAttribute('data-status', 'completed');
    await expect(tree.locator('[data-step-id="T2"]')).toHaveAttribute('data-status', 'completed');
    await expect(page.getByTestId('run-facts')).toContainText('2 of 2 completed');
    await expect(page.getByTestId('run-facts')).toContainText('(3 by you)');
    // The budget's numbers come from the core's projection: the five runs of the Tests tab (four green, the
    // first T1 run red), the last one named, and no failure counter left over from before the green runs.
    await expect(page.getByTestId('budget')).toContainText('Steps 2/2 done · verify runs 4 green, 1 red (last green)');
    await expect(page.getByTestId('meter-failures-in-a-row')).toHaveCount(0);
    await screen(page, '08-run-complete');
    await page.getByRole('tab', { name: /Gates/ }).click();
    const rejected = page.locator(`[data-gate-id="${firstGateId}"]`);
    await expect(rejected).toContainText('rejected');
    await expect(rejected).toContainText('also add a test for an even-length list');
    await screen(page, '09-gates');
    await page.getByRole('tab', { name: /Report/ }).click();
    await expect(page.getByTestId('report')).toContainText('report.md');
    await expect(page.getByTestId('report')).toContainText('pr-description.md');

    // The timeline filtered by role and type; one event's data.
    const timeline = page.getByTestId('timeline');
    await timeline.getByRole('button', { name: /^supervisor \d+$/ }).click();
    await timeline.getByLabel('Event type').selectOption({ label: 'verdict (8)' });
    await expect(timeline.locator('[role="listitem"]')).toHaveCount(8);
    await expect(timeline).toContainText('8 of 133 events');
    await timeline
      .locator('[role="listitem"][data-type="verdict"]')
      .filter({ hasText: '64/70' })
      .getByRole('button')
      .click();
    await expect(timeline.locator('.timeline-detail')).toContainText('"score": 64');
    await screen(page, '09b-report-and-filtered-timeline');
    await timeline.getByLabel('Event type').selectOption('');
    await timeline.getByRole('button', { name: /^supervisor \d+$/ }).click();

    // A deep link to one file's diff (what the perf bench loads): the editor is built while the texts are read.
    const changesLink = new URL(page.url());
    changesLink.search = new URLSearchParams({
      repo: repo.dir,
      run: runId ?? '',
      tab: 'changes',
      file: 'README.md',
    }).toString();
    await page.goto(changesLink.toString());
    await expect(
      page.locator('[data-testid="diff-editor"][data-path="README.md"][data-diff-ready="true"]'),
    ).toBeVisible();
    await expect(page.locator('.monaco-diff-editor .modified-in-monaco-diff-editor')).toContainText('## API');
    await expect(page.locator('html')).toHaveAttribute('data-run-view-ready', /^\d+(\.\d+)?$/);
    await expect(page.getByTestId('file-list').getByRole('button', { name: /README\.md/ })).toHaveAttribute(
      'aria-current',
      'true',
    );

    // History: the run with its status and commits; undo removes its branch.
    await page.getByRole('button', { name: 'History', exact: true }).click();
    const row = page.locator(`tr[data-run-id="${runId}"]`);
    await expect(row).toContainText('complete');
    await expect(row).toContainText('supervised');
    await expect(row.locator('td').nth(5)).toHaveText('4');
    await screen(page, '10-history');
    expect(repo.git('branch', '--list', `lathe/${runId}`)).toContain(`lathe/${runId}`);
    await row.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Undo the run' }).click();
    await expect(page.getByTestId('notices')).toContainText(`Run ${runId} undone`);
    await expect(row).toContainText('undone');
    await expect(row.getByRole('button', { name: 'Undo' })).toBeDisabled();
    expect(repo.git('branch', '--list', `lathe/${runId}`).trim()).toBe('');
    await screen(page, '11-history-undone');

    // Opening the run again replays its log read-only, with the undo recorded.
    await row.getByRole('button', { name: `Open run ${runId}` }).click();
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'complete');
    await expect(page.getByTestId('timeline')).toContainText('run undone');
    await expect(page.getByRole('button', { name: 'Resume', exact: true })).toBeDisabled();

    // A deep link straight to a tab of a run view (what the perf bench loads).
    const deepLink = new URL(page.url());
    deepLink.search = new URLSearchParams({ repo: repo.dir, run: runId ?? '', tab: 'tests' }).toString();
    await page.goto(deepLink.toString());
    await expect(page.getByRole('tab', { name: /Tests/ })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('test-detail')).toContainText('5 passed');
    expect(problems).toEqual([]);
  } finally {
    repo.remove();
  }
});
