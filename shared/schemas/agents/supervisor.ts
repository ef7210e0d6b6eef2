import { z } from 'zod';
import { boundedText, LIMITS } from './bounds';

/** Seed 002 VerificationResult; seed 001's approve/critique is `approved` + `feedback`. */
export const SupervisorVerdictSchema = z.object({
  approved: z.boolean(),
  score: z.number().int().min(0).max(100),
  issues: z.array(boundedText(LIMITS.shortText)).max(LIMITS.issues),
  feedback: boundedText(1000),
  /** Hunks of the change the reviewer finds unrelated to the task (`path lines A-B`): a step rejected for them is undone. */
  unrelated: z.array(boundedText(LIMITS.shortText)).max(LIMITS.issues).default([]),
});
export type SupervisorVerdict = z.infer<typeof SupervisorVerdictSchema>;
