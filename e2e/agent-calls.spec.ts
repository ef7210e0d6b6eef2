import { makeExampleRepo } from '../test-support/exampleRepo';
import { makeTempDir } from '../test-support/tempRepo';
import { writeGateTranscript } from '../test-support/e2e/gateTranscript';
import { expect, test } from '../test-support/e2e/fixtures';
import { screen, watchPageProblems } from '../test-support/e2e/screens';

const GOAL =
  'median() returns the mean instead of the median. Fix median() in src/stats.js, test it, and document both functions in README.md.';
const COMMENT = 'also add a test for an even-length list';

// Issue 29: a rejection's comment reached the Coder, and nothing shown said so.
test('Activity: an agent call expands to its messages and answer, the human’s comment marked where the Coder got it', async ({
  app,
}) => {
  test.setTimeout(120_000);
  const repo = makeExampleRepo('js-stats');
  const spec = writeGateTranscript(makeTempDir('lathe-e2e-replay-'));
  const { page } = app;
  const problems = watchPageProblems(page);
  await page.reload();
  try {
    await page.getByLabel('Repository path').fill(repo.dir);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await expect(page.getByTestId('repo-branch')).toHaveText('main');
    await page.getByLabel('Goal', { exact: true }).fill(GOAL);
    await page.getByRole('radio', { name: 'supervised' }).check();
    await page.getByLabel('Every role', { exact: true }).selectOption({ label: 'Custom spec…' });
    await page.getByLabel('Every role: custom model spec').fill(spec);
    await page.getByLabel(/^step gate/).selectOption('both');
    await page.getByLabel('Goal', { exact: true }).press('Control+Enter');

    // Reject T1's first step gate with a comment; approve every later gate.
    const firstGate = page.getByTestId('pending-gate');
    await expect(firstGate).toContainText('step gate · T1');
    const firstGateId = await firstGate.getAttribute('data-gate-id');
    await firstGate.getByLabel(/Comment for the agent/).fill(COMMENT);
    await firstGate.getByRole('button', { name: /Reject with comment/ }).click();
    for (const step of ['T1', 'T2']) {
      const gate = page.locator(`[data-testid="pending-gate"]:not([data-gate-id="${firstGateId}"])`);
      await expect(gate).toContainText(`step gate · ${step}`);
      await gate.getByRole('button', { name: /Approve/ }).click();
    }
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'complete');

    await page.getByRole('tab', { name: /Activity/ }).click();
    const calls = page.getByTestId('agent-calls');
    await expect(calls).toBeVisible();
    // T1's Coder calls, oldest first: the one after the rejection carries the comment, marked as the human's.
    const coderT1 = calls.getByTestId('agent-call').filter({ hasText: /coder\s*code · T1/ });
    const count = await coderT1.count();
    expect(count).toBeGreaterThan(1);
    let marked = null;
    for (let index = count - 1; index >= 0 && !marked; index--) {
      const call = coderT1.nth(index);
      await call.locator('summary').click();
      await expect(call.getByTestId('call-record')).toBeVisible();
      if (
        (await call.getByTestId('call-origin-part').count()) > 0 &&
        (await call.getByText(`User: ${COMMENT}`).count()) > 0
      )
        marked = call;
    }
    if (!marked) throw new Error('no Coder call shows the comment');
    const human = marked.locator('.call-part.origin-human');
    await expect(human.locator('.call-origin')).toHaveText("from the human's rejection at the step gate");
    await expect(human.locator('.call-text')).toHaveText(`User: ${COMMENT}`);
    // The verdict the human saw with the gate, then the Supervisor's escalation note after its low score.
    await expect(marked.locator('.call-part.origin-supervisor .call-origin')).toHaveText([
      "from the Supervisor's verdict at the step gate",
      "from the Supervisor's escalation note",
    ]);
    await expect(marked.getByRole('region', { name: 'user message' })).toContainText(
      '"feedback": "(shown below, by origin)"',
    );
    await expect(marked.getByRole('region', { name: 'context items' })).toContainText('src/stats.js');
    await expect(marked.getByRole('region', { name: 'answer' })).toContainText('answer · output');
    await human.scrollIntoViewIfNeeded();
    await screen(page, 'agent-call-human-comment', { fullPage: false });
    expect(problems).toEqual([]);
  } finally {
    repo.remove();
  }
});
