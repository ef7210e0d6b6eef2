import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * File names git can store that a careless tool renames: bytes that are not UTF-8 (a Latin-1 `é`, a
 * lone 0xff), control characters, quotes, a backslash, a leading dash, valid UTF-8, and a symbolic
 * link whose target is not UTF-8. Given as bytes, since a JS string cannot name most of them.
 */
export const HOSTILE_NAMES: readonly Buffer[] = [
  Buffer.from('caf\xe9.txt', 'latin1'),
  Buffer.from('dir\xff/inner.txt', 'latin1'),
  Buffer.from('src/caf\xe9.js', 'latin1'),
  Buffer.from('new\nline.txt'),
  Buffer.from('tab\there.txt'),
  Buffer.from('"quoted".txt'),
  Buffer.from('back\\slash.txt'),
  Buffer.from('\x01ctrl\x7f.txt'),
  Buffer.from('-dash.txt'),
  Buffer.from('--'),
  Buffer.from('évidemment ✓.txt'),
];
export const HOSTILE_LINK = Buffer.from('link-\xe9', 'latin1');

function under(dir: string, name: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${dir}/`), name]);
}

/** Writes every hostile name (content: the name's hex) and the link into `dir`. */
export function writeHostileNames(dir: string): void {
  for (const name of HOSTILE_NAMES) {
    const slash = name.lastIndexOf(0x2f);
    if (slash > 0) fs.mkdirSync(under(dir, name.subarray(0, slash)), { recursive: true });
    fs.writeFileSync(under(dir, name), `${name.toString('hex')}\n`);
  }
  fs.symlinkSync(HOSTILE_NAMES[0] as Buffer, under(dir, HOSTILE_LINK));
}

/** `git ls-tree -r -z REF` as raw records (mode, type, id, name bytes in hex), keyed by the name's hex. */
export function treeRecords(dir: string, ref: string): Map<string, string> {
  const raw = execFileSync('git', ['ls-tree', '-r', '-z', ref], { cwd: dir });
  const records = new Map<string, string>();
  for (const record of splitNul(raw)) {
    const tab = record.indexOf(0x09);
    records.set(record.subarray(tab + 1).toString('hex'), record.subarray(0, tab).toString('latin1'));
  }
  return records;
}

/** The names of a folder's entries as bytes (hex), recursively, `.git` aside. */
export function namesOnDisk(dir: string, prefix: Buffer = Buffer.alloc(0)): string[] {
  const out: string[] = [];
  const here = prefix.length === 0 ? Buffer.from(dir) : under(dir, prefix);
  for (const entry of fs.readdirSync(here, { withFileTypes: true, encoding: 'buffer' })) {
    if (prefix.length === 0 && (entry.name.toString() === '.git' || entry.name.toString() === '.lathe')) continue;
    const relative = prefix.length === 0 ? entry.name : Buffer.concat([prefix, Buffer.from('/'), entry.name]);
    if (entry.isDirectory()) out.push(...namesOnDisk(dir, relative));
    else out.push(relative.toString('hex'));
  }
  return out.sort();
}

export const hex = (name: Buffer) => name.toString('hex');

function splitNul(raw: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let index = raw.indexOf(0); index >= 0; index = raw.indexOf(0, start)) {
    if (index > start) out.push(raw.subarray(start, index));
    start = index + 1;
  }
  return out;
}
