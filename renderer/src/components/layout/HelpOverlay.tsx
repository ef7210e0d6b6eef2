import { useUiStore } from '../../stores/uiStore';
import { Modal } from './Modal';

const SHORTCUTS: [string, string][] = [
  ['Ctrl/⌘ + Enter', 'Start the run (in the goal box)'],
  ['A', 'Approve the pending gate'],
  ['R', 'Reject the pending gate: focuses the comment box'],
  ['Ctrl/⌘ + Enter', 'Send the rejection (in the comment box)'],
  ['?', 'Show or hide this help'],
  ['Esc', 'Close a dialog'],
];

export function HelpOverlay() {
  const open = useUiStore((state) => state.helpOpen);
  const setOpen = useUiStore((state) => state.setHelpOpen);
  if (!open) return null;
  return (
    <Modal
      title="Keyboard shortcuts"
      onClose={() => setOpen(false)}
      actions={
        <button type="button" onClick={() => setOpen(false)}>
          Close
        </button>
      }
    >
      <table className="shortcuts">
        <tbody>
          {SHORTCUTS.map(([keys, action]) => (
            <tr key={`${keys}-${action}`}>
              <th scope="row">
                <kbd>{keys}</kbd>
              </th>
              <td>{action}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">Letter shortcuts work when no text field has the focus.</p>
    </Modal>
  );
}
