import { z } from 'zod';
import { boundedText, LIMITS, repoPath } from './bounds';

/** Seed 002 step: complexity and dependencies on earlier steps of the same plan. */
export const SteppedPlanStepSchema = z.object({
  id: z
    .string()
    .regex(/^T[1-9][0-9]?$/)
    .max(LIMITS.id),
  title: boundedText(LIMITS.title).min(1),
  description: boundedText(LIMITS.shortText),
  acceptance: boundedText(LIMITS.shortText),
  complexity: z.enum(['simple', 'medium', 'complex']),
  depends_on: z.array(z.string().max(LIMITS.id)).max(15),
  artifacts: z.array(repoPath()).max(LIMITS.artifacts),
});

/** Seed 002 Planner output: 2-15 steps (also for sub-plans of a blocked step). */
export const SteppedPlanSchema = z.object({
  plan_id: z.string().max(LIMITS.id),
  analysis: boundedText(1000),
  steps: z.array(SteppedPlanStepSchema).min(2).max(15),
});
export type SteppedPlan = z.infer<typeof SteppedPlanSchema>;
