import type { Transition } from './actions';
import type { PendingEvent } from './runEvents';
import { currentStep, updateStep } from './planOps';
import type { AttemptBase, Feedback, RunState, TestedHead, TestSummary, TriedAnswer } from './runState';
import { testRunText } from './testFeedback';

/** What a verification says of the commit it ran on; null when it could not judge it. */
export function testedHead(state: RunState, test: TestSummary): TestedHead | null {
  if (!state.head || test.status === 'INFRA_ERROR') return null;
  return {
    commit: state.head,
    failed: test.counts?.failed ?? null,
    total: test.counts?.total ?? null,
    passed: test.passed,
    build_failed: test.failed_phase === 'build',
    ...failingRunOf(test),
  };
}

function failingRunOf(test: TestSummary): Pick<AttemptBase, 'failing_run'> {
  return test.passed ? {} : { failing_run: testRunText(test, 'excerpt') };
}

/** Whether the tests are known to fail at the run's head (its last verification, or the attempt base it was rolled back to). */
export function failingAtHead(state: RunState): boolean {
  if (state.tested_head?.commit === state.head) return !state.tested_head.passed;
  if (state.attempt_base?.commit === state.head)
    return (
      state.attempt_base.passed === false || (state.attempt_base.failed ?? 0) > 0 || state.attempt_base.build_failed
    );
  return false;
}

/**
 * The failing run of the commit the run's head is at, when it is known to fail: after a rollback the last
 * test is the undone attempt's, and the next attempt still has the base's failure to fix.
 */
export function failingRunAtHead(state: RunState): string | null {
  if (state.tested_head?.commit === state.head) return state.tested_head.failing_run ?? null;
  if (state.attempt_base?.commit === state.head) return state.attempt_base.failing_run ?? null;
  return null;
}

/** Where a step's first attempt starts: the head, with what the last verification knew of it. */
export function stepBase(state: RunState): AttemptBase | null {
  if (!state.head) return null;
  const known = state.tested_head?.commit === state.head ? state.tested_head : null;
  return {
    commit: state.head,
    commit_count: state.commits.length,
    failed: known?.failed ?? null,
    total: known?.total ?? null,
    passed: known?.passed ?? null,
    build_failed: known?.build_failed ?? false,
    ...(known?.failing_run !== undefined ? { failing_run: known.failing_run } : {}),
  };
}

/**
 * Failing tests among those the base had: tests the attempt added may fail (a test written first), so
 * as many failures as it added tests are put down to them.
 */
function failingOfBase(base: AttemptBase, test: TestSummary): number | null {
  const counts = test.counts;
  if (!counts) return null;
  const added = base.total !== null ? Math.max(0, counts.total - base.total) : 0;
  return Math.max(0, counts.failed - added);
}

/** Why an attempt that failed its verification is worse than the state it started from; null when it is not. */
export function worseThanBase(base: AttemptBase, test: TestSummary): string | null {
  if (test.inventory?.weakened && !test.passed) return 'it weakened the tests';
  // A change to existing tests stands only once a gate approves it, and a failed attempt reaches no gate.
  const tests = test.inventory?.test_files_changed ?? [];
  if (tests.length > 0) return `it changed existing tests (${tests.join(', ')}), which only a reviewer may approve`;
  if (test.failed_phase === 'build' && !base.build_failed) return 'it broke the build (the tests could not run)';
  const failed = failingOfBase(base, test);
  if (base.failed !== null && failed === null) return 'the test command no longer reports any results';
  if (base.passed === true && (failed === null || failed > 0)) return 'the tests passed before it and fail after it';
  if (base.failed !== null && failed !== null && failed > base.failed)
    return `it left ${failed} failing test(s) where ${base.failed} failed before`;
  return null;
}

/** The step's unrelated hunks with those an applied change brought, each with the commit it came with. */
export function withUnrelated(
  state: RunState,
  hunks: readonly string[],
  commit: string,
): Pick<RunState, 'unrelated_hunks' | 'unrelated_hunk_commits'> {
  const known =
    state.unrelated_hunk_commits.length === state.unrelated_hunks.length
      ? state.unrelated_hunk_commits
      : state.unrelated_hunks.map(() => '');
  return {
    unrelated_hunks: [...state.unrelated_hunks, ...hunks],
    unrelated_hunk_commits: [...known, ...hunks.map(() => commit)],
  };
}

