import { z } from 'zod';
import { boundedText, LIMITS, repoPath } from './bounds';

/** Seed 000 task: `T1..Tn` in execution order, with the files it may touch. */
export const PlanTaskSchema = z.object({
  id: z
    .string()
    .regex(/^T[1-9][0-9]?$/)
    .max(LIMITS.id),
  title: boundedText(LIMITS.title).min(1),
  rationale: boundedText(LIMITS.shortText),
  acceptance: boundedText(LIMITS.shortText),
  artifacts: z.array(repoPath()).max(LIMITS.artifacts),
});
export type PlanTask = z.infer<typeof PlanTaskSchema>;

/** Seed 000 Planner output; `plan_id` is `plan_0001` unless one was provided. */
export const PlanSchema = z.object({
  plan_id: z
    .string()
    .regex(/^plan_[0-9]{4}$/)
    .max(LIMITS.id),
  tasks: z.array(PlanTaskSchema).min(1).max(LIMITS.tasks),
});
export type Plan = z.infer<typeof PlanSchema>;
