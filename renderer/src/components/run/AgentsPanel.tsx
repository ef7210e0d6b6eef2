import { formatCount } from '../../lib/format';
import { useLiveStore } from '../../stores/liveStore';
import { useRunViewStore } from '../../stores/runViewStore';

/** Per agent: calls, tokens in and out, and output tokens per second (live while it streams). */
export function AgentsPanel() {
  const agents = useRunViewStore((state) => state.view.agents);
  const activeRole = useRunViewStore((state) => state.view.active?.role ?? null);
  const rates = useLiveStore((state) => state.rates);
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
            <th scope="col" className="num">
              Out
            </th>
            <th scope="col" className="num">
              tok/s
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((agent) => {
            const live = activeRole === agent.role ? rates[agent.role] : undefined;
            const average = agent.callMs > 0 && agent.completionTokens > 0 ? agent.completionTokens / (agent.callMs / 1000) : null;
            return (
              <tr key={agent.role} className={activeRole === agent.role ? 'agent-active' : undefined}>
                <th scope="row">
                  <span className={`role role-${agent.role}`}>{agent.role}</span>
                </th>
                <td className="num">{agent.calls}</td>
                <td className="num">{formatCount(agent.promptTokens)}</td>
                <td className="num">{formatCount(agent.completionTokens)}</td>
                <td className="num" title={live !== undefined ? 'live, last few seconds' : 'output tokens over call time'}>
                  {live !== undefined ? `${live} live` : average !== null ? average.toFixed(1) : '—'}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
