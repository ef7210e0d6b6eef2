import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentErrorSchema } from '../../../../shared/schemas/agents/agentError';
import { PlanSchema, type Plan } from '../../../../shared/schemas/agents/planner';
import { TesterReportSchema } from '../../../../shared/schemas/agents/tester';
import { gbnfMatcher } from '../../../../test-support/gbnfMatcher';
import { compileJsonSchemaGrammar, GRAMMAR_LENGTH_CAP } from './gbnfCompiler';
import { grammarForSchema, relaxRepetitions } from './index';
import { zodToJsonSchema } from './jsonSchema';
import { parseModelOutput } from '../output';

/** The layout every JSON example in prompts/ uses: `{"key": value, "key": [a, b]}`. */
function promptLayout(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(promptLayout).join(', ')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}: ${promptLayout(item)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}

const matcherFor = (schema: z.ZodType) => gbnfMatcher(grammarForSchema(schema).gbnf);

const plan: Plan = {
  plan_id: 'plan_0001',
  tasks: [
    {
      id: 'T1',
      title: 'Add median()',
      rationale: 'Users asked for it',
      acceptance: 'tests pass',
      artifacts: ['src/stats.py', 'tests/test_stats.py'],
    },
    { id: 'T12', title: 'Docs', rationale: '', acceptance: 'README mentions "median"', artifacts: [] },
  ],
};

