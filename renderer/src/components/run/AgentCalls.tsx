import { useEffect, useMemo, useState } from 'react';
import { LatheError } from '../../../../shared/errors';
import { listAgentCalls, type AgentCallSummary } from '../../../../shared/runView/agentCalls';
import { partOrigin, type AgentCallRecord, type CallPart } from '../../../../shared/schemas/agentCall';
import { client, errorMessage, unwrap } from '../../api/client';
import { formatCount } from '../../lib/format';
import { useRunViewStore } from '../../stores/runViewStore';

/** The latest calls only: a long run makes hundreds, and each expands to its whole prompt. */
const SHOWN_CALLS = 30;

function PartText({ part }: { part: CallPart }) {
  return (
    <pre className="call-text">
      {part.text}
      {part.cut > 0 && <span className="muted">{`\n… (${formatCount(part.cut)} more characters not recorded)`}</span>}
    </pre>
  );
}

/** A part someone other than the engine wrote says so above it: the human's comment, the Supervisor's verdict. */
function Part({ part }: { part: CallPart }) {
  const origin = partOrigin(part);
  if (!origin) return <PartText part={part} />;
  return (
    <div className={`call-part origin-${part.source}`} data-testid="call-origin-part">
      <p className="call-origin">{origin}</p>
      <PartText part={part} />
    </div>
  );
}

export function CallRecordView({ record }: { record: AgentCallRecord }) {
  const { answer } = record;
  return (
    <div className="call-record" data-testid="call-record">
      {record.messages.map((message, index) =>
        message.role === 'system' ? (
          // The role's prompt is the same in every call of the role: folded, so the input is what one sees.
          <details key={index} className="call-message">
            <summary>
              <h5>system prompt</h5>
            </summary>
            {message.parts.map((part, partIndex) => (
              <Part key={partIndex} part={part} />
            ))}
          </details>
        ) : (
          <section key={index} className="call-message" aria-label={`${message.role} message`}>
            <h5>{message.role}</h5>
            {message.parts.map((part, partIndex) => (
              <Part key={partIndex} part={part} />
            ))}
          </section>
        ),
      )}
      {record.context.length > 0 && (
        <section className="call-message" aria-label="context items">
          <h5>context ({record.context.length})</h5>
          {record.context.map((part, index) => (
            <details key={index}>
              <summary>
                <span className={`chip context-kind-${part.kind ?? 'item'}`}>{part.kind ?? 'item'}</span>{' '}
                <span className="mono">{part.path || '(no path)'}</span>{' '}
                <span className="muted small">{formatCount(part.text.length + part.cut)} chars</span>
              </summary>
              <PartText part={part} />
            </details>
          ))}
        </section>
      )}
      <section className="call-message" aria-label="answer">
        <h5>
          answer · {answer.outcome}
          {answer.code ? ` · ${answer.code}` : ''}
        </h5>
        {answer.message && <p className="small">{answer.message}</p>}
        <pre className="call-text">{answer.raw ?? '(no answer came)'}</pre>
      </section>
    </div>
  );
}

function CallItem({ repo, runId, call }: { repo: string; runId: string; call: AgentCallSummary }) {
  const [open, setOpen] = useState(false);
  const [record, setRecord] = useState<AgentCallRecord | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!open || record || !call.recorded) return;
    let current = true;
    client()
      .request('run/call', { repo, runId, call: call.call })
      .then((result) => current && (setRecord(unwrap(result)), setError(null)))
      .catch((failure: unknown) => {
        if (!current) return;
        setError(
          failure instanceof LatheError && failure.code === 'CALL_NOT_FOUND'
            ? 'No record yet: the call has not answered, or it was cut short.'
            : errorMessage(failure),
        );
      });
    return () => {
      current = false;
    };
    // Asked again when the call ends: its record is written then.
  }, [open, record, repo, runId, call.call, call.recorded, call.outcome]);

  const tokens =
    call.promptTokens === null
      ? ''
      : ` · ${formatCount(call.promptTokens)} + ${formatCount(call.completionTokens ?? 0)} tokens`;
  return (
    <details data-testid="agent-call" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        <span className="muted mono">#{call.call}</span> <span className={`role role-${call.role}`}>{call.role}</span>{' '}
        {call.purpose.replaceAll('_', ' ')}
        {call.stepId ? ` · ${call.stepId}` : ''}
        <span className="muted small">
          {tokens} · {call.outcome}
        </span>
      </summary>
      {open &&
        (!call.recorded ? (
          <p className="muted small">Not recorded: this run was made before Lathe kept its agents' messages.</p>
        ) : record ? (
          <CallRecordView record={record} />
        ) : error ? (
          <p className="muted small">{error}</p>
        ) : (
          <p className="muted small">Reading the call…</p>
        ))}
    </details>
  );
}

/** Per agent call: what it was sent — with the human's and the Supervisor's words marked — and what it answered. */
export function AgentCalls({ repo, runId }: { repo: string; runId: string }) {
  const events = useRunViewStore((state) => state.events);
  const calls = useMemo(() => listAgentCalls(events).slice(-SHOWN_CALLS).reverse(), [events]);
  if (calls.length === 0) return null;
  return (
    <section className="panel agent-calls" aria-labelledby="agent-calls-heading" data-testid="agent-calls">
      <h3 id="agent-calls-heading">Agent calls</h3>
      <p className="muted small">
        Latest first. Open one to see the messages it was sent and its answer ({`lathe runs --show ${runId} --call N`}).
      </p>
      {calls.map((call) => (
        <CallItem key={call.seq} repo={repo} runId={runId} call={call} />
      ))}
    </section>
  );
}
