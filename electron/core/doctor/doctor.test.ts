import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { LatheError } from '../../../shared/errors';
import { makeTempDir } from '../../../test-support/tempRepo';
import { artifactUsage, markArtifactsRetained, newVerifyRunId } from '../verifier/artifacts';
import type { ModelEntry } from '../llm/index';
import { chosenModels } from './modelChecks';
import { formatDoctorReport, runDoctor } from './runDoctor';
import type { DoctorInput, DoctorProbes } from './types';

const GiB = 1024 ** 3;

function entry(fileName: string, extra: Partial<ModelEntry> = {}): ModelEntry {
  return {
    path: `/models/${fileName}`,
    fileName,
    status: 'ok',
    reason: null,
    sizeBytes: 2 * GiB,
    name: fileName,
    architecture: 'qwen2',
    parameters: 3e9,
    quantization: 'Q4_K_M',
    contextLength: 32768,
    chatTemplate: null,
    ...extra,
  };
}

/** A machine with everything Lathe wants; each test takes one thing away. */
function healthy(overrides: Partial<DoctorProbes> = {}): DoctorProbes {
  return {
    platform: 'linux',
    arch: 'x64',
    loadLlama: async () => ({ ok: true, gpu: false, buildType: 'prebuilt', cpuMathCores: 8, gpuDevices: [] }),
    llamaPackages: () => ['linux-x64'],
    physicalCores: () => 8,
    logicalCpus: () => 16,
    loadAverage: () => 0.5,
    memory: () => ({ availableBytes: 12 * GiB, totalBytes: 16 * GiB }),
    estimateModelMemory: async (file) => (file.includes('big') ? 20 * GiB : 3 * GiB),
    scanModels: async () => [entry('qwen-coder-3b.gguf')],
    inspectModel: async (file) => entry(file.split('/').at(-1) ?? file, { path: file }),
    gitVersion: async () => '2.43.0',
    sandbox: async () => ({ available: true, detail: 'bubblewrap works' }),
    detectTestCommand: async () => ({
      argv: ['node', '--test'],
      runner: 'node-test',
      reason: 'package.json scripts.test is node --test',
    }),
    testRunnerWorks: async () => ({ ok: true, detail: 'node found at /usr/bin/node' }),
    listRepoFiles: async () => ({ files: ['package.json', 'src/a.js'], truncated: false, unreadable: [] }),
    electron: () => ({
      runningVersion: null,
      packageVersion: '45.4.1',
      binaryPath: '/app/node_modules/electron/dist/electron',
    }),
    artifactUsage: async (root) => ({ root, runs: 0, retained: 0, bytes: 0 }),
    ...overrides,
  };
}

function input(overrides: Partial<DoctorInput> = {}): DoctorInput {
  return { models: [], modelFolders: ['/models'], threads: null, repo: '/repo', contextSize: 4096, ...overrides };
}

async function doctor(probes: Partial<DoctorProbes> = {}, given: Partial<DoctorInput> = {}) {
  const report = await runDoctor(input(given), healthy(probes));
  const byId = Object.fromEntries(report.checks.map((check) => [check.id, check]));
  return { report, byId, text: formatDoctorReport(report).join('\n') };
}

const llamaModel = (file: string) => chosenModels([{ spec: `llama:${file}`, source: '--model' }], '/');

