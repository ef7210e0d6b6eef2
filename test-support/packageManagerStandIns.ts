/**
 * Stand-ins for pnpm and yarn, for the tests of `setup: auto` on a machine that has neither (this one:
 * corepack refuses the registry's metadata, and CI installs no package manager but npm). Each stand-in
 * does what the real install does to a work tree that the setup must cope with: it installs package.json's
 * `file:` dependencies into node_modules and rewrites its own lockfile (a newer lockfile format, or a
 * resolution the lock lacked), and records how it was called.
 */
import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir } from './tempRepo';

export interface StandInCall {
  program: 'pnpm' | 'yarn';
  args: string[];
  cwd: string;
}

export interface PackageManagerStandIns {
  /** Put first on PATH: it holds `pnpm` and `yarn`. */
  binDir: string;
  /** Every call so far, in order. */
  calls(): StandInCall[];
  remove(): void;
}

/** What each stand-in appends to its lockfile, so a test can tell a rewritten lockfile from the committed one. */
export const STAND_IN_REWRITE = '# rewritten by the install\n';

const LOCKFILE = { pnpm: 'pnpm-lock.yaml', yarn: 'yarn.lock' } as const;

function standInSource(program: 'pnpm' | 'yarn', callLog: string): string {
  return `#!${process.execPath}
const fs = require('fs');
const path = require('path');
fs.appendFileSync(${JSON.stringify(callLog)}, JSON.stringify({ program: ${JSON.stringify(program)}, args: process.argv.slice(2), cwd: process.cwd() }) + '\\n');
const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8'));
for (const [name, spec] of Object.entries({ ...manifest.dependencies, ...manifest.devDependencies })) {
  if (!String(spec).startsWith('file:')) { console.error('stand-in ${program}: only file: dependencies, not ' + name + '@' + spec); process.exit(1); }
  fs.mkdirSync(path.join('node_modules', name), { recursive: true });
  fs.copyFileSync(path.join(String(spec).slice(5), 'package.json'), path.join('node_modules', name, 'package.json'));
}
fs.appendFileSync(${JSON.stringify(LOCKFILE[program])}, ${JSON.stringify(STAND_IN_REWRITE)});
console.log('stand-in ${program}: installed');
`;
}

export function makePackageManagerStandIns(): PackageManagerStandIns {
  const root = makeTempDir('lathe-standins-');
  const binDir = path.join(root, 'bin');
  const callLog = path.join(root, 'calls.jsonl');
  fs.mkdirSync(binDir);
  for (const program of ['pnpm', 'yarn'] as const)
    fs.writeFileSync(path.join(binDir, program), standInSource(program, callLog), { mode: 0o755 });
  return {
    binDir,
    calls: () =>
      fs.existsSync(callLog)
        ? fs
            .readFileSync(callLog, 'utf8')
            .trim()
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as StandInCall)
        : [],
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}
