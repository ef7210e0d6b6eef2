import { parseModelSpec, type ModelEntry } from '../llm/index';
import { formatGiB } from './runtimeChecks';
import type { ChosenModel, DoctorCheck, DoctorInput, DoctorProbes } from './types';
import { windowDetails } from './windowChoice';

/** Parses model specs once, keeping where each was chosen; duplicates are listed once. */
export function chosenModels(specs: readonly { spec: string; source: string }[], cwd: string): ChosenModel[] {
  const seen = new Set<string>();
  const models: ChosenModel[] = [];
  for (const { spec, source } of specs) {
    if (seen.has(spec)) continue;
    seen.add(spec);
    const parsed = parseModelSpec(spec, { cwd });
    if (!parsed.ok) models.push({ spec, source, kind: 'invalid', file: null, problem: parsed.message });
    else if (parsed.value.kind === 'llama')
      models.push({ spec, source, kind: 'llama', file: parsed.value.modelPath, problem: null });
    // An oracle, like a replay, is answers computed on this machine: no model to load, no server to reach.
    else
      models.push({
        spec,
        source,
        kind: parsed.value.kind === 'replay' || parsed.value.kind === 'oracle' ? 'replay' : 'server',
        file: null,
        problem: null,
      });
  }
  return models;
}

function howToAdd(folders: readonly string[]): string {
  return `Copy a GGUF file (e.g. a Q4_K_M quantization of a small coder model) into ${folders[0] ?? '~/.lathe/models'}, or set LATHE_MODELS_DIR to the folder that has them (or add that folder in the app's settings); then \`lathe models\` lists it. On an air-gapped machine, carry the .gguf files with the installer (docs/air-gapped.md).`;
}

/** The model folders' contents, and whether every chosen `llama:` model can be used. */
export async function checkModels(
  probes: DoctorProbes,
  input: DoctorInput,
): Promise<{ check: DoctorCheck; library: ModelEntry[]; chosen: ModelEntry[] }> {
  const library = await probes.scanModels(input.modelFolders);
  const usable = library.filter((entry) => entry.status === 'ok');
  const rejected = library.filter((entry) => entry.status === 'rejected');
  const details = [
    `folders: ${input.modelFolders.join(', ') || 'none'}`,
    ...usable.map(
      (entry) =>
        `ok: ${entry.fileName} (${entry.architecture ?? '?'}, ${entry.quantization ?? '?'}, ${formatGiB(entry.sizeBytes)}, context ${entry.contextLength ?? '?'})`,
    ),
    ...rejected.map((entry) => `rejected: ${entry.fileName}: ${entry.reason ?? 'unknown reason'}`),
  ];
  const base = { id: 'models', title: 'Models' };
  const problems: string[] = [];
  const chosen: ModelEntry[] = [];
  for (const model of input.models) {
    if (model.kind === 'invalid')
      problems.push(`${model.spec} (${model.source}): ${model.problem ?? 'not a model spec'}`);
    if (model.kind !== 'llama' || !model.file) continue;
    const entry = library.find((candidate) => candidate.path === model.file) ?? (await probes.inspectModel(model.file));
    chosen.push(entry);
    if (entry.status !== 'ok') problems.push(`${model.spec} (${model.source}): ${entry.reason ?? 'cannot be used'}`);
    else details.push(`chosen: ${model.spec} (${model.source}) is usable`);
  }
  if (problems.length > 0) {
    return {
      library,
      chosen,
      check: {
        ...base,
        status: 'fail',
        summary: `${problems.length} chosen model(s) cannot be used: ${problems[0]}`,
        fix: 'Point the spec at an existing, complete .gguf file (`lathe models` shows which files are usable and why others are not), or re-copy a file that is truncated.',
        details: [...details, ...problems.map((problem) => `problem: ${problem}`)],
      },
    };
  }
  const chosenText =
    input.models.length > 0
      ? `; chosen: ${input.models.map((model) => `${model.spec} (${model.source})`).join(', ')}`
      : '';
  if (usable.length === 0) {
    // A run on a server or replay model needs no local file.
    const needsLocal = input.models.length === 0 || input.models.some((model) => model.kind === 'llama');
    return {
      library,
      chosen,
      check: {
        ...base,
        status: 'warn',
        summary: `no usable GGUF model in ${input.modelFolders.join(', ') || 'any folder'}${rejected.length > 0 ? ` (${rejected.length} rejected)` : ''}${chosenText}`,
        fix: needsLocal ? howToAdd(input.modelFolders) : null,
        details,
      },
    };
  }
  // A 4k or 8k default on a 32k model is a choice: say which, and why (decision 92).
  details.push(
    ...(await windowDetails(probes, chosen.length > 0 ? chosen.filter((entry) => entry.status === 'ok') : usable)),
  );
  return {
    library,
    chosen,
    check: {
      ...base,
      status: rejected.length > 0 ? 'warn' : 'ok',
      summary: `${usable.length} usable model(s)${rejected.length > 0 ? `, ${rejected.length} rejected` : ''}${chosenText}`,
      fix:
        rejected.length > 0
          ? 'Rejected files cannot be loaded; `lathe models` gives each reason (often an unfinished copy). Remove or replace them.'
          : null,
      details,
    },
  };
}
