import { useMemo } from 'react';
import {
  AgentContextDataSchema,
  type AgentContextData,
  type ContextEntry,
} from '../../../../shared/schemas/agentContext';
import { formatCount } from '../../lib/format';
import { useRunViewStore } from '../../stores/runViewStore';

const SHOWN_CALLS = 12;

function where(entry: ContextEntry): string {
  if (entry.kind === 'map') return entry.path ? `repository map · ${entry.path}` : 'repository map';
  if (entry.kind === 'run') return `earlier run · ${entry.path}`;
  const lines = entry.lines?.map(([start, end]) => (start === end ? `${start}` : `${start}–${end}`)).join(', ');
  return lines ? `${entry.path} · lines ${lines}` : entry.path;
}

function EntryList({ entries, label }: { entries: ContextEntry[]; label: string }) {
  if (entries.length === 0) return null;
  return (
    <>
      <h5>{label}</h5>
      <ul className="context-entries">
        {entries.map((entry) => (
          <li key={`${label}-${entry.id}`}>
            <span className={`chip context-kind-${entry.kind}`}>{entry.kind}</span>{' '}
            <span className="mono">{where(entry)}</span>{' '}
            <span className="muted small">
              {formatCount(entry.tokens)} tok · {entry.reason}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

/** Per agent call: what its budgeted context held and what it left out (the log's `agent_context` events). */
export function ContextCalls() {
  const events = useRunViewStore((state) => state.events);
  const calls = useMemo(() => {
    const found: { seq: number; data: AgentContextData }[] = [];
    for (let index = events.length - 1; index >= 0 && found.length < SHOWN_CALLS; index--) {
      const event = events[index];
      if (event?.type !== 'agent_context') continue;
      const parsed = AgentContextDataSchema.safeParse(event.data);
      if (parsed.success) found.push({ seq: event.seq, data: parsed.data });
    }
    return found;
  }, [events]);
  if (calls.length === 0) return null;
  return (
    <section className="panel context-calls" aria-labelledby="context-calls-heading" data-testid="context-calls">
      <h3 id="context-calls-heading">Context per call</h3>
      {calls.map(({ seq, data }, index) => (
        <details key={seq} open={index === 0} data-testid="context-call">
          <summary>
            <span className={`role role-${data.role}`}>{data.role}</span> {data.purpose.replaceAll('_', ' ')}
            {data.step_id ? ` · ${data.step_id}` : ''} · {formatCount(data.used_tokens)} of{' '}
            {formatCount(data.budget_tokens)} context tokens
            <span className="muted small">
              {' '}
              ({formatCount(data.context_size)} window − {formatCount(data.answer_reserve)} answer −{' '}
              {formatCount(data.mandatory_tokens)} prompt) · {data.included.length} included, {data.dropped.length}{' '}
              dropped
            </span>
          </summary>
          <EntryList entries={data.included} label="Included" />
          <EntryList entries={data.dropped} label="Dropped or cut" />
        </details>
      ))}
    </section>
  );
}
