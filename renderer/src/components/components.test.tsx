import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ModelEntryView } from '../../../shared/schemas/models';
import type { RunLogEvent } from '../../../shared/schemas/run';
import { recordedLog } from '../runView/fixtures/loadLog';
import { buildRunView } from '../../../shared/runView/reduceRunEvents';
import type { AgentCallRecord, CallPart } from '../../../shared/schemas/agentCall';
import { CallRecordView } from './run/AgentCalls';
import { GateCard } from './run/GateCard';
import { initialGateEditState, useGateEditStore } from '../stores/gateEditStore';
import { PlanTreeView } from './run/PlanTree';
import { AgentsTable } from './run/AgentsPanel';
import { ModelPicker } from './start/ModelPicker';
import { NoModelsHelp } from './start/NoModelsHelp';

const RUN = '20261122T033735Z';
/** Server-rendered markup without React's text separators. */
const render = (element: ReactElement) => renderToStaticMarkup(element).replaceAll('<!-- -->', '');
let seq = 0;
const event = (type: string, data: Record<string, unknown>, role: RunLogEvent['role'] = 'engine'): RunLogEvent => ({
  ts: '2026-11-22T03:37:35.000Z',
  seq: ++seq,
  run_id: RUN,
  role,
  type,
  data,
});
const task = (id: string, title: string, dependsOn: string[] = []) => ({
  id,
  title,
  rationale: '',
  acceptance: '',
  artifacts: [],
  complexity: 'medium',
  depends_on: dependsOn,
});

describe('PlanTreeView', () => {
  it('nests sub-plans under their blocked steps down to depth 3, with status icons and dependencies', () => {
    seq = 0;
    const view = buildRunView([
      event('run_started', { goal: 'g', workflow: 'supervised', seed: '002', models: {} }),
      event(
        'plan',
        {
          plan_id: 'plan_0001',
          depth: 0,
          parent_step_id: null,
          analysis: 'top',
          tasks: [task('T1', 'Build it'), task('T2', 'Document it', ['T1'])],
        },
        'planner',
      ),
      event('step_started', { step_id: 'T1', plan_id: 'plan_0001', depth: 0 }),
      event('step_blocked', { step_id: 'T1', reason: 'out of attempts' }),
      event(
        'plan',
        {
          plan_id: 'plan_0002',
          depth: 1,
          parent_step_id: 'T1',
          analysis: 'split T1',
          tasks: [task('T1.1', 'First half'), task('T1.2', 'Second half', ['T1.1'])],
        },
        'planner',
      ),
      event('step_started', { step_id: 'T1.1', plan_id: 'plan_0002', depth: 1 }),
      event('step_blocked', { step_id: 'T1.1', reason: 'still too big' }),
      event(
        'plan',
        { plan_id: 'plan_0003', depth: 2, parent_step_id: 'T1.1', analysis: '', tasks: [task('T1.1.1', 'Smaller')] },
        'planner',
      ),
      event('step_started', { step_id: 'T1.1.1', plan_id: 'plan_0003', depth: 2 }),
      event('step_blocked', { step_id: 'T1.1.1', reason: 'again' }),
      event(
        'plan',
        {
          plan_id: 'plan_0004',
          depth: 3,
          parent_step_id: 'T1.1.1',
          analysis: '',
          tasks: [task('T1.1.1.1', 'Smallest')],
        },
        'planner',
      ),
      event('step_started', { step_id: 'T1.1.1.1', plan_id: 'plan_0004', depth: 3 }),
      event('retry', { step_id: 'T1.1.1.1', attempt: 2, feedback: 'fix_plan' }),
      event('step_completed', { step_id: 'T1.1.1.1', commits: ['abc'] }),
    ]);
    const html = render(<PlanTreeView view={view} maxAttempts={3} />);
    const order = [
      'data-plan-id="plan_0001"',
      'data-step-id="T1"',
      'data-plan-id="plan_0002"',
      'data-step-id="T1.1"',
      'data-plan-id="plan_0003"',
      'data-plan-id="plan_0004"',
      'data-step-id="T1.1.1.1"',
      'data-step-id="T1.2"',
      'data-step-id="T2"',
    ];
    const positions = order.map((marker) => html.indexOf(marker));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(html).toContain('class="plan-node depth-3"');
    expect(html).toMatch(/data-step-id="T1" data-status="blocked"/);
    expect(html).toMatch(/data-step-id="T1.1.1.1" data-status="completed"/);
    expect(html).toContain('aria-label="blocked"');
    expect(html).toContain('attempt 2/3');
    expect(html).toContain('after T1');
    expect(html).toContain('medium');
  });

  it('keeps a rejected plan under “earlier plans” when the Planner makes a new one', () => {
    seq = 0;
    const view = buildRunView([
      event(
        'plan',
        { plan_id: 'plan_0001', depth: 0, parent_step_id: null, analysis: '', tasks: [task('T1', 'Old')] },
        'planner',
      ),
      event('gate_opened', { gate_id: 'plan-1-plan_0001', kind: 'plan', step_id: null, mode: 'auto' }),
      event(
        'gate_closed',
        { gate_id: 'plan-1-plan_0001', gate: 'plan', approved: false, by: 'supervisor' },
        'supervisor',
      ),
      event(
        'plan',
        { plan_id: 'plan_0002', depth: 0, parent_step_id: null, analysis: '', tasks: [task('T1', 'New')] },
        'planner',
      ),
    ]);
    const html = render(<PlanTreeView view={view} maxAttempts={null} />);
    expect(html.indexOf('plan_0002')).toBeLessThan(html.indexOf('1 earlier plan'));
    expect(html).toContain('rejected');
  });
});

