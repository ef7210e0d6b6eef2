import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GgufInsights, readGgufFileInfo, type Llama } from 'node-llama-cpp';
import { nativeGitVersion } from '../git/nativeGit';
import { inspectGguf, physicalCoreCount, scanModelFolders } from '../llm/index';
import { availableMemoryBytes, estimateCpuMemory } from '../llm/llama/memory';
import { sharedLlama } from '../llm/llama/runtime';
import { listRepoFiles } from '../git/listFiles';
import { artifactUsage } from '../verifier/artifacts';
import { findExecutable } from '../basics/commandLookup';
import { detectTestCommand, probeSandbox, type DetectedTestCommand } from '../workspace/index';
import type { CommandProbe, DoctorProbes, ElectronProbe, LlamaProbe } from './types';
import { isMissing } from '../fsErrors';

/** The first `node_modules/<name>` folder from `start` upwards (node's own lookup order). */
export function findPackageDir(start: string, name: string): string | null {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return null;
  }
}

function readVersion(packageDir: string | null): string | null {
  if (!packageDir) return null;
  try {
    const parsed = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof parsed.version === 'string' ? parsed.version : null;
  } catch (error) {
    if (!(isMissing(error) || error instanceof SyntaxError)) throw error;
    return null;
  }
}

/** Reads the electron package's files, never loads it: outside Electron that package only knows where the binary would be. */
export function electronProbe(appRoot: string): ElectronProbe {
  const packageDir = findPackageDir(appRoot, 'electron');
  let binaryPath: string | null = null;
  if (packageDir) {
    try {
      const relative = fs.readFileSync(path.join(packageDir, 'path.txt'), 'utf8').trim();
      const candidate = path.join(packageDir, 'dist', relative);
      if (relative && fs.existsSync(candidate)) binaryPath = candidate;
    } catch (error) {
      // Not downloaded.
      if (!isMissing(error)) throw error;
    }
  }
  return { runningVersion: process.versions.electron ?? null, packageVersion: readVersion(packageDir), binaryPath };
}

function runQuietly(argv: string[], cwd: string, timeoutMs = 15_000): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(argv[0] as string, argv.slice(1), { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, output: error.message });
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output: output.trim() });
    });
  });
}

export async function testRunnerWorks(command: DetectedTestCommand, dir: string): Promise<CommandProbe> {
  const program = command.argv[0] ?? '';
  const found = await findExecutable(program, dir, process.env.PATH ?? '');
  if (!found) return { ok: false, detail: `${program} is not on PATH` };
  if (command.runner === 'pytest' || command.runner === 'nose2') {
    const module = command.runner;
    const probe = await runQuietly([program, '-c', `import ${module}; print(${module}.__version__)`], dir);
    if (probe.code !== 0) return { ok: false, detail: `${program} cannot import ${module}` };
    return { ok: true, detail: `${module} ${probe.output.split('\n').at(-1) ?? ''} for ${found}` };
  }
  return { ok: true, detail: `${program} found at ${found}` };
}

async function loadLlama(): Promise<LlamaProbe> {
  try {
    const llama = await sharedLlama();
    // catch-ok: device names only detail the GPU line; llama.gpu itself says whether a GPU is used
    const gpuDevices = llama.gpu === false ? [] : await llama.getGpuDeviceNames().catch(() => []);
    return { ok: true, gpu: llama.gpu, buildType: llama.buildType, cpuMathCores: llama.cpuMathCores, gpuDevices };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/** node-llama-cpp's own estimate (the one the model pool refuses loads with); the file size without a binding. */
async function estimateModelMemory(file: string, contextSize: number): Promise<number | null> {
  let size: number;
  try {
    size = (await fs.promises.stat(file)).size;
  } catch {
    // catch-ok: the models check says why this file cannot be read (inspectModel); the memory check points there
    return null;
  }
  let llama: Llama;
  try {
    llama = await sharedLlama();
  } catch {
    // catch-ok: without a binding the file size stands in; the runtime check reports why llama.cpp did not load
    return size;
  }
  try {
    const insights = await GgufInsights.from(await readGgufFileInfo(file), llama);
    const need = estimateCpuMemory(insights, contextSize, true);
    return need.weightsBytes + need.contextBytes;
  } catch {
    // catch-ok: a file llama.cpp cannot read has no estimate; the models check says why it cannot be used
    return null;
  }
}

/** The real machine. */
export function defaultProbes(appRoot: string): DoctorProbes {
  return {
    platform: process.platform,
    arch: process.arch,
    loadLlama,
    llamaPackages: () => {
      const dir = findPackageDir(appRoot, '@node-llama-cpp');
      return dir
        ? fs
            .readdirSync(dir)
            .filter((name) => !name.startsWith('.'))
            .sort()
        : [];
    },
    physicalCores: physicalCoreCount,
    logicalCpus: () => os.availableParallelism(),
    loadAverage: () => os.loadavg()[0] ?? 0,
    memory: () => ({ availableBytes: availableMemoryBytes(), totalBytes: os.totalmem() }),
    estimateModelMemory,
    scanModels: (folders) => scanModelFolders(folders),
    inspectModel: (file) => inspectGguf(file),
    gitVersion: nativeGitVersion,
    sandbox: probeSandbox,
    detectTestCommand,
    testRunnerWorks,
    // The repo map's own cap: past it the listing stops, and so does the search for unreadable folders.
    listRepoFiles: (dir) => listRepoFiles(dir, { limit: 100_000 }),
    electron: () => electronProbe(appRoot),
    artifactUsage,
  };
}
