import fs from 'node:fs';
import path from 'node:path';
import { WORKFLOWS } from '../shared/engine/workflows';
import { type WorkflowName } from '../shared/schemas/workflowName';
import type { RunConfig } from '../shared/engine/runConfig';
import type { RenderedPrompt } from '../electron/core/agents/promptCoherence';
import { resolveRunConfig } from '../electron/core/config/resolveConfig';
import { createDefaultDeps, createEngineEnv } from '../electron/core/engine/defaultDeps';
import { startRun } from '../electron/core/engine/runner';
import type { ModelRouterOptions } from '../electron/core/llm/routerOptions';
import type { ContextItem, GenerateRequest } from '../electron/core/llm/types';
import { failureExcerpt } from '../electron/core/verifier/excerpt';
import { readOutcome } from '../electron/core/verifier/readOutcome';
import { lastLines, truncateReport } from '../electron/core/basics/outputText';
import { runnerOf } from '../electron/core/verifier/runnerFlags';
import type { VerifyRequest } from '../electron/core/verifier/types';
import { APP_ROOT, makeExampleRepo, REPLAYS } from './exampleRepo';
import { makeTempDir } from './tempRepo';

export interface WorkflowPrompts {
  workflow: WorkflowName;
  config: RunConfig;
  prompts: (RenderedPrompt & { context: ContextItem[] })[];
}

/**
 * Every role's prompt of one workflow as the model receives it: the bundled js-stats example run with
 * the workflow's demo transcript, recording each call. The first call per role, purpose and
 * with/without feedback is kept (a Scout's tool loop and retries repeat the same prompt).
 */
export async function renderWorkflowPrompts(
  workflow: WorkflowName,
  options: { promptsDir?: string } = {},
): Promise<WorkflowPrompts> {
  const repo = makeExampleRepo('js-stats');
  const dataDir = makeTempDir('lathe-prompts-');
  try {
    const normalize = (text: string) =>
      text
        .replaceAll(repo.dir, '<repo>')
        .replaceAll(dataDir, '<data>')
        .replace(/\/tmp\/[\w.-]+/g, '<tmp>')
        .replace(/\b\d{8}T\d{6,9}Z(?:-[0-9a-f]{6})?\b/g, '<id>')
        .replace(/\b[0-9a-f]{40}\b/g, '<sha>')
        .replace(/\b\d+(?:\.\d+)?\s?ms\b/g, '<t>ms')
        .replace(/"duration_ms": \d+/g, '"duration_ms": <t>')
        .replace(/duration_ms \d+(?:\.\d+)?/g, 'duration_ms <t>');
    const config = resolveRunConfig(
      { defaultsFile: path.join(APP_ROOT, 'resources', 'defaults.yaml'), repoRoot: repo.dir },
      { workflow, model: `replay:${path.join(REPLAYS, `js-stats.${workflow}.json`)}` },
    );
    const deps = createDefaultDeps();
    let purpose = 'unknown';
    const seen = new Set<string>();
    const prompts: WorkflowPrompts['prompts'] = [];
    const createModels = (routerOptions: ModelRouterOptions) => {
      const router = deps.createModels(routerOptions);
      const generate = <T>(request: GenerateRequest<T>) => {
        const system = request.messages.find((message) => message.role === 'system')?.content ?? '';
        const user = request.messages
          .filter((message) => message.role !== 'system')
          .map((message) => message.content)
          .join('\n\n');
        const key = `${request.role}/${purpose}/${user.includes('"feedback"')}`;
        if (!seen.has(key)) {
          seen.add(key);
          prompts.push({ role: request.role, purpose, system, user, context: request.context ?? [] });
        }
        return router.generate(request);
      };
      return { ...router, generate };
    };
    // Test output carries timings and paths; the fixture must not change with them, so the Verifier's
    // texts are rebuilt from its full log with those normalised (the same functions cut them).
    const verify = async (request: VerifyRequest) => {
      const result = await deps.verify(request);
      const output = normalize(fs.readFileSync(result.logPath, 'utf8').replaceAll(request.workDir, '<worktree>'));
      // The excerpt is read again from the normalised output (the runner's report names places relative to the work dir).
      const report = (name: string) =>
        fs.existsSync(path.join(result.artifactDir, name)) ? path.join(result.artifactDir, name) : null;
      const outcome = await readOutcome(
        { runner: runnerOf(request.argv), junitFile: report('junit.xml'), jsonFile: report('jest.json') },
        output,
        request.workDir,
      );
      const excerpt = failureExcerpt({
        status: result.status,
        exitCode: result.exitCode,
        reason: result.reason,
        outcome,
        output,
        repoDir: request.workDir,
      });
      return { ...result, durationMs: 0, report: truncateReport(output), excerpt, tail: lastLines(output, 200) };
    };
    const env = createEngineEnv({
      appRoot: APP_ROOT,
      dataDir,
      retryBackoffMs: 0,
      deps: { ...deps, createModels, verify },
      callbacks: {
        onEvent: (event) => void (event.type === 'agent_call' && (purpose = String(event.data.purpose))),
        decideGate: async () => ({ approved: true, comment: null }),
      },
    });
    if (options.promptsDir) env.promptsDir = options.promptsDir;
    await startRun(env, {
      repoRoot: repo.dir,
      goal: fs.readFileSync(path.join(repo.dir, 'lathe.goal.txt'), 'utf8').trim(),
      config,
    });
    return {
      workflow,
      config,
      prompts: prompts.map((prompt) => ({
        ...prompt,
        system: normalize(prompt.system),
        user: normalize(prompt.user),
        context: prompt.context.map((item) => ({ ...item, text: normalize(item.text) })),
      })),
    };
  } finally {
    repo.remove();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const fence = (text: string) => `~~~~text\n${text}\n~~~~`;

/** The committed, readable form: docs/prompts/<workflow>.md. */
export function promptsMarkdown(rendered: WorkflowPrompts): string {
  const workflow = WORKFLOWS[rendered.workflow];
  return [
    `# Prompts of the ${rendered.workflow} workflow (seed ${workflow.seed})`,
    '',
    `Every role's prompt as the model receives it, rendered from a replay run of the bundled js-stats example by`,
    '`electron/core/agents/prompts.test.ts`, which also checks that they agree (`promptCoherence.ts`). Regenerate',
    'after changing a prompt: `LATHE_UPDATE_PROMPTS=1 npx vitest run electron/core/agents/prompts.test.ts`.',
    '',
    `Rules of this run: tests ${rendered.config.tests_read_only ? 'read-only' : 'written by the writer with its change'}; ${rendered.config.artifacts_only ? 'only the artifacts may be touched' : 'artifacts guide, other files allowed'}; edit format ${rendered.config.edit_format}.`,
    '',
    ...rendered.prompts.flatMap((prompt, index) => [
      `## ${index + 1}. ${prompt.role} · ${prompt.purpose}${prompt.user.includes('"feedback"') ? ' (with feedback)' : ''}`,
      '',
      '### System',
      fence(prompt.system),
      '',
      '### User',
      fence(prompt.user),
      '',
      `### Context items (${prompt.context.length})`,
      ...(prompt.context.length === 0
        ? ['none']
        : prompt.context.map((item) => `- \`${item.id}\` (priority ${item.priority}, ${item.text.length} characters)`)),
      '',
    ]),
  ].join('\n');
}