describe('JSON-schema grammar for role outputs', () => {
  const PlanOrError = z.union([PlanSchema, AgentErrorSchema]);
  const matcher = matcherFor(PlanOrError);

  // Decision 74: one line, a single optional space after ':' and ',', nothing else between tokens.
  it("accepts a valid plan and a valid agent error in JSON.stringify's layout and the prompts' layout", () => {
    const error = { status: 'error', reason: 'goal is ambiguous' };
    for (const value of [plan, error]) {
      expect(matcher.matches(JSON.stringify(value))).toBe(true);
      expect(matcher.matches(promptLayout(value))).toBe(true);
    }
    // Each separator chooses its space on its own.
    expect(
      matcher.matches(
        '{"plan_id":"plan_0001", "tasks":[{"id": "T1","title":"a", "rationale":"","acceptance":"b","artifacts":[]}]}',
      ),
    ).toBe(true);
  });

  it('rejects layout the canonical form does not have: newlines, indentation, spaces inside brackets or before separators', () => {
    expect(matcher.matches(JSON.stringify(plan, null, 2))).toBe(false);
    const error = '{"status": "error", "reason": "x"}';
    for (const bad of [
      '{ "status": "error", "reason": "x"}',
      '{"status": "error", "reason": "x" }',
      '{"status":  "error", "reason": "x"}',
      '{"status" : "error", "reason": "x"}',
      '{"status": "error",\n"reason": "x"}',
      `${error} `,
      ` ${error}`,
    ]) {
      expect(matcher.matches(bad), bad).toBe(false);
    }
    expect(matcher.matches(error)).toBe(true);
    const tight = matcherFor(z.object({ a: z.array(z.number().int().min(0).max(9)).max(3) }));
    expect(tight.matches('{"a": [1, 2]}')).toBe(true);
    expect(tight.matches('{"a": [ 1, 2]}')).toBe(false);
    expect(tight.matches('{"a": [1 ,2]}')).toBe(false);
  });

  it("keeps the Plan and AgentError branches apart: neither borrows the other's keys", () => {
    expect(matcher.matches('{"status": "error", "tasks": []}')).toBe(false);
    expect(matcher.matches(`{"plan_id": "plan_0001", "reason": "x"}`)).toBe(false);
    expect(matcher.matches(`{"status": "error", "reason": "x", "plan_id": "plan_0001"}`)).toBe(false);
    expect(matcher.matches('{"status": "error", "reason": ""}')).toBe(false);
  });

  it('produces only text the output parser turns back into the same value', () => {
    for (const text of [
      JSON.stringify(plan),
      promptLayout(plan),
      '{"status": "error", "reason": "needs \\"src/a.py\\"\\n"}',
    ]) {
      expect(matcher.matches(text), text).toBe(true);
      expect(parseModelOutput(text, PlanOrError)).toEqual({ ok: true, value: JSON.parse(text) });
    }
  });

  // docs/seeds.md 0.19: the Tester's key order
  it("emits keys in the schema's order (seed 000: the Tester's key order is fixed)", () => {
    const tester = matcherFor(TesterReportSchema);
    expect(tester.matches('{"task_id": "T1", "passed": true, "report": "3 passed"}')).toBe(true);
    expect(tester.matches('{"passed": true, "task_id": "T1", "report": "3 passed"}')).toBe(false);
    expect(tester.matches('{"task_id": "T1", "report": "3 passed", "passed": true}')).toBe(false);
  });

  it('enforces the id patterns the schema states as regexes', () => {
    expect(matcher.matches(JSON.stringify({ ...plan, plan_id: 'plan_1' }))).toBe(false);
    expect(matcher.matches(JSON.stringify({ ...plan, plan_id: 'PLAN_0001' }))).toBe(false);
    const badTask = { ...plan, tasks: [{ ...plan.tasks[0], id: 'T0' }] };
    expect(matcher.matches(JSON.stringify(badTask))).toBe(false);
  });

  // docs/seeds.md 0.27: every textual field bounded
  it('enforces string lengths, array sizes, required keys and literals', () => {
    const longTitle = { ...plan, tasks: [{ ...plan.tasks[0], title: 'x'.repeat(201) }] };
    expect(matcher.matches(JSON.stringify(longTitle))).toBe(false);
    const emptyTitle = { ...plan, tasks: [{ ...plan.tasks[0], title: '' }] };
    expect(matcher.matches(JSON.stringify(emptyTitle))).toBe(false);
    expect(matcher.matches(JSON.stringify({ ...plan, tasks: [] }))).toBe(false);
    const tooMany = { ...plan, tasks: Array.from({ length: 21 }, (_, i) => ({ ...plan.tasks[0], id: `T${i + 1}` })) };
    expect(matcher.matches(JSON.stringify(tooMany))).toBe(false);
    expect(matcher.matches(JSON.stringify({ plan_id: 'plan_0001' }))).toBe(false);
    expect(matcher.matches(JSON.stringify({ status: 'failed', reason: 'x' }))).toBe(false);
    expect(matcher.matches(`${JSON.stringify(plan)} trailing`)).toBe(false);
  });

  it('only produces strings JavaScript measures the same way: escapes count once, astral characters are excluded', () => {
    const schema = z.object({ s: z.string().max(3) });
    const m = matcherFor(schema);
    expect(m.matches('{"s":"a\\nb"}')).toBe(true);
    expect(m.matches('{"s":"ééé"}')).toBe(true);
    expect(m.matches('{"s":"abcd"}')).toBe(false);
    expect(m.matches('{"s":"😀"}')).toBe(false);
    expect(m.matches('{"s":"a\nb"}')).toBe(false);
    // The escapes are one alternative (a backslash, then a class): the same seven, nothing more.
    expect(m.matches('{"s":"\\"\\\\\\t"}')).toBe(true);
    for (const bad of ['{"s":"\\u0041"}', '{"s":"\\/"}', '{"s":"\\x"}']) expect(m.matches(bad), bad).toBe(false);
  });

  it('handles optional keys in order, nullable, enums, numbers, tuples and bounded records', () => {
    const schema = z.object({
      a: z.string().max(5).optional(),
      b: z.number().int().min(0).max(100).optional(),
      c: z.enum(['x', 'y']).nullable().optional(),
    });
    const m = matcherFor(schema);
    for (const value of [{}, { a: 'hi' }, { b: 7 }, { c: null }, { a: 'hi', c: 'y' }, { a: '', b: 100, c: 'x' }]) {
      expect(m.matches(JSON.stringify(value)), JSON.stringify(value)).toBe(true);
    }
    expect(m.matches('{"b":-1}')).toBe(false);
    expect(m.matches('{"c":"z"}')).toBe(false);
    expect(m.matches('{"c":"x","a":"hi"}')).toBe(false);

    const tuple = matcherFor(z.tuple([z.string().max(2), z.boolean()]));
    expect(tuple.matches('["ab",true]')).toBe(true);
    expect(tuple.matches('["ab"]')).toBe(false);

    const record = matcherFor(z.record(z.string().max(4), z.number()).refine(() => true));
    expect(record.matches('{"a":1,"bb":2.5,"ccc":-3e2}')).toBe(true);
    expect(record.matches('{"abcde":1}')).toBe(false);
  });

  it('supports recursive schemas through $ref', () => {
    interface Node {
      name: string;
      children: Node[];
    }
    const NodeSchema: z.ZodType<Node> = z.lazy(() =>
      z.object({ name: z.string().max(8), children: z.array(NodeSchema).max(3) }),
    );
    const m = matcherFor(NodeSchema);
    expect(
      m.matches(JSON.stringify({ name: 'root', children: [{ name: 'a', children: [{ name: 'b', children: [] }] }] })),
    ).toBe(true);
    expect(m.matches(JSON.stringify({ name: 'root', children: [{ name: 'a' }] }))).toBe(false);
  });

  it('falls back to a plain bounded string, and says so, when a pattern is outside the supported subset', () => {
    const compiled = compileJsonSchemaGrammar(
      zodToJsonSchema(
        z.object({
          w: z
            .string()
            .regex(/\bfoo\b/)
            .max(10),
        }),
      ),
    );
    expect(compiled.notes.join('\n')).toMatch(/outside the grammar's regex subset/);
    const m = gbnfMatcher(compiled.gbnf);
    expect(m.matches('{"w":"anything"}')).toBe(true);
    expect(m.matches('{"w":"more than ten"}')).toBe(false);
  });

  it('leaves very long bounds to max tokens instead of emitting thousands of rules', () => {
    const compiled = compileJsonSchemaGrammar(zodToJsonSchema(z.object({ content: z.string().max(200_000) })));
    expect(compiled.gbnf).not.toContain(`${200_000}`);
    expect(compiled.notes.join('\n')).toMatch(/maxLength 200000/);
    expect(GRAMMAR_LENGTH_CAP).toBeLessThan(200_000);
  });

  it('relaxes only long repetition bounds when a runtime refuses them', () => {
    expect(relaxRepetitions('s ::= "\\"" char{0,2000} "\\""\nid ::= [0-9]{4}\nt ::= x{2,500} y{0,99}')).toBe(
      's ::= "\\"" char* "\\""\nid ::= [0-9]{4}\nt ::= x{2,} y{0,99}',
    );
  });

  it('compiles the same schema object once', () => {
    expect(grammarForSchema(PlanOrError)).toBe(grammarForSchema(PlanOrError));
  });
});
