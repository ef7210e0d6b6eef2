import {
  asSchema,
  isSchemaObject,
  mergeAllOf,
  numberField,
  propertiesOf,
  requiredOf,
  schemaList,
  stringField,
  typeList,
  type JsonSchema,
  type JsonSchemaObject,
} from './jsonSchema';
import { ANY_JSON_CHAR_RANGES, gbnfLiteral, jsonCharsGbnf, patternToGbnf } from './regexGrammar';

/**
 * JSON schema → GBNF (llama.cpp's grammar format). Our own compiler rather than node-llama-cpp's
 * because that one silently turns `anyOf` into `null`, ignores `pattern`, forces optional properties
 * and lets string lengths count astral characters once where JavaScript counts them twice.
 */

export interface CompiledGrammar {
  gbnf: string;
  /** What the grammar only approximates; zod validation enforces these after generation. */
  notes: string[];
}

/** Above this, a length bound is left to max tokens and validation: thousands of GBNF rules buy nothing. */
export const GRAMMAR_LENGTH_CAP = 8192;
/** Cap for unbounded runs inside patterns and record keys. */
const DEFAULT_RUN_CAP = 256;
const MAX_PROPERTY_KEY = 64;

/**
 * The one layout freedom: a single optional space after `:` and `,`, so both `JSON.stringify`'s layout and
 * the prompts' `{"key": value, ...}` are accepted. No newlines or indentation and nothing inside brackets:
 * every optional character is one more parse stack that each whole-vocabulary grammar pass walks, and
 * free whitespace lets a model spend tokens on layout (decision 74).
 */
const SEP_RULE = 'sp ::= " "?';
const CHAR_RULE = `char ::= ${jsonCharsGbnf(ANY_JSON_CHAR_RANGES)}`;

class Compiler {
  private readonly rules = new Map<string, string>();
  private readonly bodies = new Map<string, string>();
  private readonly refs = new Map<string, string>();
  private counter = 0;
  readonly notes: string[] = [];

  constructor(private readonly root: JsonSchemaObject) {}

  compile(): string {
    const rootExpr = this.value(this.root, '$');
    const lines = [`root ::= ${rootExpr}`, SEP_RULE, CHAR_RULE];
    for (const [name, body] of this.rules) lines.push(`${name} ::= ${body}`);
    return `${lines.join('\n')}\n`;
  }

  /** A named rule for `body`, shared by every identical body. */
  private rule(body: string, hint: string): string {
    const existing = this.bodies.get(body);
    if (existing) return existing;
    const name = `${
      hint
        .replace(/[^A-Za-z0-9]+/g, '-')
        .replace(/^-|-$/g, '')
        .toLowerCase()
        .slice(0, 40) || 'r'
    }-${this.counter++}`;
    this.bodies.set(body, name);
    this.rules.set(name, body);
    return name;
  }

  private value(input: JsonSchema, where: string): string {
    if (input === true) return this.anyJson();
    if (input === false) {
      this.notes.push(`${where}: schema 'false' matches nothing; the grammar allows null`);
      return '"null"';
    }
    const schema = mergeAllOf(input, this.notes, where);
    const ref = stringField(schema, '$ref');
    if (ref !== undefined) return this.reference(ref, where);
    if ('const' in schema) return gbnfLiteral(JSON.stringify(schema.const));
    if (Array.isArray(schema.enum))
      return `(${schema.enum.map((item) => gbnfLiteral(JSON.stringify(item))).join(' | ')})`;
    const alternatives = [...schemaList(schema.anyOf), ...schemaList(schema.oneOf)];
    if (alternatives.length > 0) {
      const base = { ...schema };
      delete base.anyOf;
      delete base.oneOf;
      const hasBase = typeList(base).length > 0;
      const options = alternatives.map((option, index) =>
        this.value(hasBase && isSchemaObject(option) ? { ...base, ...option } : option, `${where}|${index}`),
      );
      return this.rule(options.join(' | '), where.split('.').at(-1) ?? 'alt');
    }
    for (const key of ['not', 'if', 'dependentSchemas', 'patternProperties', 'contains', 'uniqueItems']) {
      if (key in schema) this.notes.push(`${where}: '${key}' is not enforced by the grammar`);
    }
    const types = typeList(schema);
    if (types.length === 0) {
      if (isSchemaObject(schema.properties) || 'additionalProperties' in schema) return this.object(schema, where);
      if ('items' in schema || 'prefixItems' in schema) return this.array(schema, where);
      return this.anyJson();
    }
    const options = [...new Set(types)].map((type) => this.typed(type, schema, where));
    return options.length === 1 ? (options[0] as string) : `(${options.join(' | ')})`;
  }

