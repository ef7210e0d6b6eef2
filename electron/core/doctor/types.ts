import { z } from 'zod';
import type { ModelEntry } from '../llm/index';
import type { DetectedTestCommand } from '../workspace/index';
import type { ArtifactUsage } from '../verifier/artifacts';
import type { ListedFiles } from '../git/listFiles';

export const CheckStatusSchema = z.enum(['ok', 'warn', 'fail']);
export type CheckStatus = z.infer<typeof CheckStatusSchema>;

/** One finding: `fail` means something Lathe needs is missing (exit 1); `warn` still works, worse. */
export const DoctorCheckSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: CheckStatusSchema,
  summary: z.string(),
  /** What to do about it, in plain words; null when nothing needs doing. */
  fix: z.string().nullable(),
  details: z.array(z.string()),
});
export type DoctorCheck = z.infer<typeof DoctorCheckSchema>;

export const DoctorReportSchema = z.object({
  ok: z.boolean(),
  lathe_version: z.string(),
  platform: z.string(),
  arch: z.string(),
  node: z.string(),
  checks: z.array(DoctorCheckSchema),
});
export type DoctorReport = z.infer<typeof DoctorReportSchema>;

export type LlamaProbe =
  | { ok: true; gpu: false | string; buildType: string; cpuMathCores: number; gpuDevices: string[] }
  | { ok: false; message: string };

export interface MemoryProbe {
  /** What the OS can hand out now (Linux: MemAvailable, bounded by a cgroup limit). */
  availableBytes: number;
  totalBytes: number;
}

export interface CommandProbe {
  ok: boolean;
  detail: string;
}

export interface ElectronProbe {
  /** Set when the doctor runs inside Electron itself (the packaged app's CLI). */
  runningVersion: string | null;
  /** node_modules/electron's version, when the package is installed. */
  packageVersion: string | null;
  /** The binary `npm start` would run, when it has been downloaded. */
  binaryPath: string | null;
}

/** Everything the checks ask the machine; tests replace any of it. */
export interface DoctorProbes {
  platform: NodeJS.Platform;
  arch: string;
  loadLlama(): Promise<LlamaProbe>;
  /** Installed `@node-llama-cpp/*` prebuilt packages (e.g. `linux-x64`, `linux-x64-cuda`). */
  llamaPackages(): string[];
  physicalCores(): number;
  logicalCpus(): number;
  /** One-minute load average (0 where the OS has none). */
  loadAverage(): number;
  memory(): MemoryProbe;
  /** Bytes to load the model and one context of `contextSize` tokens; null when it cannot be read. */
  estimateModelMemory(file: string, contextSize: number): Promise<number | null>;
  scanModels(folders: readonly string[]): Promise<ModelEntry[]>;
  inspectModel(file: string): Promise<ModelEntry>;
  gitVersion(): Promise<string | null>;
  sandbox(): Promise<{ available: boolean; detail: string; capsTmp?: boolean }>;
  detectTestCommand(dir: string): Promise<DetectedTestCommand | null>;
  /** Whether the test runner can start at all (pytest importable, the program on PATH). */
  testRunnerWorks(command: DetectedTestCommand, dir: string): Promise<CommandProbe>;
  /** The repository's files as Lathe's gitignore-aware listing sees them, with the folders it could not list. */
  listRepoFiles(dir: string): Promise<ListedFiles>;
  electron(): ElectronProbe;
  /** What the Verifier's artifact folder holds (seed 004 retention). */
  artifactUsage(artifactRoot: string): Promise<ArtifactUsage>;
}

/** A model the user chose (flags, settings or the repository's lathe.config.yaml). */
export interface ChosenModel {
  spec: string;
  /** Where it was chosen: `--model`, `settings`, `lathe.config.yaml`. */
  source: string;
  kind: 'llama' | 'server' | 'replay' | 'invalid';
  /** The GGUF file of a `llama:` spec. */
  file: string | null;
  /** Why the spec does not parse, for `invalid`. */
  problem: string | null;
}

export interface DoctorInput {
  models: ChosenModel[];
  modelFolders: string[];
  /** `--threads` or the settings' threads; null = physical cores. */
  threads: number | null;
  /** The repository whose test runner is checked; null when none was given and cwd is not one. */
  repo: string | null;
  /** Context size the memory check assumes per model (Lathe's default is at most 4096). */
  contextSize: number;
  /** The Verifier's artifact folder, whose storage is reported. */
  artifactRoot?: string | null;
}
