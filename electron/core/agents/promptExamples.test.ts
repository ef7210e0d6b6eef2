import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentErrorSchema } from '../../../shared/schemas/agents/agentError';
import { PlanSchema } from '../../../shared/schemas/agents/planner';
import { SupervisorVerdictSchema } from '../../../shared/schemas/agents/supervisor';
import { TesterReportSchema } from '../../../shared/schemas/agents/tester';
import { APP_ROOT } from '../../../test-support/exampleRepo';
import { gbnfMatcher } from '../../../test-support/gbnfMatcher';
import { wholeFileFormat } from '../edits/wholeFile';
import { compileJsonSchemaGrammar, grammarForSchema } from '../llm';

const PROMPTS = path.join(APP_ROOT, 'prompts');
const read = (name: string) => fs.readFileSync(path.join(PROMPTS, name), 'utf8');

/** Every `{"…}` in the prompt files that is JSON as written, exactly as the model reads it. */
function jsonExamples(): Array<{ file: string; text: string }> {
  const files = fs.readdirSync(PROMPTS, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.md'));
  return files.flatMap((file) => {
    const source = read(file);
    const found: Array<{ file: string; text: string }> = [];
    for (let start = source.indexOf('{"'); start !== -1; start = source.indexOf('{"', start + 1)) {
      let depth = 0;
      let inString = false;
      for (let i = start; i < source.length; i++) {
        const char = source[i];
        if (inString) {
          if (char === '\\') i++;
          else if (char === '"') inString = false;
        } else if (char === '"') inString = true;
        else if (char === '{' || char === '[') depth++;
        else if (char === '}' || char === ']') depth--;
        if (depth === 0) {
          const text = source.slice(start, i + 1);
          if (isJson(text)) found.push({ file, text });
          break;
        }
      }
    }
    return found;
  });
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const matches = (schema: z.ZodType, text: string) => gbnfMatcher(grammarForSchema(schema).gbnf).matches(text);

// Decision 74: the grammar forces one layout, so the examples models imitate must be in it.
describe('the JSON the prompts show models is what the grammar lets them write', () => {
  it("every JSON example in prompts/ is in the grammar's layout", () => {
    const examples = jsonExamples();
    expect(examples.length).toBeGreaterThanOrEqual(15);
    const anyJson = gbnfMatcher(compileJsonSchemaGrammar({}).gbnf);
    for (const { file, text } of examples) expect(anyJson.matches(text), `${file}: ${text}`).toBe(true);
    // The same check refuses the pretty-printed layout the grammar no longer allows.
    expect(anyJson.matches(JSON.stringify(JSON.parse(examples[0]?.text ?? '{}'), null, 2))).toBe(false);
  });

  it("the role examples are accepted verbatim by their role's grammar, keys in the schema's order", () => {
    const errorLine = /answer (\{"status": "error", "reason": "[^"]*"\})/.exec(read('system.md'))?.[1] ?? '';
    expect(matches(z.union([PlanSchema, AgentErrorSchema]), errorLine)).toBe(true);
    // Only the placeholder plan_id is filled in: the pattern `plan_[0-9]{4}` is enforced by the grammar.
    const tasksLine = /- Tasks: (\{.*\})$/m.exec(read('planner.md'))?.[1] ?? '';
    expect(
      matches(z.union([PlanSchema, AgentErrorSchema]), tasksLine.replace('"plan_id": "..."', '"plan_id": "plan_0001"')),
    ).toBe(true);
    const example = (file: string) => /```\n(\{.*\})\n```\s*$/.exec(read(file))?.[1] ?? '';
    expect(matches(wholeFileFormat.schema, example('edit-formats/whole-file.md'))).toBe(true);
    const testerExample = /^(\{"task_id".*\})$/m.exec(read('tester.md'))?.[1] ?? '';
    expect(matches(TesterReportSchema, testerExample)).toBe(true);
    const verdict = /^(\{"approved".*\})$/m.exec(read('supervisor.md'))?.[1] ?? '';
    expect(matches(SupervisorVerdictSchema, verdict)).toBe(true);
    // And not in another order than the one the JSON Schema in the prompt lists.
    expect(matches(TesterReportSchema, '{"passed": true, "task_id": "T1", "report": "..."}')).toBe(false);
  });
});
