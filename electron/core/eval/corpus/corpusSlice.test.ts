import { describe, expect, it } from 'vitest';
import { runLathe } from '../../../../test-support/runCli';
import { sourceAppRoot } from '../../appRoot';
import { CorpusSummaryLineSchema, CorpusTaskLineSchema, findDefaultCorpus } from './index';

// The slice `npm test` runs of the developers' corpus: the two projects a new user first broke Lathe on
// (express with mocha, toolz with pytest), through the CLI interface checks outside this repo rely on.
// The whole matrix is `npm run bench:corpus` (docs/eval.md).
const corpusDir = findDefaultCorpus(sourceAppRoot());
const SLICE = ['express-18e5985', 'toolz-5a7e078'];
const CELLS = [
  { workflow: 'dev-agent', format: 'unified-diff' },
  { workflow: 'editor-scouts', format: 'search-replace' },
] as const;

describe("lathe eval on a slice of the developers' corpus (oracle model)", () => {
  for (const cell of CELLS) {
    it(`${cell.workflow} × ${cell.format}: every task green, Lathe's counts equal to the bare run on the fixed tree`, async (context) => {
      if (!corpusDir) return context.skip('no corpus here: set LATHE_CORPUS or place it at ../shared/corpus');
      const out = await runLathe(
        [
          'eval',
          '--corpus',
          corpusDir,
          '--tasks',
          SLICE.join(','),
          '--model',
          'oracle:',
          '--workflow',
          cell.workflow,
          '--edit-format',
          cell.format,
          '--json',
        ],
        { timeoutMs: 540_000 },
      );
      const lines = out.stdout
        .trim()
        .split('\n')
        .map((text) => JSON.parse(text) as unknown);
      const tasks = lines.slice(0, -1).map((line) => CorpusTaskLineSchema.parse(line));
      expect(tasks.map((task) => task.task).sort()).toEqual([...SLICE].sort());
      for (const task of tasks) {
        expect(task, `${task.task}: ${task.miss ?? task.error ?? ''}`).toMatchObject({
          green: true,
          faithful: true,
          workflow: cell.workflow,
          edit_format: cell.format,
        });
        expect(task.run).toMatchObject({ status: 'complete', undone: true });
        expect(task.run_tests?.counts).toEqual(task.fixed_tests?.counts);
      }
      expect(CorpusSummaryLineSchema.parse(lines.at(-1))).toMatchObject({
        tasks: SLICE.length,
        green: SLICE.length,
        faithful: SLICE.length,
      });
      expect(out.code, out.stderr.slice(-2000)).toBe(0);
    }, 600_000);
  }
});
