import { describe, expect, it } from 'vitest';
import { WORKFLOWS } from '../../../../shared/engine/workflows';
import { StartRunRequestSchema } from '../../../../shared/contract/runRequests';
import { SettingsSchema } from '../../../../shared/schemas/settings';
import {
  buildStartRequest,
  formProblems,
  initialFormValues,
  rolesFor,
  specProblem,
  splitCommand,
  type RunFormValues,
} from './runRequest';

const values = (change: Partial<RunFormValues> = {}): RunFormValues => ({
  ...initialFormValues(null),
  goal: 'fix median',
  model: 'replay:/tmp/t.json',
  ...change,
});

describe('the start form', () => {
  it('builds a run/start request the contract accepts', () => {
    const checked = buildStartRequest(
      '/repo',
      values({
        workflow: 'supervised',
        gates: { plan: 'auto', code: 'auto', step: 'both', goal: 'auto' },
        timeLimitMinutes: '30',
        testCommand: 'npm test -- --grep "median value"',
      }),
    );
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.request).toEqual({
      repo: '/repo',
      goal: 'fix median',
      workflow: 'supervised',
      model: 'replay:/tmp/t.json',
      gates: { plan: 'auto', code: 'auto', step: 'both', goal: 'auto' },
      timeLimitMs: 1_800_000,
      testCommand: ['npm', 'test', '--', '--grep', 'median value'],
    });
    expect(StartRunRequestSchema.safeParse(checked.request).success).toBe(true);
  });

  it('carries the run a follow-up continues, which the contract checks is a run id', () => {
    const checked = buildStartRequest('/repo', values(), '20261122T033735Z');
    expect(checked.ok && checked.request.followUpOf).toBe('20261122T033735Z');
    expect(checked.ok && StartRunRequestSchema.safeParse(checked.request).success).toBe(true);
    expect(StartRunRequestSchema.safeParse({ repo: '/repo', goal: 'g', followUpOf: '../x' }).success).toBe(false);
  });

  it('names every field to fix', () => {
    const checked = buildStartRequest('/repo', values({ goal: '  ', model: '', timeLimitMinutes: '0' }));
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.problems.goal).toBe('Type a goal.');
    expect(checked.problems.model).toMatch(/Pick a model for every role, or one for Coder/);
    expect(checked.problems.timeLimit).toMatch(/Whole minutes/);
  });

  it('accepts per-role models in place of one for every role, and checks their shape', () => {
    const roles = { coder: 'llama:/m/c.gguf', planner: 'ollama:qwen', tester: 'openai:http://127.0.0.1:8080/v1#m' };
    expect(buildStartRequest('/repo', values({ model: '', roleModels: roles })).ok).toBe(true);
    const bad = buildStartRequest('/repo', values({ model: '', roleModels: { ...roles, coder: 'gpt-4' } }));
    expect(bad.ok ? null : bad.problems['model-coder']).toMatch(/llama:PATH\.gguf/);
  });

  it('knows which roles a workflow and its gates call', () => {
    expect(rolesFor(WORKFLOWS.minimal, WORKFLOWS.minimal.defaults.gates)).toEqual(['coder', 'planner', 'tester']);
    expect(rolesFor(WORKFLOWS['dev-agent'], WORKFLOWS['dev-agent'].defaults.gates)).toEqual(['coder', 'supervisor']);
    expect(rolesFor(WORKFLOWS['dev-agent'], { plan: 'off', code: 'off', step: 'human', goal: 'off' })).toEqual([
      'coder',
    ]);
    expect(rolesFor(WORKFLOWS['editor-scouts'], WORKFLOWS['editor-scouts'].defaults.gates)).toEqual([
      'editor',
      'scout',
    ]);
  });

  it('starts from the settings: workflow, model, gate overrides and time limit', () => {
    const settings = SettingsSchema.parse({
      defaultWorkflow: 'supervised',
      defaultModel: 'ollama:qwen',
      gates: { step: 'human' },
      timeLimitMinutes: 20,
    });
    expect(initialFormValues(settings)).toMatchObject({
      workflow: 'supervised',
      model: 'ollama:qwen',
      gates: { plan: 'auto', code: 'auto', step: 'human', goal: 'auto' },
      timeLimitMinutes: '20',
    });
    expect(initialFormValues(SettingsSchema.parse({ defaultWorkflow: 'nonsense' })).workflow).toBe('minimal');
  });

  it('splits a command line like a shell, without one', () => {
    expect(splitCommand(`pytest -k 'median and not slow' "a b"\\ c`)).toEqual([
      'pytest',
      '-k',
      'median and not slow',
      'a b c',
    ]);
    expect(splitCommand('  ')).toEqual([]);
    expect(splitCommand(`echo ""`)).toEqual(['echo', '']);
  });

  it('checks model spec shapes', () => {
    expect(specProblem('replay:/tmp/x.json')).toBeNull();
    expect(specProblem('llama:/models/q.gguf')).toBeNull();
    expect(specProblem('openai:http://127.0.0.1:1234#m')).toBeNull();
    expect(specProblem('openai:http://127.0.0.1:1234')).not.toBeNull();
    expect(specProblem('/models/q.gguf')).not.toBeNull();
  });
});

describe("the core's start checks in the form", () => {
  it('puts each problem beside its field: a role with its own spec gets its own, the rest "Every role"', () => {
    const form = values({ roleModels: { coder: 'llama:/m/coder.gguf' } });
    expect(
      formProblems(
        [
          {
            code: 'MODEL_REJECTED',
            field: 'model',
            roles: ['coder', 'planner'],
            spec: 'llama:/m/junk.gguf',
            message: '/m/junk.gguf cannot be used: not a GGUF file',
          },
          {
            code: 'NO_TEST_COMMAND',
            field: 'test_command',
            roles: [],
            spec: null,
            message: 'no test command: none is configured',
          },
          { code: 'BLANK_GOAL', field: 'goal', roles: [], spec: null, message: 'the goal is blank' },
        ],
        form,
      ),
    ).toEqual({
      'model-coder': '/m/junk.gguf cannot be used: not a GGUF file.',
      model: '/m/junk.gguf cannot be used: not a GGUF file.',
      testCommand: 'No test command: none is configured.',
      goal: 'The goal is blank.',
    });
  });
});
