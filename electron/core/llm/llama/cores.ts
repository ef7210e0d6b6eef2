import fs from 'node:fs';
import os from 'node:os';

/**
 * Physical cores (hyper-threads share one core's math units, and node-llama-cpp's default of at least 4
 * threads oversubscribes small machines badly).
 */
export function physicalCoreCount(): number {
  try {
    const cpuinfo = fs.readFileSync('/proc/cpuinfo', 'utf8');
    const cores = new Set<string>();
    let physical = '0';
    for (const line of cpuinfo.split('\n')) {
      const [key, value] = line.split(':').map((part) => part.trim());
      if (key === 'physical id') physical = value ?? '0';
      if (key === 'core id') cores.add(`${physical}:${value}`);
    }
    if (cores.size > 0) return cores.size;
  } catch {
    // catch-ok: not Linux: fall back below
  }
  return Math.max(1, os.availableParallelism());
}
