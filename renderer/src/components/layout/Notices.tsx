import { useEffect } from 'react';
import { useUiStore } from '../../stores/uiStore';

/** Short confirmations and errors of actions (undo, merge, export…), announced politely. */
export function Notices() {
  const notices = useUiStore((state) => state.notices);
  const dismiss = useUiStore((state) => state.dismiss);
  useEffect(() => {
    const timers = notices
      .filter((notice) => notice.tone !== 'error')
      .map((notice) => setTimeout(() => dismiss(notice.id), 5000));
    return () => timers.forEach(clearTimeout);
  }, [notices, dismiss]);
  return (
    <div className="notices" role="status" aria-live="polite" data-testid="notices">
      {notices.map((notice) => (
        <div key={notice.id} className={`notice notice-${notice.tone}`}>
          <span>{notice.text}</span>
          <button type="button" className="link-button" onClick={() => dismiss(notice.id)} aria-label="Dismiss">
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
