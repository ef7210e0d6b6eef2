import fs from 'node:fs';

/** Pids whose command line contains every one of `words` (as separate arguments), from /proc. */
export function processesWith(...words: string[]): number[] {
  const pids: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let argv: string[];
    try {
      argv = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (words.every((word) => argv.includes(word))) pids.push(Number(name));
  }
  return pids;
}

/** A file name and argument no other test or process uses, so a leftover can be found by it. */
export function uniqueSleepSeconds(): string {
  return String(100_000 + Math.floor(Math.random() * 800_000));
}
