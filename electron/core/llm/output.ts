import type { z } from 'zod';

export type ParsedOutput<T> = { ok: true; value: T } | { ok: false; message: string };

/** ```json … ``` around the answer: models without a grammar add it despite the prompt. */
const FENCED = /^```[a-zA-Z]*\s*\n([\s\S]*?)\n?```$/;

/**
 * Model text → validated value. The grammar makes malformed JSON impossible for `llama:` models, but
 * text cut at max tokens, server replies and replay `raw` entries all come through here too.
 */
export function parseModelOutput<T>(raw: string, schema: z.ZodType<T>): ParsedOutput<T> {
  const trimmed = raw.trim();
  const body = FENCED.exec(trimmed)?.[1] ?? trimmed;
  if (body === '') return { ok: false, message: 'the model returned no text' };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, message: `output is not valid JSON (${reason})` };
  }
  return validateValue(json, schema);
}

export function validateValue<T>(value: unknown, schema: z.ZodType<T>): ParsedOutput<T> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`);
  const more = result.error.issues.length > 5 ? ` (+${result.error.issues.length - 5} more)` : '';
  return { ok: false, message: `output does not match the schema: ${issues.join('; ')}${more}` };
}
