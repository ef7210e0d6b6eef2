import type { PlanRecord, RunState } from '../../../shared/engine/runState';
import { shortenAtWord } from '../../../shared/headline';

/**
 * What a follow-up's agents are told of the run it continues, at most this long: the goal and how the
 * plan ended come first and are short, the diff fills the rest and is cut at its end.
 */
export const EARLIER_RUN_MAX_CHARS = 12_000;

/** The file in the follow-up's run folder that holds it, written once at start (the parent may be pruned later). */
export const EARLIER_RUN_FILE = 'earlier-run.md';

const REASON_CHARS = 200;
const GOAL_CHARS = 2_000;

function planLines(state: RunState): string[] {
  const top = state.plans.filter((plan) => plan.depth === 0).at(-1);
  if (!top) return ['(it made no plan)'];
  const lines: string[] = [];
  const walk = (plan: PlanRecord, indent: string) => {
    for (const step of plan.steps) {
      const reason = step.fail_reason ? ` (${shortenAtWord(step.fail_reason, REASON_CHARS)})` : '';
      lines.push(`${indent}- ${step.id} ${shortenAtWord(step.title, 120)}: ${step.status}${reason}`);
      const sub = step.sub_plan_id
        ? state.plans.find((candidate) => candidate.plan_id === step.sub_plan_id)
        : undefined;
      if (sub) walk(sub, `${indent}  `);
    }
  };
  walk(top, '');
  return lines;
}

function endLine(state: RunState): string {
  const status = state.result?.status ?? state.status;
  const reason = state.result?.reason ? ` — ${shortenAtWord(state.result.reason, REASON_CHARS)}` : '';
  const merged = state.closed?.action === 'merged' ? ` (merged into ${state.closed.into ?? 'its branch'})` : '';
  return `${status}${reason}${merged}`;
}

/**
 * The compact "Earlier run" text: its goal, each step's title and status, how it ended, and its diff
 * against its own base. Never the raw log: a small model needs the outcome, not the transcript.
 */
export function earlierRunText(parent: RunState, diff: string, maxChars = EARLIER_RUN_MAX_CHARS): string {
  const head = [
    `### Earlier run ${parent.run_id} (this run follows up on it; its branch starts where that run ended)`,
    `Goal: ${parent.goal.trim().length > GOAL_CHARS ? `${parent.goal.trim().slice(0, GOAL_CHARS)}…` : parent.goal.trim()}`,
    `Ended: ${endLine(parent)}`,
    'Plan:',
    ...planLines(parent),
    diff.trim() === '' ? 'Its change: none (no commits).' : 'Its change (diff against the commit it started from):',
  ].join('\n');
  if (diff.trim() === '') return `${head}\n`;
  const room = maxChars - head.length - 40;
  const body =
    diff.length <= room
      ? diff
      : `${diff.slice(0, Math.max(0, room))}\n… (diff cut: ${diff.length - Math.max(0, room)} more characters)`;
  return `${head}\n\`\`\`diff\n${body.trimEnd()}\n\`\`\`\n`;
}
