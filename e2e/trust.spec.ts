import type { Page } from '@playwright/test';
import { makeExampleRepo, writeReplay } from '../test-support/exampleRepo';
import { makeTempDir } from '../test-support/tempRepo';
import { writeHumanGatesTranscript, writeSlowCoderTranscript } from '../test-support/e2e/gateTranscript';
import { expect, test } from '../test-support/e2e/fixtures';
import { screen, watchPageProblems } from '../test-support/e2e/screens';
import { startDevAgentRun } from '../test-support/e2e/startRun';

/** What a newcomer and a daily user meet in the window: issue 16's window items, each seen in Chromium. */

const GOAL =
  'median() returns the mean instead of the median. Fix median() in src/stats.js, test it, and document both functions in README.md.';

/** The element that has the focus, as `#id` or the tag name (BODY when the focus was dropped). */
function activeElementName(): string {
  const active = (globalThis as unknown as { document: { activeElement: { id: string; tagName: string } | null } })
    .document.activeElement;
  return active?.id ? `#${active.id}` : (active?.tagName ?? 'none');
}
const focused = (page: Page) => page.evaluate(activeElementName);

test('history takes undo and merge from the runs themselves, also after a reload; undoing a merged run warns first', async ({
  app,
}) => {
  test.setTimeout(120_000);
  const { page } = app;
  const problems = watchPageProblems(page);
  await page.reload();
  const repo = makeExampleRepo('js-stats');
  const replays = makeTempDir('lathe-e2e-replay-');
  try {
    const merged = await startDevAgentRun(page, repo.dir, writeSlowCoderTranscript(replays, 'first', 0));
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });
    const undone = await startDevAgentRun(page, repo.dir, writeSlowCoderTranscript(replays, 'second', 0));
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });

    await page.getByRole('button', { name: 'History', exact: true }).click();
    const mergedRow = page.locator(`tr[data-run-id='${merged}']`);
    const undoneRow = page.locator(`tr[data-run-id='${undone}']`);
    await undoneRow.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByRole('dialog').getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.getByRole('dialog').getByRole('button', { name: 'Undo the run' }).click();
    await expect(page.getByTestId('notices')).toContainText(`Run ${undone} undone`);
    await mergedRow.getByRole('button', { name: 'Merge' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Merge' }).click();
    await expect(page.getByTestId('notices')).toContainText(`Run ${merged} merged`);

    // A reload forgets everything the window held: what it shows now comes from the runs.
    await page.reload();
    await expect(undoneRow).toContainText('complete');
    await expect(undoneRow.getByTestId('run-closed')).toHaveText('undone');
    for (const action of ['Merge', 'Export patch', 'Undo'])
      await expect(undoneRow.getByRole('button', { name: action, exact: true })).toBeDisabled();
    await expect(mergedRow.getByTestId('run-closed')).toHaveText('merged into main');
    await expect(mergedRow.getByRole('button', { name: 'Merge', exact: true })).toBeDisabled();
    await expect(mergedRow.getByRole('button', { name: 'Merge', exact: true })).toHaveAttribute(
      'title',
      'Already merged into main.',
    );
    await expect(mergedRow.getByRole('button', { name: 'Undo', exact: true })).toBeEnabled();
    await screen(page, 'trust-01-history-after-reload');

    // The run view of each says the same.
    const runView = page.getByTestId('run-view');
    await undoneRow.getByRole('button', { name: `Open run ${undone}` }).click();
    await expect(runView.getByTestId('run-closed')).toHaveText('undone');
    await page.goBack();
    await mergedRow.getByRole('button', { name: `Open run ${merged}` }).click();
    await expect(runView.getByTestId('run-closed')).toHaveText('merged into main');
    await page.goBack();

    // Undoing the merged run moves main back: the dialog says so, and the safe button has the focus.
    const base = repo.git('rev-parse', `lathe/${merged}~1`).trim();
    await mergedRow.getByRole('button', { name: 'Undo', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('undo-merged-warning')).toContainText(
      'This run was merged into main: undo moves main back',
    );
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await screen(page, 'trust-02-undo-merged-warning');
    await dialog.getByRole('button', { name: 'Undo the run' }).click();
    await expect(page.getByTestId('notices')).toContainText(`Run ${merged} undone`);
    expect(repo.git('rev-parse', 'main').trim()).toBe(base);
    await page.reload();
    await expect(mergedRow.getByTestId('run-closed')).toHaveText('undone');
    expect(problems).toEqual([]);
  } finally {
    repo.remove();
  }
});

