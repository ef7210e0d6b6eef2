import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** One measured figure, with the goal it is held to when there is one. */
export interface Figure {
  key: string;
  label: string;
  value: number;
  unit: string;
  /** e.g. "≤ 1000 ms", "≥ 0.9×"; null when the figure is informative only. */
  goal: string | null;
  pass: boolean | null;
  /** How much the repetitions spread (e.g. "IQR 120–180, n=10, noisy"); absent for one-shot figures. */
  spread?: string;
}

export interface BenchResult {
  bench: string;
  at: string;
  machine: { cores: number; cpu: string; memoryGiB: number; node: string };
  figures: Figure[];
  details?: unknown;
}

export function machine(): BenchResult['machine'] {
  return {
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.versions.node,
  };
}

export function figure(
  key: string,
  label: string,
  value: number,
  unit: string,
  goal?: { max?: number; min?: number },
  spread?: string,
): Figure {
  const extra = spread ? { spread } : {};
  if (!goal) return { key, label, value, unit, goal: null, pass: null, ...extra };
  const text = goal.max !== undefined ? `≤ ${goal.max} ${unit}` : `≥ ${goal.min} ${unit}`;
  const pass =
    !Number.isNaN(value) &&
    (goal.max === undefined || value <= goal.max) &&
    (goal.min === undefined || value >= goal.min);
  return { key, label, value, unit, goal: text, pass, ...extra };
}

/** Prints the figures as a table and writes bench/results/<bench>.json. */
export function report(result: Omit<BenchResult, 'at' | 'machine'>): BenchResult {
  const full: BenchResult = { ...result, at: new Date().toISOString(), machine: machine() };
  const rows = [
    ['figure', 'value', 'spread', 'goal', ''],
    ...full.figures.map((f) => [
      f.label,
      `${f.value} ${f.unit}`,
      f.spread ?? '',
      f.goal ?? '',
      f.pass === null ? '' : f.pass ? 'PASS' : 'MISS',
    ]),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  process.stdout.write(`\n${full.bench} (${full.machine.cores} cores, ${full.machine.cpu})\n`);
  for (const row of rows)
    process.stdout.write(`${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')}\n`);
  const dir = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${full.bench}.json`), `${JSON.stringify(full, null, 2)}\n`);
  return full;
}
