import path from 'node:path';
import { LatheError } from '../../../shared/errors';
import { normalizeEditPath } from '../basics/editPath';
import type { ReadOnlyTools } from './types';
import { listRepoFiles } from '../git/listFiles';
import { readRepoFile } from './readFile';
import { summarizeRepo } from './repoSummary';
import { searchRepoText } from './searchText';

function folderArgument(under: string | undefined): string | undefined {
  if (under === undefined || under === '' || under === '.' || under === './') return undefined;
  try {
    return normalizeEditPath(under.replace(/\/+$/, ''));
  } catch (error) {
    throw new LatheError('INVALID_PATH', (error as Error).message, { path: under.slice(0, 300) });
  }
}

/** What Scouts and prompt builders may do with a repository: look, never touch. */
export function createReadOnlyTools(root: string): ReadOnlyTools {
  const base = path.resolve(root);
  return {
    listFiles: async (options = {}) =>
      listRepoFiles(base, {
        under: folderArgument(options.under),
        limit: Math.min(Math.max(1, options.limit ?? 5000), 100_000),
      }),
    readFile: (file, options = {}) => readRepoFile(base, file, options.maxBytes),
    searchText: async (query, options = {}) =>
      searchRepoText(base, query, { ...options, under: folderArgument(options.under) }),
    repoSummary: (options = {}) => summarizeRepo(base, options),
  };
}
