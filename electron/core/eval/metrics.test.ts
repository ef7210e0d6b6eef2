import { describe, expect, it } from 'vitest';
import type { RunLogEvent } from '../../../shared/schemas/run';
import { roleQuality, sumRoleQuality } from './metrics';
import { buildReport } from './runEval';
import { formatSummaryTable, renderMarkdownReport } from './reportFormat';
import type { EvalTaskResult } from './reportSchema';

let seq = 0;
const event = (role: RunLogEvent['role'], type: string, data: Record<string, unknown> = {}): RunLogEvent => ({
  ts: '2026-01-01T00:00:00.000Z',
  seq: ++seq,
  run_id: 'r',
  role,
  type,
  data,
});

const agent = (calls: number, prompt: number, completion: number) => ({
  status: 'idle' as const,
  calls,
  prompt_tokens: prompt,
  completion_tokens: completion,
});
const metrics = {
  total_steps: 1,
  completed_steps: 1,
  failed_steps: 0,
  replan_count: 0,
  fix_cycles: 0,
  verifications_passed: 1,
  verifications_failed: 0,
  agents: { coder: agent(5, 1000, 200), planner: agent(1, 300, 50), tester: agent(0, 0, 0) },
};

describe('well-formed output per role', () => {
  it('counts outputs and declines as well formed, INVALID_OUTPUT retries and failures as not, other retries as errors', () => {
    const log = [
      event('planner', 'agent_output'),
      event('coder', 'agent_retry', { code: 'INVALID_OUTPUT' }),
      event('coder', 'agent_retry', { code: 'TIMEOUT' }),
      event('coder', 'agent_output'),
      event('coder', 'agent_retry', { code: 'INVALID_OUTPUT' }),
      event('coder', 'agent_failed', { reason: 'INVALID_OUTPUT: not JSON' }),
      event('coder', 'agent_declined', { reason: 'needs another file' }),
      event('engine', 'phase'),
    ];
    const roles = roleQuality(log, metrics);
    expect(Object.keys(roles)).toEqual(['coder', 'planner']);
    const noDecode = {
      tokens_per_second: null,
      prompt_lookup: null,
      decode_ms: 0,
      decoded_tokens: 0,
      steered_tokens: 0,
    };
    expect(roles.coder).toEqual({
      calls: 5,
      prompt_tokens: 1000,
      completion_tokens: 200,
      well_formed: 2,
      malformed: 3,
      errors: 1,
      well_formed_rate: 0.4,
      ...noDecode,
    });
    expect(roles.planner).toEqual({
      calls: 1,
      prompt_tokens: 300,
      completion_tokens: 50,
      well_formed: 1,
      malformed: 0,
      errors: 0,
      well_formed_rate: 1,
      ...noDecode,
    });
    const total = sumRoleQuality([roles, roleQuality([event('coder', 'agent_output')], null)]);
    expect(total.coder).toMatchObject({ calls: 5, well_formed: 3, malformed: 3, well_formed_rate: 0.5 });
  });

  it("reports each role's decode rate, steered tokens and, where it was on, prompt lookup's acceptance, per task and summed", () => {
    const usage = (completion: number, decodeMs: number, lookup?: [number, number]) => ({
      usage: {
        prompt_tokens: 10,
        completion_tokens: completion,
        decode_ms: decodeMs,
        steered_tokens: completion / 10,
        ...(lookup ? { lookup_validated: lookup[0], lookup_refuted: lookup[1] } : {}),
      },
    });
    const first = roleQuality(
      [event('coder', 'agent_output', usage(100, 2000, [60, 20])), event('planner', 'agent_output', usage(50, 1000))],
      null,
    );
    expect(first.coder).toMatchObject({
      tokens_per_second: 50,
      prompt_lookup: { validated: 60, refuted: 20, acceptance_rate: 0.75 },
    });
    expect(first.planner).toMatchObject({ tokens_per_second: 50, prompt_lookup: null });
    const second = roleQuality([event('coder', 'agent_output', usage(300, 2000, [20, 20]))], null);
    const total = sumRoleQuality([first, second]);
    expect(first.planner).toMatchObject({ steered_tokens: 5 });
    expect(total.coder).toMatchObject({
      tokens_per_second: 100,
      decoded_tokens: 400,
      steered_tokens: 40,
      prompt_lookup: { validated: 80, refuted: 40, acceptance_rate: 80 / 120 },
    });
  });
});

