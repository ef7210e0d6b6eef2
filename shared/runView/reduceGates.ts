import type { RunEvent, RunEventOf } from '../engine/readRunEvent';
import type { Verdict } from '../engine/runState';
import { currentRootPlanId, setPlanStatus } from './reducePlans';
import type { GateView, RunView, VerdictView } from './types';

/** Gate events; `view` is a draft whose containers were copied by the caller. */

type GateEvent = RunEventOf<
  'gate_opened' | 'verdict' | 'gate_pending' | 'gate_decided' | 'gate_closed' | 'gate_unreviewed' | 'gate_fallback'
>;

function blankGate(gateId: string, event: GateEvent): GateView {
  const { data } = event;
  return {
    gateId,
    kind:
      ('kind' in data ? data.kind : undefined) ??
      ('gate' in data ? data.gate : undefined) ??
      gateId.split('-')[0] ??
      'gate',
    stepId: ('step_id' in data ? data.step_id : undefined) ?? null,
    mode: ('mode' in data ? data.mode : undefined) ?? 'auto',
    status: 'open',
    verdict: null,
    decidedBy: null,
    comment: null,
    editedFeedback: null,
    fallback: false,
    unreviewed: null,
    testFiles: [],
    unrelated: [],
    openedSeq: event.seq,
    openedTs: event.ts,
  };
}

function updateGate(view: RunView, event: GateEvent, change: (gate: GateView) => GateView): GateView | null {
  const gateId = event.data.gate_id;
  if (!gateId) return null;
  const existing = view.gates[gateId];
  if (!existing) view.gateOrder = [...view.gateOrder, gateId];
  const next = change(existing ?? blankGate(gateId, event));
  view.gates[gateId] = next;
  return next;
}

function verdictFrom(
  data: Partial<Verdict> & { threshold?: number; escalation?: string | null; consecutive_issues?: number | null },
  threshold: number | null,
  escalation: string | null,
): VerdictView | null {
  const { score } = data;
  if (score === undefined) return null;
  return {
    approved: data.approved ?? false,
    score,
    threshold: data.threshold ?? threshold ?? 0,
    issues: data.issues ?? [],
    feedback: data.feedback ?? '',
    escalation: data.escalation ?? escalation,
    consecutiveIssues: data.consecutive_issues ?? null,
  };
}

export function applyGateEvent(view: RunView, event: RunEvent): void {
  switch (event.type) {
    case 'gate_opened': {
      const gate = updateGate(view, event, (current) => ({
        ...current,
        mode: event.data.mode ?? current.mode,
        status: 'open',
        testFiles: event.data.test_files ?? [],
        unrelated: event.data.unrelated ?? [],
      }));
      if (gate?.kind === 'plan') setPlanStatus(view, currentRootPlanId(view), 'in_review');
      return;
    }
    case 'verdict':
      updateGate(view, event, (gate) => ({ ...gate, verdict: verdictFrom(event.data, null, null) ?? gate.verdict }));
      return;
    case 'gate_pending': {
      const saved = event.data.verdict;
      updateGate(view, event, (gate) => ({
        ...gate,
        status: 'pending',
        testFiles: event.data.test_files ?? gate.testFiles,
        unrelated: event.data.unrelated ?? gate.unrelated,
        verdict:
          gate.verdict ??
          (saved ? verdictFrom(saved, event.data.threshold ?? null, event.data.escalation ?? null) : null),
      }));
      view.status = 'waiting_for_gate';
      return;
    }
    case 'gate_decided':
      updateGate(view, event, (gate) => ({
        ...gate,
        decidedBy: 'user',
        comment: event.data.comment ?? null,
        editedFeedback: event.data.edited_feedback ?? null,
      }));
      view.status = 'running';
      return;
    case 'gate_closed': {
      const approved = event.data.approved === true;
      const gate = updateGate(view, event, (current) => ({
        ...current,
        status: approved ? 'approved' : 'rejected',
        decidedBy: event.data.by ?? current.decidedBy,
      }));
      if (gate?.kind === 'plan') setPlanStatus(view, currentRootPlanId(view), approved ? 'approved' : 'rejected');
      return;
    }
    case 'gate_unreviewed':
      updateGate(view, event, (gate) => ({ ...gate, unreviewed: event.data.reason ?? 'the Supervisor failed' }));
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