describe('lathe doctor checks', () => {
  it('passes every check on a complete machine, in a fixed order', async () => {
    const { report } = await doctor();
    expect(report.ok).toBe(true);
    expect(report.checks.map((check) => [check.id, check.status])).toEqual([
      ['llama', 'ok'],
      ['threads', 'ok'],
      ['models', 'ok'],
      ['memory', 'ok'],
      ['git', 'ok'],
      ['sandbox', 'ok'],
      ['tests', 'ok'],
      ['files', 'ok'],
      ['storage', 'ok'],
      ['electron', 'ok'],
    ]);
    expect(report.checks.every((check) => check.fix === null)).toBe(true);
  });

  it('fails when the llama.cpp binary for this platform is missing, and says how to get it', async () => {
    const { report, byId, text } = await doctor({
      loadLlama: async () => ({ ok: false, message: 'NoBinaryFoundError: no prebuilt binary\nstack' }),
      llamaPackages: () => [],
    });
    expect(report.ok).toBe(false);
    expect(byId.llama).toMatchObject({ status: 'fail', summary: 'no usable llama.cpp binary for linux-x64' });
    expect(byId.llama?.fix).toContain('@node-llama-cpp/linux-x64');
    expect(byId.llama?.fix).toContain('never compiles');
    expect(byId.llama?.details).toEqual([
      'prebuilt packages installed: none',
      'error: NoBinaryFoundError: no prebuilt binary',
    ]);
    expect(text).toMatch(/^llama\.cpp binary\s+FAIL\s+no usable llama\.cpp binary for linux-x64$/m);
    expect(text).toContain('1 failure(s), 0 warning(s): fix the failures before a run.');
  });

  it('only warns about a missing binary when every chosen model is a server', async () => {
    const { report, byId } = await doctor(
      { loadLlama: async () => ({ ok: false, message: 'no binary' }) },
      { models: chosenModels([{ spec: 'ollama:qwen2.5-coder:7b', source: 'settings' }], '/') },
    );
    expect(byId.llama?.status).toBe('warn');
    expect(report.ok).toBe(true);
  });

  it('names the GPU backend, and notes GPU builds that found no GPU', async () => {
    const gpu = await doctor({
      loadLlama: async () => ({
        ok: true,
        gpu: 'cuda',
        buildType: 'prebuilt',
        cpuMathCores: 8,
        gpuDevices: ['NVIDIA RTX 4070'],
      }),
    });
    expect(gpu.byId.llama?.summary).toBe('prebuilt llama.cpp for linux-x64 loads; GPU: cuda (NVIDIA RTX 4070)');
    const cpu = await doctor({
      llamaPackages: () => ['linux-arm64', 'linux-x64', 'linux-x64-cuda', 'linux-x64-vulkan'],
    });
    expect(cpu.byId.llama?.details).toContain(
      'GPU builds are installed (linux-x64-cuda, linux-x64-vulkan) but no matching GPU and driver answered; models run on the CPU',
    );
    const mac = await doctor({
      platform: 'darwin',
      arch: 'arm64',
      loadLlama: async () => ({ ok: false, message: 'x' }),
    });
    expect(mac.byId.llama?.summary).toContain('mac-arm64');
  });

  it('warns about more threads than physical cores, and about a busy CPU', async () => {
    const over = await doctor({}, { threads: 16 });
    expect(over.byId.threads).toMatchObject({
      status: 'warn',
      fix: 'Use at most 8 threads (--threads 8, or clear the threads setting so Lathe uses the physical cores).',
    });
    const busy = await doctor({ loadAverage: () => 9.5 });
    expect(busy.byId.threads?.summary).toContain('the CPU is busy (load 9.5 on 8 core(s))');
    expect(busy.report.ok).toBe(true);
  });

  it('fails when the chosen models do not fit in free memory, warns when tight', async () => {
    const tooBig = await doctor({}, { models: llamaModel('/models/big-32b.gguf') });
    expect(tooBig.byId.memory).toMatchObject({
      status: 'fail',
      summary: 'the chosen model(s) need about 20.0 GiB; 12.0 GiB available of 16.0 GiB — they do not fit',
    });
    expect(tooBig.byId.memory?.fix).toContain('smaller model or quantization');
    expect(tooBig.report.ok).toBe(false);
    const tight = await doctor(
      { memory: () => ({ availableBytes: 3.5 * GiB, totalBytes: 8 * GiB }) },
      { models: llamaModel('/models/coder.gguf') },
    );
    expect(tight.byId.memory?.status).toBe('warn');
    const two = await doctor(
      {},
      {
        models: chosenModels(
          [
            { spec: 'llama:/models/a.gguf', source: '--model' },
            { spec: 'llama:/models/b.gguf', source: '--model' },
            { spec: 'llama:/models/a.gguf', source: 'settings' },
          ],
          '/',
        ),
      },
    );
    expect(two.byId.memory?.summary).toMatch(/^the chosen model\(s\) need about 6\.0 GiB/);
  });

  it("estimates with the model's trained context when it is smaller than the one asked for", async () => {
    const asked: number[] = [];
    await doctor(
      {
        inspectModel: async (file) => entry('small.gguf', { path: file, contextLength: 2048 }),
        estimateModelMemory: async (_, context) => (asked.push(context), GiB),
      },
      { models: llamaModel('/elsewhere/small.gguf'), contextSize: 8192 },
    );
    expect(asked).toEqual([2048]);
  });

  it('says which default window a 32k model gets on this machine and why, not a silent cap (decision 92)', async () => {
    const model = entry('coder-32k.gguf', { path: '/models/coder-32k.gguf', contextLength: 32_768 });
    // 4 GiB of weights and 56 KB a token of KV cache: two 8k contexts fit 12 GiB free, not 5.
    const estimateModelMemory = async (_: string, context: number) => 4 * GiB + context * 57_344;
    const roomy = await doctor({
      scanModels: async () => [model],
      estimateModelMemory,
      memory: () => ({ availableBytes: 12 * GiB, totalBytes: 16 * GiB }),
    });
    expect(roomy.byId.models?.details).toContainEqual(
      expect.stringMatching(
        /^default window: coder-32k\.gguf: 8192 of the 32768 the model was trained on: .*set context_size \(up to 32768\) for more$/,
      ),
    );
    const tight = await doctor({
      scanModels: async () => [model],
      estimateModelMemory,
      memory: () => ({ availableBytes: 5 * GiB, totalBytes: 8 * GiB }),
    });
    expect(tight.byId.models?.details).toContainEqual(
      expect.stringMatching(
        /^default window: coder-32k\.gguf: 4096 of the 32768 the model was trained on: weights \+ 2 contexts of 8192 tokens would need 4\.9 GB, over 80% of the 5\.0 GB available$/,
      ),
    );
  });

  it('warns when no library model fits and none is chosen', async () => {
    const { byId } = await doctor({
      scanModels: async () => [entry('big-70b.gguf', { path: '/models/big-70b.gguf' })],
    });
    expect(byId.memory).toMatchObject({
      status: 'warn',
      summary: '12.0 GiB available of 16.0 GiB; none of the 1 library model(s) fits now',
    });
  });

  it('warns with how to add a model when the folders have none', async () => {
    const { byId, report } = await doctor({ scanModels: async () => [] }, { modelFolders: ['/home/me/.lathe/models'] });
    expect(byId.models).toMatchObject({ status: 'warn', summary: 'no usable GGUF model in /home/me/.lathe/models' });
    expect(byId.models?.fix).toContain('Copy a GGUF file');
    expect(byId.models?.fix).toContain('into /home/me/.lathe/models');
    expect(byId.models?.fix).toContain('LATHE_MODELS_DIR');
    expect(report.ok).toBe(true);
  });

  it('fails when a chosen model file is missing, truncated or not a spec at all', async () => {
    const missing = await doctor(
      {
        inspectModel: async (file) =>
          entry('gone.gguf', { path: file, status: 'rejected', reason: 'cannot open the file (ENOENT)' }),
      },
      { models: llamaModel('/nowhere/gone.gguf') },
    );
    expect(missing.byId.models).toMatchObject({
      status: 'fail',
      summary: '1 chosen model(s) cannot be used: llama:/nowhere/gone.gguf (--model): cannot open the file (ENOENT)',
    });
    const invalid = await doctor({}, { models: chosenModels([{ spec: 'gpt4', source: 'settings' }], '/') });
    expect(invalid.byId.models?.summary).toContain("gpt4 (settings): model spec 'gpt4' has no provider prefix");
    expect(invalid.report.ok).toBe(false);
    const rejected = await doctor({
      scanModels: async () => [entry('ok.gguf'), entry('half.gguf', { status: 'rejected', reason: 'truncated' })],
    });
    expect(rejected.byId.models).toMatchObject({ status: 'warn', summary: '1 usable model(s), 1 rejected' });
    expect(rejected.byId.models?.details).toContain('rejected: half.gguf: truncated');
  });

  it('warns when git is missing: the isomorphic-git fallback', async () => {
    const { byId, report } = await doctor({ gitVersion: async () => null });
    expect(byId.git?.status).toBe('warn');
    expect(byId.git?.summary).toContain('isomorphic-git');
    expect(byId.git?.fix).toContain('apt install git');
    expect(report.ok).toBe(true);
  });

  it('warns when bubblewrap is missing or refused, naming the isolation level the Verifier falls back to', async () => {
    const missing = await doctor({
      sandbox: async () => ({ available: false, detail: 'bubblewrap (bwrap) is not installed' }),
    });
    expect(missing.byId.sandbox).toMatchObject({
      status: 'warn',
      fix: 'Install bubblewrap: sudo apt install bubblewrap (Debian/Ubuntu) or sudo dnf install bubblewrap (Fedora).',
    });
    expect(missing.byId.sandbox?.summary).toMatch(/^isolation level checkout: /);
    const refused = await doctor({
      sandbox: async () => ({
        available: false,
        detail: 'bubblewrap is refused here (exit 1): setting up uid map: Permission denied',
      }),
    });
    expect(refused.byId.sandbox?.fix).toContain('apparmor_restrict_unprivileged_userns');
    const mac = await doctor({
      platform: 'darwin',
      sandbox: async () => ({ available: false, detail: 'bubblewrap is Linux-only (this is darwin)' }),
    });
    expect(mac.byId.sandbox?.fix).toContain('Linux-only');
    const uncapped = await doctor({
      sandbox: async () => ({ available: true, detail: 'bubblewrap works, but …', capsTmp: false }),
    });
    expect(uncapped.byId.sandbox).toMatchObject({
      status: 'warn',
      fix: expect.stringContaining('bubblewrap to 0.5 or later'),
    });
    expect(uncapped.byId.sandbox?.summary).toMatch(/^isolation level bwrap: /);
  });

  it('checks the test runner of the repository: none detected, runner missing, no repository', async () => {
    const none = await doctor({ detectTestCommand: async () => null });
    expect(none.byId.tests).toMatchObject({
      status: 'warn',
      summary: 'no test command detected in /repo: runs cannot verify their changes',
    });
    const noPytest = await doctor({
      detectTestCommand: async () => ({
        argv: ['/usr/bin/python3', '-m', 'pytest', '-q'],
        runner: 'pytest',
        reason: 'pytest.ini found',
      }),
      testRunnerWorks: async () => ({ ok: false, detail: '/usr/bin/python3 cannot import pytest' }),
    });
    expect(noPytest.byId.tests?.status).toBe('fail');
    expect(noPytest.byId.tests?.fix).toContain('/usr/bin/python3 -m pip install pytest');
    expect(noPytest.report.ok).toBe(false);
    const unreadable = await doctor({
      detectTestCommand: async () =>
        Promise.reject(
          new LatheError(
            'FILE_UNREADABLE',
            '/repo/package.json exists but could not be read: EACCES: permission denied',
            { path: '/repo/package.json', errno: 'EACCES' },
          ),
        ),
    });
    expect(unreadable.byId.tests).toMatchObject({
      status: 'fail',
      summary:
        'cannot tell the test command of /repo: /repo/package.json exists but could not be read: EACCES: permission denied',
    });
    expect(unreadable.byId.tests?.fix).toContain('policies.test_command');
    expect(unreadable.report.ok).toBe(false);
    const noRepo = await doctor({}, { repo: null });
    expect(noRepo.byId.tests).toMatchObject({
      status: 'ok',
      summary: 'not checked: no repository (pass --repo DIR, or run from inside one)',
    });
  });

  it('names the folders the listing could not read, as a warning that does not fail the report', async () => {
    const ok = await doctor();
    expect(ok.byId.files).toMatchObject({ status: 'ok', summary: '2 file(s) listed (.gitignore honoured)' });
    const skipped = await doctor({
      listRepoFiles: async () => ({ files: ['a.js'], truncated: false, unreadable: ['secrets', 'vendor/locked'] }),
    });
    expect(skipped.byId.files).toMatchObject({
      status: 'warn',
      summary:
        'could not list 2 folder(s) (secrets, vendor/locked): skipped, as git status skips them, so runs do not see what is in them; 1 file(s) listed (.gitignore honoured)',
      details: ['repository: /repo', 'cannot list: secrets', 'cannot list: vendor/locked'],
    });
    expect(skipped.byId.files?.fix).toContain('.gitignore');
    expect(skipped.report.ok).toBe(true);
    expect(skipped.text).toContain('WARN Repository files: could not list 2 folder(s)');
    const many = await doctor({
      listRepoFiles: async () => ({
        files: [],
        truncated: true,
        unreadable: Array.from({ length: 25 }, (_, index) => `f${index}`),
      }),
    });
    expect(many.byId.files?.summary).toMatch(/^could not list 25 folder\(s\) \(f0, f1, f2, …\)/);
    expect(many.byId.files?.details.at(-1)).toBe('and 5 more');
    const noRepo = await doctor({}, { repo: null });
    expect(noRepo.byId.files?.summary).toMatch(/^not checked: no repository/);
  });

  it('warns when the Electron binary for npm start is absent, never failing', async () => {
    const absent = await doctor({
      electron: () => ({ runningVersion: null, packageVersion: '45.4.1', binaryPath: null }),
    });
    expect(absent.byId.electron).toMatchObject({
      status: 'warn',
      summary: 'the electron 45.4.1 package has no binary: npm start cannot open the window',
    });
    expect(absent.byId.electron?.fix).toContain('npm ci');
    expect(absent.report.ok).toBe(true);
    const packaged = await doctor({
      electron: () => ({ runningVersion: '45.4.1', packageVersion: null, binaryPath: null }),
    });
    expect(packaged.byId.electron?.summary).toBe('running inside Electron 45.4.1 (the packaged app)');
  });

  it('prints fixes and details for warnings and failures only, everything with verbose', async () => {
    const { report } = await doctor({ gitVersion: async () => null });
    const lines = formatDoctorReport(report);
    expect(lines[0]).toMatch(/^Lathe doctor — Lathe \S+, linux-x64, Node v/);
    expect(lines).toContain(
      'WARN git: git is not installed: Lathe falls back to isomorphic-git (runs check their branch out in place, status is slower, split or v4 indexes are refused)',
    );
    expect(lines.filter((line) => line.startsWith('  fix: '))).toHaveLength(1);
    expect(lines.at(-1)).toBe('No failures, 1 warning(s): Lathe can run here.');
    expect(formatDoctorReport(report, { verbose: true }).filter((line) => /^(ok|WARN|FAIL) /.test(line))).toHaveLength(
      10,
    );
  });

  it('shows the storage the Verifier artifacts take, and how many are kept for stuck reports (seed 004, 4.14)', async () => {
    const root = makeTempDir('lathe-artifacts-');
    onTestFinished(() => fs.rmSync(root, { recursive: true, force: true }));
    const kept = path.join(root, newVerifyRunId(new Date(Date.UTC(2026, 0, 1))));
    const other = path.join(root, newVerifyRunId(new Date(Date.UTC(2026, 0, 2))));
    for (const dir of [kept, other]) fs.mkdirSync(path.join(dir, 'logs'), { recursive: true });
    fs.writeFileSync(path.join(kept, 'logs', 'test.log'), 'x'.repeat(3 * 1024 * 1024));
    fs.writeFileSync(path.join(other, 'logs', 'test.log'), 'y'.repeat(1024 * 1024));
    await markArtifactsRetained(kept, 'stuck report of run r1');
    const { byId, text } = await doctor({ artifactUsage }, { artifactRoot: root });
    expect(byId.storage).toMatchObject({
      status: 'ok',
      summary: '2 verifier run(s), 4.0 MB, 1 kept for stuck reports',
    });
    expect(byId.storage?.details).toEqual([
      `folder: ${root}`,
      expect.stringContaining('the 20 newest runs, or any younger than 14 days'),
    ]);
    expect(text).toMatch(/Verifier artifacts\s+ok\s+2 verifier run\(s\), 4\.0 MB/);
    const huge = await doctor(
      { artifactUsage: async (dir) => ({ root: dir, runs: 400, retained: 12, bytes: 3 * 1024 ** 3 }) },
      { artifactRoot: root },
    );
    expect(huge.byId.storage).toMatchObject({
      status: 'warn',
      summary: '400 verifier run(s), 3072.0 MB, 12 kept for stuck reports',
    });
    expect(huge.report.ok).toBe(true);
  });
});
