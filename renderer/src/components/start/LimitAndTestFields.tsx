import type { RepoStatus } from '../../../../shared/schemas/repo';
import type { RunFormValues } from './runRequest';
import type { FormProblems } from './useRunForm';

interface LimitAndTestFieldsProps {
  repo: RepoStatus;
  values: RunFormValues;
  problems: FormProblems;
  update: (change: Partial<RunFormValues>) => void;
}

/** The run's time limit and the command that tests its work (the detected one when left empty). */
export function LimitAndTestFields({ repo, values, problems, update }: LimitAndTestFieldsProps) {
  return (
    <div className="field-row">
      <div className="field">
        <label htmlFor="time-limit">Time limit (minutes)</label>
        <input
          id="time-limit"
          type="number"
          min={1}
          max={1440}
          inputMode="numeric"
          value={values.timeLimitMinutes}
          placeholder="no limit"
          onChange={(event) => update({ timeLimitMinutes: event.target.value })}
          aria-invalid={problems.timeLimit ? true : undefined}
        />
        {problems.timeLimit && <p className="error-text">{problems.timeLimit}</p>}
      </div>
      <div className="field field-grow">
        <label htmlFor="test-command">Test command</label>
        <input
          id="test-command"
          type="text"
          className="mono"
          value={values.testCommand}
          placeholder={
            repo.testCommand
              ? `${repo.testCommand.join(' ')} (${repo.testCommandReason ?? 'detected'})`
              : 'none detected: type one'
          }
          title={repo.testCommandReason ?? undefined}
          onChange={(event) => update({ testCommand: event.target.value })}
          spellCheck={false}
          autoComplete="off"
          aria-invalid={problems.testCommand ? true : undefined}
          aria-describedby={problems.testCommand ? 'test-command-problem' : undefined}
        />
        {problems.testCommand && (
          <p className="error-text" id="test-command-problem">
            {problems.testCommand}
          </p>
        )}
      </div>
    </div>
  );
}
