import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import WebSocket from 'ws';
import { createSocketClient, type SocketLike } from '../../../shared/contract/socketClient';
import type { RunLogEvent } from '../../../shared/schemas/run';
import { makeExampleRepo, REPLAYS } from '../../../test-support/exampleRepo';
import { spawnLathe, waitForLine } from '../../../test-support/runCli';
import { makeTempDir } from '../../../test-support/tempRepo';

const home = makeTempDir('lathe-home-');
const repo = makeExampleRepo('js-stats');
afterAll(() => {
  repo.remove();
  fs.rmSync(home, { recursive: true, force: true });
});

/** A `lathe serve` process and a contract client connected to it; killed when the test ends, even on a failure. */
async function serve() {
  const child = spawnLathe(['serve', '--port', '0'], { env: { LATHE_HOME: home } });
  onTestFinished(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    // Wait for the server to stop writing before afterAll removes the repo under it.
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  });
  const url = new URL(await waitForLine(child, /^http:\/\/127\.0\.0\.1:/));
  const client = createSocketClient({
    url: `ws://${url.host}/ws?token=${url.searchParams.get('token')}`,
    createSocket: (address) => new WebSocket(address, { headers: { Origin: url.origin } }) as unknown as SocketLike,
    reconnectBaseMs: 0,
  });
  const events: RunLogEvent[] = [];
  client.on('run/event', (event) => events.push(event));
  await client.ready;
  return { child, client, events };
}

function waitFor(
  events: RunLogEvent[],
  predicate: (event: RunLogEvent) => boolean,
  after = 0,
  timeoutMs = 30_000,
): Promise<RunLogEvent> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = () => {
      const found = events.slice(after).find(predicate);
      if (found) return resolve(found);
      if (Date.now() - started > timeoutMs)
        return reject(new Error(`no such event; saw ${events.map((event) => event.type).join(', ')}`));
      setTimeout(poll, 25);
    };
    poll();
  });
}

async function unwrap<T>(
  promise: Promise<{ ok: true; value: T } | { ok: false; error: { message: string } }>,
): Promise<T> {
  const result = await promise;
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe('human gates through the contract', () => {
  // docs/seeds.md 2.8: human approval of gates, kept across a kill
  it('rejects one gate with a comment, survives a kill while the next is pending, and approves it after restart', async () => {
    const first = await serve();
    const { runId } = await unwrap(
      first.client.request('run/start', {
        repo: repo.dir,
        goal: 'fix median and document it',
        workflow: 'dev-agent',
        model: `replay:${path.join(REPLAYS, 'js-stats.dev-agent.json')}`,
        gates: { step: 'human' },
      }),
    );

    const pending1 = await waitFor(first.events, (event) => event.type === 'gate_pending');
    const rejected = await unwrap(
      first.client.request('gate/decide', {
        repo: repo.dir,
        runId,
        gateId: String(pending1.data.gate_id),
        approved: false,
        comment: 'also document both functions in README.md',
      }),
    );
    expect(rejected).toEqual({ accepted: true, resumed: false });
    const retry = await waitFor(first.events, (event) => event.type === 'retry', first.events.indexOf(pending1));
    expect(retry.data).toMatchObject({ feedback: 'critique' });

    const pending2 = await waitFor(
      first.events,
      (event) => event.type === 'gate_pending' && event.data.gate_id !== pending1.data.gate_id,
    );
    const exited = new Promise((resolve) => first.child.on('exit', resolve));
    first.child.kill('SIGKILL');
    await exited;

    const second = await serve();
    const page = await unwrap(second.client.request('run/get', { repo: repo.dir, runId }));
    expect(page.active).toBe(false);
    expect(page.state.status).toBe('waiting_for_gate');
    expect(page.state.gate?.gate_id).toBe(pending2.data.gate_id);
    expect(page.events.find((event) => event.type === 'gate_decided')?.data).toMatchObject({
      approved: false,
      comment: 'also document both functions in README.md',
    });
    // A fresh core projects the log it finds: the window is sent the view, not left to replay the log.
    expect(page.view?.lastSeq).toBe(page.lastSeq);
    expect(page.view?.gates[String(pending2.data.gate_id)]?.status).toBe('pending');
    expect(page.figures?.totalSteps).toBe(page.state.metrics.total_steps);

    expect(
      await unwrap(
        second.client.request('gate/decide', { repo: repo.dir, runId, gateId: 'step-999-T1', approved: true }),
      ),
    ).toEqual({ accepted: false, resumed: false });
    const approved = await unwrap(
      second.client.request('gate/decide', {
        repo: repo.dir,
        runId,
        gateId: String(pending2.data.gate_id),
        approved: true,
      }),
    );
    expect(approved).toEqual({ accepted: true, resumed: true });
    const finished = await waitFor(second.events, (event) => event.type === 'run_finished');
    expect(finished.data).toMatchObject({ status: 'complete', exit_code: 0 });
    const done = await unwrap(second.client.request('run/get', { repo: repo.dir, runId }));
    expect(done.state.commits).toHaveLength(3);
    second.client.close();
  }, 120_000);
});
