import { z } from 'zod';
import { boundedText, LIMITS } from './bounds';

/** Seed 000's error surface: any agent may answer this instead of its output. */
export const AgentErrorSchema = z.object({
  status: z.literal('error'),
  reason: boundedText(LIMITS.shortText).min(1),
});
export type AgentError = z.infer<typeof AgentErrorSchema>;

export function isAgentError(value: unknown): value is AgentError {
  return AgentErrorSchema.safeParse(value).success;
}
