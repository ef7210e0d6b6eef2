import fs from 'node:fs';
import { isMissing, unreadable } from '../fsErrors';

// A manifest that is there but cannot be read throws FILE_UNREADABLE: taken for absent, detection
// would fall through to the next runner and Lathe would run some other command as the repo's tests.
export async function readText(file: string): Promise<string | null> {
  try {
    return await fs.promises.readFile(file, 'utf8');
  } catch (error) {
    if (isMissing(error)) return null;
    throw unreadable(file, error);
  }
}

export async function exists(file: string): Promise<boolean> {
  try {
    await fs.promises.access(file);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw unreadable(file, error);
  }
}

/** A folder's entries; none when it is not there. */
export async function listEntries(folder: string): Promise<fs.Dirent[]> {
  try {
    return await fs.promises.readdir(folder, { withFileTypes: true });
  } catch (error) {
    if (isMissing(error)) return [];
    throw unreadable(folder, error);
  }
}

export async function listNames(folder: string): Promise<string[]> {
  return (await listEntries(folder)).map((entry) => entry.name);
}
