import { z } from 'zod';
import { boundedText, LIMITS, repoPath } from './bounds';

const items = (max = 8, length: number = LIMITS.shortText) => z.array(boundedText(length)).max(max);

/** Seed 004 step 1-2: the Editor's success criteria and the targeted questions it pulls the Scouts with. */
export const EditorBriefSchema = z.object({
  behavior_change: boundedText(1000),
  success_criteria: items(10).min(1),
  non_goals: items(10),
  questions: z
    .array(z.object({ scout: z.enum(['A', 'B']), question: boundedText(LIMITS.shortText).min(1) }))
    .min(1)
    .max(6),
});
export type EditorBrief = z.infer<typeof EditorBriefSchema>;

/** Seed 004's context snapshot: repo map, target files, APIs, constraints, prior art, verification tips, hypotheses. */
export const ScoutReportSchema = z.object({
  summary: boundedText(1000),
  repo_map: items(12),
  target_files: z.array(repoPath()).max(12),
  apis: items(10),
  constraints: items(10),
  prior_art: items(8),
  verification_tips: items(8),
  hypotheses: items(8),
});
export type ScoutReport = z.infer<typeof ScoutReportSchema>;

/** One step of a Scout's read-only tool loop: a tool call, or the answer. */
export const ScoutActionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('list_files'), under: z.string().max(LIMITS.path) }),
  z.object({ action: z.literal('read_file'), path: repoPath() }),
  z.object({ action: z.literal('search'), query: z.string().min(1).max(200), regex: z.boolean() }),
  z.object({ action: z.literal('repo_summary') }),
  z.object({ action: z.literal('run_tests') }),
  z.object({ action: z.literal('run_command'), argv: z.array(z.string().max(200)).min(1).max(12) }),
  z.object({ action: z.literal('answer'), report: ScoutReportSchema }),
]);
export type ScoutAction = z.infer<typeof ScoutActionSchema>;

export const ScoutAnswerSchema = z.object({ action: z.literal('answer'), report: ScoutReportSchema });
