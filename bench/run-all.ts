/**
 * `npm run bench`: runs every bench in bench/ in turn, then writes bench/results/latest.json and
 * bench/results/latest.md with each figure beside its goal (from the issues that set them).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { figure, machine, type BenchResult, type Figure } from './lib/results';
import { spreadText, type Spread } from './lib/stats';

const here = path.dirname(new URL(import.meta.url).pathname);
const resultsDir = path.join(here, 'results');
const BENCHES = ['cliStart', 'engine', 'concurrentRuns', 'workspace', 'inventory', 'llm', 'ui'] as const;

type Json = Record<string, unknown>;
const num = (value: unknown): number => (typeof value === 'number' ? value : Number.NaN);
/** A bench's stored spread (bench/lib/stats.ts) as the table's text, or nothing. */
const spreadOf = (value: unknown): string | undefined =>
  value && typeof value === 'object' && 'median' in value ? spreadText(value as Spread) : undefined;
const at = (value: unknown, ...keys: string[]): unknown =>
  keys.reduce<unknown>(
    (current, key) => (current && typeof current === 'object' ? (current as Json)[key] : undefined),
    value,
  );

/** The inference and workspace benches keep their own detailed JSON; these map them onto figures. */
const adapters: Record<string, (json: Json) => Figure[]> = {
  llm: (json) => [
    figure('llm_load_ms', 'model load (0.5B Q8_0)', num(json.loadMs), 'ms'),
    figure('llm_prompt_tps', 'prompt evaluation (1k tokens)', num(json.promptTokensPerSecond), 'tokens/s'),
    figure('llm_generation_tps', 'generation, unconstrained', num(json.generationTokensPerSecond), 'tokens/s'),
    figure(
      'llm_constrained_ratio_edit',
      'constrained / unconstrained, edit schema',
      num(at(json, 'constrained', 'edit', 'ratio')),
      '×',
      { min: 0.9 },
      spreadOf(at(json, 'constrained', 'edit', 'ratioSpread')),
    ),
    figure(
      'llm_constrained_ratio_plan',
      'constrained / unconstrained, plan schema',
      num(at(json, 'constrained', 'plan', 'ratio')),
      '×',
      { min: 0.9 },
      spreadOf(at(json, 'constrained', 'plan', 'ratioSpread')),
    ),
    ...(at(json, 'promptLookup', 'measured') === true
      ? [
          figure(
            'llm_prompt_lookup_acceptance',
            'prompt lookup (writer roles): accepted predictions',
            num(at(json, 'promptLookup', 'acceptanceRate')),
            '',
          ),
          figure(
            'llm_prompt_lookup_speedup',
            'prompt lookup: decode speed with / without',
            num(at(json, 'promptLookup', 'speedup', 'median')),
            '×',
            undefined,
            spreadOf(at(json, 'promptLookup', 'speedup')),
          ),
        ]
      : [
          {
            key: 'llm_prompt_lookup_speedup',
            label: 'prompt lookup (writer roles): unmeasured, needs a real model (bench:llm --model PATH)',
            value: Number.NaN,
            unit: '×',
            goal: null,
            pass: null,
          },
        ]),
    figure('llm_ttft_ratio', 'time to first token, reused prefix / cold', num(json.ttftRatio), '×', { max: 0.2 }),
    figure('llm_peak_rss', 'peak RSS', num(json.peakRssMiB), 'MiB'),
  ],
  workspace: (json) => [
    figure(
      'commit_native_ms',
      'commit per step, native git (20k files)',
      num(at(json, 'commit', 'nativeGit', 'medianMs')),
      'ms',
    ),
    figure(
      'commit_worktree_ratio',
      'commit per step, Lathe worktree run vs native git',
      num(at(json, 'commit', 'ratioWorktree')),
      '×',
    ),
    figure(
      'commit_isomorphic_ratio',
      'commit per step, isomorphic-git only vs native git',
      num(at(json, 'commit', 'ratioIsomorphicOnly')),
      '×',
    ),
    figure(
      'verifier_overhead_bwrap_ms',
      'verify() overhead over a bare spawn (bubblewrap, a checkout)',
      num(at(json, 'verifier', 'overheadBwrapMs')),
      'ms',
      { max: 15 },
    ),
    figure(
      'verifier_overhead_bwrap_worktree_ms',
      'verify() overhead over a bare spawn (bubblewrap, a run worktree, as a run calls it)',
      num(at(json, 'verifier', 'overheadBwrapWorktreeVouchedMs')),
      'ms',
      { max: 15 },
    ),
    figure(
      'verifier_overhead_bwrap_worktree_cold_ms',
      '  the same, first verify of the worktree in this process (git status first)',
      num(at(json, 'verifier', 'overheadBwrapWorktreeMs')),
      'ms',
    ),
    figure(
      'verifier_bwrap_alone_ms',
      'bubblewrap alone over a bare spawn (the floor)',
      num(at(json, 'verifier', 'bwrapAloneOverheadMs')),
      'ms',
    ),
    figure(
      'verifier_overhead_checkout_ms',
      'Verifier overhead (checkout fallback)',
      num(at(json, 'verifier', 'overheadCheckoutMs')),
      'ms',
    ),
    figure('summary_20k_ms', 'repo summary, 20k files (warm)', num(at(json, 'summary', 'warm', 'medianMs')), 'ms', {
      max: 1000,
    }),
    figure('summary_20k_cold_ms', 'repo summary, 20k files (cold)', num(at(json, 'summary', 'coldMs')), 'ms', {
      max: 1000,
    }),
  ],
};

