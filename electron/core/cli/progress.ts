import { readRunEvent, type RunEventOf } from '../../../shared/engine/readRunEvent';
import type { RunState } from '../../../shared/engine/runState';
import type { RunLogEvent, TransientEvent } from '../../../shared/schemas/run';
import type { CliIo } from './command';
import { progressLines, str } from './progressLines';

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
    switch (known.type) {
      case 'plan':
        return this.printPlan(known);
      case 'step_started':
        return this.io.out(`  ${this.position(known.data.step_id)}${str(known.data.step_id)} ${str(known.data.title)}`);
      case 'agent_call':
        this.generating = event.role;
        this.tokens = 0;
        return;
      default:
        for (const line of progressLines(known)) this.io.out(line);
    }
  }

  private printPlan({ role, data: d }: RunEventOf<'plan'>): void {
    const tasks = d.tasks ?? [];
    this.plans.push(tasks);
    this.io.out(
      `  ${role === 'planner' ? 'planner →' : 'task:'} ${str(d.plan_id)}: ${tasks.length} task(s)${d.depth ? ` (sub-plan, depth ${String(d.depth)})` : ''}`,
    );
    for (const task of tasks) this.io.out(`    ${task.id} ${task.title}`);
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
