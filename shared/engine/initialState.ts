import type { RunConfig } from './runConfig';
import type { RunState } from './runState';

export interface NewRun {
  runId: string;
  goal: string;
  goalHash: string;
  config: RunConfig;
  now: string;
  nowMs: number;
  /** A follow-up's parent run and the commit its branch starts from (the parent's head). */
  followUp?: { runId: string; startCommit: string };
}

export function initialState(run: NewRun): RunState {
  return {
    run_id: run.runId,
    goal: run.goal,
    workflow: run.config.workflow,
    status: 'running',
    branch: null,
    created_at: run.now,
    updated_at: run.now,
    commits: [],
    state_version: 1,
    goal_hash: run.goalHash,
    config: run.config,
    phase: 'preparing',
    workspace: null,
    head: null,
    test_command: run.config.test_command,
    test_command_source: null,
    setup_note: null,
    plans: [],
    plan_stack: [],
    current_step_id: null,
    proposal: null,
    step_base: null,
    passed_gates: [],
    escalation_note: null,
    fix_review: null,
    proposal_files: [],
    last_test: null,
    feedback: null,
    gate: null,
    counters: {
      consecutive_verify_failures: 0,
      total_verify_loops: 0,
      replans: 0,
      plan_attempts: 0,
      fix_cycles: 0,
      consecutive_low_scores: 0,
      gates_opened: 0,
    },
    metrics: {
      total_steps: 0,
      completed_steps: 0,
      failed_steps: 0,
      replan_count: 0,
      fix_cycles: 0,
      verifications_passed: 0,
      verifications_failed: 0,
      agents: {},
    },
    model_calls: {},
    log_seq: 0,
    contexts: [],
    scouting: null,
    failure_history: [],
    tester_findings: [],
    started_ms: run.nowMs,
    time_spent: { planning: 0, execution: 0, verification: 0 },
    step_time: null,
    elapsed_ms: 0,
    result: null,
    closed: null,
    baseline: null,
    tested_head: null,
    attempt_base: null,
    tried_answers: [],
    approved_test_files: [],
    unrelated_hunks: [],
    unrelated_hunk_commits: [],
    edit_format_fallback: null,
    follow_up_of: run.followUp?.runId ?? null,
    start_commit: run.followUp?.startCommit ?? null,
  };
}
