import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WORKFLOW_NAMES } from '../../../shared/schemas/workflowName';
import { APP_ROOT } from '../../../test-support/exampleRepo';
import { promptsMarkdown, renderWorkflowPrompts } from '../../../test-support/promptRender';
import { makeTempDir } from '../../../test-support/tempRepo';
import { checkPromptCoherence } from './promptCoherence';
import { workflowRulePrompts } from './workflowRules';

const PROMPTS = path.join(APP_ROOT, 'prompts');
const ruleTexts = (config: Parameters<typeof workflowRulePrompts>[0], dir = PROMPTS) => {
  const [tests = '', files = ''] = workflowRulePrompts(config).map((name) =>
    fs.readFileSync(path.join(dir, `${name}.md`), 'utf8'),
  );
  return { tests, files };
};

describe("every role's prompt, rendered per workflow", () => {
  it.each(WORKFLOW_NAMES)(
    '%s: the prompts agree on tests, files and edit format, and match docs/prompts/',
    async (workflow) => {
      const rendered = await renderWorkflowPrompts(workflow);
      expect(rendered.prompts.length).toBeGreaterThanOrEqual(2);
      expect(checkPromptCoherence(rendered.prompts, rendered.config, ruleTexts(rendered.config))).toEqual([]);
      const file = path.join(APP_ROOT, 'docs', 'prompts', `${workflow}.md`);
      const markdown = promptsMarkdown(rendered);
      if (process.env.LATHE_UPDATE_PROMPTS === '1') fs.writeFileSync(file, markdown);
      expect(
        markdown,
        `docs/prompts/${workflow}.md is stale: LATHE_UPDATE_PROMPTS=1 npx vitest run electron/core/agents/prompts.test.ts`,
      ).toBe(fs.readFileSync(file, 'utf8'));
    },
  );

  it("finds a contradiction planted in one role's prompt (the Coder told never to touch tests in the test-driven workflow)", async () => {
    const dir = makeTempDir('lathe-planted-prompts-');
    fs.cpSync(PROMPTS, dir, { recursive: true });
    fs.appendFileSync(path.join(dir, 'coder.md'), '\n- Never modify tests, whatever the task says.\n');
    const rendered = await renderWorkflowPrompts('supervised', { promptsDir: dir });
    const found = checkPromptCoherence(rendered.prompts, rendered.config, ruleTexts(rendered.config, dir));
    fs.rmSync(dir, { recursive: true, force: true });
    expect(found).toEqual([
      expect.objectContaining({
        rule: 'tests',
        where: expect.arrayContaining([expect.stringMatching(/^coder\/code: "Never modify tests/)]),
      }),
    ]);
  });

  it('finds a writer taught another edit format, and a rule text reworded in one prompt', () => {
    const config = {
      tests_read_only: true,
      artifacts_only: true,
      tests_policy: 'protect' as const,
      edit_format: 'whole-file' as const,
    };
    const texts = ruleTexts(config);
    const system = `rules\n${texts.tests}\n${texts.files}\n# Edit format: search-replace\n`;
    const found = checkPromptCoherence(
      [
        { role: 'coder', purpose: 'code', system, user: '{}' },
        { role: 'planner', purpose: 'plan', system: texts.files, user: '{}' },
      ],
      config,
      texts,
    );
    expect(found.map((entry) => entry.rule)).toEqual(['edit-format', 'shared-rule-text']);
  });
});