  private typed(type: string, schema: JsonSchemaObject, where: string): string {
    switch (type) {
      case 'string':
        return this.string(schema, where);
      case 'integer':
      case 'number':
        return this.number(schema, type === 'integer');
      case 'boolean':
        return '("true" | "false")';
      case 'null':
        return '"null"';
      case 'object':
        return this.object(schema, where);
      case 'array':
        return this.array(schema, where);
      default:
        this.notes.push(`${where}: unknown type '${type}'`);
        return this.anyJson();
    }
  }

  private string(schema: JsonSchemaObject, where: string): string {
    const minLength = Math.max(0, Math.floor(numberField(schema, 'minLength') ?? 0));
    const rawMax = numberField(schema, 'maxLength');
    const maxLength = rawMax === undefined ? undefined : Math.max(minLength, Math.floor(rawMax));
    const pattern = stringField(schema, 'pattern');
    if (pattern !== undefined) {
      const compiled = patternToGbnf(pattern, Math.min(maxLength ?? DEFAULT_RUN_CAP, GRAMMAR_LENGTH_CAP));
      if (compiled) {
        if (compiled.maxLength === null || (maxLength !== undefined && compiled.maxLength > maxLength)) {
          this.notes.push(`${where}: the pattern's length and maxLength are checked by validation`);
        }
        return this.rule(`"\\"" ${compiled.content} "\\""`, where.split('.').at(-1) ?? 'pattern');
      }
      this.notes.push(
        `${where}: pattern ${JSON.stringify(pattern)} is outside the grammar's regex subset; validation enforces it`,
      );
    }
    if (maxLength === 0) return '"\\"\\""';
    if (maxLength === undefined || maxLength > GRAMMAR_LENGTH_CAP) {
      if (maxLength !== undefined)
        this.notes.push(`${where}: maxLength ${maxLength} is left to max tokens and validation`);
      return this.rule(
        minLength > 0 ? `"\\"" char{${Math.min(minLength, GRAMMAR_LENGTH_CAP)},} "\\""` : '"\\"" char* "\\""',
        'string',
      );
    }
    return this.rule(`"\\"" char{${minLength},${maxLength}} "\\""`, `string-${minLength}-${maxLength}`);
  }

  private number(schema: JsonSchemaObject, integer: boolean): string {
    const minimum = numberField(schema, 'minimum') ?? numberField(schema, 'exclusiveMinimum');
    const maximum = numberField(schema, 'maximum') ?? numberField(schema, 'exclusiveMaximum');
    const sign = minimum !== undefined && minimum >= 0 ? '' : '"-"? ';
    const largest = Math.max(Math.abs(minimum ?? 0), Math.abs(maximum ?? 0));
    const digits =
      integer && minimum !== undefined && maximum !== undefined && largest < 1e15
        ? Math.max(1, String(Math.floor(largest)).length)
        : 15;
    const whole = digits === 1 ? '[0-9]' : `("0" | [1-9] [0-9]{0,${digits - 1}})`;
    const body = integer ? `${sign}${whole}` : `${sign}${whole} ("." [0-9]{1,15})? ([eE] [-+]? [0-9]{1,3})?`;
    return this.rule(body, integer ? 'integer' : 'number');
  }

  private object(schema: JsonSchemaObject, where: string): string {
    const properties = propertiesOf(schema);
    const required = requiredOf(schema);
    const pair = (key: string, value: JsonSchema) =>
      `${gbnfLiteral(JSON.stringify(key))} ":" sp ${this.value(value, `${where}.${key}`)}`;
    const mandatory = properties.filter(([key]) => required.has(key)).map(([key, value]) => pair(key, value));
    const optional = properties.filter(([key]) => !required.has(key)).map(([key, value]) => pair(key, value));
    const extra = this.additionalPair(schema, where, properties.length);

    let body: string;
    if (mandatory.length > 0) {
      const tail = optional.map((item) => `("," sp ${item})?`);
      body = [mandatory.join(' "," sp '), ...tail, extra ? `("," sp ${extra.pair}){0,${extra.max}}` : '']
        .filter(Boolean)
        .join(' ');
    } else if (optional.length > 0) {
      // Any ordered subset of the optional keys: choose the first present one, then each later one or not.
      const chains = optional.map((first, index) =>
        [first, ...optional.slice(index + 1).map((item) => `("," sp ${item})?`)].join(' '),
      );
      body = `(${chains.join(' | ')})?`;
    } else if (extra) {
      body = extra.max === 0 ? '' : `(${extra.pair} ("," sp ${extra.pair}){0,${extra.max - 1}})?`;
    } else body = '';
    return this.rule(body === '' ? '"{}"' : `"{" ${body} "}"`, where.split('.').at(-1) ?? 'object');
  }

