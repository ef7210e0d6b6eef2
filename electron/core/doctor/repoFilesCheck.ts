import type { DoctorCheck, DoctorInput, DoctorProbes } from './types';

/** The folders named in full; more are counted. */
const SHOWN = 20;

/**
 * Folders of the repository Lathe cannot list. The listing skips them as `git status` does, so the
 * agents, the repo map and the tools never see what is in them; git warns, and so does this check.
 */
export async function checkRepoFiles(probes: DoctorProbes, input: DoctorInput): Promise<DoctorCheck> {
  const base = { id: 'files', title: 'Repository files' };
  if (!input.repo)
    return {
      ...base,
      status: 'ok',
      summary: 'not checked: no repository (pass --repo DIR, or run from inside one)',
      fix: null,
      details: [],
    };
  const listed = await probes.listRepoFiles(input.repo);
  const count = `${listed.files.length}${listed.truncated ? '+' : ''} file(s) listed (.gitignore honoured)`;
  if (listed.unreadable.length === 0)
    return { ...base, status: 'ok', summary: count, fix: null, details: [`repository: ${input.repo}`] };
  const shown = listed.unreadable.slice(0, SHOWN);
  const more = listed.unreadable.length - shown.length;
  return {
    ...base,
    status: 'warn',
    summary: `could not list ${listed.unreadable.length} folder(s) (${shown.slice(0, 3).join(', ')}${listed.unreadable.length > 3 ? ', …' : ''}): skipped, as git status skips them, so runs do not see what is in them; ${count}`,
    fix: 'Make them readable by the user running Lathe (chmod, chown), or add them to .gitignore if Lathe should not look in them.',
    details: [
      `repository: ${input.repo}`,
      ...shown.map((folder) => `cannot list: ${folder}`),
      ...(more > 0 ? [`and ${more} more`] : []),
    ],
  };
}
