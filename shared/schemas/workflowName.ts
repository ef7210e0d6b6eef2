import { z } from 'zod';

/** The workflows one engine runs (shared/engine/workflows.ts holds each one's settings), in the order they are offered. */
export const WORKFLOW_NAMES = ['minimal', 'dev-agent', 'retry-loop', 'supervised', 'editor-scouts'] as const;
export const WorkflowNameSchema = z.enum(WORKFLOW_NAMES);
export type WorkflowName = z.infer<typeof WorkflowNameSchema>;

export function isWorkflowName(value: string): value is WorkflowName {
  return WorkflowNameSchema.safeParse(value).success;
}
