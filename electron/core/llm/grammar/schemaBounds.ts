import type { z } from 'zod';
import { LatheError } from '../../../../shared/errors';
import {
  asSchema,
  isSchemaObject,
  mergeAllOf,
  numberField,
  propertiesOf,
  schemaList,
  stringField,
  typeList,
  zodToJsonSchema,
  type JsonSchema,
  type JsonSchemaObject,
} from './jsonSchema';
import { patternMaxLength } from './regexGrammar';

/**
 * Every string, array and record a model may write must have an upper bound: an unbounded one lets a
 * small model run until max tokens and the whole call is wasted. Paths look like `tasks[].title`.
 */
export function findUnboundedFields(schema: z.ZodType | JsonSchemaObject): string[] {
  const root = isSchemaObject(schema) && !('_zod' in schema) ? schema : zodToJsonSchema(schema as z.ZodType);
  const found: string[] = [];
  const visitedRefs = new Set<string>();

  const visit = (input: JsonSchema, where: string): void => {
    if (input === false) return;
    if (input === true) {
      found.push(`${where} (any JSON value)`);
      return;
    }
    const node = mergeAllOf(input, [], where);
    const ref = stringField(node, '$ref');
    if (ref !== undefined) {
      if (visitedRefs.has(ref)) return;
      visitedRefs.add(ref);
      const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
      const defs = match ? root[match[1] as string] : undefined;
      const target =
        ref === '#' ? root : isSchemaObject(defs) ? asSchema(defs[decodeURIComponent(match?.[2] ?? '')]) : undefined;
      if (target !== undefined) visit(target, where);
      return;
    }
    if ('const' in node || Array.isArray(node.enum)) return;
    const alternatives = [...schemaList(node.anyOf), ...schemaList(node.oneOf)];
    alternatives.forEach((option, index) => visit(option, alternatives.length > 1 ? `${where}<${index}>` : where));
    const types = typeList(node);
    if (alternatives.length > 0 && types.length === 0) return;
    if (
      types.length === 0 &&
      !isSchemaObject(node.properties) &&
      !('items' in node) &&
      !('additionalProperties' in node)
    ) {
      found.push(`${where || '$'} (any JSON value)`);
      return;
    }
    if (types.includes('string') && numberField(node, 'maxLength') === undefined) {
      const pattern = stringField(node, 'pattern');
      if (pattern === undefined || patternMaxLength(pattern) === null)
        found.push(`${where || '$'} (string without maxLength)`);
    }
    if (types.includes('array') || 'items' in node || 'prefixItems' in node) visitArray(node, where);
    if (types.includes('object') || isSchemaObject(node.properties) || 'additionalProperties' in node) {
      for (const [key, child] of propertiesOf(node)) visit(child, where ? `${where}.${key}` : key);
      const additional = asSchema(node.additionalProperties);
      if (additional !== undefined && additional !== false && !(additional === true && propertiesOf(node).length > 0)) {
        if (numberField(node, 'maxProperties') === undefined)
          found.push(`${where || '$'} (record without maxProperties)`);
        if (additional !== true) visit(additional, `${where}{}`);
      }
    }
  };

  const visitArray = (node: JsonSchemaObject, where: string) => {
    const prefix = schemaList(node.prefixItems);
    prefix.forEach((item, index) => visit(item, `${where}[${index}]`));
    const items = asSchema(node.items);
    if (items === false) return;
    if (numberField(node, 'maxItems') === undefined) found.push(`${where || '$'} (array without maxItems)`);
    visit(items ?? true, `${where}[]`);
  };

  visit(root, '');
  return found;
}

/** Throws `UNBOUNDED_SCHEMA` naming every unbounded field; the engine calls it on each role schema. */
export function assertBoundedSchema(schema: z.ZodType | JsonSchemaObject, name = 'schema'): void {
  const unbounded = findUnboundedFields(schema);
  if (unbounded.length > 0) {
    throw new LatheError('UNBOUNDED_SCHEMA', `${name} has unbounded fields: ${unbounded.join(', ')}`, {
      fields: unbounded,
    });
  }
}
