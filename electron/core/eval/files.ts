import fs from 'node:fs';
import path from 'node:path';

/**
 * Repo-relative paths of every file under `dir`, sorted. Plain readdir/stat only, so it also works
 * on the suite inside the packaged app's asar archive.
 */
export function listTree(dir: string): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) found.push(child);
    }
  };
  walk('');
  return found.sort();
}

/** Copies every file under `from` into `to` (created as needed), overwriting what is there. */
export function copyTree(from: string, to: string): string[] {
  const files = listTree(from);
  for (const relative of files) {
    const target = path.join(to, relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, fs.readFileSync(path.join(from, relative)));
  }
  return files;
}
