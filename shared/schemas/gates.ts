import { z } from 'zod';

/** Seed 002's four quality gates. */
export const GATE_KINDS = ['plan', 'code', 'step', 'goal'] as const;
export const GateKindSchema = z.enum(GATE_KINDS);
export type GateKind = z.infer<typeof GateKindSchema>;

/**
 * `off`: no gate. `auto`: the Supervisor model decides. `human`: the run waits for the user.
 * `both`: the Supervisor's verdict is shown and the user confirms or overrides it.
 */
export const GateModeSchema = z.enum(['off', 'auto', 'human', 'both']);
export type GateMode = z.infer<typeof GateModeSchema>;

export const GateModesSchema = z.object({
  plan: GateModeSchema,
  code: GateModeSchema,
  step: GateModeSchema,
  goal: GateModeSchema,
});
export type GateModes = z.infer<typeof GateModesSchema>;

/** Seed 002: plan ≥ 70, code ≥ 60, step ≥ 70, goal ≥ 80. */
export const DEFAULT_GATE_THRESHOLDS: Record<GateKind, number> = { plan: 70, code: 60, step: 70, goal: 80 };

export const GateThresholdsSchema = z.object({
  plan: z.number().int().min(0).max(100),
  code: z.number().int().min(0).max(100),
  step: z.number().int().min(0).max(100),
  goal: z.number().int().min(0).max(100),
});

export function gateUsesSupervisor(mode: GateMode): boolean {
  return mode === 'auto' || mode === 'both';
}

export function gateWaitsForUser(mode: GateMode): boolean {
  return mode === 'human' || mode === 'both';
}
