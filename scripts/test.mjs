#!/usr/bin/env node
// `npm test`: every check in order. Each stage runs even when an earlier one failed (one CI run shows
// everything), except the e2e stage, which needs a successful build. Ends with the test count line.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { countTests, formatCount } from './countTests.mjs';

const stages = [
  { name: 'tools', command: ['node', 'scripts/testTools.mjs', '--install'] },
  { name: 'typecheck', command: ['npx', 'tsc', '-b'] },
  { name: 'lint', command: ['npx', 'eslint', '--max-warnings', '0', '.'] },
  // Code files as prettier writes them at width 120 (`npm run format` fixes it).
  { name: 'format', command: ['npm', 'run', '--silent', 'format:check'] },
  { name: 'build', command: ['npx', 'electron-vite', 'build'] },
  // The three test tiers (decision 103), each with its own report so a stage's time and count stay its own.
  {
    name: 'unit',
    command: ['npx', 'vitest', 'run', '--project', 'unit', '--outputFile.json=test-results/vitest-unit.json'],
  },
  {
    name: 'integration',
    command: [
      'npx',
      'vitest',
      'run',
      '--project',
      'integration',
      '--outputFile.json=test-results/vitest-integration.json',
    ],
  },
  {
    name: 'slow',
    command: ['npx', 'vitest', 'run', '--project', 'slow', '--outputFile.json=test-results/vitest-slow.json'],
  },
  { name: 'e2e', command: ['npx', 'playwright', 'test'], needs: 'build' },
];

fs.rmSync('test-results', { recursive: true, force: true });
fs.mkdirSync('test-results', { recursive: true });

const results = [];
for (const stage of stages) {
  // Without the machine's tools every later stage fails for that one reason: say it once, run nothing.
  const tools = results.find((result) => result.name === 'tools');
  if (tools && !tools.passed) {
    results.push({ name: stage.name, passed: false, seconds: 0, note: 'skipped: tools missing' });
    continue;
  }
  const needed = stage.needs && results.find((result) => result.name === stage.needs);
  if (needed && !needed.passed) {
    results.push({ name: stage.name, passed: false, seconds: 0, note: `skipped: ${stage.needs} failed` });
    continue;
  }
  process.stdout.write(`\n=== ${stage.name}: ${stage.command.join(' ')}\n`);
  const started = Date.now();
  const run = spawnSync(stage.command[0], stage.command.slice(1), { stdio: 'inherit' });
  results.push({ name: stage.name, passed: run.status === 0, seconds: (Date.now() - started) / 1000 });
}

fs.writeFileSync('test-results/stages.json', JSON.stringify(results, null, 2));
process.stdout.write('\nstage       result   seconds\n');
for (const result of results) {
  process.stdout.write(
    `${result.name.padEnd(11)} ${(result.passed ? 'ok' : 'FAILED').padEnd(8)} ${result.seconds.toFixed(1).padStart(7)}${result.note ? `  (${result.note})` : ''}\n`,
  );
}
process.stdout.write(`${formatCount(countTests())}\n`);
process.exitCode = results.every((result) => result.passed) ? 0 : 1;
