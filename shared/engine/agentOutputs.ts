import { z } from 'zod';
import { PlanSchema } from '../schemas/agents/planner';
import { EditorBriefSchema, ScoutReportSchema } from '../schemas/agents/scout';
import { SteppedPlanSchema } from '../schemas/agents/steppedPlan';
import { SupervisorVerdictSchema } from '../schemas/agents/supervisor';
import { FixPlanSchema, TesterReportSchema } from '../schemas/agents/tester';
import type { AgentPurpose } from './agentPurpose';
import type { ModelRole } from '../schemas/roles';
import type { CallUsage } from './callUsage';

/** What the engine's Scout effect returns: the report, and the context file it recorded it in. */
export const ScoutOutcomeSchema = z.object({
  scout: z.enum(['A', 'B']),
  question: z.string(),
  report: ScoutReportSchema,
  context_file: z.string(),
  tool_calls: z.number().int().nonnegative(),
});

/**
 * What every edit format's proposal has in common: files by path, or one unified diff. The format's
 * own schema checked the rest where the answer arrived; the other fields travel on untouched.
 */
export const EditProposalSchema = z.union([
  z.object({ edits: z.array(z.looseObject({ path: z.string() })) }),
  z.object({ diff: z.string() }),
]);
export type EditProposal = z.infer<typeof EditProposalSchema>;

const PlanOutputSchema = z.union([PlanSchema, SteppedPlanSchema]);

/** Each purpose's answer, as the engine's transitions receive it: validated once, where it arrives. */
export const AGENT_OUTPUT_SCHEMAS = {
  plan: PlanOutputSchema,
  subplan: PlanOutputSchema,
  code: EditProposalSchema,
  test_report: TesterReportSchema,
  fix_plan: FixPlanSchema,
  review_plan: SupervisorVerdictSchema,
  review_code: SupervisorVerdictSchema,
  review_step: SupervisorVerdictSchema,
  review_goal: SupervisorVerdictSchema,
  review_fix_plan: SupervisorVerdictSchema,
  scout_brief: EditorBriefSchema,
  scout: ScoutOutcomeSchema,
} as const satisfies Record<AgentPurpose, z.ZodType>;

export type AgentOutputs = { [P in AgentPurpose]: z.infer<(typeof AGENT_OUTPUT_SCHEMAS)[P]> };

/** One purpose's `agent_output` outcome: the purpose names the output's type. */
export type AgentOutputOutcome = {
  [P in AgentPurpose]: {
    kind: 'agent_output';
    role: ModelRole;
    purpose: P;
    output: AgentOutputs[P];
    calls: number;
    usage: CallUsage;
  };
}[AgentPurpose];

interface CallFacts {
  role: ModelRole;
  calls: number;
  usage: CallUsage;
}

/** The typed outcome of an answer, or why the answer is not one (the caller reports INVALID_OUTPUT). */
export function agentOutputOutcome(
  purpose: AgentPurpose,
  answer: unknown,
  facts: CallFacts,
): AgentOutputOutcome | { invalid: string } {
  const base = { kind: 'agent_output' as const, ...facts };
  const problem = (error: z.ZodError) => {
    const issue = error.issues[0];
    return issue
      ? `${issue.path.map(String).join('.') || '(top level)'}: ${issue.message}`
      : 'the answer did not match its schema';
  };
  switch (purpose) {
    case 'plan':
    case 'subplan': {
      const parsed = PlanOutputSchema.safeParse(answer);
      if (!parsed.success) return { invalid: planShapeProblem(answer, parsed.error.issues[0]) };
      return { ...base, purpose, output: parsed.data };
    }
    case 'code': {
      const parsed = EditProposalSchema.safeParse(answer);
      return parsed.success ? { ...base, purpose, output: parsed.data } : { invalid: problem(parsed.error) };
    }
    case 'test_report': {
      const parsed = TesterReportSchema.safeParse(answer);
      return parsed.success ? { ...base, purpose, output: parsed.data } : { invalid: problem(parsed.error) };
    }
    case 'fix_plan': {
      const parsed = FixPlanSchema.safeParse(answer);
      return parsed.success ? { ...base, purpose, output: parsed.data } : { invalid: problem(parsed.error) };
    }
    case 'review_plan':
    case 'review_code':
    case 'review_step':
    case 'review_goal':
    case 'review_fix_plan': {
      const parsed = SupervisorVerdictSchema.safeParse(answer);
      return parsed.success ? { ...base, purpose, output: parsed.data } : { invalid: problem(parsed.error) };
    }
    case 'scout_brief': {
      const parsed = EditorBriefSchema.safeParse(answer);
      return parsed.success ? { ...base, purpose, output: parsed.data } : { invalid: problem(parsed.error) };
    }
    case 'scout': {
      const parsed = ScoutOutcomeSchema.safeParse(answer);
      return parsed.success ? { ...base, purpose, output: parsed.data } : { invalid: problem(parsed.error) };
    }
    default:
      return purpose satisfies never;
  }
}

/** Why a Planner's answer is not a plan, in words the Planner can act on (seed 002: 2-15 steps). */
export function planShapeProblem(output: unknown, issue: { path: PropertyKey[]; message: string } | undefined): string {
  const steps = typeof output === 'object' && output !== null && 'steps' in output ? output.steps : undefined;
  if (Array.isArray(steps) && (steps.length < 2 || steps.length > 15))
    return `a plan has 2 to 15 steps; this one has ${steps.length}`;
  return issue
    ? `${issue.path.map(String).join('.') || '(top level)'}: ${issue.message}`
    : 'the plan did not match the plan schema';
}

/** Repo-relative paths a writer's proposal names, for the log and the code gate. */
export function proposalFiles(proposal: EditProposal): string[] {
  if ('edits' in proposal) return [...new Set(proposal.edits.map((edit) => edit.path).filter(Boolean))].sort();
  const paths = [...proposal.diff.matchAll(/^\+\+\+ (?:b\/)?(.+)$/gm)]
    .map((match) => match[1]?.trim() ?? '')
    .filter((path) => path && path !== '/dev/null');
  return [...new Set(paths)].sort();
}
