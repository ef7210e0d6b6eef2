import { writeJunkGguf, writeTinyModel } from '../test-support/gguf';
import { makeTempDir, makeTempRepo } from '../test-support/tempRepo';
import { expect, test } from '../test-support/e2e/fixtures';
import { screen, watchPageProblems } from '../test-support/e2e/screens';

/** The DOM as the page sees it; this project's TypeScript has no DOM library. */
interface ControlLike {
  tagName: string;
  textContent: string | null;
  outerHTML: string;
  labels?: { length: number } | null;
  getAttribute(name: string): string | null;
  closest(selector: string): unknown;
}

/** Form controls without an accessible name (label, aria-label/labelledby, or title); runs in the page. */
function unlabeledControls(): string[] {
  const page = globalThis as unknown as { document: { querySelectorAll(selector: string): ArrayLike<ControlLike> } };
  return Array.from(page.document.querySelectorAll('input, select, textarea, button'))
    .filter((control) => {
      if (control.closest('.monaco-editor') || control.getAttribute('type') === 'hidden') return false;
      const labelled =
        control.labels?.length ||
        control.getAttribute('aria-label') ||
        control.getAttribute('aria-labelledby') ||
        control.getAttribute('title');
      return !labelled && !(control.tagName === 'BUTTON' && control.textContent?.trim());
    })
    .map((control) => control.outerHTML.slice(0, 120));
}

test('settings are validated, saved, survive a reload, feed the model library, and switch the theme', async ({
  app,
}) => {
  const { page } = app;
  const problems = watchPageProblems(page);
  await page.reload();
  const models = makeTempDir('lathe-e2e-models-');
  writeTinyModel(models);
  writeJunkGguf(models, 'half-download.gguf');
  const repo = makeTempRepo({ files: { 'README.md': '# fixture\n' } });
  try {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const threads = page.getByLabel('CPU threads for local models');
    await threads.fill('0');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(threads).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('alert')).toContainText('not valid');

    await threads.fill('2');
    await page.getByLabel('Models folders (one per line)').fill(models);
    await page.getByLabel('Default time limit (minutes)').fill('30');
    await page.getByLabel('step gate').selectOption('human');
    await page.getByRole('radio', { name: 'dark' }).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByTestId('notices')).toContainText('Settings saved.');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');

    await page.reload();
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await expect(page.getByLabel('CPU threads for local models')).toHaveValue('2');
    await expect(page.getByLabel('Models folders (one per line)')).toHaveValue(models);
    await expect(page.getByLabel('step gate')).toHaveValue('human');
    await expect(page.getByRole('radio', { name: 'dark' })).toBeChecked();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(page.getByText(`Scanned now:`)).toContainText(models);
    expect(await page.evaluate(unlabeledControls)).toEqual([]);
    await screen(page, '12-settings-dark');

    // The start screen: the model library from the new folder (usable and rejected files), the defaults applied.
    await page.getByRole('button', { name: 'New run', exact: true }).click();
    await page.getByLabel('Repository path').fill(repo.dir);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    const picker = page.getByLabel('Every role', { exact: true });
    await expect(picker.locator('option', { hasText: 'lathe-tiny-llama' })).toHaveCount(1);
    await expect(picker.locator('option', { hasText: 'lathe-tiny-llama' })).toContainText('2,048 ctx');
    await expect(picker.locator('option', { hasText: 'half-download.gguf' })).toBeDisabled();
    await expect(picker.locator('option', { hasText: 'half-download.gguf' })).toContainText('cannot be used');
    await expect(page.getByTestId('no-models')).toHaveCount(0);
    await expect(page.getByLabel('Time limit (minutes)')).toHaveValue('30');
    await expect(page.getByLabel(/^step gate/)).toHaveValue('human');
    const tiny = await picker.locator('option', { hasText: 'lathe-tiny-llama' }).getAttribute('value');
    await picker.selectOption(tiny ?? '');
    await expect(picker).toHaveValue(/^llama:.*tiny-llama\.gguf$/);
    expect(await page.evaluate(unlabeledControls)).toEqual([]);
    await screen(page, '13-start-dark-with-models');

    // Keyboard: the skip link comes first; Ctrl+Enter in an empty goal box names what is missing.
    await page.keyboard.press('Escape');
    await page.reload();
    await expect(page.getByLabel('Goal', { exact: true })).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
    await page.getByLabel('Goal', { exact: true }).press('Control+Enter');
    await expect(page.getByText('Type a goal.')).toBeVisible();
    await expect(page.getByLabel('Goal', { exact: true })).toBeFocused();
    await page.getByLabel('Goal', { exact: true }).press('Tab');
    await expect(page.getByRole('radio', { name: 'minimal' })).toBeFocused();

    // The shortcut help.
    await page.getByRole('heading', { name: 'New run' }).click();
    await page.keyboard.press('?');
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toContainText('Approve the pending gate');
    await screen(page, '14-shortcut-help');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // Back to the defaults (empty fields mean "none" / "the workflow's default"); the worker's other specs share this home.
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByLabel('CPU threads for local models').fill('');
    await page.getByLabel('Models folders (one per line)').fill('');
    await page.getByLabel('Default time limit (minutes)').fill('');
    await page.getByLabel('step gate').selectOption('');
    await page.getByRole('radio', { name: 'system' }).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Saved.', { exact: true })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    expect(problems).toEqual([]);
  } finally {
    repo.remove();
  }
});