/**
 * The unrelated hunks of the commits a rollback keeps: a kept attempt's hunks still stand on the branch,
 * so its gates must still show them. A state saved before the commits were recorded keeps none.
 */
function unrelatedKept(
  state: RunState,
  kept: readonly string[],
): Pick<RunState, 'unrelated_hunks' | 'unrelated_hunk_commits'> {
  if (state.unrelated_hunk_commits.length !== state.unrelated_hunks.length)
    return { unrelated_hunks: [], unrelated_hunk_commits: [] };
  const keep = state.unrelated_hunk_commits.map((commit) => kept.includes(commit));
  return {
    unrelated_hunks: state.unrelated_hunks.filter((_, index) => keep[index]),
    unrelated_hunk_commits: state.unrelated_hunk_commits.filter((_, index) => keep[index]),
  };
}

/** The run branch back at `base`: the commits after it leave the run and the current step (the work tree follows before the next effect). */
export function rollBackTo(state: RunState, base: AttemptBase, reason: string): Transition {
  if (!state.head || state.head === base.commit || state.commits.length < base.commit_count)
    return { state, events: [] };
  const dropped = state.commits.slice(base.commit_count);
  const kept = state.commits.slice(0, base.commit_count);
  const step = currentStep(state);
  const cleaned = step
    ? updateStep(state, step.id, (current) => ({
        ...current,
        commits: current.commits.filter((commit) => !dropped.includes(commit)),
      }))
    : state;
  const event: PendingEvent = {
    role: 'git',
    type: 'rollback',
    data: { step_id: step?.id ?? null, to: base.commit, dropped, reason },
  };
  // What is known of the state gone back to stays known: a step started there (a sub-plan's) builds on its verdict,
  // not on the dropped attempt's.
  const testedHead: TestedHead | null =
    base.passed === null
      ? state.tested_head
      : {
          commit: base.commit,
          failed: base.failed,
          total: base.total,
          passed: base.passed,
          build_failed: base.build_failed,
          ...(base.failing_run !== undefined ? { failing_run: base.failing_run } : {}),
        };
  return {
    state: { ...cleaned, head: base.commit, commits: kept, tested_head: testedHead, ...unrelatedKept(state, kept) },
    events: [event],
  };
}

/**
 * A step that ends without passing leaves the branch at its best state: the attempts after it fixed
 * nothing (or they would be the base), and whatever else they changed must not stay for the next step
 * or the user.
 */
export function backToBest(state: RunState, reason: string): Transition {
  const base = state.attempt_base;
  if (!base || !state.head || base.commit === state.head) return { state, events: [] };
  return rollBackTo(state, base, reason);
}

/**
 * A failed verification settles the attempt: one worse than its base is undone, and the writer is told
 * what was undone and why (and sees the files as they were); one that fails fewer tests than its base
 * becomes the base. Every attempt therefore builds on the best state so far.
 */
export function settleFailedAttempt(
  state: RunState,
  feedback: Feedback,
): { state: RunState; events: PendingEvent[]; feedback: Feedback } {
  const base = state.attempt_base;
  const test = state.last_test;
  if (!base || !test || !state.head || test.status === 'INFRA_ERROR') return { state, events: [], feedback };
  const worse = worseThanBase(base, test);
  if (worse === null) {
    const failed = failingOfBase(base, test);
    const better = failed !== null && test.failed_phase !== 'build' && (base.failed === null || failed < base.failed);
    const advanced: AttemptBase = {
      commit: state.head,
      commit_count: state.commits.length,
      failed: test.counts?.failed ?? null,
      total: test.counts?.total ?? null,
      passed: false,
      build_failed: false,
      ...failingRunOf(test),
    };
    return { state: better ? { ...state, attempt_base: advanced } : state, events: [], feedback };
  }
  const rolled = rollBackTo(state, base, worse);
  if (rolled.events.length === 0) return { state, events: [], feedback };
  const text = `Your last change was undone: ${worse}. Every file is back as it was before that change; the context shows them as they are now. What the change did:\n${feedback.text}`;
  return { state: rolled.state, events: rolled.events, feedback: { kind: 'rolled_back', text } };
}

