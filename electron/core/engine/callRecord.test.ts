import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Feedback } from '../../../shared/engine/runState';
import { AgentCallRecordSchema, partOrigin, type AgentCallRecord } from '../../../shared/schemas/agentCall';
import { APP_ROOT, REPLAYS, runFixturePerTest } from '../../../test-support/exampleRepo';
import { resolveRunConfig } from '../config/resolveConfig';
import { secretRedactor } from '../llm/redact';
import { buildCallRecord, captureCall, LIFTED_PLACEHOLDER } from './callRecord';
import { createEngineEnv } from './defaultDeps';
import { startRun } from './runner';
import { readLog } from './runStore';

const setup = runFixturePerTest();
const COMMENT = 'also document both functions in README.md';

function records(dir: string): AgentCallRecord[] {
  return fs
    .readdirSync(dir)
    .map((name) => AgentCallRecordSchema.parse(JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'))))
    .sort((a, b) => a.call - b.call);
}

describe("a run's recorded agent calls", () => {
  it('keeps every call’s messages and answer, and marks the human’s comment and the verdict where the Coder got them after a rejected step gate', async () => {
    const { repo, dataDir } = setup();
    const config = resolveRunConfig(
      { repoRoot: repo.dir },
      {
        workflow: 'dev-agent',
        model: `replay:${path.join(REPLAYS, 'js-stats.dev-agent.json')}`,
        gates: { step: 'both' },
      },
    );
    let decisions = 0;
    const env = createEngineEnv({
      appRoot: APP_ROOT,
      dataDir,
      retryBackoffMs: 1,
      callbacks: {
        decideGate: async () =>
          decisions++ === 0 ? { approved: false, comment: COMMENT } : { approved: true, comment: null },
      },
    });
    const state = await startRun(env, { repoRoot: repo.dir, goal: 'fix median and document it', config });
    expect(state.result?.status).toBe('complete');
    const runDir = path.join(repo.dir, '.lathe', 'runs', state.run_id);
    const log = readLog(path.join(runDir, 'log.jsonl'));
    const calls = log.filter((event) => event.type === 'agent_call');
    const recorded = records(path.join(runDir, 'calls'));
    // One record per agent_call event, numbered as the event says.
    expect(recorded.map((record) => record.call)).toEqual(calls.map((event) => event.data.call));
    expect(recorded.map((record) => record.call)).toEqual(calls.map((_, index) => index + 1));
    for (const record of recorded) {
      expect(record.messages[0]?.role).toBe('system');
      expect(record.messages[0]?.parts[0]?.source).toBe('prompt');
      expect(record.messages[1]?.parts[0]).toMatchObject({
        source: 'input',
        text: expect.stringMatching(/(^|\n)Input:\n\{/),
      });
      expect(record.answer).toMatchObject({ outcome: 'output', raw: expect.stringMatching(/^\s*\{/) });
    }
    // agent_output names the call its answer belongs to, and the record holds that answer's text.
    const outputs = log.filter((event) => event.type === 'agent_output');
    for (const output of outputs) {
      const record = recorded.find((entry) => entry.call === output.data.call);
      // The output is the answer parsed: every field it gave, and the schema's defaults for any it left out.
      expect(output.data.output).toMatchObject(JSON.parse(record?.answer.raw ?? 'null') as object);
    }
    // The Coder's call after the rejection: its feedback is lifted out of the input, part by part, with origins.
    const rejected = log.findIndex((event) => event.type === 'gate_decided' && event.data.approved === false);
    expect(rejected).toBeGreaterThan(0);
    const coderCall = log.slice(rejected).find((event) => event.type === 'agent_call' && event.data.purpose === 'code');
    const coder = recorded.find((record) => record.call === coderCall?.data.call);
    const input = coder?.messages[1]?.parts ?? [];
    expect(input[0]?.text).toContain(`"feedback": "${LIFTED_PLACEHOLDER}"`);
    expect(input[0]?.text).not.toContain(COMMENT);
    expect(input[1]).toMatchObject({ source: 'human', gate: 'step', field: 'feedback', text: `User: ${COMMENT}` });
    expect(input[2]).toMatchObject({
      source: 'supervisor',
      gate: 'step',
      field: 'feedback',
      text: expect.stringMatching(/^Supervisor score \d+/),
    });
    expect(input).toHaveLength(3);
    // A Coder call after a failed test run: its feedback is the test's words.
    const afterTests = recorded
      .filter((record) => record.purpose === 'code')
      .flatMap((record) => record.messages[1]?.parts ?? [])
      .filter((part) => part.source === 'tests');
    expect(afterTests.length).toBeGreaterThan(0);
    for (const part of afterTests)
      expect(part).toMatchObject({ field: 'feedback', gate: null, text: expect.stringMatching(/^First failing test/) });
  });
});

describe("a Scout's recorded call", () => {
  it('keeps its whole tool loop: the question, each action it took as an answer part, each tool result as a tool part', async () => {
    const { repo, dataDir } = setup();
    const config = resolveRunConfig(
      { repoRoot: repo.dir },
      { workflow: 'editor-scouts', model: `replay:${path.join(REPLAYS, 'js-stats.editor-scouts.json')}` },
    );
    const state = await startRun(createEngineEnv({ appRoot: APP_ROOT, dataDir, retryBackoffMs: 1 }), {
      repoRoot: repo.dir,
      goal: 'fix median',
      config,
    });
    const scouts = records(path.join(repo.dir, '.lathe', 'runs', state.run_id, 'calls')).filter(
      (record) => record.purpose === 'scout',
    );
    expect(scouts.length).toBeGreaterThan(0);
    for (const record of scouts) {
      const sources = record.messages.flatMap((message) =>
        message.parts.map((part) => `${message.role}:${part.source}`),
      );
      expect(sources.slice(0, 2)).toEqual(['system:prompt', 'user:input']);
      // After the question: the Scout's actions and their tools' results, in turns.
      for (const [index, source] of sources.slice(2).entries())
        expect(source).toBe(index % 2 === 0 ? 'assistant:answer' : 'user:tool');
      expect(JSON.parse(record.answer.raw ?? 'null')).toMatchObject({ action: 'answer' });
    }
    expect(scouts.some((record) => record.messages.length > 2)).toBe(true);
  });
});

describe('buildCallRecord', () => {
  const router = {
    generate: () => Promise.reject(new Error('not called')),
    specFor: () => null,
    dispose: async () => {},
  };
  const recordFor = (sent: string, feedback: Feedback) => {
    const capture = captureCall(router);
    const input = { goal: 'g', feedback: sent };
    capture.input = input;
    capture.request = {
      messages: [{ role: 'user', content: `Input:\n${JSON.stringify(input, null, 2)}` }],
      context: [],
    };
    const facts = {
      call: 1,
      role: 'coder',
      purpose: 'code',
      step_id: 'T1',
      model: null,
      feedback,
      report: null,
      outcome: 'failed' as const,
      error: null,
      usage: { prompt_tokens: 0, completion_tokens: 0 },
    };
    return buildCallRecord(capture, facts, (text) => text).messages[0]?.parts.slice(1);
  };
  const critique: Feedback = {
    kind: 'critique',
    text: 'User: shorter\nSupervisor score 50: too long',
    parts: [
      { source: 'human', gate: 'code', text: 'User: shorter' },
      { source: 'supervisor', gate: 'code', text: 'Supervisor score 50: too long' },
    ],
  };

  it('keeps each writer’s part when the feedback went out whole, and says "several writers" once it was cut to fit', () => {
    expect(recordFor(critique.text, critique)).toMatchObject([
      { source: 'human', gate: 'code', field: 'feedback', text: 'User: shorter' },
      { source: 'supervisor', gate: 'code', field: 'feedback', text: 'Supervisor score 50: too long' },
    ]);
    const cut = recordFor('User: shorter\n… (9 characters cut) …\ntoo long', critique);
    expect(cut).toMatchObject([
      { source: 'mixed', gate: 'code', text: 'User: shorter\n… (9 characters cut) …\ntoo long' },
    ]);
    expect(partOrigin(cut?.[0] ?? { source: 'input', gate: null, field: null })).toBe(
      "from several writers at the code gate (the critique was cut to fit the model's window)",
    );
  });
});

describe('secretRedactor', () => {
  it('replaces the model token, secret-named environment values and key-shaped strings, and leaves the rest', () => {
    const redact = secretRedactor(
      { TEAM_TOKEN: 'tok-1234567890', OPENAI_API_KEY: 'plain-value-99', HOME: '/home/someone', SHORT_SECRET: 'abc' },
      'TEAM_TOKEN',
    );
    const text =
      'a tok-1234567890 b plain-value-99 c sk-abcdefghijklmnopqrstu d Authorization: Bearer abcdef123456 e /home/someone f abc';
    expect(redact(text)).toBe(
      'a [redacted] b [redacted] c [redacted] d Authorization: Bearer [redacted] e /home/someone f abc',
    );
  });
});
