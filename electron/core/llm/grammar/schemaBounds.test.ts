import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isLatheError } from '../../../../shared/errors';
import { AgentErrorSchema } from '../../../../shared/schemas/agents/agentError';
import { PlanSchema } from '../../../../shared/schemas/agents/planner';
import { assertBoundedSchema, findUnboundedFields } from './schemaBounds';

// docs/seeds.md 0.27: no unbounded text field in a role schema
describe('bounded role schemas', () => {
  it('finds nothing unbounded in the seed-000 plan schema, alone or with the agent error', () => {
    expect(findUnboundedFields(PlanSchema)).toEqual([]);
    expect(() => assertBoundedSchema(z.union([PlanSchema, AgentErrorSchema]), 'planner output')).not.toThrow();
  });

  it('names every unbounded string, array and record by path', () => {
    const schema = z.object({
      summary: z.string(),
      files: z.array(z.object({ path: z.string().max(300), notes: z.array(z.string().max(10)) })).max(5),
      scores: z.record(z.string().max(10), z.number()),
      anything: z.unknown(),
      id: z.string().regex(/^T[0-9]$/),
      slug: z.string().regex(/^[a-z]+$/),
    });
    expect(findUnboundedFields(schema)).toEqual([
      'summary (string without maxLength)',
      'files[].notes (array without maxItems)',
      'scores (record without maxProperties)',
      'anything (any JSON value)',
      'slug (string without maxLength)',
    ]);
  });

  it('throws UNBOUNDED_SCHEMA with the fields in its data', () => {
    let caught: unknown;
    try {
      assertBoundedSchema(z.object({ text: z.string() }), 'coder output');
    } catch (error) {
      caught = error;
    }
    expect(isLatheError(caught, 'UNBOUNDED_SCHEMA')).toBe(true);
    if (!isLatheError(caught)) return;
    expect(caught.message).toContain('coder output');
    expect(caught.data).toEqual({ fields: ['text (string without maxLength)'] });
  });

  it('looks inside union alternatives', () => {
    expect(
      findUnboundedFields(z.union([z.object({ a: z.string().max(3) }), z.object({ b: z.array(z.number()) })])),
    ).toEqual(['<1>.b (array without maxItems)']);
  });
});
