import { beforeEach, describe, expect, it } from 'vitest';
import { buildRunView } from '../../../shared/runView/reduceRunEvents';
import type { RunView } from '../../../shared/runView/types';
import { editedText, editsFor, initialGateEditState, useGateEditStore } from '../stores/gateEditStore';
import { editableGate } from './editableGate';
import { recordedLog } from './fixtures/loadLog';

const recorded = buildRunView(recordedLog('supervised'));
/** The recorded run as it was while one gate waited for the person. */
function pendingAt(gateId: string): RunView {
  const gate = recorded.gates[gateId];
  if (!gate) throw new Error(`no gate ${gateId}`);
  return { ...recorded, gates: { [gateId]: { ...gate, status: 'pending' } } };
}
const codeRange = 'e7be2d0c88605b6386dc8acc5308a06e5544042b';

describe('editableGate', () => {
  it("makes the pending code gate's own edit set editable, and nothing else", () => {
    expect(editableGate(pendingAt('code-2-T1'), codeRange)).toEqual({ gateId: 'code-2-T1' });
    expect(editableGate(pendingAt('code-2-T1'), 'all')).toBeNull();
    // Decided gates and plan gates have nothing to edit.
    expect(editableGate(recorded, codeRange)).toBeNull();
    expect(editableGate(pendingAt('plan-1-plan_0001'), codeRange)).toBeNull();
  });
});

describe('gate edits', () => {
  beforeEach(() => useGateEditStore.setState(initialGateEditState));

  it('keeps only files whose text differs from the gate’s, for the gate they were made at', () => {
    const store = useGateEditStore.getState();
    store.edit('code-2-T1', 'src/stats.js', 'a\n', 'b\n');
    store.edit('code-2-T1', 'README.md', 'r\n', 'r2\n');
    store.edit('code-2-T1', 'README.md', 'r2\n', 'r\n');
    const state = useGateEditStore.getState();
    expect(editsFor(state, 'code-2-T1')).toEqual([{ path: 'src/stats.js', content: 'b\n' }]);
    expect(editedText(state, 'code-2-T1', 'src/stats.js')).toBe('b\n');
    expect(editsFor(state, 'step-3-T1')).toEqual([]);
    // Another gate's first edit drops the old gate's edits.
    store.edit('step-3-T1', 'src/stats.js', 'a\n', 'c\n');
    expect(editsFor(useGateEditStore.getState(), 'code-2-T1')).toEqual([]);
    useGateEditStore.getState().discard();
    expect(editsFor(useGateEditStore.getState(), 'step-3-T1')).toEqual([]);
  });
});
