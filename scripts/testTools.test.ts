import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installLine, missingTools, TEST_TOOLS, type ToolProbe } from './testTools.mjs';

const SCRIPT = path.join(import.meta.dirname, 'testTools.mjs');

// Issue 29: a fresh machine without python3-pytest ran seven minutes of tests to show six red ones.
describe('the test tools check (npm test’s first stage, .ci/run’s install)', () => {
  it('names each missing package by its probe, in order', () => {
    const present = new Set(['git', 'bwrap', 'go', 'cargo']);
    const probe = (p: ToolProbe) =>
      present.has(p.command ?? '') || (p.file !== undefined && p.file === '/usr/bin/chromium');
    expect(missingTools(TEST_TOOLS, probe)).toEqual(['python3-pytest', 'python3-pytest-cov', 'python3-nose2']);
    expect(missingTools(TEST_TOOLS, () => false)).toEqual([
      'git',
      'chromium',
      'bubblewrap',
      'python3-pytest',
      'python3-pytest-cov',
      'python3-nose2',
      'golang-go',
      'cargo',
    ]);
    expect(missingTools(TEST_TOOLS, () => true)).toEqual([]);
    expect(installLine(['python3-pytest', 'chromium'])).toBe(
      'sudo apt-get install -y --no-install-recommends python3-pytest chromium',
    );
  });

  it('fails at once with the install line when a tool is missing (here: a browser path that does not exist)', () => {
    const run = spawnSync(process.execPath, [SCRIPT], {
      env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('the tests need Debian packages this machine lacks: chromium');
    expect(run.stderr).toContain('sudo apt-get install -y --no-install-recommends chromium');
  });
});