function figuresOf(name: string): Figure[] {
  const file = path.join(resultsDir, `${name}.json`);
  if (!fs.existsSync(file)) return [];
  const json = JSON.parse(fs.readFileSync(file, 'utf8')) as Json;
  const adapter = adapters[name];
  return adapter ? adapter(json) : ((json as unknown as BenchResult).figures ?? []);
}

const only = process.argv.slice(2);
const ran: { bench: string; ok: boolean; seconds: number }[] = [];
for (const bench of BENCHES) {
  if (only.length > 0 && !only.includes(bench)) continue;
  process.stdout.write(`\n=== bench ${bench}\n`);
  const started = Date.now();
  const result = spawnSync('npx', ['tsx', path.join(here, `${bench}.ts`)], { stdio: 'inherit' });
  ran.push({ bench, ok: result.status === 0, seconds: Math.round((Date.now() - started) / 100) / 10 });
}

const figures = BENCHES.flatMap((bench) => figuresOf(bench).map((item) => ({ bench, ...item })));
const latest = { at: new Date().toISOString(), machine: machine(), ran, figures };
fs.writeFileSync(path.join(resultsDir, 'latest.json'), `${JSON.stringify(latest, null, 2)}\n`);
const rows = figures.map(
  (item) =>
    `| ${item.bench} | ${item.label} | ${Number.isNaN(item.value) ? 'n/a' : `${item.value} ${item.unit}`} | ${item.spread ?? ''} | ${item.goal ?? ''} | ${item.pass === null ? '' : item.pass ? 'PASS' : 'MISS'} |`,
);
const markdown = [
  `# Lathe benchmarks — ${latest.at}`,
  '',
  `Machine: ${latest.machine.cores} cores (${latest.machine.cpu}), ${latest.machine.memoryGiB} GiB, Node ${latest.machine.node}.`,
  '',
  '| bench | figure | value | spread | goal | |',
  '| --- | --- | --- | --- | --- | --- |',
  ...rows,
  '',
  ...ran
    .filter((item) => !item.ok)
    .map((item) => `Bench \`${item.bench}\` failed; its figures are from its last successful run, if any.`),
].join('\n');
fs.writeFileSync(path.join(resultsDir, 'latest.md'), `${markdown}\n`);
process.stdout.write(`\n${markdown}\n`);
process.exitCode = ran.every((item) => item.ok) ? 0 : 1;
