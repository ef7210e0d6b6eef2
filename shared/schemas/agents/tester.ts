import { z } from 'zod';
import { boundedText, LIMITS } from './bounds';

/** Seed 000 Tester output, key order fixed; `passed` is decided by code from the exit code. */
export const TesterReportSchema = z.object({
  task_id: z.string().max(LIMITS.id),
  passed: z.boolean(),
  report: boundedText(LIMITS.text),
});
export type TesterReport = z.infer<typeof TesterReportSchema>;

export const FindingSchema = z.object({
  severity: z.enum(['critical', 'high', 'medium', 'low']),
  kind: z.enum(['bug', 'edge_case', 'security', 'smell', 'test_gap', 'failure']),
  description: boundedText(LIMITS.shortText),
  location: boundedText(LIMITS.path),
});
export type Finding = z.infer<typeof FindingSchema>;

/** Seed 002 Tester output: the suite's verdict explained, exploratory findings, and a fix plan for the Coder. */
export const FixPlanSchema = z.object({
  task_id: z.string().max(LIMITS.id),
  summary: boundedText(1000),
  findings: z.array(FindingSchema).max(LIMITS.issues),
  fix_plan: z.array(boundedText(LIMITS.shortText)).max(10),
});
export type FixPlan = z.infer<typeof FixPlanSchema>;
