import type { z } from 'zod';
import { compileJsonSchemaGrammar, type CompiledGrammar } from './gbnfCompiler';
import { zodToJsonSchema } from './jsonSchema';

const compiled = new WeakMap<z.ZodType, CompiledGrammar>();

/** The GBNF grammar for a role's output schema, compiled once per schema object. */
export function grammarForSchema(schema: z.ZodType): CompiledGrammar {
  let grammar = compiled.get(schema);
  if (!grammar) {
    try {
      grammar = compileJsonSchemaGrammar(zodToJsonSchema(schema));
    } catch (error) {
      // A schema zod cannot express as JSON schema still gets well-formed JSON; validation does the rest.
      grammar = compileJsonSchemaGrammar({});
      grammar.notes.push(
        `the schema could not be converted (${error instanceof Error ? error.message : String(error)}); any JSON is allowed`,
      );
    }
    compiled.set(schema, grammar);
  }
  return grammar;
}

export { compileJsonSchemaGrammar, GRAMMAR_LENGTH_CAP, type CompiledGrammar } from './gbnfCompiler';
export { zodToJsonSchema, type JsonSchema, type JsonSchemaObject } from './jsonSchema';
export { assertBoundedSchema, findUnboundedFields } from './schemaBounds';
export { patternToGbnf } from './regexGrammar';

/**
 * The same grammar with long repetition bounds (`{m,n}`, n ≥ 100) opened up to `{m,}`. llama.cpp's
 * parser refuses some counts depending on its version (node-llama-cpp 3.21's refuses exactly 2000);
 * the structure, the short bounds and zod's validation afterwards all stay.
 */
export function relaxRepetitions(gbnf: string): string {
  return gbnf.replace(/\{(\d+),(\d+)\}/g, (whole, min: string, max: string) =>
    Number(max) >= 100 ? (min === '0' ? '*' : `{${min},}`) : whole,
  );
}
