import type { ModelEntry } from '../llm/index';
import { chooseContextSize, type WindowChoice } from '../llm/llama/contextChoice';
import { DEFAULT_CONTEXT_SIZE } from '../llm/llama/defaults';
import type { DoctorProbes } from './types';

/**
 * The window a role gets on this model when its config names none, as the model pool will choose it
 * (decision 92), from the trained context and two memory estimates: the KV cache grows linearly, so
 * the 4k and 8k needs give the weights and the bytes per token.
 */
export async function defaultWindowOf(probes: DoctorProbes, entry: ModelEntry): Promise<WindowChoice | null> {
  // A model trained on 4k or less gets its whole window: memory does not enter into it.
  if (entry.contextLength !== null && entry.contextLength <= DEFAULT_CONTEXT_SIZE)
    return chooseContextSize({
      trainedContext: entry.contextLength,
      weightsBytes: 0,
      contextBytes: () => 0,
      availableBytes: 0,
    });
  const [at4k, at8k] = await Promise.all([
    probes.estimateModelMemory(entry.path, 4096),
    probes.estimateModelMemory(entry.path, 8192),
  ]);
  if (at4k === null || at8k === null) return null;
  const perToken = Math.max(0, (at8k - at4k) / 4096);
  return chooseContextSize({
    trainedContext: entry.contextLength,
    weightsBytes: Math.max(0, at4k - perToken * 4096),
    contextBytes: (size) => perToken * size,
    availableBytes: probes.memory().availableBytes,
  });
}

/** `window: FILE: 8192 of the 32768 …` lines for the models check. */
export async function windowDetails(probes: DoctorProbes, entries: readonly ModelEntry[]): Promise<string[]> {
  const lines: string[] = [];
  for (const entry of entries) {
    const choice = await defaultWindowOf(probes, entry);
    if (choice) lines.push(`default window: ${entry.fileName}: ${choice.reason}`);
  }
  return lines;
}
