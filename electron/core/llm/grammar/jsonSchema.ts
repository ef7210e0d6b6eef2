import { z } from 'zod';

/** A JSON-schema node as zod emits it; read through the accessors below, never trusted blindly. */
export type JsonSchema = boolean | JsonSchemaObject;
export interface JsonSchemaObject {
  [key: string]: unknown;
}

export function isSchemaObject(value: unknown): value is JsonSchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asSchema(value: unknown): JsonSchema | undefined {
  return typeof value === 'boolean' || isSchemaObject(value) ? value : undefined;
}

export function schemaList(value: unknown): JsonSchema[] {
  return Array.isArray(value) ? value.map(asSchema).filter((item): item is JsonSchema => item !== undefined) : [];
}

export function numberField(schema: JsonSchemaObject, key: string): number | undefined {
  const value = schema[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function stringField(schema: JsonSchemaObject, key: string): string | undefined {
  const value = schema[key];
  return typeof value === 'string' ? value : undefined;
}

export function typeList(schema: JsonSchemaObject): string[] {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((item): item is string => typeof item === 'string') : [];
}

export function propertiesOf(schema: JsonSchemaObject): Array<[string, JsonSchema]> {
  const properties = schema.properties;
  if (!isSchemaObject(properties)) return [];
  return Object.entries(properties).flatMap(([key, value]) => {
    const child = asSchema(value);
    return child === undefined ? [] : [[key, child] as [string, JsonSchema]];
  });
}

export function requiredOf(schema: JsonSchemaObject): Set<string> {
  return new Set(
    Array.isArray(schema.required) ? schema.required.filter((item): item is string => typeof item === 'string') : [],
  );
}

/**
 * The JSON schema of what the model must *produce*: zod's input side (before transforms and defaults),
 * with anything zod cannot represent (refinements, dates) left open for zod itself to check afterwards.
 */
export function zodToJsonSchema(schema: z.ZodType): JsonSchemaObject {
  const converted: unknown = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
  return isSchemaObject(converted) ? converted : {};
}

/**
 * Merges `allOf` parts into their parent where they do not conflict (zod emits `allOf` for several
 * regexes on one string and for intersections). Conflicting patterns are dropped: the grammar can
 * only approximate them and zod validation still enforces every one.
 */
export function mergeAllOf(schema: JsonSchemaObject, notes: string[], where: string): JsonSchemaObject {
  const parts = schemaList(schema.allOf).filter(isSchemaObject);
  if (parts.length === 0) return schema;
  const merged: JsonSchemaObject = { ...schema };
  delete merged.allOf;
  for (const part of parts.map((item) => mergeAllOf(item, notes, where))) {
    for (const [key, value] of Object.entries(part)) {
      if (key === 'pattern' && merged['x-lathe-dropped-pattern'] === true) continue;
      const existing = merged[key];
      if (existing === undefined) merged[key] = value;
      else if (key === 'properties' && isSchemaObject(existing) && isSchemaObject(value))
        merged[key] = { ...existing, ...value };
      else if (key === 'required' && Array.isArray(existing) && Array.isArray(value))
        merged[key] = [...new Set([...existing, ...value])];
      else if (
        (key === 'maxLength' || key === 'maxItems' || key === 'maximum') &&
        typeof existing === 'number' &&
        typeof value === 'number'
      )
        merged[key] = Math.min(existing, value);
      else if (
        (key === 'minLength' || key === 'minItems' || key === 'minimum') &&
        typeof existing === 'number' &&
        typeof value === 'number'
      )
        merged[key] = Math.max(existing, value);
      else if (JSON.stringify(existing) !== JSON.stringify(value)) {
        if (key === 'pattern') {
          delete merged.pattern;
          merged['x-lathe-dropped-pattern'] = true;
          notes.push(`${where}: several patterns; the grammar enforces none of them, validation enforces all`);
        } else notes.push(`${where}: conflicting '${key}' in allOf; validation enforces it`);
      }
    }
  }
  return merged;
}
