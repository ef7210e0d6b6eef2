/**
 * Test-command detection and the lockfile-aware install on a real corpus:
 * `npx tsx scripts/corpusDetection.ts [corpus-dir] [task-pattern]` (default: ../shared/corpus, every task).
 * Each task is materialised at its starting state (nothing installed, nothing run), then
 * `detectTestCommand` and `planInstall` are asked about it, and a table compares what they chose with
 * the task's own `test_command` and `setup_command`:
 *   - same: the detected argv is the task's command, word for word;
 *   - same runner: the runner is the task's (for `npm test`, the one scripts.test names), the arguments differ;
 *   - differs: another runner (what the repository's own files name may not be what the corpus chose).
 * Prints markdown; exits 0 (the table is the result, not a check).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findDefaultCorpus, loadCorpus, materializeCorpusTask, selectCorpusTasks } from '../electron/core/eval/corpus';
import { planInstall } from '../electron/core/setup/installCommand';
import { detectionLabel, detectTestCommand } from '../electron/core/verifier/detect';

const here = path.dirname(fileURLToPath(import.meta.url));
const corpusDir = process.argv[2] ? path.resolve(process.argv[2]) : findDefaultCorpus(path.resolve(here, '..'));
if (!corpusDir) {
  process.stderr.write('no corpus: pass its folder, set LATHE_CORPUS, or put it at ../shared/corpus\n');
  process.exit(2);
}
const tasks = selectCorpusTasks(loadCorpus(corpusDir), process.argv[3]);

/** The runner a shell command line runs, by the words it names (`npm run pretest && npx mocha …` is mocha). */
function runnerOfLine(line: string): string {
  const words = line.split(/\s+/);
  for (const runner of ['vitest', 'jest', 'mocha', 'ava', 'tape', 'jasmine', 'uvu', 'pytest', 'unittest', 'nose2'])
    if (words.includes(runner)) return runner;
  if (/\bnode --test\b/.test(line)) return 'node-test';
  if (/^npm (test|t)\b/.test(line)) return 'npm';
  if (/^go test\b/.test(line)) return 'go';
  if (/^cargo test\b/.test(line)) return 'cargo';
  return words[0] ?? '';
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-corpus-detect-'));
const rows: string[] = [];
const tally = { same: 0, runner: 0, differs: 0, none: 0 };
try {
  for (const task of tasks) {
    const dir = path.join(scratch, task.id);
    await materializeCorpusTask(corpusDir, task, dir);
    const detected = await detectTestCommand(dir);
    const install = planInstall(dir);
    const shown = detected ? detected.argv.join(' ').replace(/^\/usr\/bin\/python3 /, 'python3 ') : '—';
    // `npm test` runs scripts.test: its runner is the one the script names.
    const script = detected?.runner === 'npm' ? (/scripts\.test "(.*)"$/.exec(detected.reason)?.[1] ?? '') : null;
    const runner = script !== null ? runnerOfLine(script) : detected?.runner;
    const verdict = !detected
      ? 'none'
      : shown === task.test_command || (detected.runner === 'npm' && task.test_command === 'npm test')
        ? 'same'
        : runner === runnerOfLine(task.test_command)
          ? 'runner'
          : 'differs';
    tally[verdict]++;
    const cut = (text: string) => (text.length > 70 ? `${text.slice(0, 69)}…` : text);
    rows.push(
      `| ${task.id} | \`${cut(task.test_command)}\` | \`${shown}\` | ${detected ? detectionLabel(detected).replace(/; via [^)]*/, '') : '—'} | ${{ same: 'same', runner: 'same runner', differs: 'differs', none: 'nothing' }[verdict]} | \`${task.setup_command || '—'}\` | ${install.argv ? `\`${install.argv.join(' ')}\`${install.fallback ? ` (${install.fallback.split(':')[0]})` : ''}` : install.reason} |`,
    );
    fs.rmSync(dir, { recursive: true, force: true });
  }
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
process.stdout.write(
  [
    "| task | task test_command | detected | why | vs the task | task setup_command | Lathe's install (`setup: auto`) |",
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `${tasks.length} tasks: ${tally.same} same command, ${tally.runner} same runner (other arguments), ${tally.differs} another runner, ${tally.none} nothing detected.`,
    '',
  ].join('\n'),
);
