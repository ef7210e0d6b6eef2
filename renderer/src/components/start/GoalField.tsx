import type { KeyboardEvent } from 'react';

const isMac = typeof navigator !== 'undefined' && /Mac/i.test(navigator.platform);

interface GoalFieldProps {
  value: string;
  problem: string | undefined;
  onChange: (goal: string) => void;
  onStart: () => void;
}

/** The run's goal, with Ctrl/⌘+Enter to start. */
export function GoalField({ value, problem, onChange, onStart }: GoalFieldProps) {
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      onStart();
    }
  };
  return (
    <div className="field">
      <label htmlFor="goal">Goal</label>
      <textarea
        id="goal"
        rows={5}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
        placeholder="What should change in this repository? e.g. “median() returns the mean; fix it and document both functions.”"
        aria-describedby="goal-hint"
        aria-invalid={problem ? true : undefined}
      />
      <p id="goal-hint" className="hint">
        {isMac ? '⌘' : 'Ctrl'}+Enter starts the run. Lathe works on a branch of its own; your checkout is not touched.
      </p>
      {problem && <p className="error-text">{problem}</p>}
    </div>
  );
}
