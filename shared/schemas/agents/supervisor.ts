import { z } from 'zod';
import { boundedText, LIMITS } from './bounds';

/** Seed 002 VerificationResult; seed 001's approve/critique is `approved` + `feedback`. */
export const SupervisorVerdictSchema = z.object({
  approved: z.boolean(),
  score: z.number().int().min(0).max(100),
  issues: z.array(boundedText(LIMITS.shortText)).max(LIMITS.issues),
  feedback: boundedText(1000),
});
export type SupervisorVerdict = z.infer<typeof SupervisorVerdictSchema>;
