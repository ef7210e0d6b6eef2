import { readRunEvent } from '../../../shared/engine/readRunEvent';
import type { RunState } from '../../../shared/engine/runState';
import { quoteGitPath } from '../../../shared/gitPath';
import type { RunLogEvent } from '../../../shared/schemas/run';
import type { TransientEvent } from '../engine/runSession';
import type { CliIo } from './command';

const str = (value: unknown) => (typeof value === 'string' ? value : '');
const short = (sha: unknown) => str(sha).slice(0, 10);

/** Turns run events into the CLI's human-readable progress: role, task i/n, model load and generation, test counts. */
export class ProgressPrinter {
  /** Every plan's tasks so far, oldest first: a step is counted within the plan that holds it. */
  private plans: { id: string; title: string }[][] = [];
  private tokens = 0;
  private generating: string | null = null;

  constructor(private readonly io: CliIo) {}

  /** A resumed run's plans are in its saved state, not in the events this session prints. */
  resumeFrom(state: RunState): void {
    this.plans = state.plans.map((plan) => plan.steps.map((step) => ({ id: step.id, title: step.title })));
  }

  private position(stepId: unknown): string {
    const plan = this.plans.findLast((tasks) => tasks.some((task) => task.id === stepId));
    return plan ? `[${plan.findIndex((task) => task.id === stepId) + 1}/${plan.length}] ` : '';
  }