test('human gates show what is approved, keep the focus off <body>, and credit the user for the goal', async ({
  app,
}) => {
  test.setTimeout(120_000);
  const { page } = app;
  const problems = watchPageProblems(page);
  await page.reload();
  const repo = makeExampleRepo('js-stats');
  try {
    await page.getByLabel('Repository path').fill(repo.dir);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByLabel('Goal', { exact: true }).fill(GOAL);
    await page.getByRole('radio', { name: 'supervised' }).check();
    await page.getByLabel('Every role', { exact: true }).selectOption({ label: 'Custom spec…' });
    await page
      .getByLabel('Every role: custom model spec')
      .fill(writeHumanGatesTranscript(makeTempDir('lathe-e2e-replay-')));
    await page.getByLabel(/^plan gate/).selectOption('human');
    await page.getByLabel(/^code gate/).selectOption('off');
    await page.getByLabel(/^step gate/).selectOption('human');
    await page.getByLabel(/^goal gate/).selectOption('human');
    await page.getByLabel('Goal', { exact: true }).press('Control+Enter');

    // After Start the focus is on the run, not dropped on <body>.
    await expect(page.getByTestId('run-view')).toBeVisible();
    await expect.poll(() => focused(page)).toMatch(/^#(run-goal|gate-.*-heading)$/);

    const gate = page.getByTestId('pending-gate');
    await expect(gate).toContainText('plan gate');
    const subject = gate.getByTestId('gate-subject');
    await expect(subject).toContainText('The plan under review');
    await expect(subject.locator('[data-step-id="T1"]')).toContainText('Fix median()');
    await expect(subject.locator('[data-step-id="T2"]')).toContainText('after T1');
    await screen(page, 'trust-03-plan-gate');
    await gate.getByRole('button', { name: /Approve/ }).click();

    // The step gate: the files with their line counts, the test result, and the diff one click away.
    await expect(gate).toContainText('step gate · T1', { timeout: 20_000 });
    await expect.poll(() => focused(page)).not.toBe('BODY');
    await expect(subject).toContainText('src/stats.js');
    await expect(subject.getByLabel(/lines added/).first()).toHaveText(/^\+\d+$/);
    await expect(subject.getByTestId('gate-test')).toContainText('Tests PASS');
    await expect(subject.getByTestId('gate-test')).toContainText('passed, 0 failed');
    await screen(page, 'trust-04-step-gate');
    // T1 took two edit sets (a fix cycle): one link each, each opening exactly that commit.
    await subject.getByRole('button', { name: /Open the diff of commit 1 of 2/ }).click();
    await expect(page.getByRole('tab', { name: /Changes/ })).toHaveAttribute('aria-selected', 'true');
    await expect.poll(() => new URL(page.url()).searchParams.get('range')).toMatch(/^[0-9a-f]{40}$/);
    await expect(page.getByTestId('file-list')).toContainText('test/stats.test.js');
    await expect(page.locator('#diff-range')).toHaveValue(new URL(page.url()).searchParams.get('range') ?? '');
    await page.getByRole('tab', { name: /Activity/ }).click();
    await gate.getByRole('button', { name: /Approve/ }).click();

    await expect(gate).toContainText('step gate · T2', { timeout: 20_000 });
    await expect.poll(() => focused(page)).not.toBe('BODY');
    await expect(subject).toContainText('README.md');
    await gate.getByRole('button', { name: /Approve/ }).click();

    await expect(gate).toContainText('goal gate', { timeout: 20_000 });
    await expect(subject).toContainText('the run’s whole change');
    await expect(subject.getByRole('button', { name: /Open the diff of every change/ })).toBeVisible();
    await expect(subject.getByLabel(/lines added/)).toHaveCount(3);
    await screen(page, 'trust-05-goal-gate');
    await gate.getByRole('button', { name: /Approve/ }).click();

    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
    await expect.poll(() => focused(page)).toBe('#run-goal');
    await expect(page.getByTestId('run-outcome')).toContainText('the user confirmed the goal is met at the goal gate');
    await expect(page.getByTestId('activity')).toContainText('the user confirmed the goal is met');
    await expect(page.getByTestId('activity')).not.toContainText('the Supervisor confirmed');
    await screen(page, 'trust-06-complete-credited-to-user');
    await page.getByRole('tab', { name: /Report/ }).click();
    await expect(page.getByTestId('report')).toContainText('the user confirmed the goal is met at the goal gate');
    expect(problems).toEqual([]);
  } finally {
    repo.remove();
  }
});

test('a run that ends on an error says which, in its header', async ({ app }) => {
  test.setTimeout(90_000);
  const { page } = app;
  const problems = watchPageProblems(page);
  await page.reload();
  const repo = makeExampleRepo('js-stats');
  const replays = makeTempDir('lathe-e2e-replay-');
  try {
    // A Planner that never answers with a plan: the run runs out of plan attempts, and says why.
    const rambling = Array.from({ length: 40 }, () => ({
      role: 'planner',
      raw: 'I would start by reading the code carefully.',
    }));
    await startWithSpec(page, repo.dir, 'minimal', writeReplay(replays, 'rambling-planner', rambling));
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'failed', { timeout: 30_000 });
    const outcome = page.getByTestId('run-outcome');
    await expect(outcome).toContainText(/planning failed after \d plan\(s\): The Planner failed: INVALID_OUTPUT/);
    await screen(page, 'trust-07-headline-planning-cause');

    // A model that cannot answer at all ends the run at once with its error code.
    await startWithSpec(page, repo.dir, 'minimal', writeReplay(replays, 'no-planner', [{ role: 'coder', raw: '{}' }]));
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'failed', { timeout: 30_000 });
    await expect(outcome.locator('.outcome-code')).toHaveText('REPLAY_EXHAUSTED');
    await expect(outcome).toContainText('not retried');
    await screen(page, 'trust-08-headline-model-error');
    expect(problems).toEqual([]);
  } finally {
    repo.remove();
  }
});

