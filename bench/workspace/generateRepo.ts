import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.test',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.test',
};

export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, env: GIT_ENV, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }).trim();
}

/**
 * A repository shaped like a real project of `fileCount` tracked files: shallow key files, a deep
 * source tree, tests, docs and a bulky fixtures folder, plus an ignored node_modules.
 */
export function generateRepo(fileCount: number, options: { commit: boolean }): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-bench-repo-')));
  const write = (relative: string, content: string) => {
    const target = path.join(dir, relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
  };
  write('README.md', '# Bench project\n\nA generated repository for the workspace bench.\n');
  write('package.json', '{"name":"bench","description":"Generated bench project","scripts":{"test":"node --test"}}\n');
  write('.gitignore', 'node_modules/\n*.log\n');
  let written = 3;
  const kinds = [
    {
      share: 0.55,
      make: (i: number) => [
        `src/pkg${i % 40}/sub${i % 7}/module${i}.ts`,
        `// Module ${i}: part of the generated source tree.\nexport function f${i}(x: number): number {\n  return x + ${i};\n}\n`,
      ],
    },
    {
      share: 0.2,
      make: (i: number) => [
        `tests/pkg${i % 40}/module${i}.test.ts`,
        `import { f${i} } from '../../src/pkg${i % 40}/sub${i % 7}/module${i}';\n// checks f${i}\n`,
      ],
    },
    { share: 0.05, make: (i: number) => [`docs/section${i % 12}/page${i}.md`, `# Page ${i}\n\nSome documentation.\n`] },
    { share: 0.2, make: (i: number) => [`tests/fixtures/set${i % 30}/case${i}.json`, `{"case": ${i}}\n`] },
  ];
  for (const kind of kinds) {
    const count = Math.floor((fileCount - 3) * kind.share);
    for (let index = 0; index < count && written < fileCount; index++, written++) {
      const [relative, content] = kind.make(written) as [string, string];
      write(relative, content);
    }
  }
  while (written < fileCount) {
    write(`misc/extra${written}.txt`, `extra ${written}\n`);
    written++;
  }
  for (let index = 0; index < 200; index++) write(`node_modules/dep${index}/index.js`, 'module.exports = 1;\n');
  if (options.commit) {
    git(dir, 'init', '--quiet', '--initial-branch=main');
    git(dir, 'add', '--all');
    git(dir, 'commit', '--quiet', '--no-gpg-sign', '-m', 'generated');
  }
  return dir;
}