  onEvent(event: RunLogEvent): void {
    this.clearStatus();
    const known = readRunEvent(event);
    if (!known) return;
    const { type, data: d } = known;
    switch (type) {
      case 'run_started':
        return this.io.out(
          `▶ run ${event.run_id} · workflow ${str(d.workflow)} (seed ${str(d.seed)})${d.follow_up_of ? ` · follow-up of ${d.follow_up_of}, from ${(d.start_commit ?? '').slice(0, 10)}` : ''}`,
        );
      case 'run_resumed':
        return this.io.out(`↻ resuming ${event.run_id} from phase ${str(d.phase)}`);
      case 'workspace_ready':
        return this.io.out(
          `  branch ${str(d.branch)} (${str(d.mode)}) · tests: ${d.test_command ? d.test_command.join(' ') : 'none detected'}${d.test_command_source ? ` (${d.test_command_source})` : ''}`,
        );
      case 'workspace_setup':
        return this.io.out(
          `  setup ${str(d.status)}: ${(d.argv ?? []).join(' ')}${d.reason ? ` — ${d.reason}` : ''}${d.note ? ` · ${d.note}` : ''}`,
        );
      case 'plan': {
        const tasks = d.tasks ?? [];
        this.plans.push(tasks);
        this.io.out(
          `  ${event.role === 'planner' ? 'planner →' : 'task:'} ${str(d.plan_id)}: ${tasks.length} task(s)${d.depth ? ` (sub-plan, depth ${String(d.depth)})` : ''}`,
        );
        for (const task of tasks) this.io.out(`    ${task.id} ${task.title}`);
        return;
      }
      case 'step_started':
        return this.io.out(`  ${this.position(d.step_id)}${str(d.step_id)} ${str(d.title)}`);
      case 'agent_call':
        this.generating = event.role;
        this.tokens = 0;
        return;
      case 'agent_retry':
        return this.io.out(
          `    ${event.role}: ${str(d.code)} (${str(d.message).slice(0, 120)}), retrying (${String(d.attempt)})`,
        );
      case 'patch':
        return this.io.out(
          `    ${event.role} → ${d.files?.length ? `edits ${d.files.map(quoteGitPath).join(', ')}` : 'no edits'}`,
        );
      case 'edit_rejected':
        return this.io.out(
          `    ✗ edits rejected: ${str(d.rule) || str(d.code)} ${quoteGitPath(str(d.path))} — ${str(d.message)}`,
        );
      case 'commit':
        // An answer that changed no file (a verify-only task) makes no commit: say so, not `commit  ()`.
        if (!d.sha) return this.io.out('    nothing to commit');
        return this.io.out(`    commit ${short(d.sha)} (${(d.files ?? []).map(quoteGitPath).join(', ')})`);
      case 'test_result': {
        const counts = d.counts;
        const label = d.purpose === 'preflight' || d.purpose === 'baseline' ? 'tests before any change' : 'tests';
        return this.io.out(
          `    ${label}: ${str(d.status)}${counts ? ` ${counts.passed} passed, ${counts.failed} failed` : ''} (${((Number(d.duration_ms) || 0) / 1000).toFixed(1)} s)${d.reason ? ` — ${str(d.reason)}` : ''}`,
        );
      }
      case 'tester_report':
        return this.io.out(`    tester: ${d.passed ? 'passed' : 'failed'}`);
      case 'fix_plan':
        return this.io.out(
          `    tester: ${str(d.summary).slice(0, 160)}${d.fix_plan?.length ? ` (${d.fix_plan.length}-point fix plan)` : ''}`,
        );
      case 'verdict':
        return this.io.out(
          `    supervisor (${str(d.gate)} gate): ${d.approved ? 'approved' : 'rejected'} · score ${String(d.score)}/${String(d.threshold)}${d.escalation && d.escalation !== 'NONE' ? ` · ${str(d.escalation)}` : ''} — ${str(d.feedback).slice(0, 160)}`,
        );
      case 'gate_decided':
        return this.io.out(
          `    you ${d.approved ? 'approved' : 'rejected'} the ${str(d.gate)} gate${d.comment ? `: ${str(d.comment)}` : ''}`,
        );
      case 'counters':
        if (d.decision !== 'retry')
          this.io.out(
            `    verify loops ${String(d.total_verify_loops)}, consecutive failures ${String(d.consecutive_verify_failures)} → ${str(d.decision)}`,
          );
        return;
      case 'retry':
        return this.io.out(`    attempt ${String(d.attempt)} (${str(d.feedback)} fed back)`);
      case 'fix_cycle':
        return this.io.out(
          `    fix cycle ${String(d.cycle)}/${String(d.max)} (the Tester's fix plan goes back to the Coder)`,
        );
      case 'rollback':
        return this.io.out(
          `    rolled back to ${short(d.to)} (${d.dropped?.length ?? 0} commit(s) dropped)${d.reason ? `: ${d.reason}` : ''}`,
        );
      case 'step_blocked':
        return this.io.out(`    ${str(d.step_id)} blocked → sub-plan (depth ${Number(d.depth) + 1})`);
      case 'step_failed':
        return this.io.out(`    ✗ ${str(d.step_id)} failed: ${str(d.reason).slice(0, 160)}`);
      case 'replan':
        return this.io.out(`  ↻ REPLAN ${String(d.replan)}`);
      case 'budget_exhausted':
        return this.io.out(`    ⏱ ${str(d.reason)}`);
      case 'scout_brief': {
        const questions = d.questions ?? [];
        this.io.out(`  editor brief: ${str(d.behavior_change)}`);
        for (const question of questions) this.io.out(`    asks Scout ${question.scout}: ${question.question}`);
        return;
      }
      case 'scout_report': {
        const { report } = d;
        return this.io.out(
          `    Scout ${str(d.scout)} → ${str(d.context_file)} (${String(d.tool_calls)} tool call(s)): ${str(report?.summary).slice(0, 140)}`,
        );
      }
      case 'agent_declined':
      case 'agent_failed':
        return this.io.out(`    ${event.role} ${type === 'agent_declined' ? 'declined' : 'failed'}: ${str(d.reason)}`);
      case 'warning':
        return this.io.out(`    ⚠ ${str(d.message)}`);
      case 'run_stopped':
        return this.io.out(`■ ${str(d.status)}: ${str(d.reason)} (resumable)`);
      case 'run_finished':
        return this.io.out(
          `${d.status === 'complete' ? '✔' : '✘'} ${str(d.status)} (exit ${String(d.exit_code)}): ${str(d.reason)}`,
        );
      default:
        return;
    }
  }

  onTransient(event: TransientEvent): void {
    if (!this.io.status) return;
    if (event.type === 'model_load_progress')
      this.io.status(
        `  loading ${event.model.split(/[\\/]/).pop()} ${bar(event.progress)} ${Math.round(event.progress * 100)}%`,
      );
    if (event.type === 'token') {
      this.tokens++;
      if (this.tokens % 8 === 1)
        this.io.status(
          `  ${SPINNER[this.tokens % SPINNER.length]} ${this.generating ?? event.role} generating… ${this.tokens} tokens`,
        );
    }
  }

  private clearStatus(): void {
    this.io.status?.('');
  }
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

function bar(progress: number): string {
  const filled = Math.round(Math.max(0, Math.min(1, progress)) * 20);
  return `[${'#'.repeat(filled)}${'.'.repeat(20 - filled)}]`;
}
