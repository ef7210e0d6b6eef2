import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseModelOutput } from './output';

const schema = z.object({ a: z.number(), b: z.string().max(3) });

describe('model output parsing', () => {
  it('parses and validates plain and fenced JSON', () => {
    expect(parseModelOutput(' {"a":1,"b":"x"}\n', schema)).toEqual({ ok: true, value: { a: 1, b: 'x' } });
    expect(parseModelOutput('```json\n{"a":2,"b":"y"}\n```', schema)).toEqual({ ok: true, value: { a: 2, b: 'y' } });
  });

  it('explains JSON that does not parse, e.g. cut at max tokens', () => {
    const result = parseModelOutput('{"a":1,"b":"x', schema);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(/not valid JSON/);
    expect(parseModelOutput('', schema)).toEqual({ ok: false, message: 'the model returned no text' });
  });

  it('names the failing fields when validation fails', () => {
    const result = parseModelOutput('{"a":"one","b":"long"}', schema);
    expect(!result.ok && result.message).toMatch(/^output does not match the schema: a: .*; b: /);
  });
});
