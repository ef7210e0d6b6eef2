import os from 'node:os';
import type { GgufInsights } from 'node-llama-cpp';

export interface MemoryNeed {
  weightsBytes: number;
  contextBytes: number;
}

/** node-llama-cpp's own estimate of CPU RAM for the weights and one role's context. */
export function estimateCpuMemory(insights: GgufInsights, contextSize: number, includeWeights: boolean): MemoryNeed {
  const weights = includeWeights
    ? insights.estimateModelResourceRequirements({ gpuLayers: 0, useMmap: true }).cpuRam
    : 0;
  const context = insights.estimateContextResourceRequirements({ contextSize, modelGpuLayers: 0, sequences: 1 }).cpuRam;
  return { weightsBytes: weights, contextBytes: context };
}

/** Memory the OS can hand out now (Linux: MemAvailable), bounded by a cgroup limit when there is one. */
export function availableMemoryBytes(): number {
  const free = os.freemem();
  const constrained = typeof process.constrainedMemory === 'function' ? process.constrainedMemory() : 0;
  if (constrained && constrained > 0 && constrained < os.totalmem())
    return Math.min(free, Math.max(0, constrained - process.memoryUsage.rss()));
  return free;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(0)} MB`;
  return `${Math.ceil(bytes / 1024)} KB`;
}