/** 64-bit FNV-1a of the text, as 16 hex digits: a fingerprint, not a security measure. */
function fingerprint(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let index = 0; index < text.length; index++) {
    hash ^= BigInt(text.charCodeAt(index));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

/** Object keys sorted, so the same answer always reads the same. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The same answer given on the same base is the same attempt, whatever the attempt number. */
export function answerKey(head: string | null, proposal: unknown): string {
  return fingerprint(`${head ?? ''}\n${stableJson(proposal)}`);
}

/** A broken answer (cut off or malformed) given on `head`, keyed as a parsed one is: the same text again is a repeat. */
export function brokenAnswerKey(head: string | null, raw: string): string {
  return answerKey(head, { unparsed_answer: fingerprint(raw) });
}

/** How many identical answers end the attempts at a step. */
export const IDENTICAL_ANSWERS_LIMIT = 3;

export type AnswerCheck =
  { kind: 'new'; state: RunState } | { kind: 'repeated'; state: RunState; times: number; previous: TriedAnswer };

/**
 * Records the writer's answer for the current step. The feedback it was given is why the previous
 * answer failed, so it becomes that answer's outcome. An answer tried before is reported with how
 * often it has now been given.
 */
export function recordAnswer(state: RunState, proposal: unknown): AnswerCheck {
  return recordAnswerKey(state, answerKey(state.head, proposal), 1, JSON.stringify(proposal)?.length ?? 0);
}

/** `recordAnswer` by the answer's key, given `count` times at once (a call's tries that all gave it). */
export function recordAnswerKey(state: RunState, key: string, count: number, chars = 0): AnswerCheck {
  const attempt = currentStep(state)?.attempts ?? 0;
  const tried = state.tried_answers.map((entry, index, all) =>
    index === all.length - 1 && entry.outcome === '' && state.feedback
      ? { ...entry, outcome: state.feedback.text.slice(0, 600) }
      : entry,
  );
  const previous = tried.find((entry) => entry.key === key || entry.applied_key === key);
  if (!previous) {
    const entry = { key, applied_key: null, attempt, times: count, outcome: '', chars };
    const recorded = { ...state, tried_answers: [...tried, entry] };
    return count > 1
      ? { kind: 'repeated', state: recorded, times: count, previous: entry }
      : { kind: 'new', state: recorded };
  }
  const times = previous.times + count;
  return {
    kind: 'repeated',
    state: { ...state, tried_answers: tried.map((entry) => (entry === previous ? { ...entry, times } : entry)) },
    times,
    previous,
  };
}

/**
 * The answer just applied, keyed also on the head its commit made: a reviewer's rejection keeps that
 * commit as the next attempt's base (seed 001 refines on top), and the same answer given there again
 * changes nothing new — it is a repeat, not a fresh attempt.
 */
export function rememberAppliedAnswer(state: RunState, head: string): RunState {
  const last = state.tried_answers.at(-1);
  if (!last || state.proposal === null || last.key !== answerKey(state.head, state.proposal)) return state;
  const applied_key = answerKey(head, state.proposal);
  return { ...state, tried_answers: [...state.tried_answers.slice(0, -1), { ...last, applied_key }] };
}

/** The longest answer the writer gave in this step, in characters (0 before its first). */
export function longestAnswerChars(state: RunState): number {
  return Math.max(0, ...state.tried_answers.map((entry) => entry.chars));
}

/** The writer's feedback for an answer it gave before. */
export function repeatedAnswerFeedback(previous: TriedAnswer, times: number): Feedback {
  const outcome = previous.outcome ? ` It failed then:\n${previous.outcome}` : '';
  const warning = times + 1 >= IDENTICAL_ANSWERS_LIMIT ? ` Giving it once more ends the attempts at this task.` : '';
  return {
    kind: 'repeated_answer',
    text: `Your answer is identical to the one you gave in attempt ${previous.attempt} (${times} times now), so it was not applied again: the same change cannot give a different result.${warning} Write a different change.${outcome}`,
  };
}
