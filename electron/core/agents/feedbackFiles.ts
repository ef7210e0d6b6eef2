import fs from 'node:fs';
import path from 'node:path';

/** A repo-relative file path as feedback writes one: `typings/index.d.ts`, `lib/response.js`, `setup.py`. */
const PATH_IN_TEXT = /(?<![\w./-])((?:[\w@-][\w@.-]*\/)*[\w@-][\w@.-]*\.[A-Za-z0-9]{1,8})(?![\w/-])/g;
/** Enough for the file a refusal or decline is about; a long list is a test log, not a pointer. */
const MAX_NAMED = 3;

/**
 * The work tree's files that a refusal, decline or critique names by path, in the order it names them:
 * "typings/index.d.ts is not in the writer's context" points at the file the next answer needs. Only
 * regular files inside `workDir` (no `..`, no absolute path, no symlink), at most three.
 */
export function filesNamedIn(text: string, workDir: string): string[] {
  const root = path.resolve(workDir);
  const named: string[] = [];
  for (const match of text.matchAll(PATH_IN_TEXT)) {
    const candidate = match[1] ?? '';
    if (named.includes(candidate) || candidate.split('/').includes('..')) continue;
    const absolute = path.resolve(root, candidate);
    if (!absolute.startsWith(`${root}${path.sep}`)) continue;
    if (!fs.lstatSync(absolute, { throwIfNoEntry: false })?.isFile()) continue;
    named.push(candidate);
    if (named.length === MAX_NAMED) break;
  }
  return named;
}
