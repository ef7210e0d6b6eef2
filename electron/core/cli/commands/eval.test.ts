import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { minimalTranscript, taskFile, writeTranscript } from '../../../../test-support/evalTranscripts';
import { makeTempDir } from '../../../../test-support/tempRepo';
import { EvalReportSchema } from '../../eval/reportSchema';
import { UsageError, type CliIo } from '../command';
import { evalCommand } from './eval';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function setup() {
  const dir = makeTempDir('lathe-cli-eval-');
  dirs.push(dir);
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    env: { LATHE_HOME: path.join(dir, 'home') },
    cwd: dir,
  };
  return { dir, io, out, err };
}

function transcripts(dir: string) {
  writeTranscript(dir, 'py-roman', minimalTranscript('roman.py', taskFile('py-roman', 'solution', 'roman.py')));
  // Half a fix (the page offset, not the page count) and no Tester answer: the exit code still decides
  // the step, so the run completes, but the hidden tests find what is left.
  writeTranscript(
    dir,
    'js-paginate',
    minimalTranscript(
      'src/paginate.js',
      taskFile('js-paginate', 'repo', 'src/paginate.js').replace('page * perPage', '(page - 1) * perPage'),
    ).slice(0, 2),
  );
}

describe('lathe eval', () => {
  it('lists the suite', async () => {
    const { io, out } = setup();
    expect(await evalCommand.run(['--list', '--tasks', 'py-*'], io)).toBe(0);
    expect(out.at(-1)).toMatch(/^\d+ task\(s\): \d+ Python, 0 JavaScript$/);
    expect(out.find((line) => line.startsWith('py-roman '))).toMatch(
      /^py-roman\s+python\s+bugfix\s+to_roman\(\) never uses subtractive notation$/,
    );
  });

  it.each([
    [['--model', 'replay:x.json', '--workflow', 'waterfall'], /unknown workflow 'waterfall'/],
    [['--workflow', 'minimal'], /no model for coder, planner, tester/],
    [
      ['--model', 'replay:{task}.json', '--tasks', 'py-roman'],
      /cannot read replay file \/.*\/py-roman\.json \(ENOENT\).*needed for task py-roman/,
    ],
    [
      ['--model', 'oracle:{task}.patch', '--tasks', 'py-roman'],
      /cannot read the oracle's gold patch \/.*\/py-roman\.patch \(ENOENT\).*needed for task py-roman/,
    ],
    [['--model', 'oracle:'], /only `lathe eval --corpus DIR` can supply/],
    [['--model', 'llama:model.bin'], /is not a \.gguf file/],
    [['--model', 'replay:x.json', '--jobs', '0'], /--jobs must be a positive whole number/],
    [['--model', 'replay:x.json', '--tasks', 'go-*'], /--tasks: no task id matches 'go-\*'/],
    [['--model', 'replay:x.json', '--time-limit', 'soon'], /time-limit/],
  ])('refuses %j before running anything', async (args, message) => {
    const { io, dir } = setup();
    await expect(evalCommand.run(args, io)).rejects.toThrow(message);
    await expect(evalCommand.run(args, io)).rejects.toSatisfy(
      (error) =>
        error instanceof UsageError ||
        ['BAD_CONFIG', 'PREFLIGHT_FAILED'].includes((error as { code?: string }).code ?? ''),
    );
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('runs the selected tasks two at a time, prints the table and writes both reports', async () => {
    const { dir, io, out } = setup();
    transcripts(dir);
    const code = await evalCommand.run(
      ['--tasks', 'py-roman,js-paginate', '--model', 'replay:{task}.json', '--jobs', '2', '--out', 'report'],
      io,
    );
    expect(code).toBe(0);
    expect(
      out.filter((line) =>
        /^\[\d\/2\] (py-roman: solved|js-paginate: unsolved) \(run complete, 1 attempt\(s\)/.test(line),
      ),
    ).toHaveLength(2);
    const header = out.findIndex((line) => line.startsWith('TASK'));
    expect(out.slice(header + 1, header + 3).map((line) => line.split(/\s+/).slice(0, 5))).toEqual([
      ['js-paginate', 'js', 'bugfix', 'unsolved', 'complete'],
      ['py-roman', 'py', 'bugfix', 'solved', 'complete'],
    ]);
    expect(out).toContain(`report: ${path.join(dir, 'report', 'eval-report.md')} (and eval-report.json)`);
    const report = EvalReportSchema.parse(
      JSON.parse(fs.readFileSync(path.join(dir, 'report', 'eval-report.json'), 'utf8')),
    );
    expect(report.settings).toMatchObject({
      workflow: 'minimal',
      model: `replay:${path.join(dir, '{task}.json')}`,
      jobs: 2,
      tasks_pattern: 'py-roman,js-paginate',
      time_limit_ms: 1_800_000,
    });
    expect(report.tasks[0]?.roles.tester).toMatchObject({ malformed: 1, well_formed: 0 });
  });

  it('layers --config over every task: here another edit format', async () => {
    const { dir, io, out } = setup();
    const transcript = minimalTranscript('roman.py', '');
    transcript[1] = {
      role: 'coder',
      json: {
        edits: [
          {
            path: 'roman.py',
            search:
              '    (1000, "M"),\n    (500, "D"),\n    (100, "C"),\n    (50, "L"),\n    (10, "X"),\n    (5, "V"),\n',
            replace:
              '    (1000, "M"),\n    (900, "CM"),\n    (500, "D"),\n    (400, "CD"),\n    (100, "C"),\n    (90, "XC"),\n    (50, "L"),\n    (40, "XL"),\n    (10, "X"),\n    (9, "IX"),\n    (5, "V"),\n    (4, "IV"),\n',
          },
          { path: 'roman.py', search: '    if n < 1:', replace: '    if n < 1 or n > 3999:' },
        ],
      },
    };
    writeTranscript(dir, 'py-roman', transcript);
    fs.writeFileSync(path.join(dir, 'search-replace.yaml'), 'policies:\n  edit_format: search-replace\n');
    expect(
      await evalCommand.run(
        [
          '--tasks',
          'py-roman',
          '--model',
          'replay:{task}.json',
          '--config',
          'search-replace.yaml',
          '--json',
          '--out',
          'r',
        ],
        io,
      ),
    ).toBe(0);
    const report = EvalReportSchema.parse(JSON.parse(out.join('\n')));
    expect(report.settings).toMatchObject({
      edit_format: 'search-replace',
      config_file: path.join(dir, 'search-replace.yaml'),
    });
    expect(report.tasks[0]).toMatchObject({ outcome: 'solved' });
  });

  it('prints the report as JSON with --json', async () => {
    const { dir, io, out } = setup();
    transcripts(dir);
    expect(
      await evalCommand.run(['--tasks', 'py-roman', '--model', 'replay:{task}.json', '--json', '--out', 'r'], io),
    ).toBe(0);
    expect(EvalReportSchema.parse(JSON.parse(out.join('\n'))).summary).toMatchObject({ tasks: 1, solved: 1 });
  });
});
