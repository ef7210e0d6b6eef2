import type { PendingGate } from '../../../shared/engine/runState';
import { LatheError } from '../../../shared/errors';
import { gateNeedsUser, type GateDecision } from '../engine/runSession';
import type { CliIo } from './command';

/** `--gates human` on a terminal: y approves, n rejects, anything else rejects with it as the comment. */
export function terminalGateDecider(io: CliIo, approveAll: boolean) {
  return async (gate: PendingGate): Promise<GateDecision> => {
    const verdict = gate.verdict
      ? ` Supervisor: ${gate.verdict.approved ? 'approve' : 'reject'}, score ${gate.verdict.score}/${gate.threshold} — ${gate.verdict.feedback}`
      : gate.unreviewed
        ? ` The Supervisor could not review it (${gate.unreviewed}).`
        : '';
    // --yes approves the gates the Supervisor reviewed; one it could not review, or one changing existing tests, is never passed unseen.
    if (approveAll && !gate.unreviewed && gate.test_files.length === 0) {
      io.out(`    gate ${gate.kind}${gate.step_id ? ` (${gate.step_id})` : ''}: approved (--yes).${verdict}`);
      return { approved: true, comment: null };
    }
    if (!io.ask)
      throw new LatheError(
        'GATE_NEEDS_USER',
        gate.unreviewed || gate.test_files.length > 0
          ? `${gateNeedsUser(gate)}: resume the run on a terminal to decide`
          : `the ${gate.kind} gate needs a decision: rerun with a terminal, or --yes`,
      );
    if (gate.test_files.length > 0)
      io.out(
        `    this change modifies existing tests: ${gate.test_files.join(', ')} — approving it approves those test changes.`,
      );
    io.out(`    gate ${gate.kind}${gate.step_id ? ` (${gate.step_id})` : ''} is waiting for you.${verdict}`);
    for (;;) {
      const answer = await io.ask('    approve? [y]es / [n]o / or type a comment to reject with: ');
      if (answer === null)
        throw new LatheError('GATE_NEEDS_USER', 'no answer (input closed); the run stays resumable at this gate');
      const text = answer.trim();
      if (/^(y|yes)$/i.test(text)) return { approved: true, comment: null };
      if (/^(n|no)$/i.test(text)) return { approved: false, comment: null };
      if (text.length > 0) return { approved: false, comment: text };
    }
  };
}
