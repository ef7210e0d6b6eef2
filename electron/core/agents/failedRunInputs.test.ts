import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configFromWorkflow } from '../../../shared/engine/configFromWorkflow';
import { initialState } from '../../../shared/engine/initialState';
import { WORKFLOWS } from '../../../shared/engine/workflows';
import { type WorkflowName } from '../../../shared/schemas/workflowName';
import type { RunState } from '../../../shared/engine/runState';
import { testResult } from '../../../test-support/engineSim';
import { makeTempDir } from '../../../test-support/tempRepo';
import { sourceAppRoot } from '../appRoot';
import { getEditFormat } from '../edits/formats';
import { createReadOnlyTools } from '../tools/readOnlyTools';
import { PromptLibrary } from './promptLibrary';
import { agentSpecFor } from './registry';
import { type AgentContext } from './agentContext';

/*
 * What each model is shown of a failed test run: seed 000's Tester gets the truncated report (its
 * seed says so); every other model that sees a failed run gets the failure-focused excerpt.
 */

const repo = makeTempDir('lathe-failed-inputs-');
fs.writeFileSync(path.join(repo, 'calc.py'), 'def add(a, b):\n    return a - b\n');
afterAll(() => fs.rmSync(repo, { recursive: true, force: true }));

const failing = testResult(false, { report: 'SEED-000 REPORT', excerpt: 'FAILURE EXCERPT', tail: 'LAST 200 LINES' });

function context(workflow: WorkflowName, change: (state: RunState) => RunState = (state) => state): AgentContext {
  const base = initialState({
    runId: 'r1',
    goal: 'fix add',
    goalHash: 'sha256:x',
    config: configFromWorkflow(WORKFLOWS[workflow]),
    now: 't0',
    nowMs: 0,
  });
  return {
    state: change({ ...base, last_test: failing }),
    workflow: WORKFLOWS[workflow],
    tools: createReadOnlyTools(repo),
    prompts: new PromptLibrary(path.join(sourceAppRoot(), 'prompts')),
    editFormat: getEditFormat(WORKFLOWS[workflow].defaults.edit_format),
    knowledge: [],
    scoutReport: null,
  };
}

async function inputOf(
  purpose: Parameters<typeof agentSpecFor>[0],
  workflow: WorkflowName,
  change?: (state: RunState) => RunState,
): Promise<Record<string, unknown>> {
  const spec = agentSpecFor(purpose, WORKFLOWS[workflow]);
  if (!spec) throw new Error(`no agent for ${purpose}`);
  return (await spec.input(context(workflow, change))).input;
}

describe('what a model is shown of a failed test run', () => {
  // docs/seeds.md 0.18: the minimal Tester's output is the truncated report
  it("seed 000's Tester reads the truncated report", async () => {
    expect(await inputOf('test_report', 'minimal')).toMatchObject({ output: 'SEED-000 REPORT' });
  });

  it("seed 002's Tester plans its fix from the excerpt", async () => {
    expect(await inputOf('fix_plan', 'supervised')).toMatchObject({
      test: { output: 'FAILURE EXCERPT', first_failure: failing.first_failure },
    });
  });

  it("the Supervisor's step gate judges with the excerpt", async () => {
    expect(await inputOf('review_step', 'dev-agent')).toMatchObject({ test: { output: 'FAILURE EXCERPT' } });
  });

  it("seed 004's brief gets the latest failure's excerpt, earlier ones by their first failure", async () => {
    const history = [
      { step_id: 'T1', status: 'FAIL', first_failure: 'a: old', report: 'OLDER EXCERPT', artifact_dir: '/a' },
      { step_id: 'T1', status: 'FAIL', first_failure: 'b: new', report: 'FAILURE EXCERPT', artifact_dir: '/b' },
    ];
    const input = await inputOf('scout_brief', 'editor-scouts', (state) => ({ ...state, failure_history: history }));
    expect(input.recent_failures).toEqual([
      { first_failure: 'a: old' },
      { first_failure: 'b: new', output: 'FAILURE EXCERPT' },
    ]);
  });
});
