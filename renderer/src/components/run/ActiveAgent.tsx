import { useEffect, useRef } from 'react';
import type { ActiveAgent as ActiveAgentView } from '../../../../shared/runView/types';
import { formatDuration } from '../../../../shared/format';
import { useLiveStore } from '../../stores/liveStore';

/** The model a live run is loading, with its progress; then how long the load took. */
export function ModelLoadBar() {
  const modelLoad = useLiveStore((state) => state.modelLoad);
  if (!modelLoad) return null;
  return (
    <div className="model-load">
      <label htmlFor="model-load-progress">
        {modelLoad.loadMs !== null
          ? `${modelLoad.model} loaded in ${formatDuration(modelLoad.loadMs)}`
          : modelLoad.progress < 1
            ? `Loading ${modelLoad.model}… ${Math.round(modelLoad.progress * 100)}%`
            : `${modelLoad.model} loaded`}
      </label>
      <progress id="model-load-progress" value={Math.round(modelLoad.progress * 100)} max={100} />
    </div>
  );
}

/** The agent at work: its role, purpose and model, and its tokens as they come, kept scrolled to the end. */
export function ActiveAgent({ active, runActive }: { active: ActiveAgentView; runActive: boolean }) {
  const stream = useLiveStore((state) => state.streams[active.role] ?? '');
  const rate = useLiveStore((state) => state.rates[active.role]);
  const streamBox = useRef<HTMLPreElement>(null);
  useEffect(() => {
    const box = streamBox.current;
    if (box) box.scrollTop = box.scrollHeight;
  }, [stream]);
  return (
    <div className="active-agent" data-testid="active-agent">
      <p>
        <span className={`role role-${active.role}`}>{active.role}</span> is working on{' '}
        <strong>{active.purpose.replaceAll('_', ' ')}</strong>
        {active.stepId ? ` for ${active.stepId}` : ''}
        {active.model && <span className="muted small mono"> · {active.model}</span>}
        {rate !== undefined && <span className="muted small"> · {rate} pieces/s</span>}
      </p>
      <pre
        ref={streamBox}
        className="token-stream"
        aria-live="off"
        aria-label={`${active.role} output as it is generated`}
      >
        {stream || (runActive ? '(waiting for the first token…)' : '(the answer is in the timeline)')}
      </pre>
    </div>
  );
}
