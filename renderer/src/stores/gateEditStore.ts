import { create } from 'zustand';
import type { UserFileEdit } from '../../../shared/engine/userEdit';

interface EditedFile {
  /** The text the gate proposed: an edit back to it is no edit. */
  original: string;
  content: string;
}

interface GateEditState {
  /** The pending gate the edits are for; edits for another gate are dropped when this changes. */
  gateId: string | null;
  files: Record<string, EditedFile>;
  edit(gateId: string, path: string, original: string, content: string): void;
  discard(): void;
}

export const initialGateEditState = { gateId: null, files: {} };

/**
 * The person's edits to the modified side of a gate's diff, kept while they move between files, until
 * they approve with them or discard them. Only the pending gate's: a decided gate's edits mean nothing.
 */
export const useGateEditStore = create<GateEditState>()((set, get) => ({
  ...initialGateEditState,
  edit: (gateId, path, original, content) => {
    const files = get().gateId === gateId ? { ...get().files } : {};
    // The first original stands: the text the gate proposed, whatever the caller holds now.
    const proposed = files[path]?.original ?? original;
    if (content === proposed) delete files[path];
    else files[path] = { original: proposed, content };
    set({ gateId, files });
  },
  discard: () => set(initialGateEditState),
}));

/** The edits to send with "Approve with my edits": the changed files of that gate, in path order. */
export function editsFor(state: Pick<GateEditState, 'gateId' | 'files'>, gateId: string): UserFileEdit[] {
  if (state.gateId !== gateId) return [];
  return Object.entries(state.files)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, file]) => ({ path, content: file.content }));
}

/** What the editor shows for a file: the person's text when they edited it, else the gate's. */
export function editedText(
  state: Pick<GateEditState, 'gateId' | 'files'>,
  gateId: string,
  path: string,
): string | null {
  return state.gateId === gateId ? (state.files[path]?.content ?? null) : null;
}
