const LABELS: Record<string, string> = {
  running: 'running',
  paused: 'paused',
  waiting_for_gate: 'waiting for you',
  complete: 'complete',
  failed: 'failed',
  stuck: 'stuck',
  aborted: 'stopped',
  time_expired: 'time expired',
};

export function StatusBadge({ status, testId }: { status: string | null; testId?: string }) {
  const value = status ?? 'unknown';
  return (
    <span className={`status status-${value}`} data-testid={testId} data-status={value}>
      {LABELS[value] ?? value}
    </span>
  );
}