describe('tokens and time per step and per run', () => {
  it("shows each step's calls, tokens (cached among them) and time, and the run's totals under the agents", () => {
    seq = 0;
    const at = (second: number) => `2026-11-22T03:37:${String(second).padStart(2, '0')}.000Z`;
    const timed = (second: number, ...args: Parameters<typeof event>) => ({ ...event(...args), ts: at(second) });
    const view = buildRunView([
      timed(0, 'run_started', { goal: 'g', workflow: 'dev-agent', seed: '001', models: {} }),
      timed(
        1,
        'plan',
        { plan_id: 'plan_0001', depth: 0, parent_step_id: null, analysis: '', tasks: [task('T1', 'Fix it')] },
        'planner',
      ),
      timed(2, 'step_started', { step_id: 'T1', plan_id: 'plan_0001', depth: 0 }),
      timed(2, 'agent_call', { purpose: 'code', model: 'llama:/m.gguf', step_id: 'T1', call: 1 }, 'coder'),
      timed(12, 'agent_raw', { purpose: 'code', raw: 'not json' }, 'coder'),
      timed(
        12,
        'agent_failed',
        {
          purpose: 'code',
          reason: 'INVALID_OUTPUT: not JSON',
          usage: { prompt_tokens: 8000, completion_tokens: 100, cached_tokens: 0 },
          calls: 2,
        },
        'coder',
      ),
      timed(13, 'agent_call', { purpose: 'code', model: 'llama:/m.gguf', step_id: 'T1', call: 2 }, 'coder'),
      timed(
        20,
        'agent_output',
        {
          purpose: 'code',
          output: {},
          usage: { prompt_tokens: 8200, completion_tokens: 300, cached_tokens: 7900 },
          calls: 1,
          call: 2,
        },
        'coder',
      ),
      timed(25, 'step_completed', { step_id: 'T1', commits: ['abc'] }),
      timed(26, 'agent_call', { purpose: 'review_goal', model: 'llama:/m.gguf', step_id: null, call: 3 }, 'supervisor'),
      timed(
        30,
        'agent_output',
        {
          purpose: 'review_goal',
          output: {},
          usage: { prompt_tokens: 3000, completion_tokens: 40 },
          calls: 1,
          call: 3,
        },
        'supervisor',
      ),
    ]);
    expect(view.steps['plan_0001/T1']?.spend).toMatchObject({
      calls: 3,
      promptTokens: 16_200,
      cachedTokens: 7900,
      generatedTokens: 400,
      callMs: 17_000,
      estimated: false,
    });
    expect(view.agents.coder).toMatchObject({ calls: 3, failures: 1, cachedTokens: 7900 });
    const plan = render(<PlanTreeView view={view} maxAttempts={3} />);
    expect(plan).toContain('3 calls · 16.2k in (7900 cached) · 400 out · model 17 s · 23 s in all');
    const agents = render(<AgentsTable agents={view.agents} activeRole={null} rates={{}} elapsedMs={31_000} />);
    const total = /<tr class="agents-total"[^>]*>(.*?)<\/tr>/.exec(agents)?.[1] ?? '';
    expect(
      total
        .replace(/<[^>]+>/g, '|')
        .split('|')
        .filter(Boolean),
    ).toEqual(['run', '4', '19.2k', '7900', '440', '21 s / 31 s']);
  });
});

