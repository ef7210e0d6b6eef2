import { useRunViewStore } from '../../stores/runViewStore';
import { GateCard } from './GateCard';

/** Every gate of the run, newest first, with its verdict and decision. */
export function GatesTab({ repo, runId }: { repo: string; runId: string }) {
  const gates = useRunViewStore((state) => state.view.gates);
  const order = useRunViewStore((state) => state.view.gateOrder);
  if (order.length === 0)
    return <p className="muted pad">No gates in this run (the workflow's gates are off, or none opened yet).</p>;
  return (
    <div className="gates-list" data-testid="gates-list">
      {[...order].reverse().map((gateId) => {
        const gate = gates[gateId];
        return gate ? <GateCard key={gateId} repo={repo} runId={runId} gate={gate} /> : null;
      })}
    </div>
  );
}
