import { useRunViewStore } from '../../stores/runViewStore';
import { stepSpendText } from '../../../../shared/runView/spendText';
import type { PlanView, RunView, StepStatus, StepView } from '../../../../shared/runView/types';

const STEP_ICONS: Record<StepStatus, { icon: string; label: string }> = {
  pending: { icon: '○', label: 'pending' },
  in_progress: { icon: '◐', label: 'in progress' },
  completed: { icon: '✔', label: 'completed' },
  failed: { icon: '✖', label: 'failed' },
  blocked: { icon: '⛔', label: 'blocked' },
  stopped: { icon: '⏸', label: 'stopped' },
};

const PLAN_LABELS: Record<PlanView['status'], string> = {
  proposed: 'proposed',
  in_review: 'in review',
  approved: 'approved',
  rejected: 'rejected',
  in_progress: 'in progress',
  completed: 'completed',
  failed: 'failed',
};

/** The plan as a tree: steps with status, complexity and dependencies; sub-plans under their step. */
export function PlanTree() {
  const view = useRunViewStore((state) => state.view);
  const maxAttempts = useRunViewStore((state) => state.state?.config.limits.max_attempts_per_task ?? null);
  return <PlanTreeView view={view} maxAttempts={maxAttempts} />;
}

export function PlanTreeView({ view, maxAttempts }: { view: RunView; maxAttempts: number | null }) {
  const current = view.rootPlanIds.at(-1);
  const earlier = view.rootPlanIds.slice(0, -1);
  return (
    <section className="panel plan-panel" aria-labelledby="plan-heading" data-testid="plan-tree">
      <h3 id="plan-heading">Plan</h3>
      {!current ? (
        <p className="muted small">{view.status ? 'No plan yet.' : '…'}</p>
      ) : (
        <>
          <PlanNode view={view} planId={current} maxAttempts={maxAttempts} />
          {earlier.length > 0 && (
            <details className="earlier-plans">
              <summary>
                {earlier.length} earlier plan{earlier.length === 1 ? '' : 's'}
              </summary>
              {earlier.map((planId) => (
                <PlanNode key={planId} view={view} planId={planId} maxAttempts={maxAttempts} superseded />
              ))}
            </details>
          )}
        </>
      )}
    </section>
  );
}

function PlanNode({
  view,
  planId,
  maxAttempts,
  superseded = false,
}: {
  view: RunView;
  planId: string;
  maxAttempts: number | null;
  superseded?: boolean;
}) {
  const plan = view.plans[planId];
  if (!plan) return null;
  return (
    <div className={`plan-node depth-${plan.depth}`} data-plan-id={plan.planId}>
      <div className="plan-header">
        <span className="mono small">{plan.planId}</span>
        {plan.depth > 0 && <span className="muted small"> · sub-plan depth {plan.depth}</span>}
        <span className={`plan-status plan-status-${plan.status}`}>
          {superseded && plan.status === 'failed' ? 'superseded' : PLAN_LABELS[plan.status]}
        </span>
      </div>
      {plan.analysis && <p className="plan-analysis small">{plan.analysis}</p>}
      <ul
        className="plan-steps"
        role={plan.depth === 0 ? 'tree' : 'group'}
        aria-label={plan.depth === 0 ? `Steps of ${plan.planId}` : undefined}
      >
        {plan.stepKeys.map((key) => {
          const step = view.steps[key];
          return step ? (
            <StepNode
              key={key}
              view={view}
              step={step}
              current={view.currentStepId === step.id && step.status === 'in_progress'}
              maxAttempts={maxAttempts}
            />
          ) : null;
        })}
      </ul>
    </div>
  );
}

function StepNode({
  view,
  step,
  current,
  maxAttempts,
}: {
  view: RunView;
  step: StepView;
  current: boolean;
  maxAttempts: number | null;
}) {
  const icon = STEP_ICONS[step.status];
  const spend = stepSpendText(step.spend, view.lastTs);
  return (
    <li
      role="treeitem"
      aria-selected={current}
      aria-expanded={step.subPlanIds.length > 0 ? true : undefined}
      className={`step step-${step.status}${current ? ' step-current' : ''}`}
      data-step-id={step.id}
      data-status={step.status}
    >
      <details>
        <summary>
          <span className={`step-icon step-icon-${step.status}`} role="img" aria-label={icon.label} title={icon.label}>
            {icon.icon}
          </span>
          <span className="step-id mono">{step.id}</span>
          <span className="step-title">{step.title}</span>
          <StepChips step={step} maxAttempts={maxAttempts} spend={spend} />
        </summary>
        <StepDetails step={step} />
      </details>
      {step.subPlanIds.map((planId) => (
        <PlanNode key={planId} view={view} planId={planId} maxAttempts={maxAttempts} />
      ))}
    </li>
  );
}

/** What a step's line says at a glance: complexity, order, attempts, commits, what it cost. */
function StepChips({ step, maxAttempts, spend }: { step: StepView; maxAttempts: number | null; spend: string | null }) {
  return (
    <span className="step-chips">
      {step.complexity && <span className={`chip complexity-${step.complexity}`}>{step.complexity}</span>}
      {step.dependsOn.length > 0 && (
        <span className="chip chip-muted" title="runs after">
          after {step.dependsOn.join(', ')}
        </span>
      )}
      {step.attempts > 1 && (
        <span className="chip chip-warn" title="attempts">
          attempt {step.attempts}
          {maxAttempts ? `/${maxAttempts}` : ''}
        </span>
      )}
      {step.commits.length > 0 && (
        <span className="chip chip-muted">
          {step.commits.length} commit{step.commits.length === 1 ? '' : 's'}
        </span>
      )}
      {spend && (
        <span
          className="chip chip-muted step-spend"
          data-testid="step-spend"
          title="model calls, prompt tokens (of which served from the reused KV cache), generated tokens, model time and the step's time; ~ marks estimated counts"
        >
          {spend}
        </span>
      )}
    </span>
  );
}

/** The step as planned, opened under its line: why, when it is done, its files, and why it failed. */
function StepDetails({ step }: { step: StepView }) {
  return (
    <dl className="step-details small">
      {step.rationale && (
        <>
          <dt>Why</dt>
          <dd>{step.rationale}</dd>
        </>
      )}
      {step.acceptance && (
        <>
          <dt>Done when</dt>
          <dd>{step.acceptance}</dd>
        </>
      )}
      {step.artifacts.length > 0 && (
        <>
          <dt>Files</dt>
          <dd className="mono">{step.artifacts.join(', ')}</dd>
        </>
      )}
      {step.failReason && (
        <>
          <dt>Reason</dt>
          <dd>{step.failReason}</dd>
        </>
      )}
    </dl>
  );
}
