import fs from 'node:fs';
import path from 'node:path';
import { APP_ROOT } from './exampleRepo';
import { entry, steppedPlan } from './transcripts';

export const SUITE_DIR = path.join(APP_ROOT, 'resources', 'eval');

/** A file of an eval task: the starting version (`repo`) or the reference fix (`solution`). */
export function taskFile(taskId: string, from: 'repo' | 'solution', file: string): string {
  return fs.readFileSync(path.join(SUITE_DIR, taskId, from, file), 'utf8');
}

/** Seed 000 (minimal): one task, a whole-file edit, the Tester's report. */
export function minimalTranscript(
  file: string,
  content: string,
  options: { malformedFirst?: boolean } = {},
): unknown[] {
  return [
    {
      role: 'planner',
      json: {
        plan_id: 'plan_0001',
        tasks: [
          {
            id: 'T1',
            title: `Change ${file}`,
            rationale: 'the goal asks for it',
            acceptance: 'the tests pass',
            artifacts: [file],
          },
        ],
      },
    },
    ...(options.malformedFirst ? [{ role: 'coder', raw: `Sure! Here is the fixed ${file}:\n\n${content}` }] : []),
    { role: 'coder', json: { edits: [{ path: file, content }] } },
    { role: 'tester', json: { task_id: 'T1', passed: true, report: 'all tests pass' } },
  ];
}

/**
 * Seed 002 (supervised): plan gate, two search-replace steps (the change, then a README note; seed
 * 002 plans have at least two steps), each with code and step gates, then the goal gate.
 */
export function supervisedTranscript(taskId: string, file: string, search: string, replace: string): unknown[] {
  const readmeTitle = taskFile(taskId, 'repo', 'README.md').split('\n')[0] ?? '';
  const step = (taskIdOfStep: string, path: string, from: string, to: string) => [
    { role: 'coder', json: { edits: [{ path, search: from, replace: to }] } },
    entry.tester(taskIdOfStep, 'the tests pass'),
    entry.supervisor(true, 85),
    entry.supervisor(true, 85),
  ];
  return [
    entry.planner(
      steppedPlan([
        { id: 'T1', title: `Change ${file}`, artifacts: [file] },
        { id: 'T2', title: 'Note the change in README.md', artifacts: ['README.md'], depends_on: ['T1'] },
      ]),
    ),
    entry.supervisor(true, 85),
    ...step('T1', file, search, replace),
    ...step('T2', 'README.md', readmeTitle, `${readmeTitle}\n\nChanged by Lathe.`),
    entry.supervisor(true, 90, 'goal met'),
  ];
}

export function writeTranscript(dir: string, name: string, outputs: unknown[]): string {
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify({ description: `eval test transcript ${name}`, outputs }, null, 2));
  return file;
}