  /** Records and open objects: extra keys, bounded by maxProperties. */
  private additionalPair(
    schema: JsonSchemaObject,
    where: string,
    fixedCount: number,
  ): { pair: string; max: number } | null {
    const additional = asSchema(schema.additionalProperties);
    if (additional === undefined || additional === false) return null;
    if (propertiesOf(schema).length > 0 && additional === true) return null; // open objects: never invent keys
    const maxProperties = numberField(schema, 'maxProperties');
    const max = maxProperties === undefined ? DEFAULT_RUN_CAP : Math.max(0, maxProperties - fixedCount);
    const names = isSchemaObject(schema.propertyNames) ? schema.propertyNames : { type: 'string' };
    const keySchema = { ...names, maxLength: numberField(names, 'maxLength') ?? MAX_PROPERTY_KEY };
    return { pair: `${this.value(keySchema, `${where}{key}`)} ":" sp ${this.value(additional, `${where}{}`)}`, max };
  }

  private array(schema: JsonSchemaObject, where: string): string {
    const minItems = Math.max(0, Math.floor(numberField(schema, 'minItems') ?? 0));
    const rawMax = numberField(schema, 'maxItems');
    const maxItems = rawMax === undefined ? undefined : Math.max(minItems, Math.floor(rawMax));
    const prefix = schemaList(schema.prefixItems).map((item, index) => this.value(item, `${where}[${index}]`));
    const items = asSchema(schema.items);
    const item = items === false ? null : this.value(items ?? true, `${where}[]`);
    const repeat = (min: number, max: number | undefined) => (max === undefined ? `{${min},}` : `{${min},${max}}`);

    let body: string;
    if (prefix.length > 0) {
      const fixed = prefix.join(' "," sp ');
      const restMax = maxItems === undefined ? undefined : maxItems - prefix.length;
      const rest =
        item && restMax !== 0 ? ` ("," sp ${item})${repeat(Math.max(0, minItems - prefix.length), restMax)}` : '';
      body = `"[" ${fixed}${rest} "]"`;
    } else if (item === null || maxItems === 0) {
      body = '"[]"';
    } else if (minItems === 0) {
      const more = maxItems === undefined ? '*' : maxItems === 1 ? '' : `{0,${maxItems - 1}}`;
      body = `"[" (${item}${more ? ` ("," sp ${item})${more}` : ''})? "]"`;
    } else {
      const more = repeat(minItems - 1, maxItems === undefined ? undefined : maxItems - 1);
      body = `"[" ${item} ("," sp ${item})${more} "]"`;
    }
    return this.rule(body, where.split('.').at(-1) ?? 'array');
  }

  private reference(ref: string, where: string): string {
    const known = this.refs.get(ref);
    if (known) return known;
    const target = this.resolve(ref);
    if (target === undefined) {
      this.notes.push(`${where}: unresolvable $ref ${ref}; any JSON is allowed`);
      return this.anyJson();
    }
    // Reserve the name first so recursive schemas refer to themselves.
    const name = `ref-${this.counter++}`;
    this.refs.set(ref, name);
    this.rules.set(name, '""');
    this.rules.set(name, this.value(target, ref));
    return name;
  }

  private resolve(ref: string): JsonSchema | undefined {
    if (ref === '#') return this.root;
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
    if (!match) return undefined;
    const defs = this.root[match[1] as string];
    return isSchemaObject(defs) ? asSchema(defs[decodeURIComponent(match[2] as string)]) : undefined;
  }

  private anyJson(): string {
    if (!this.rules.has('json-value')) {
      this.rules.set('json-value', 'json-object | json-array | json-string | json-number | "true" | "false" | "null"');
      this.rules.set('json-object', '"{" (json-string ":" sp json-value ("," sp json-string ":" sp json-value)*)? "}"');
      this.rules.set('json-array', '"[" (json-value ("," sp json-value)*)? "]"');
      this.rules.set('json-string', '"\\"" char* "\\""');
      this.rules.set('json-number', '"-"? ("0" | [1-9] [0-9]{0,15}) ("." [0-9]{1,15})? ([eE] [-+]? [0-9]{1,3})?');
    }
    return 'json-value';
  }
}

export function compileJsonSchemaGrammar(schema: JsonSchemaObject): CompiledGrammar {
  const compiler = new Compiler(schema);
  const gbnf = compiler.compile();
  return { gbnf, notes: compiler.notes };
}
