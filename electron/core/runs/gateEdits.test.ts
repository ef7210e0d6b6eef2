import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunLogEvent } from '../../../shared/schemas/run';
import { APP_ROOT, REPLAYS, runFixturePerTest } from '../../../test-support/exampleRepo';
import { EventBus } from './eventBus';
import { createDefaultDeps } from '../engine/defaultDeps';
import { RunStore } from '../engine/runStore';
import { RunManager } from './runManager';

const setup = runFixturePerTest();

function waitFor(
  events: RunLogEvent[],
  predicate: (event: RunLogEvent) => boolean,
  after = 0,
  timeoutMs = 60_000,
): Promise<RunLogEvent> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = () => {
      const found = events.slice(after).find(predicate);
      if (found) return resolve(found);
      if (Date.now() - started > timeoutMs)
        return reject(new Error(`no such event; saw ${events.map((event) => event.type).join(', ')}`));
      setTimeout(poll, 20);
    };
    poll();
  });
}

/** The window's own path: a RunManager, its events on the bus, a gate decided through `decideGate`. */
async function startAtHumanStepGate() {
  const { repo, dataDir } = setup();
  const bus = new EventBus();
  const events: RunLogEvent[] = [];
  bus.subscribe((name, payload) => name === 'run/event' && events.push(payload as RunLogEvent));
  const manager = new RunManager({ events: bus, appRoot: APP_ROOT, dataDir, retryBackoffMs: 1 });
  const { runId } = await manager.start({
    repo: repo.dir,
    goal: 'fix median',
    workflow: 'dev-agent',
    model: `replay:${path.join(REPLAYS, 'js-stats.dev-agent.json')}`,
    gates: { step: 'human' },
  });
  const pending = await waitFor(events, (event) => event.type === 'gate_pending');
  const state = RunStore.readState(repo.dir, runId);
  const workspace = state.workspace;
  if (!workspace || !state.head) throw new Error('no workspace at the gate');
  const change = await createDefaultDeps().git.diffRun(
    workspace,
    state.step_base?.commit ?? workspace.baseCommit,
    state.head,
  );
  return { repo, manager, events, runId, gateId: String(pending.data.gate_id), state, workspace, change };
}

describe('a gate approved with the person’s edits (issue 29)', () => {
  it('commits the edit as the user’s, logs it, and runs the tests on it before the run goes on', async () => {
    const { repo, manager, events, runId, gateId, workspace, change } = await startAtHumanStepGate();
    const file = change[0];
    if (!file?.after) throw new Error('the gate shows no changed file');
    const edited = `${file.after}\n// checked by a person at the step gate\n`;
    const decided = await manager.decideGate(repo.dir, runId, gateId, {
      approved: true,
      comment: null,
      edits: [
        { path: file.path, content: edited },
        { path: 'NOTES.md', content: 'median sorts numerically\n', new: true },
      ],
    });
    expect(decided).toEqual({ accepted: true, resumed: false });

    const userEdit = await waitFor(events, (event) => event.type === 'user_edit');
    expect(userEdit.role).toBe('user');
    expect(userEdit.data).toMatchObject({
      gate_id: gateId,
      gate: 'step',
      files: [
        { path: 'NOTES.md', added: 1, removed: 0, created: true },
        { path: file.path, added: 2, created: false },
      ],
    });
    // Verified like any step: a test run follows the person's commit.
    await waitFor(events, (event) => event.type === 'test_result', events.indexOf(userEdit));
    for (;;) {
      const next = await waitFor(
        events,
        (event) => event.type === 'run_finished' || (event.type === 'gate_pending' && event.data.gate_id !== gateId),
      );
      if (next.type === 'run_finished') {
        expect(next.data).toMatchObject({ status: 'complete' });
        break;
      }
      await manager.decideGate(repo.dir, runId, String(next.data.gate_id), { approved: true, comment: null });
      await waitFor(events, (event) => event.type === 'gate_closed' && event.data.gate_id === next.data.gate_id);
    }

    const sha = String(userEdit.data.commit);
    const message = execFileSync('git', ['-C', repo.dir, 'log', '-1', '--format=%B', sha], { encoding: 'utf8' });
    expect(message).toContain('Lathe-Role: user');
    expect(execFileSync('git', ['-C', repo.dir, 'show', `${sha}:${file.path}`], { encoding: 'utf8' })).toBe(edited);
    expect(
      execFileSync('git', ['-C', repo.dir, 'branch', '--contains', sha, '--format=%(refname:short)'], {
        encoding: 'utf8',
      }),
    ).toContain(workspace.branch);
  }, 120_000);

  it('refuses a path outside the repository or outside the change, and changes nothing', async () => {
    const { repo, manager, events, runId, gateId, state, workspace, change } = await startAtHumanStepGate();
    const readme = fs.readFileSync(path.join(workspace.workDir, 'README.md'), 'utf8');
    const inChange = { path: change[0]?.path ?? '', content: 'x\n' };
    await expect(
      manager.decideGate(repo.dir, runId, gateId, {
        approved: true,
        comment: null,
        edits: [inChange, { path: '../outside.js', content: 'x' }],
      }),
    ).rejects.toMatchObject({
      code: 'USER_EDIT_REFUSED',
      message: expect.stringContaining('leaves the repository'),
    });
    await expect(
      manager.decideGate(repo.dir, runId, gateId, {
        approved: true,
        comment: null,
        edits: [{ path: 'README.md', content: 'x' }],
      }),
    ).rejects.toMatchObject({
      code: 'USER_EDIT_REFUSED',
      message: expect.stringContaining("README.md is not in this gate's change"),
    });
    await expect(
      manager.decideGate(repo.dir, runId, gateId, {
        approved: true,
        comment: null,
        edits: [{ path: 'README.md', content: 'x', new: true }],
      }),
    ).rejects.toMatchObject({ code: 'USER_EDIT_REFUSED' });
    expect(fs.readFileSync(path.join(workspace.workDir, 'README.md'), 'utf8')).toBe(readme);
    expect(fs.existsSync(path.join(repo.dir, '..', 'outside.js'))).toBe(false);
    const after = RunStore.readState(repo.dir, runId);
    expect(after).toMatchObject({ head: state.head, status: 'waiting_for_gate', gate: { gate_id: gateId } });
    expect(events.some((event) => event.type === 'user_edit' || event.type === 'gate_decided')).toBe(false);
    await manager.cancel(repo.dir, runId);
  }, 120_000);
});
