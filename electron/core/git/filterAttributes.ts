import { configOf } from './nativeGit';
import { filterDrivers } from './repoPrograms';
import type { RepoContext } from './repoContext';

export interface FilteredPath {
  path: string;
  /** The driver its `filter` attribute names, one the config defines. */
  filter: string;
}

/**
 * The paths whose attributes send them through a filter driver the config defines (git-lfs,
 * git-crypt, a repository's own): git would store them through a program Lathe never runs, so
 * their bytes on disk are not what git would commit. Costs nothing when no driver is defined.
 */
export async function filteredPaths(
  context: RepoContext,
  workDir: string,
  paths: readonly string[],
): Promise<FilteredPath[]> {
  if (!context.native || paths.length === 0) return [];
  const listed = await configOf(workDir);
  const drivers = 'entries' in listed ? filterDrivers(listed.entries) : new Set<string>();
  if (drivers.size === 0) return [];
  const result = await context.git(workDir, ['check-attr', '-z', '--stdin', 'filter'], {
    input: `${paths.join('\0')}\0`,
  });
  const fields = result.stdout.split('\0');
  const found: FilteredPath[] = [];
  for (let index = 0; index + 2 < fields.length; index += 3) {
    const value = fields[index + 2] as string;
    if (drivers.has(value)) found.push({ path: fields[index] as string, filter: value });
  }
  return found;
}
