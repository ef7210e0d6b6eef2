import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_TOOLS } from './testTools.mjs';

/** Issue 29: the README's quick start and requirements, as a fresh clone and `.ci/run` see them. */

const ROOT = path.resolve(import.meta.dirname, '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const CI_RUN = fs.readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8');
const SCRIPTS = (
  JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;

function section(title: string): string {
  const start = README.indexOf(`## ${title}\n`);
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end === -1 ? undefined : end);
}

describe('README.md', () => {
  it('installs once in the quick start, then runs commands that exist', () => {
    const block = /```sh\n([\s\S]*?)```/.exec(section('Quick start (fresh Linux machine)'))?.[1] ?? '';
    const commands = block
      .split('\n')
      .map((line) => line.replace(/#.*/, '').trim())
      .filter(Boolean);
    expect(commands.filter((command) => command.includes('npm ci'))).toEqual(['npm ci']);
    for (const command of commands.filter((line) => line.startsWith('npm run ')))
      expect(Object.keys(SCRIPTS)).toContain(command.slice('npm run '.length));
    expect(commands).toContain('npm test');
  });

  it('points only at what a clone has: no folder outside the repository, every link a file of it', () => {
    expect(README).not.toMatch(/`\.\.\//);
    const links = [...README.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)]
      .map((match) => match[1] ?? '')
      .filter((link) => !/^[a-z]+:/.test(link));
    expect(links.length).toBeGreaterThan(5);
    for (const link of links) expect(fs.existsSync(path.join(ROOT, link)), link).toBe(true);
    expect(README).toContain('[docs/seeds.md](docs/seeds.md)');
  });

  it('names in its requirements every Debian package .ci/run installs for the tests', () => {
    expect(CI_RUN).toContain('node scripts/testTools.mjs --install');
    const packages = TEST_TOOLS.map((tool) => tool.pkg);
    expect(packages).toEqual(
      expect.arrayContaining(['chromium', 'bubblewrap', 'python3-pytest', 'python3-pytest-cov']),
    );
    const requirements = section('Requirements');
    for (const name of packages) expect(requirements, name).toContain(`\`${name}\``);
  });

  it('lists every top-level folder of the repository in its layout table', () => {
    const table = section('Layout');
    // A folder git ignores (node_modules, build output) is the machine's, not the repository's.
    const ignored = new Set([
      '.git',
      ...fs
        .readFileSync(path.join(ROOT, '.gitignore'), 'utf8')
        .split('\n')
        .map((line) => line.trim().replace(/\/$/, ''))
        .filter((line) => /^[\w.-]+$/.test(line)),
    ]);
    const folders = fs
      .readdirSync(ROOT, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !ignored.has(entry.name))
      .map((entry) => entry.name);
    expect(folders).toContain('electron');
    for (const folder of folders)
      expect(table, folder).toMatch(new RegExp(`\\| \`${folder.replace('.', '\\.')}(/[a-z]+)?\` \\|`));
  });
});
