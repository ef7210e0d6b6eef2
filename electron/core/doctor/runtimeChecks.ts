import type { ModelEntry } from '../llm/index';
import type { DoctorCheck, DoctorInput, DoctorProbes, MemoryProbe } from './types';

export function formatGiB(bytes: number): string {
  return bytes >= 1024 ** 3
    ? `${(bytes / 1024 ** 3).toFixed(1)} GiB`
    : `${Math.max(1, Math.round(bytes / 1024 ** 2))} MiB`;
}

/** node-llama-cpp's name for a platform's prebuilt packages: `linux-x64`, `mac-arm64`, `win-x64`. */
export function llamaPlatformName(platform: NodeJS.Platform, arch: string): string {
  const os = platform === 'darwin' ? 'mac' : platform === 'win32' ? 'win' : platform;
  return `${os}-${arch}`;
}

/** Whether a missing llama.cpp binary stops the user: yes unless every chosen model is a server or a replay. */
function llamaNeeded(input: DoctorInput): boolean {
  return input.models.length === 0 || input.models.some((model) => model.kind === 'llama');
}

export async function checkLlama(probes: DoctorProbes, input: DoctorInput): Promise<DoctorCheck> {
  const platform = llamaPlatformName(probes.platform, probes.arch);
  const packages = probes.llamaPackages();
  const forPlatform = packages.filter((name) => name === platform || name.startsWith(`${platform}-`));
  const details = [`prebuilt packages installed: ${packages.length > 0 ? packages.join(', ') : 'none'}`];
  const llama = await probes.loadLlama();
  if (!llama.ok) {
    const needed = llamaNeeded(input);
    return {
      id: 'llama',
      title: 'llama.cpp binary',
      status: needed ? 'fail' : 'warn',
      summary: `no usable llama.cpp binary for ${platform}${needed ? '' : ' (not needed: your models are servers or replays)'}`,
      fix: `Install Lathe built for ${platform}: the installer for this OS and CPU, or \`npm ci\` on a machine of the same OS and CPU (it brings the prebuilt @node-llama-cpp/${platform} package). Lathe never compiles llama.cpp at run time. A model server works without it: --model ollama:NAME or openai:URL#MODEL.`,
      details: [...details, `error: ${llama.message.split('\n')[0] ?? ''}`],
    };
  }
  const backend =
    llama.gpu === false
      ? 'CPU only (no GPU backend found)'
      : `GPU: ${llama.gpu}${llama.gpuDevices.length > 0 ? ` (${llama.gpuDevices.join(', ')})` : ''}`;
  const gpuBuilds = forPlatform.filter((name) => /-(cuda|vulkan|metal)/.test(name));
  const unusedGpuBuild =
    llama.gpu === false && gpuBuilds.length > 0
      ? [
          `GPU builds are installed (${gpuBuilds.join(', ')}) but no matching GPU and driver answered; models run on the CPU`,
        ]
      : [];
  return {
    id: 'llama',
    title: 'llama.cpp binary',
    status: 'ok',
    summary: `${llama.buildType} llama.cpp for ${platform} loads; ${backend}`,
    fix: null,
    details: [...details, ...unusedGpuBuild, `CPU math cores reported by llama.cpp: ${llama.cpuMathCores}`],
  };
}

export function checkThreads(probes: DoctorProbes, input: DoctorInput): DoctorCheck {
  const physical = probes.physicalCores();
  const logical = probes.logicalCpus();
  const threads = input.threads ?? physical;
  const load = probes.loadAverage();
  const base = {
    id: 'threads',
    title: 'CPU threads',
    details: [`${physical} physical core(s), ${logical} logical CPU(s)`, `load average (1 min): ${load.toFixed(2)}`],
  };
  if (threads > physical) {
    return {
      ...base,
      status: 'warn',
      summary: `${threads} threads on ${physical} physical core(s): oversubscribed, generation gets slower, not faster`,
      fix: `Use at most ${physical} threads (--threads ${physical}, or clear the threads setting so Lathe uses the physical cores).`,
    };
  }
  if (load > physical * 0.75) {
    return {
      ...base,
      status: 'warn',
      summary: `the CPU is busy (load ${load.toFixed(1)} on ${physical} core(s)): local models will generate more slowly`,
      fix: 'Close other heavy programs (builds, other models) before a run, or use fewer --jobs with `lathe eval`.',
    };
  }
  return {
    ...base,
    status: 'ok',
    summary: `llama models use ${threads} thread(s) on ${physical} physical core(s) (${logical} logical)`,
    fix: null,
  };
}

interface Need {
  label: string;
  bytes: number | null;
}

async function needOf(probes: DoctorProbes, file: string, label: string, contextSize: number): Promise<Need> {
  return { label, bytes: await probes.estimateModelMemory(file, contextSize) };
}