describe('GateCard', () => {
  const view = buildRunView(recordedLog('devAgentHumanGates').filter((entry) => entry.seq <= 28));
  const pending = view.gates['step-1-T1'];
  const supervised = buildRunView(recordedLog('supervised')).gates['plan-1-plan_0001'];

  it('offers Approve and Reject-with-comment on a pending human gate, with their shortcuts', () => {
    if (!pending) throw new Error('fixture changed');
    const html = render(<GateCard repo="/r" runId={RUN} gate={pending} actionable />);
    expect(html).toContain('data-testid="pending-gate"');
    expect(html).toContain('waiting for you');
    expect(html).toContain('aria-keyshortcuts="A"');
    expect(html).toContain('aria-keyshortcuts="R"');
    expect(html).toContain('Comment for the agent');
    expect(html).toContain('Human gate: no Supervisor review');
  });

  it('offers no "Approve with my edits" before the person has edited the change', () => {
    if (!pending) throw new Error('fixture changed');
    // Server rendering reads a store's initial state, so the offer itself is covered by editableGate.test.ts.
    useGateEditStore.setState(initialGateEditState);
    expect(render(<GateCard repo="/r" runId={RUN} gate={pending} actionable />)).not.toContain('Approve with my edits');
  });

  it('shows a Supervisor verdict read-only: score, threshold, feedback, who decided', () => {
    if (!supervised) throw new Error('fixture changed');
    const html = render(<GateCard repo="/r" runId={RUN} gate={supervised} />);
    expect(html).toContain('>86</span>');
    expect(html).toContain('gate threshold 70');
    expect(html).toContain('Actionable steps, T2 correctly depends on T1.');
    expect(html).toContain('decided by supervisor');
    expect(html).not.toContain('Approve');
  });
});

describe('ModelPicker', () => {
  const base: ModelEntryView = {
    path: '/m/qwen.gguf',
    fileName: 'qwen.gguf',
    status: 'ok',
    reason: null,
    sizeBytes: 1_117_320_736,
    name: 'Qwen2.5 Coder 1.5B',
    architecture: 'qwen2',
    parameters: 1.5e9,
    quantization: 'Q4_K_M',
    contextLength: 32768,
    chatTemplate: null,
    fitsInMemory: true,
  };
  const models: ModelEntryView[] = [
    base,
    { ...base, path: '/m/huge.gguf', fileName: 'huge.gguf', name: 'Huge 70B', sizeBytes: 42e9, fitsInMemory: false },
    {
      ...base,
      path: '/m/half.gguf',
      fileName: 'half.gguf',
      status: 'rejected',
      reason: 'truncated: an unfinished download?',
    },
  ];

  it('lists name, size, quantization and context; rejected files are disabled with their reason; too-big ones are flagged', () => {
    const html = render(
      <ModelPicker label="Every role" models={models} value="" onChange={() => {}} emptyLabel="Choose…" />,
    );
    expect(html).toContain('Qwen2.5 Coder 1.5B · 1.0 GiB · Q4_K_M · 32,768 ctx');
    expect(html).toContain('Huge 70B');
    expect(html).toContain('too big for this machine');
    expect(html).toMatch(
      /<option value="rejected:\/m\/half.gguf" disabled="">half.gguf — cannot be used: truncated: an unfinished download\?<\/option>/,
    );
    expect(html).toContain('Custom spec…');
  });

  it('warns under the picker when the chosen model may not fit in memory', () => {
    const html = render(
      <ModelPicker label="Coder" models={models} value="llama:/m/huge.gguf" onChange={() => {}} emptyLabel="Same" />,
    );
    expect(html).toContain('may not fit in this machine');
  });

  it('shows a custom spec in its own field, with a shape problem', () => {
    const html = render(<ModelPicker label="Coder" models={[]} value="gpt-4" onChange={() => {}} emptyLabel="Same" />);
    expect(html).toContain('value="gpt-4"');
    expect(html).toContain('Use llama:PATH.gguf');
  });
});