// The access link is `lathe serve`'s.
test(
  'the start form keeps what was typed across a run and a reload; a custom spec hides the no-model help; a tokenless address says how to get a link',
  { tag: '@web-only' },
  async ({ app, serveUrl }) => {
    test.setTimeout(90_000);
    const { page } = app;
    const problems = watchPageProblems(page);
    await page.reload();
    const repo = makeExampleRepo('js-stats');
    const spec = writeSlowCoderTranscript(makeTempDir('lathe-e2e-replay-'), 'coder', 0);
    try {
      await page.getByLabel('Repository path').fill(repo.dir);
      await page.getByRole('button', { name: 'Open', exact: true }).click();
      await expect(page.getByTestId('no-models')).toBeVisible();
      await page.getByLabel('Goal', { exact: true }).fill('Fix median() in src/stats.js so the median test passes.');
      await page.getByRole('radio', { name: 'dev-agent' }).check();
      await page.getByLabel('Every role', { exact: true }).selectOption({ label: 'Custom spec…' });
      await page.getByLabel('Every role: custom model spec').fill(spec);
      await expect(page.getByTestId('no-models')).toHaveCount(0);
      await page.getByLabel(/^step gate/).selectOption('off');
      await page.getByLabel('Time limit (minutes)').fill('30');
      await screen(page, 'trust-09-start-custom-spec');
      await page.getByRole('button', { name: 'Start run' }).click();
      await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });

      for (const again of ['after the run', 'after a reload']) {
        if (again === 'after a reload') await page.reload();
        await page.getByRole('button', { name: 'New run', exact: true }).click();
        await expect(page.getByLabel('Goal', { exact: true }), again).toHaveValue(
          'Fix median() in src/stats.js so the median test passes.',
        );
        await expect(page.getByRole('radio', { name: 'dev-agent' }), again).toBeChecked();
        await expect(page.getByLabel('Every role: custom model spec'), again).toHaveValue(spec);
        await expect(page.getByLabel(/^step gate/), again).toHaveValue('off');
        await expect(page.getByLabel('Time limit (minutes)'), again).toHaveValue('30');
        await expect(page.getByTestId('no-models'), again).toHaveCount(0);
      }
      await screen(page, 'trust-10-start-form-remembered');

      // An address copied without its token, opened where the token cookie is not.
      const stranger = await page.context().browser()?.newContext();
      const copied = await stranger?.newPage();
      if (!copied) throw new Error('no second browser context');
      const address = new URL(serveUrl);
      address.search = new URLSearchParams({ repo: repo.dir, view: 'history' }).toString();
      const response = await copied.goto(address.toString());
      expect(response?.status()).toBe(403);
      await expect(copied.getByRole('heading', { level: 1 })).toHaveText('This Lathe window needs its access link');
      await expect(copied.locator('body')).toContainText('npx lathe serve');
      await screen(copied, 'trust-11-access-link-page');
      await stranger?.close();
      expect(problems).toEqual([]);
    } finally {
      repo.remove();
    }
  },
);

async function startWithSpec(page: Page, repoDir: string, workflow: string, spec: string): Promise<void> {
  await page.getByRole('button', { name: 'New run', exact: true }).click();
  await page.getByLabel('Repository path').fill(repoDir);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await page.getByLabel('Goal', { exact: true }).fill('Fix median() in src/stats.js.');
  await page.getByRole('radio', { name: workflow }).check();
  await page.getByLabel('Every role', { exact: true }).selectOption({ label: 'Custom spec…' });
  await page.getByLabel('Every role: custom model spec').fill(spec);
  await page.getByRole('button', { name: 'Start run' }).click();
  await expect(page.getByTestId('run-view')).toBeVisible();
}
