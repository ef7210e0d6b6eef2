import { z } from 'zod';

/** The agent roles, each served by a model of its own (configuration's `agents.<role>`, the run's `models`). */
export const MODEL_ROLES = ['planner', 'coder', 'tester', 'supervisor', 'scout', 'editor'] as const;
export const ModelRoleSchema = z.enum(MODEL_ROLES);
export type ModelRole = z.infer<typeof ModelRoleSchema>;
