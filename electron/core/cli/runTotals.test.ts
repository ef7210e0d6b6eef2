import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RunStateSchema } from '../../../shared/engine/runState';
import { TokenCountsSchema } from '../../../shared/engine/tokenCounts';
import { makeExampleRepo, REPLAYS } from '../../../test-support/exampleRepo';
import { runLathe } from '../../../test-support/runCli';
import { makeTempDir } from '../../../test-support/tempRepo';
import { runTotalsLine } from './runTotals';

const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((fn) => fn()));

const tokens = (prompt: number, cached: number, generated: number, estimated = false) => ({
  prompt,
  cached,
  prefill: prompt - cached,
  generated,
  calls: 1,
  estimated,
});

describe('runTotalsLine', () => {
  it.each([
    [
      { tokens: tokens(12_345, 10_000, 678), elapsedMs: 83_000 },
      'tokens: 12,345 prompt (10,000 cached, 2,345 new) · 678 generated · elapsed 1 min 23 s',
    ],
    [{ tokens: tokens(0, 0, 0), elapsedMs: 4_200 }, 'tokens: 0 prompt (0 cached, 0 new) · 0 generated · elapsed 4.2 s'],
    [
      { tokens: tokens(1_234_567, 0, 10_001, true), elapsedMs: 3_723_000 },
      'tokens: 1,234,567 prompt (0 cached, 1,234,567 new) · 10,001 generated (estimated) · elapsed 1 h 02 min',
    ],
  ])('%j → %s', (totals, line) => {
    expect(runTotalsLine(totals)).toBe(line);
  });
});

describe('lathe run: the closing summary', () => {
  it("says the run's tokens over every role and its elapsed time, as its saved state records them", async () => {
    const repo = makeExampleRepo('js-stats');
    const home = makeTempDir('lathe-home-');
    cleanup.push(
      () => repo.remove(),
      () => fs.rmSync(home, { recursive: true, force: true }),
    );
    const result = await runLathe(
      [
        'run',
        '--repo',
        repo.dir,
        '--goal',
        'fix median',
        '--model',
        `replay:${path.join(REPLAYS, 'js-stats.minimal.json')}`,
      ],
      { env: { LATHE_HOME: home } },
    );
    expect(result.code).toBe(0);
    const runId = /▶ run (\S+)/.exec(result.stdout)?.[1] ?? '';
    const state = RunStateSchema.parse(
      JSON.parse(fs.readFileSync(path.join(repo.dir, '.lathe', 'runs', runId, 'state.json'), 'utf8')),
    );
    const agents = Object.values(state.metrics.agents);
    const prompt = agents.reduce((sum, agent) => sum + agent.prompt_tokens, 0);
    const cached = agents.reduce((sum, agent) => sum + (agent.cached_tokens ?? 0), 0);
    const generated = agents.reduce((sum, agent) => sum + agent.completion_tokens, 0);
    const calls = agents.reduce((sum, agent) => sum + agent.calls, 0);
    expect(prompt).toBeGreaterThan(0);
    expect(generated).toBeGreaterThan(0);
    const lines = result.stdout.trimEnd().split('\n');
    const summary = lines.findIndex((line) => line.startsWith(`  run ${runId} · branch`));
    // A replay model's counts are estimates, and say so.
    expect(lines[summary + 1]).toBe(
      `  ${runTotalsLine({ tokens: { prompt, cached, prefill: prompt - cached, generated, calls, estimated: true }, elapsedMs: state.elapsed_ms })}`,
    );
    expect(lines[summary + 1]).toMatch(
      /^ {2}tokens: [\d,]+ prompt \([\d,]+ cached, [\d,]+ new\) · [\d,]+ generated \(estimated\) · elapsed \d+(\.\d)? s$/,
    );
  });

  it('--json: the last line carries the tokens and the elapsed time', async () => {
    const repo = makeExampleRepo('js-stats');
    const home = makeTempDir('lathe-home-');
    cleanup.push(
      () => repo.remove(),
      () => fs.rmSync(home, { recursive: true, force: true }),
    );
    const result = await runLathe(
      [
        'run',
        '--repo',
        repo.dir,
        '--goal',
        'fix median',
        '--json',
        '--model',
        `replay:${path.join(REPLAYS, 'js-stats.minimal.json')}`,
      ],
      { env: { LATHE_HOME: home } },
    );
    expect(result.code).toBe(0);
    const last = JSON.parse(result.stdout.trimEnd().split('\n').at(-1) ?? '{}') as {
      tokens: unknown;
      elapsed_ms: number;
    };
    const { prompt, cached, prefill, generated, estimated } = TokenCountsSchema.parse(last.tokens);
    expect(estimated).toBe(true);
    expect(prompt).toBeGreaterThan(0);
    expect(generated).toBeGreaterThan(0);
    expect(cached + prefill).toBe(prompt);
    expect(last.elapsed_ms).toBeGreaterThan(0);
  });
});
