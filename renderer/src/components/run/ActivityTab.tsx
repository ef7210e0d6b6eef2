import type { RunView } from '../../../../shared/runView/types';
import { useLiveStore } from '../../stores/liveStore';
import { useRunViewStore } from '../../stores/runViewStore';
import { ActiveAgent, ModelLoadBar } from './ActiveAgent';
import { AgentCalls } from './AgentCalls';
import { ContextCalls } from './ContextCalls';
import { statusLabel } from './StatusBadge';

/** Where the run stands, in numbers: steps, commits, tests, gates. */
function RunFacts({ view }: { view: RunView }) {
  const root = view.plans[view.rootPlanIds.at(-1) ?? ''];
  const steps = root ? root.stepKeys.map((key) => view.steps[key]).filter((step) => step !== undefined) : [];
  const lastTest = view.tests.at(-1);
  const gates = view.gateOrder.map((id) => view.gates[id]).filter((gate) => gate !== undefined);
  return (
    <dl className="facts run-facts" data-testid="run-facts">
      <dt>Steps</dt>
      <dd>
        {steps.filter((step) => step.status === 'completed').length} of {steps.length} completed
        {steps.some((step) => step.status === 'failed')
          ? `, ${steps.filter((step) => step.status === 'failed').length} failed`
          : ''}
      </dd>
      <dt>Commits</dt>
      <dd>
        {view.commits.length - view.rolledBack.length}
        {view.rolledBack.length > 0 ? ` (${view.rolledBack.length} rolled back)` : ''}
      </dd>
      <dt>Last tests</dt>
      <dd>
        {lastTest
          ? `${lastTest.status}${lastTest.counts ? ` · ${lastTest.counts.passed} passed, ${lastTest.counts.failed} failed` : ''}`
          : 'none yet'}
      </dd>
      <dt>Gates</dt>
      <dd>
        {gates.filter((gate) => gate.status === 'approved').length} approved,{' '}
        {gates.filter((gate) => gate.status === 'rejected').length} rejected
        {gates.some((gate) => gate.decidedBy === 'user')
          ? ` (${gates.filter((gate) => gate.decidedBy === 'user').length} by you)`
          : ''}
      </dd>
    </dl>
  );
}

/** The agent at work with its live token stream, model loading, and how the run ended. */
export function ActivityTab({ repo, runId }: { repo: string; runId: string }) {
  const active = useRunViewStore((state) => state.view.active);
  const view = useRunViewStore((state) => state.view);
  const runActive = useRunViewStore((state) => state.active);
  const dropped = useLiveStore((state) => state.droppedContext);

  return (
    <div className="activity" data-testid="activity">
      {runActive && <ModelLoadBar />}
      {active ? <ActiveAgent active={active} runActive={runActive} /> : <IdleAgent view={view} runActive={runActive} />}
      {dropped.length > 0 && (
        <ul className="dropped small">
          {dropped.map((entry, index) => (
            <li key={`${entry.role}-${index}`} className="warning-text">
              Context dropped for {entry.role}: {entry.ids.join(', ')} ({entry.reason})
            </li>
          ))}
        </ul>
      )}
      <AgentCalls repo={repo} runId={runId} />
      <ContextCalls />
    </div>
  );
}

/** No agent at work: how the run ended or stopped, or what it waits for; and where it stands. */
function IdleAgent({ view, runActive }: { view: RunView; runActive: boolean }) {
  const { outcome, stopped, status } = view;
  return (
    <div className="idle" data-testid="idle-agent">
      {outcome ? (
        <p className={`outcome outcome-${outcome.status}`}>
          Run {statusLabel(outcome.status)}:{' '}
          {outcome.code && !outcome.reason.startsWith(outcome.code) ? `${outcome.code}: ` : ''}
          {outcome.reason}
        </p>
      ) : stopped ? (
        <p className="outcome outcome-stopped">
          Run {statusLabel(stopped.status, true)}: {stopped.reason}. Resume continues from where it stopped
          {stopped.status === 'paused' ? ' (the step it finished is kept)' : ' (an interrupted step is done again)'}.
        </p>
      ) : status === 'waiting_for_gate' ? (
        <p>The run waits for your decision on the gate above.</p>
      ) : (
        <p className="muted">
          {runActive ? 'Between agents: the engine is applying, committing or running tests.' : 'No agent is working.'}
        </p>
      )}
      {view.runId && <RunFacts view={view} />}
    </div>
  );
}
