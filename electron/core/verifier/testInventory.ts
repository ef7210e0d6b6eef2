import fs from 'node:fs';
import path from 'node:path';
import { LatheError } from '../../../shared/errors';
import {
  TEST_INVENTORY_FILE,
  TestInventoryFileSchema,
  type TestInventoryFile,
} from '../../../shared/schemas/testInventory';
import { isMissing, unreadable } from '../fsErrors';

/**
 * Writes `<artifactDir>/tests.json`: `{"runner", "source", "tests": [...]}` with one test a line, so
 * a suite of thousands reads line by line in an editor or `grep` and still parses as one JSON value.
 * Returns its path.
 */
export async function writeTestInventory(artifactDir: string, inventory: TestInventoryFile): Promise<string> {
  const file = path.join(artifactDir, TEST_INVENTORY_FILE);
  const tests = inventory.tests.map((test) => JSON.stringify(test)).join(',\n');
  const text = `{"runner":${JSON.stringify(inventory.runner)},"source":${JSON.stringify(inventory.source)},"tests":[${tests ? `\n${tests}\n` : ''}]}\n`;
  await fs.promises.writeFile(file, text);
  return file;
}

/**
 * A verification's inventory from its artifact folder; null when it has none (the runner's output
 * named only failures or counts). A file that is there but unreadable or not an inventory is an
 * error, never taken for "no inventory": the engine would read it as every test gone.
 */
export async function readTestInventory(artifactDir: string): Promise<TestInventoryFile | null> {
  const file = path.join(artifactDir, TEST_INVENTORY_FILE);
  let text: string;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch (error) {
    if (isMissing(error)) return null;
    throw unreadable(file, error);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new LatheError('INVALID_PAYLOAD', `${file} is not JSON: ${(error as Error).message}`, { path: file });
  }
  const parsed = TestInventoryFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new LatheError(
      'INVALID_PAYLOAD',
      `${file} is not a test inventory: ${issue ? `${issue.path.join('.') || '(top)'}: ${issue.message}` : 'unexpected shape'}`,
      { path: file },
    );
  }
  return parsed.data;
}
