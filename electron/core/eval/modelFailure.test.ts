import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { minimalTranscript, taskFile, writeTranscript } from '../../../test-support/evalTranscripts';
import { llamaMetadata, llamaTensors, meta, TINY_LLAMA, writeGgufFile } from '../../../test-support/gguf';
import { makeTempDir } from '../../../test-support/tempRepo';
import type { CliIo } from '../cli/command';
import { evalCommand } from '../cli/commands/eval';
import { EvalReportSchema } from './reportSchema';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function setup() {
  const dir = makeTempDir('lathe-eval-model-');
  dirs.push(dir);
  const out: string[] = [];
  const io: CliIo = {
    out: (line) => out.push(line),
    err: () => undefined,
    env: { LATHE_HOME: path.join(dir, 'home') },
    cwd: dir,
  };
  return { dir, io, out };
}

const report = (dir: string) =>
  EvalReportSchema.parse(JSON.parse(fs.readFileSync(path.join(dir, 'r', 'eval-report.json'), 'utf8')));

describe('lathe eval: a model that cannot answer is an error, never an unsolved task', () => {
  it('a GGUF whose header reads but which llama.cpp cannot load: MODEL_LOAD_FAILED, errors 1, exit 2', async () => {
    const { dir, io } = setup();
    // A well-formed header naming an architecture llama.cpp does not know: only loading finds out.
    const model = path.join(dir, 'unknown-arch.gguf');
    writeGgufFile(
      model,
      llamaMetadata(TINY_LLAMA).map(([key, value]) => [
        key === 'general.architecture' ? key : key.replace(/^llama\./, 'lathe-unknown.'),
        key === 'general.architecture' ? meta.str('lathe-unknown') : value,
      ]),
      llamaTensors(TINY_LLAMA),
    );
    expect(
      await evalCommand.run(['--tasks', 'py-roman', '--model', `llama:${model}`, '--threads', '1', '--out', 'r'], io),
    ).toBe(2);
    const { summary, tasks } = report(dir);
    expect(summary).toMatchObject({ tasks: 1, errors: 1, unsolved: 0 });
    expect(tasks[0]).toMatchObject({
      outcome: 'error',
      error: { code: 'MODEL_LOAD_FAILED' },
      run: { status: 'failed', exit_code: 2 },
      hidden_tests: null,
    });
    expect(tasks[0]?.roles.planner?.calls).toBe(1);
    expect(fs.readFileSync(path.join(dir, 'r', 'eval-report.md'), 'utf8')).toContain('MODEL_LOAD_FAILED');
  });

  it('a replay transcript that runs out for the Coder: REPLAY_EXHAUSTED once, not retried', async () => {
    const { dir, io } = setup();
    writeTranscript(
      dir,
      'py-roman',
      minimalTranscript('roman.py', taskFile('py-roman', 'solution', 'roman.py')).slice(0, 1),
    );
    expect(
      await evalCommand.run(
        ['--tasks', 'py-roman', '--model', 'replay:{task}.json', '--workflow', 'minimal', '--out', 'r'],
        io,
      ),
    ).toBe(2);
    const [task] = report(dir).tasks;
    expect(task).toMatchObject({ outcome: 'error', error: { code: 'REPLAY_EXHAUSTED' } });
    expect(task?.roles.coder?.calls).toBe(1);
  });
});
