#!/usr/bin/env node
// What the test stages need from the machine besides node_modules, checked before any stage runs, so a fresh
// machine fails in seconds with the line that fixes it instead of six red Python tests after seven minutes.
// `--install` installs what is missing with apt-get when it can (root, apt-get present), as CI needs.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Each Debian package the tests need, and how to tell it is there. */
export const TEST_TOOLS = [
  { pkg: 'git', probe: { command: 'git', args: ['--version'] } },
  { pkg: 'chromium', probe: { file: process.env.CHROMIUM_PATH || '/usr/bin/chromium' } },
  { pkg: 'bubblewrap', probe: { command: 'bwrap', args: ['--version'] } },
  { pkg: 'python3-pytest', probe: { command: '/usr/bin/python3', args: ['-c', 'import pytest'] } },
  { pkg: 'python3-pytest-cov', probe: { command: '/usr/bin/python3', args: ['-c', 'import pytest_cov'] } },
  // The runner tests run nose2, go test and cargo test for real (electron/core/verifier/parsers/*Runners.test.ts).
  { pkg: 'python3-nose2', probe: { command: '/usr/bin/python3', args: ['-c', 'import nose2'] } },
  { pkg: 'golang-go', probe: { command: 'go', args: ['version'] } },
  { pkg: 'cargo', probe: { command: 'cargo', args: ['--version'] } },
];

export function probeTool(probe) {
  if (probe.file) return fs.existsSync(probe.file);
  const result = spawnSync(probe.command, probe.args, { stdio: 'ignore' });
  return result.status === 0;
}

/** The packages missing, by the given probe. */
export function missingTools(tools = TEST_TOOLS, probe = probeTool) {
  return tools.filter((tool) => !probe(tool.probe)).map((tool) => tool.pkg);
}

export function installLine(packages) {
  return `sudo apt-get install -y --no-install-recommends ${packages.join(' ')}`;
}

function canInstall() {
  return process.getuid?.() === 0 && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
}

function aptInstall(packages) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  if (update.status !== 0) return false;
  return (
    spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { stdio: 'inherit', env })
      .status === 0
  );
}

/** Exit 0 when every tool is there (after installing them with --install, where this machine lets it). */
export function main(args = process.argv.slice(2)) {
  let missing = missingTools();
  if (missing.length > 0 && args.includes('--install') && canInstall()) {
    process.stdout.write(`installing: ${missing.join(' ')}\n`);
    aptInstall(missing);
    missing = missingTools();
  }
  if (missing.length === 0) return 0;
  process.stderr.write(
    `the tests need Debian packages this machine lacks: ${missing.join(', ')}\ninstall them with:\n  ${installLine(missing)}\n`,
  );
  return 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main();
