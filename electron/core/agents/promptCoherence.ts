import type { RunConfig } from '../../../shared/engine/runConfig';

/** One model call's prompt as a role of one workflow receives it. */
export interface RenderedPrompt {
  role: string;
  purpose: string;
  system: string;
  user: string;
}

export interface Contradiction {
  rule: 'tests' | 'files' | 'edit-format' | 'shared-rule-text';
  message: string;
  /** `role/purpose: "quoted text"` of each side. */
  where: string[];
}

interface Claim {
  pattern: RegExp;
  side: string;
}

/** What a prompt may say about tests, by side; a workflow's prompts must all stand on one side. */
const TEST_CLAIMS: Claim[] = [
  {
    side: 'read-only',
    pattern: /\b(?:never|do not|don't|must not)\s+(?:modify|change|edit|touch|write|delete)s?\b[^.\n]{0,40}\btests?\b/i,
  },
  { side: 'read-only', pattern: /\btests? (?:are|is|stay) read-only\b/i },
  { side: 'read-only', pattern: /\bnever (?:edits|modifies|changes)[^.\n]{0,30}\btest file/i },
  { side: 'writes tests', pattern: /\btests?(?: for [^.\n]{0,40})? must be included\b/i },
  {
    side: 'writes tests',
    pattern:
      /\b(?:add|write|create|update)s?(?: or (?:add|write|create|update)s?)? (?:the )?(?:new )?tests?\b(?! file)/i,
  },
  { side: 'writes tests', pattern: /\bwrites? the tests\b/i },
  { side: 'writes tests', pattern: /\bneeds? (?:new )?tests\b/i },
];

const FILE_CLAIMS: Claim[] = [
  {
    side: 'artifacts only',
    pattern:
      /\b(?:edit|create|modify|touch)(?: or (?:edit|create|modify))? only (?:those|the listed|its|the task's) (?:files|artifacts)\b/i,
  },
  { side: 'artifacts only', pattern: /\bmay (?:create or modify|touch|change) only\b/i },
  { side: 'artifacts only', pattern: /\bonly (?:edit|touch|modify|change) the files listed\b/i },
  { side: 'any file', pattern: /\bmay also (?:change|modify|touch|edit) other files\b/i },
];

const FORMAT_TITLE = /^# Edit format: ([a-z-]+)$/gm;

function quote(text: string, pattern: RegExp): string | null {
  const match = pattern.exec(text);
  return match ? match[0] : null;
}

function claimsOf(prompt: RenderedPrompt, claims: Claim[]): { side: string; where: string }[] {
  const text = `${prompt.system}\n${prompt.user}`;
  return claims.flatMap((claim) => {
    const found = quote(text, claim.pattern);
    return found ? [{ side: claim.side, where: `${prompt.role}/${prompt.purpose}: "${found}"` }] : [];
  });
}

function sidesConflict(
  rule: Contradiction['rule'],
  claims: { side: string; where: string }[],
  expected: string,
  what: string,
): Contradiction[] {
  const wrong = claims.filter((claim) => claim.side !== expected);
  if (wrong.length === 0) return [];
  const right = claims.filter((claim) => claim.side === expected);
  return [
    {
      rule,
      message: `${what}: the run's rule is "${expected}", but ${wrong.length} statement(s) say "${wrong[0]?.side}"`,
      where: [...wrong.map((claim) => claim.where), ...right.slice(0, 1).map((claim) => claim.where)],
    },
  ];
}

/**
 * The rules every prompt of one workflow must agree on, checked over the prompts as rendered: one rule
 * for tests (and the one the guardrails enforce), one rule for which files a task may touch, the writer
 * taught exactly the configured edit format, and the shared rule texts given to every role word for word.
 */
export function checkPromptCoherence(
  prompts: readonly RenderedPrompt[],
  config: Pick<RunConfig, 'tests_read_only' | 'artifacts_only' | 'edit_format'>,
  ruleTexts: { tests: string; files: string },
): Contradiction[] {
  const found: Contradiction[] = [];
  found.push(
    ...sidesConflict(
      'tests',
      prompts.flatMap((prompt) => claimsOf(prompt, TEST_CLAIMS)),
      config.tests_read_only ? 'read-only' : 'writes tests',
      'tests',
    ),
  );
  found.push(
    ...sidesConflict(
      'files',
      prompts.flatMap((prompt) => claimsOf(prompt, FILE_CLAIMS)),
      config.artifacts_only ? 'artifacts only' : 'any file',
      'files a task may touch',
    ),
  );
  for (const prompt of prompts) {
    const formats = [...prompt.system.matchAll(FORMAT_TITLE)].map((match) => match[1]);
    const writes = prompt.purpose === 'code';
    if (writes && (formats.length !== 1 || formats[0] !== config.edit_format)) {
      found.push({
        rule: 'edit-format',
        message: `the writer must be taught exactly the ${config.edit_format} format, but its prompt teaches ${formats.length === 0 ? 'none' : formats.join(' and ')}`,
        where: [`${prompt.role}/${prompt.purpose}`],
      });
    }
    if (!writes && formats.length > 0)
      found.push({
        rule: 'edit-format',
        message: `a role that does not write is taught an edit format (${formats.join(', ')})`,
        where: [`${prompt.role}/${prompt.purpose}`],
      });
    for (const [name, text] of Object.entries(ruleTexts)) {
      if (!prompt.system.includes(text.trim()))
        found.push({
          rule: 'shared-rule-text',
          message: `the ${name} rule is not given word for word`,
          where: [`${prompt.role}/${prompt.purpose}`],
        });
    }
  }
  return found;
}