/** What every memory check reports: its id and title, and the memory free as the summary's start. */
interface MemoryFacts {
  base: { id: string; title: string };
  free: string;
  memory: MemoryProbe;
}

/** The chosen models' needs add up: together they must fit what the OS can hand out. */
async function chosenModelsFit(
  probes: DoctorProbes,
  input: DoctorInput,
  chosen: readonly ModelEntry[],
  chosenFiles: readonly string[],
  { base, free, memory }: MemoryFacts,
): Promise<DoctorCheck> {
  const trained = (file: string) => chosen.find((entry) => entry.path === file)?.contextLength ?? input.contextSize;
  const needs = await Promise.all(
    chosenFiles.map((file) => needOf(probes, file, file, Math.min(input.contextSize, trained(file)))),
  );
  const known = needs.filter((need): need is { label: string; bytes: number } => need.bytes !== null);
  const total = known.reduce((sum, need) => sum + need.bytes, 0);
  const details = needs.map(
    (need) =>
      `${need.label}: ${need.bytes === null ? 'cannot be read' : `needs about ${formatGiB(need.bytes)}`} (weights + one context of up to ${input.contextSize} tokens)`,
  );
  if (known.length === 0)
    return {
      ...base,
      status: 'warn',
      summary: `${free}; the chosen model files cannot be read to estimate their needs`,
      fix: 'See the models check.',
      details,
    };
  const summary = `the chosen model(s) need about ${formatGiB(total)}; ${free}`;
  if (total > memory.availableBytes) {
    return {
      ...base,
      status: 'fail',
      summary: `${summary} — they do not fit`,
      fix: 'Close memory-hungry programs, or choose a smaller model or quantization (a Q4_K_M file is about half a Q8_0 one), or one model for every role instead of several.',
      details,
    };
  }
  if (total > memory.availableBytes * 0.8) {
    return {
      ...base,
      status: 'warn',
      summary: `${summary} — a tight fit: every extra role adds its own context`,
      fix: 'Leave more memory free, or use a smaller quantization.',
      details,
    };
  }
  return { ...base, status: 'ok', summary, fix: null, details };
}

/** Without a choice, each usable library model is checked on its own. */
async function libraryModelsFit(
  probes: DoctorProbes,
  input: DoctorInput,
  library: readonly ModelEntry[],
  { base, free, memory }: MemoryFacts,
): Promise<DoctorCheck> {
  const usable = library.filter((entry) => entry.status === 'ok');
  if (usable.length === 0)
    return {
      ...base,
      status: 'ok',
      summary: `${free}; no local model to compare with (see the models check)`,
      fix: null,
      details: [],
    };
  const needs = await Promise.all(
    usable.map((entry) =>
      needOf(probes, entry.path, entry.fileName, Math.min(input.contextSize, entry.contextLength ?? input.contextSize)),
    ),
  );
  const fitting = needs.filter((need) => need.bytes !== null && need.bytes <= memory.availableBytes);
  const details = needs.map(
    (need) =>
      `${need.label}: ${need.bytes === null ? 'cannot be read' : `needs about ${formatGiB(need.bytes)}${need.bytes > memory.availableBytes ? ' — does not fit now' : ''}`}`,
  );
  if (fitting.length === 0) {
    return {
      ...base,
      status: 'warn',
      summary: `${free}; none of the ${usable.length} library model(s) fits now`,
      fix: 'Close memory-hungry programs, or add a smaller model (fewer parameters, or a Q4_K_M quantization).',
      details,
    };
  }
  return {
    ...base,
    status: 'ok',
    summary: `${free}; ${fitting.length} of ${usable.length} library model(s) fit`,
    fix: null,
    details,
  };
}

/**
 * Chosen `llama:` models are loaded together (one instance per file), so their needs add up and must
 * fit what the OS can hand out. Without a choice, each library model is checked on its own.
 */
export async function checkMemory(
  probes: DoctorProbes,
  input: DoctorInput,
  library: readonly ModelEntry[],
  chosen: readonly ModelEntry[] = [],
): Promise<DoctorCheck> {
  const memory = probes.memory();
  const facts: MemoryFacts = {
    base: { id: 'memory', title: 'Memory for models' },
    free: `${formatGiB(memory.availableBytes)} available of ${formatGiB(memory.totalBytes)}`,
    memory,
  };
  const chosenFiles = [
    ...new Set(
      input.models.filter((model) => model.kind === 'llama' && model.file).map((model) => model.file as string),
    ),
  ];
  if (chosenFiles.length > 0) return chosenModelsFit(probes, input, chosen, chosenFiles, facts);
  return libraryModelsFit(probes, input, library, facts);
}
