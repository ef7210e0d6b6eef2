import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { makeExampleRepo } from '../../../../test-support/exampleRepo';
import { writeTinyModel } from '../../../../test-support/gguf';
import { makeTempDir } from '../../../../test-support/tempRepo';
import { defaultProbes, DoctorReportSchema } from '../../doctor/index';
import type { CliIo } from '../command';
import { doctorCommand, doctorCommandWith } from './doctor';

const home = makeTempDir('lathe-cli-doctor-');
const repo = makeExampleRepo('js-stats');
afterEach(() => vi.restoreAllMocks());
afterAll(() => {
  fs.rmSync(home, { recursive: true, force: true });
  repo.remove();
});
const models = path.join(home, 'models');
fs.mkdirSync(models);
const { modelPath } = writeTinyModel(models);

function capture(cwd = home): { io: CliIo; out: string[] } {
  const out: string[] = [];
  return { io: { out: (line) => out.push(line), err: (line) => out.push(line), env: { LATHE_HOME: home }, cwd }, out };
}

describe('lathe doctor', () => {
  it('checks this machine with a real model and repository: no failures, a table and explained warnings', async () => {
    const { io, out } = capture();
    expect(await doctorCommand.run(['--repo', repo.dir, '--model', `llama:${modelPath}`, '--threads', '1'], io)).toBe(
      0,
    );
    const text = out.join('\n');
    for (const title of [
      'llama.cpp binary',
      'CPU threads',
      'Models',
      'Memory for models',
      'git',
      'Test isolation',
      'Test runner',
      'Electron (npm start)',
    ])
      expect(text).toMatch(new RegExp(`^${title.replace(/[()]/g, '\\$&')}\\s+(ok|WARN)\\s+\\S`, 'm'));
    expect(text).toMatch(/^Models\s+ok\s+1 usable model\(s\); chosen: llama:.*tiny-llama\.gguf \(--model\)$/m);
    expect(text).toMatch(/^Test runner\s+ok\s+node --test/m);
    expect(text).toMatch(
      /^Memory for models\s+ok\s+the chosen model\(s\) need about \d+ MiB; [\d.]+ GiB available of/m,
    );
    expect(out.at(-1)).toMatch(/^No failures/);
  });

  it('prints the report as JSON', async () => {
    const { io, out } = capture();
    expect(await doctorCommand.run(['--json', '--dir', models], io)).toBe(0);
    const report = DoctorReportSchema.parse(JSON.parse(out.join('\n')));
    expect(report.checks.map((check) => check.id)).toEqual([
      'llama',
      'threads',
      'models',
      'memory',
      'git',
      'sandbox',
      'tests',
      'files',
      'storage',
      'electron',
    ]);
    expect(report.checks.find((check) => check.id === 'tests')?.summary).toContain('not checked');
  });

  it('exits 1 and explains the fix when something needed is missing', async () => {
    const { io, out } = capture();
    const broken = doctorCommandWith((appRoot) => ({
      ...defaultProbes(appRoot),
      loadLlama: async () => ({ ok: false, message: 'no prebuilt binary' }),
    }));
    expect(await broken.run(['--dir', models], io)).toBe(1);
    expect(out).toContain(`FAIL llama.cpp binary: no usable llama.cpp binary for linux-${process.arch}`);
    expect(out.find((line) => line.startsWith('  fix: Install Lathe built for'))).toBeDefined();
    expect(out.at(-1)).toMatch(/^1 failure\(s\)/);
  });

  it("checks the models chosen in the settings and the repository's lathe.config.yaml", async () => {
    fs.writeFileSync(
      path.join(home, 'settings.json'),
      JSON.stringify({ defaultModel: `llama:${path.join(home, 'gone.gguf')}` }),
    );
    repo.write('lathe.config.yaml', `agents:\n  default: llama:${modelPath}\n`);
    repo.commitAll('config');
    const { io, out } = capture(repo.dir);
    expect(await doctorCommand.run(['--dir', models], io)).toBe(1);
    const text = out.join('\n');
    expect(text).toContain(`chosen: llama:${modelPath} (lathe.config.yaml)`);
    expect(text).toMatch(/FAIL Models: 1 chosen model\(s\) cannot be used: llama:.*gone\.gguf \(settings\)/);
    fs.rmSync(path.join(home, 'settings.json'));
  });

  it('warns on stderr, naming the kept file, when settings.json did not parse and was set aside', async () => {
    const file = path.join(home, 'settings.json');
    fs.writeFileSync(file, '{ "threads": 4,');
    const err: string[] = [];
    const out: string[] = [];
    const io: CliIo = {
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      env: { LATHE_HOME: home },
      cwd: home,
    };
    await doctorCommand.run(['--json', '--dir', models], io);
    const kept = fs.readdirSync(home).filter((name) => name.startsWith('settings.json.invalid-'));
    expect(kept).toHaveLength(1);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(
      /^warning: .*settings\.json is not valid settings \(not JSON: .+\); it was set aside as .*settings\.json\.invalid-\d+ and the default settings are in use$/,
    );
    expect(err[0]).toContain(`${file} is not valid`);
    expect(err[0]).toContain(`set aside as ${path.join(home, kept[0] ?? '')} and`);
    expect(() => DoctorReportSchema.parse(JSON.parse(out.join('\n')))).not.toThrow();
    fs.rmSync(path.join(home, kept[0] ?? ''));
  });

  // The real listing on a real repository: a folder it cannot list (EACCES; root ignores chmod) is named.
  it('warns, naming it, about a folder of the repository the listing could not read', async () => {
    const readdir = fs.promises.readdir.bind(fs.promises);
    const locked = path.join(repo.dir, 'src');
    vi.spyOn(fs.promises, 'readdir').mockImplementation((async (
      folder: fs.PathLike,
      options?: { withFileTypes: true },
    ) =>
      String(folder) === locked
        ? Promise.reject(Object.assign(new Error(`EACCES: permission denied, scandir '${locked}'`), { code: 'EACCES' }))
        : readdir(folder, options as { withFileTypes: true })) as unknown as typeof fs.promises.readdir);
    const { io, out } = capture();
    await doctorCommand.run(['--repo', repo.dir, '--model', `llama:${modelPath}`, '--threads', '1'], io);
    const text = out.join('\n');
    expect(text).toMatch(
      /^Repository files\s+WARN\s+could not list 1 folder\(s\) \(src\): skipped, as git status skips them/m,
    );
    expect(text).toContain('  - cannot list: src');
  });

  it('refuses bad flags and a folder that is not a repository', async () => {
    const { io } = capture();
    await expect(doctorCommand.run(['--threads', '0'], io)).rejects.toThrow(
      '--threads must be a positive whole number',
    );
    await expect(doctorCommand.run(['--repo', home], io)).rejects.toThrow(/^--repo: not inside a git repository/);
  });
});
