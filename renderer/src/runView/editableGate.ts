import type { RunView } from '../../../shared/runView/types';
import { gateSubject } from './gateSubject';

/**
 * The pending code or step gate whose change the Changes tab shows at `range`, when the person may edit
 * it before approving: only the gate's own edit set (its newest commit, so its texts are the branch
 * head's), and only while the gate waits for them. The core checks the paths again.
 */
export function editableGate(view: RunView, range: string): { gateId: string } | null {
  const gate = Object.values(view.gates).find(
    (candidate) => candidate.status === 'pending' && (candidate.kind === 'code' || candidate.kind === 'step'),
  );
  if (!gate) return null;
  const subject = gateSubject(view, gate);
  if (subject?.kind !== 'change' || !subject.range || subject.range !== range) return null;
  return { gateId: gate.gateId };
}