const result = (
  id: string,
  outcome: EvalTaskResult['outcome'],
  extra: Partial<EvalTaskResult> = {},
): EvalTaskResult => ({
  id,
  language: id.startsWith('py') ? 'python' : 'javascript',
  kind: 'bugfix',
  title: id,
  outcome,
  solved: outcome === 'solved',
  run: null,
  hidden_tests: null,
  visible_tests: null,
  attempts: 1,
  replans: 0,
  sub_plans: 0,
  fix_cycles: 0,
  verifications: 1,
  tokens: {
    prompt: 900,
    cached: 600,
    prefill: 300,
    generated: 100,
    calls: 2,
    estimated: false,
    completion: 100,
    total: 1000,
  },
  laptop_minutes: { 'cpu-laptop': 0.3, 'apple-m': 0.1 },
  roles: {},
  wall_ms: 61_000,
  error: null,
  files: { run_dir: null, hidden_log: null },
  ...extra,
});

describe('the report', () => {
  const options = {
    appRoot: '/app',
    tasks: [],
    workflow: 'supervised',
    model: 'llama:/m/q.gguf',
    timeLimitMs: 1_800_000,
    outDir: '/out',
    suiteDir: '/suite',
  };
  const tasks = [
    result('py-a', 'solved', { roles: roleQuality([event('coder', 'agent_output')], metrics) }),
    result('js-b', 'unsolved', {
      hidden_tests: {
        status: 'FAIL',
        counts: { passed: 1, failed: 2, skipped: 0, total: 3 },
        first_failure: { test_id: 'test/acceptance.test.js::edge', message: 'expected 1\nto be 2' },
        reason: null,
        isolation: 'bwrap',
        duration_ms: 90,
      },
    }),
    result('js-c', 'error', {
      error: { code: 'HIDDEN_TESTS_INFRA_ERROR', message: 'node not found' },
      tokens: { prompt: 0, cached: 0, prefill: 0, generated: 0, calls: 0, estimated: false, completion: 0, total: 0 },
    }),
  ];
  const report = buildReport(options, tasks, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:03:05Z'), 1);

  it('sums outcomes, languages and tokens; the solve rate counts judged tasks only', () => {
    expect(report.summary).toMatchObject({
      tasks: 3,
      solved: 1,
      unsolved: 1,
      errors: 1,
      solve_rate: 0.5,
      elapsed_ms: 185_000,
      by_language: { python: { tasks: 1, solved: 1 }, javascript: { tasks: 2, solved: 0 } },
    });
    expect(report.summary.tokens).toEqual({ prompt: 1800, completion: 200, total: 2000, cached: 1200, prefill: 600 });
    // Each median is its own; the task that could not run (js-c: no run, no calls) is left out.
    expect(report.summary.median_tokens).toEqual({
      prompt: 900,
      cached: 600,
      prefill: 300,
      generated: 100,
      calls: 2,
      estimated: false,
    });
    expect(report.summary.median_laptop_minutes).toEqual({ 'cpu-laptop': 0.3, 'apple-m': 0.1 });
    expect(report.summary.task_wall_ms).toEqual({ total: 183_000, median: 61_000, max: 61_000 });
    expect(report.interrupted).toBe(false);
  });

  it('prints an aligned table and a markdown report that explains what failed', () => {
    const lines = formatSummaryTable(report);
    expect(lines[0]).toMatch(
      /^TASK\s+LANG\s+KIND\s+RESULT\s+RUN\s+ATTEMPTS\s+REPLANS\s+PROMPT\s+CACHED\s+PREFILL\s+GENERATED\s+LAPTOP-MIN\s+WELL-FORMED\s+TIME$/,
    );
    expect(lines[1]).toMatch(
      /^py-a\s+py\s+bugfix\s+solved\s+-\s+1\s+0\s+900\s+600\s+300\s+100\s+0\.3\/0\.1\s+100%\s+1m 01s$/,
    );
    expect(lines.join('\n')).toContain(
      'median per task: 900 prompt, 600 cached, 300 prefill, 100 generated, 2 calls · laptop minutes 0.3/0.1',
    );
    expect(lines[3]).toMatch(/^js-c .*error: HIDDEN_TESTS_INFRA_ERROR/);
    expect(lines.join('\n')).toContain('solved 1/3 (50% of judged tasks)');
    expect(lines.join('\n')).toContain('not judged: 1 error(s), 0 interrupted');
    const markdown = renderMarkdownReport(report);
    expect(markdown).toContain('# Lathe eval — supervised, `llama:/m/q.gguf`');
    expect(markdown).toContain('### js-b (unsolved)');
    expect(markdown).toContain('first hidden failure: `test/acceptance.test.js::edge` — expected 1');
    expect(markdown).toContain('- HIDDEN_TESTS_INFRA_ERROR: node not found');
  });
});
