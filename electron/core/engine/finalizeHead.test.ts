import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configFromWorkflow } from '../../../shared/engine/configFromWorkflow';
import { initialState } from '../../../shared/engine/initialState';
import { WORKFLOWS } from '../../../shared/engine/workflows';
import type { PendingEvent } from '../../../shared/engine/runEvents';
import { makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { createDefaultDeps } from './defaultDeps';
import { branchToStateHead } from './finalize';

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((repo) => repo.remove()));

describe('the end of a session', () => {
  it('moves the run branch and work tree to the state head when a rollback was the last thing the run did', async () => {
    const deps = createDefaultDeps();
    const repo = makeTempRepo({ files: { 'src/a.py': 'x = 1\n' } });
    repos.push(repo);
    const workspace = await deps.git.startRun(repo.dir, { runId: 'r1', branchPrefix: 'lathe', allowDirty: false });
    fs.writeFileSync(path.join(workspace.workDir, 'src/a.py'), 'x = 2\n');
    const attempt = await deps.git.commitStep(workspace, ['src/a.py'], {
      runId: 'r1',
      taskId: 'T1',
      title: 'attempt',
      body: '',
      role: 'coder',
      attempt: 1,
    });
    expect(await deps.git.headOf(workspace)).toBe(attempt);
    // The state rolled the attempt back (a step out of attempts keeps its best state): the branch still carries it.
    const state = {
      ...initialState({
        runId: 'r1',
        goal: 'g',
        goalHash: 'h',
        config: configFromWorkflow(WORKFLOWS['dev-agent']),
        now: new Date(0).toISOString(),
        nowMs: 0,
      }),
      workspace,
      head: workspace.baseCommit,
    };
    const logged: PendingEvent[] = [];
    await branchToStateHead(deps, state, (event) => logged.push(event));
    expect(await deps.git.headOf(workspace)).toBe(workspace.baseCommit);
    expect(fs.readFileSync(path.join(workspace.workDir, 'src/a.py'), 'utf8')).toBe('x = 1\n');
    expect(logged).toEqual([]);
    // Already there: nothing to do, nothing said.
    await branchToStateHead(deps, state, (event) => logged.push(event));
    expect(logged).toEqual([]);
  });
});
