import fs from 'node:fs';
import path from 'node:path';
import { isMissing, unreadable } from '../fsErrors';

const BEGIN = '# >>> lathe (managed by Lathe; keep these lines)';
const END = '# <<< lathe';

/**
 * Adds `patterns` to `<common dir>/info/exclude` inside one managed block, idempotently: Lathe's run
 * store (`/.lathe/`) and the dependency links in run worktrees must never show up as untracked.
 */
export async function ensureExcluded(commonDir: string, patterns: string[]): Promise<void> {
  const file = path.join(commonDir, 'info', 'exclude');
  // Taken for empty, an exclude file that is there but unreadable would be replaced by Lathe's block alone.
  const text = await fs.promises.readFile(file, 'utf8').catch((error: unknown) => {
    if (isMissing(error)) return '';
    throw unreadable(file, error);
  });
  const lines = text.split('\n');
  const begin = lines.indexOf(BEGIN);
  const end = begin === -1 ? -1 : lines.indexOf(END, begin);
  const existing = begin !== -1 && end !== -1 ? lines.slice(begin + 1, end) : [];
  const wanted = [...new Set([...existing, ...patterns])];
  if (begin !== -1 && end !== -1 && wanted.length === existing.length) return;
  const before = begin !== -1 && end !== -1 ? lines.slice(0, begin) : lines;
  const after = begin !== -1 && end !== -1 ? lines.slice(end + 1) : [];
  while (before.length > 0 && before.at(-1) === '') before.pop();
  const next = [
    ...before,
    ...(before.length ? [''] : []),
    BEGIN,
    ...wanted,
    END,
    ...after.filter((line, index) => line !== '' || index < after.length - 1),
  ];
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.lathe-${process.pid}`;
  await fs.promises.writeFile(temp, `${next.join('\n')}\n`);
  await fs.promises.rename(temp, file);
}
