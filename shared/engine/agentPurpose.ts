import { z } from 'zod';

/** What an agent call is for; the agents layer builds the prompt input from it and the state. */
export const AgentPurposeSchema = z.enum([
  'plan',
  'subplan',
  'code',
  'test_report',
  'fix_plan',
  'review_plan',
  'review_code',
  'review_step',
  'review_goal',
  // Seed 002: the Supervisor verifies the Tester's fix plan before it reaches the Coder.
  'review_fix_plan',
  'scout_brief',
  'scout',
]);
export type AgentPurpose = z.infer<typeof AgentPurposeSchema>;
