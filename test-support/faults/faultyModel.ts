import { parseModelOutput } from '../../electron/core/llm/output';
import type { GenerateRequest, GenerateResult, ModelRouter } from '../../electron/core/llm/types';
import { oracleAnswer } from './oracle';
import { STATS } from '../transcripts';

/** Seeded PRNG (mulberry32): the same seed gives the same faults. */
export function seededRandom(seed: number): () => number {
  // Spread small consecutive seeds apart: mulberry32's first outputs for 1, 2, 3… are correlated.
  let state = Math.imul(seed ^ 0x5bd1e995, 0x9e3779b1) >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  next();
  next();
  return next;
}

export const FAULT_KINDS = [
  'bad_json',
  'cut_at_max_tokens',
  'huge_string',
  'unknown_task_ids',
  'cyclic_dependencies',
  'empty_edits',
  'path_escapes_repo',
  'absolute_path',
  'git_dir',
  'edit_tests',
  'control_chars_in_path',
  'diff_does_not_apply',
  'wrong_code',
  'supervisor_rejects',
  'tester_lies',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

const HUGE = 'x'.repeat(10 * 1024 * 1024);

/** The faults that make sense for a role; a corrupted call picks one of these. */
function kindsFor(role: string): FaultKind[] {
  const always: FaultKind[] = ['bad_json', 'cut_at_max_tokens', 'huge_string'];
  if (role === 'planner') return [...always, 'unknown_task_ids', 'cyclic_dependencies'];
  if (role === 'coder' || role === 'editor')
    return [
      ...always,
      'empty_edits',
      'path_escapes_repo',
      'absolute_path',
      'git_dir',
      'edit_tests',
      'control_chars_in_path',
      'diff_does_not_apply',
      'wrong_code',
    ];
  if (role === 'supervisor') return [...always, 'supervisor_rejects'];
  if (role === 'tester') return [...always, 'tester_lies'];
  return always;
}

function editsLike(answer: unknown, path: string, content: string): unknown {
  const record = answer as { edits?: { search?: string }[]; diff?: string };
  if (typeof record.diff === 'string') return { diff: `--- a/${path}\n+++ b/${path}\n@@ -0,0 +1,1 @@\n+${content}\n` };
  if (record.edits?.[0] && 'search' in record.edits[0]) return { edits: [{ path, search: '', replace: content }] };
  return { edits: [{ path, content }] };
}

/** The corrupted text a model would have produced for this fault. */
export function corrupt(kind: FaultKind, answer: unknown): string {
  const json = JSON.stringify(answer);
  switch (kind) {
    case 'bad_json':
      return `Sure! Here is the answer:\n${json.slice(0, Math.max(1, Math.floor(json.length / 3)))}, "oops": }`;
    case 'cut_at_max_tokens':
      return json.slice(0, Math.max(1, Math.floor(json.length * 0.6)));
    case 'huge_string':
      return JSON.stringify({
        ...(answer as object),
        report: HUGE,
        feedback: HUGE,
        summary: HUGE,
        reason: HUGE,
        content: HUGE,
      });
    case 'unknown_task_ids': {
      const plan = structuredClone(answer) as {
        tasks?: { id: string }[];
        steps?: { id: string; depends_on: string[] }[];
      };
      if (plan.tasks?.[1]) plan.tasks[1].id = 'T9';
      if (plan.steps?.[1]) plan.steps[1].depends_on = ['T7'];
      return JSON.stringify(plan);
    }
    case 'cyclic_dependencies': {
      const plan = structuredClone(answer) as {
        tasks?: { id: string }[];
        steps?: { id: string; depends_on: string[] }[];
      };
      if (plan.steps?.[0] && plan.steps[1]) {
        plan.steps[0].depends_on = ['T2'];
        plan.steps[1].depends_on = ['T1'];
      }
      if (plan.tasks?.[1]) plan.tasks[1].id = 'T1';
      return JSON.stringify(plan);
    }
    case 'empty_edits':
      return JSON.stringify('diff' in (answer as object) ? { diff: '' } : { edits: [] });
    case 'path_escapes_repo':
      return JSON.stringify(editsLike(answer, '../outside-the-repo.txt', 'escaped\n'));
    case 'absolute_path':
      return JSON.stringify(editsLike(answer, '/tmp/lathe-absolute-escape.txt', 'escaped\n'));
    case 'git_dir':
      return JSON.stringify(editsLike(answer, '.git/hooks/pre-commit', '#!/bin/sh\necho pwned\n'));
    case 'edit_tests':
      return JSON.stringify(
        editsLike(
          answer,
          'test/stats.test.js',
          "import { test } from 'node:test';\ntest('always passes', () => {});\n",
        ),
      );
    case 'control_chars_in_path':
      return JSON.stringify(editsLike(answer, 'src/\u0007bell\u202Eevil.js', 'export {};\n'));
    case 'diff_does_not_apply':
      return JSON.stringify({
        diff: '--- a/src/stats.js\n+++ b/src/stats.js\n@@ -40,3 +40,3 @@\n-this line is not there\n+nor is this\n context\n',
      });
    case 'wrong_code':
      return JSON.stringify(editsLike(answer, 'src/stats.js', STATS.wrong));
    case 'supervisor_rejects':
      return JSON.stringify({ approved: false, score: 20, issues: ['not convinced'], feedback: 'redo it' });
    case 'tester_lies':
      return JSON.stringify({ ...(answer as object), passed: true, summary: 'all good', findings: [], fix_plan: [] });
    default:
      return kind satisfies never;
  }
}

export interface FaultLog {
  calls: number;
  corrupted: { role: string; kind: FaultKind }[];
}

/**
 * A model that answers like the oracle, except that `rate` of its calls (seeded) return a corrupted
 * text, parsed and validated exactly as a real provider's output would be.
 */
export function createFaultyModel(options: { rate: number; seed: number }): { router: ModelRouter; log: FaultLog } {
  const random = seededRandom(options.seed);
  const log: FaultLog = { calls: 0, corrupted: [] };
  const usage = {
    model: 'faulty',
    promptTokens: 100,
    completionTokens: 50,
    reusedPrefixTokens: 0,
    timeToFirstTokenMs: 1,
    totalMs: 1,
    tokensPerSecond: 50,
  };
  const router: ModelRouter = {
    specFor: () => 'faulty',
    dispose: async () => {},
    async generate<T>(request: GenerateRequest<T>): Promise<GenerateResult<T>> {
      log.calls++;
      const answer = oracleAnswer(request as GenerateRequest<unknown>);
      let raw = JSON.stringify(answer);
      if (random() < options.rate) {
        const kinds = kindsFor(request.role);
        const kind = kinds[Math.floor(random() * kinds.length)] ?? 'bad_json';
        log.corrupted.push({ role: request.role, kind });
        raw = corrupt(kind, answer);
      }
      const parsed = parseModelOutput(raw, request.schema);
      if (!parsed.ok)
        return {
          ok: false,
          error: { code: 'INVALID_OUTPUT', message: parsed.message, retryable: true },
          raw: raw.slice(0, 4000),
          usage,
        };
      return { ok: true, value: parsed.value, raw: raw.slice(0, 4000), usage, droppedContext: [] };
    },
  };
  return { router, log };
}
