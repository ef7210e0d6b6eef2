import type { RunLogEvent } from '../../../shared/schemas/run';
import { bool, num, record, str, strList } from './eventData';
import { currentRootPlanId, setPlanStatus } from './reducePlans';
import type { GateView, RunView, VerdictView } from './types';

/** Gate events; `view` is a draft whose containers were copied by the caller. */

function blankGate(gateId: string, event: RunLogEvent): GateView {
  return {
    gateId,
    kind: str(event.data, 'kind') ?? str(event.data, 'gate') ?? gateId.split('-')[0] ?? 'gate',
    stepId: str(event.data, 'step_id'),
    mode: str(event.data, 'mode') ?? 'auto',
    status: 'open',
    verdict: null,
    decidedBy: null,
    comment: null,
    editedFeedback: null,
    fallback: false,
    unreviewed: null,
    openedSeq: event.seq,
    openedTs: event.ts,
  };
}

function updateGate(view: RunView, event: RunLogEvent, change: (gate: GateView) => GateView): GateView | null {
  const gateId = str(event.data, 'gate_id');
  if (!gateId) return null;
  const existing = view.gates[gateId];
  if (!existing) view.gateOrder = [...view.gateOrder, gateId];
  const next = change(existing ?? blankGate(gateId, event));
  view.gates[gateId] = next;
  return next;
}

function verdictFrom(data: Record<string, unknown>, threshold: number | null, escalation: string | null): VerdictView | null {
  const score = num(data, 'score');
  if (score === null) return null;
  return {
    approved: bool(data, 'approved') ?? false,
    score,
    threshold: num(data, 'threshold') ?? threshold ?? 0,
    issues: strList(data, 'issues'),
    feedback: str(data, 'feedback') ?? '',
    escalation: str(data, 'escalation') ?? escalation,
    consecutiveIssues: num(data, 'consecutive_issues'),
  };
}

export function applyGateEvent(view: RunView, event: RunLogEvent): void {
  switch (event.type) {
    case 'gate_opened': {
      const gate = updateGate(view, event, (current) => ({ ...current, mode: str(event.data, 'mode') ?? current.mode, status: 'open' }));
      if (gate?.kind === 'plan') setPlanStatus(view, currentRootPlanId(view), 'in_review');
      return;
    }
    case 'verdict':
      updateGate(view, event, (gate) => ({ ...gate, verdict: verdictFrom(event.data, null, null) ?? gate.verdict }));
      return;
    case 'gate_pending': {
      const saved = record(event.data.verdict);
      updateGate(view, event, (gate) => ({
        ...gate,
        status: 'pending',
        verdict: gate.verdict ?? (saved ? verdictFrom(saved, num(event.data, 'threshold'), str(event.data, 'escalation')) : null),
      }));
      view.status = 'waiting_for_gate';
      return;
    }
    case 'gate_decided':
      updateGate(view, event, (gate) => ({
        ...gate,
        decidedBy: 'user',
        comment: str(event.data, 'comment'),
        editedFeedback: str(event.data, 'edited_feedback'),
      }));
      view.status = 'running';
      return;
    case 'gate_closed': {
      const approved = event.data.approved === true;
      const gate = updateGate(view, event, (current) => ({ ...current, status: approved ? 'approved' : 'rejected', decidedBy: str(event.data, 'by') ?? current.decidedBy }));
      if (gate?.kind === 'plan') setPlanStatus(view, currentRootPlanId(view), approved ? 'approved' : 'rejected');
      return;
    }
    case 'gate_unreviewed':
      updateGate(view, event, (gate) => ({ ...gate, unreviewed: str(event.data, 'reason') ?? 'the Supervisor failed' }));
      view.warnings += 1;
      return;
    case 'gate_fallback':
      updateGate(view, event, (gate) => ({ ...gate, fallback: true }));
      view.warnings += 1;
      return;
    default:
  }
}

/** The gate waiting for the user, if any (newest first). */
export function pendingGate(view: RunView): GateView | null {
  for (let index = view.gateOrder.length - 1; index >= 0; index -= 1) {
    const gate = view.gates[view.gateOrder[index] ?? ''];
    if (gate?.status === 'pending') return gate;
  }
  return null;
}
