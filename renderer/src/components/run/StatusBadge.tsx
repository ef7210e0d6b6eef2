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

/** What a run's status reads as: an `aborted` run that kept its phase was interrupted and can resume; one that finished was stopped for good. */
export function statusLabel(status: string | null, resumable = false): string {
  const value = status ?? 'unknown';
  if (value === 'aborted' && resumable) return 'interrupted';
  return LABELS[value] ?? value;
}

export function StatusBadge({
  status,
  testId,
  resumable = false,
}: {
  status: string | null;
  testId?: string;
  resumable?: boolean;
}) {
  const value = status ?? 'unknown';
  return (
    <span
      className={`status status-${value}`}
      data-testid={testId}
      data-status={value}
      data-resumable={resumable ? 'true' : undefined}
    >
      {statusLabel(value, resumable)}
    </span>
  );
}