describe('NoModelsHelp', () => {
  it('names the folders Lathe looked in', () => {
    const html = render(<NoModelsHelp folders={['/home/u/.lathe/models', '/data/models']} rejected={1} />);
    expect(html).toContain('No usable GGUF model found');
    expect(html).toContain('/home/u/.lathe/models');
    expect(html).toContain('1 file could not be used');
    expect(html).toContain('How to add a model');
  });
});

describe('CallRecordView', () => {
  it('shows a call’s messages with the human’s and the Supervisor’s words marked, its context by path, and its answer', () => {
    const part = (source: CallPart['source'], text: string, extra: Partial<CallPart> = {}): CallPart => ({
      source,
      field: null,
      gate: null,
      path: null,
      kind: null,
      text,
      cut: 0,
      ...extra,
    });
    const record: AgentCallRecord = {
      version: 1,
      call: 4,
      role: 'coder',
      purpose: 'code',
      step_id: 'T1',
      model: 'replay:x.json',
      messages: [
        { role: 'system', parts: [part('prompt', 'You are the Coder.')] },
        {
          role: 'user',
          parts: [
            part('input', 'Input:\n{"feedback": "(shown below, by origin)"}'),
            part('human', 'User: also document both functions', { field: 'feedback', gate: 'step' }),
            part('supervisor', 'Supervisor score 40: README is missing', { field: 'feedback', gate: 'step' }),
          ],
        },
      ],
      context: [part('context', 'export function median() {}', { path: 'src/stats.js', kind: 'file', cut: 12 })],
      context_dropped: [],
      answer: { outcome: 'output', raw: '{"edits":[]}', cut: 0, code: null, message: null },
      attempts: [
        {
          ok: true,
          code: null,
          message: null,
          usage: { prompt_tokens: 10, cached_tokens: 0, completion_tokens: 2, estimated: false },
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 2, cached_tokens: 0, estimated: false },
    };
    const html = render(<CallRecordView record={record} />);
    const marked = [
      ...html.matchAll(
        /<div class="call-part origin-(\w+)" data-testid="call-origin-part"><p class="call-origin">([^<]+)<\/p><pre class="call-text">([^<]+)</g,
      ),
    ].map((match) => [match[1], match[2], match[3]]);
    expect(marked).toEqual([
      ['human', 'from the human&#x27;s rejection at the step gate', 'User: also document both functions'],
      ['supervisor', 'from the Supervisor&#x27;s verdict at the step gate', 'Supervisor score 40: README is missing'],
    ]);
    expect(html).toContain('<span class="mono">src/stats.js</span>');
    expect(html).toContain('… (12 more characters not recorded)');
    expect(html).toContain('answer · output');
    expect(html).toContain('{&quot;edits&quot;:[]}');
    expect(html.indexOf('system prompt')).toBeLessThan(html.indexOf('call-origin'));
  });
});
