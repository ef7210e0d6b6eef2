import { useEffect } from 'react';
import { useUiStore } from '../stores/uiStore';

/** True when a key press belongs to a text field, so single-letter shortcuts must not fire. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || Boolean(target.closest('.monaco-editor'));
}

/** `?` opens the shortcut help; Escape closes it. */
export function useGlobalShortcuts(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const ui = useUiStore.getState();
      if (event.key === 'Escape' && ui.helpOpen) {
        ui.setHelpOpen(false);
        return;
      }
      if (event.key === '?' && !isTyping(event.target)) {
        event.preventDefault();
        ui.setHelpOpen(!ui.helpOpen);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
