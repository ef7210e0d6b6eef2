import { formatCount } from '../../lib/format';
import { formatDuration } from '../../../../shared/format';
import { runSpend } from '../../../../shared/runView/spendText';
import type { AgentStats } from '../../../../shared/runView/types';
import { useLiveStore } from '../../stores/liveStore';
import { useRunViewStore } from '../../stores/runViewStore';

/** Per agent: calls, tokens in (of which cached) and out, and output tokens per second (live while it streams); then the run's totals and time. */
export function AgentsPanel() {
  const agents = useRunViewStore((state) => state.view.agents);
  const activeRole = useRunViewStore((state) => state.view.active?.role ?? null);
  const elapsedMs = useRunViewStore((state) => state.state?.elapsed_ms ?? null);
  const rates = useLiveStore((state) => state.rates);
  return <AgentsTable agents={agents} activeRole={activeRole} rates={rates} elapsedMs={elapsedMs} />;
}

export function AgentsTable({
  agents,
  activeRole,
  rates,
  elapsedMs,
}: {
  agents: Record<string, AgentStats>;
  activeRole: string | null;
  rates: Record<string, number>;
  elapsedMs: number | null;
}) {
  const rows = Object.values(agents).sort((a, b) => a.role.localeCompare(b.role));
  if (rows.length === 0) return null;
  return (
    <section className="panel agents-panel" aria-labelledby="agents-heading">
      <h3 id="agents-heading">Agents</h3>
      <table className="agents-table">
        <thead>
          <tr>
            <th scope="col">Role</th>
            <th scope="col" className="num">
              Calls
            </th>
            <th scope="col" className="num">
              In
            </th>
            <th scope="col" className="num" title="prompt tokens served from the reused KV cache, not evaluated again">
              Cached
            </th>
            <th scope="col" className="num">
              Out
            </th>
            <th scope="col" className="num">
              tok/s
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((agent) => (
            <AgentRow
              key={agent.role}
              agent={agent}
              active={activeRole === agent.role}
              live={activeRole === agent.role ? rates[agent.role] : undefined}
            />
          ))}
        </tbody>
        <AgentsTotal agents={agents} elapsedMs={elapsedMs} />
      </table>
    </section>
  );
}

/** One agent's line; `live`: its output rate over the last seconds while it streams. */
function AgentRow({ agent, active, live }: { agent: AgentStats; active: boolean; live: number | undefined }) {
  const average =
    agent.callMs > 0 && agent.completionTokens > 0 ? agent.completionTokens / (agent.callMs / 1000) : null;
  return (
    <tr className={active ? 'agent-active' : undefined}>
      <th scope="row">
        <span className={`role role-${agent.role}`}>{agent.role}</span>
      </th>
      <td className="num">{agent.calls}</td>
      <td className="num">{formatCount(agent.promptTokens)}</td>
      <td className="num">{formatCount(agent.cachedTokens)}</td>
      <td className="num">{formatCount(agent.completionTokens)}</td>
      <td className="num" title={live !== undefined ? 'live, last few seconds' : 'output tokens over call time'}>
        {live !== undefined ? `${live} live` : average !== null ? average.toFixed(1) : '—'}
      </td>
    </tr>
  );
}

/** The run's totals over every agent, and its model time against its elapsed time. */
function AgentsTotal({ agents, elapsedMs }: { agents: Record<string, AgentStats>; elapsedMs: number | null }) {
  const total = runSpend(agents);
  const mark = total.estimated ? '~' : '';
  return (
    <tfoot>
      <tr
        className="agents-total"
        data-testid="run-spend"
        title={total.estimated ? '~: estimated counts (oracle or replay model)' : undefined}
      >
        <th scope="row">run</th>
        <td className="num">{total.calls}</td>
        <td className="num">{`${mark}${formatCount(total.promptTokens)}`}</td>
        <td className="num">{`${mark}${formatCount(total.cachedTokens)}`}</td>
        <td className="num">{`${mark}${formatCount(total.generatedTokens)}`}</td>
        <td className="num" title="model time (calls to answers) / the run's elapsed time">
          {formatDuration(total.callMs)}
          {elapsedMs !== null ? ` / ${formatDuration(elapsedMs)}` : ''}
        </td>
      </tr>
    </tfoot>
  );
}
