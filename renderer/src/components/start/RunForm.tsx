import { useEffect, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { WorkflowName } from '../../../../shared/engine/workflows';
import { WORKFLOWS } from '../../../../shared/engine/workflows';
import type { RepoStatus } from '../../../../shared/schemas/repo';
import { client, errorMessage, unwrap } from '../../api/client';
import { useModelsStore } from '../../stores/modelsStore';
import { useSettingsStore } from '../../stores/settingsStore';
import { useUiStore } from '../../stores/uiStore';
import { FollowUpNotice } from '../history/RunChain';
import { GateModes } from './GateModes';
import { ModelPicker } from './ModelPicker';
import { NoModelsHelp } from './NoModelsHelp';
import { WorkflowPicker } from './WorkflowPicker';
import { rememberForm, rememberedForm } from './formMemory';
import { preflightProblemsOf } from '../../../../shared/schemas/preflight';
import { LatheError } from '../../../../shared/errors';
import {
  buildStartRequest,
  defaultGates,
  fieldIdOf,
  formProblems,
  initialFormValues,
  ROLE_LABELS,
  rolesFor,
  specProblem,
  type RunFormValues,
} from './runRequest';

const isMac = typeof navigator !== 'undefined' && /Mac/i.test(navigator.platform);

export function RunForm({ repo }: { repo: RepoStatus }) {
  const settings = useSettingsStore((state) => state.settings);
  const settingsError = useSettingsStore((state) => state.error);
  if (!settings && !settingsError) return <p className="muted pad">Loading settings…</p>;
  return <RunFormFields key={repo.path} repo={repo} initial={rememberedForm(repo.path, initialFormValues(settings))} />;
}

function RunFormFields({ repo, initial }: { repo: RepoStatus; initial: RunFormValues }) {
  const models = useModelsStore((state) => state.models);
  const folders = useModelsStore((state) => state.folders);
  const modelsLoaded = useModelsStore((state) => state.loaded);
  const modelsError = useModelsStore((state) => state.error);
  const settings = useSettingsStore((state) => state.settings);
  const [values, setValues] = useState<RunFormValues>(() => initial);
  const [problems, setProblems] = useState<Partial<Record<string, string>>>({});
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);
  // History's Follow up opens this form with the run to continue in the route.
  const followUp = useUiStore((state) => state.route.followUp);

  useEffect(() => {
    void useModelsStore.getState().load();
  }, []);
  useEffect(() => rememberForm(repo.path, values), [repo.path, values]);

  const update = (change: Partial<RunFormValues>) => setValues((current) => ({ ...current, ...change }));
  const pickWorkflow = (workflow: WorkflowName) => update({ workflow, gates: defaultGates(workflow, settings) });
  const roles = rolesFor(WORKFLOWS[values.workflow], values.gates);
  const usable = models.filter((model) => model.status === 'ok');
  // A model spec of the right shape typed in (a replay, a local server, a GGUF elsewhere) needs no library.
  const hasSpec = [values.model, ...roles.map((role) => values.roleModels[role] ?? '')].some(
    (spec) => spec.trim() !== '' && specProblem(spec) === null,
  );

  const showProblems = (found: Partial<Record<string, string>>) => {
    setProblems(found);
    const first = Object.keys(found)[0];
    if (first) document.getElementById(fieldIdOf(first))?.focus();
  };

  const start = async () => {
    const checked = buildStartRequest(repo.path, values, followUp);
    if (!checked.ok) return showProblems(checked.problems);
    setProblems({});
    setStarting(true);
    setStartError(null);
    try {
      const { runId } = unwrap(await client().request('run/start', checked.request));
      useUiStore.getState().navigate({ view: 'run', repo: repo.path, run: runId, tab: 'activity' });
    } catch (error) {
      // The core's start checks name the field each problem belongs to: show it there, nothing was created.
      const refused = error instanceof LatheError ? preflightProblemsOf(error) : null;
      if (refused) showProblems(formProblems(refused, values));
      else setStartError(errorMessage(error));
    } finally {
      setStarting(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void start();
  };
  const onGoalKey = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void start();
    }
  };

  return (
    <section className="panel" aria-labelledby="new-run-heading">
      <h2 id="new-run-heading">{followUp ? 'Follow-up run' : 'New run'}</h2>
      {followUp && (
        <FollowUpNotice
          runId={followUp}
          onClear={() => useUiStore.getState().navigate({ followUp: null }, { replace: true })}
        />
      )}
      <form className="run-form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="goal">Goal</label>
          <textarea
            id="goal"
            rows={5}
            value={values.goal}
            onChange={(event) => update({ goal: event.target.value })}
            onKeyDown={onGoalKey}
            placeholder="What should change in this repository? e.g. “median() returns the mean; fix it and document both functions.”"
            aria-describedby="goal-hint"
            aria-invalid={problems.goal ? true : undefined}
          />
          <p id="goal-hint" className="hint">
            {isMac ? '⌘' : 'Ctrl'}+Enter starts the run. Lathe works on a branch of its own; your checkout is not
            touched.
          </p>
          {problems.goal && <p className="error-text">{problems.goal}</p>}
        </div>

        <WorkflowPicker value={values.workflow} onChange={pickWorkflow} />

        <fieldset className="models">
          <legend>Models</legend>
          {modelsError && <p className="error-text">Could not read the model library: {modelsError}</p>}
          <ModelPicker
            id="model-all"
            label="Every role"
            models={models}
            value={values.model}
            onChange={(model) => update({ model })}
            emptyLabel={usable.length > 0 ? 'Choose a model…' : 'No model in the library'}
            problem={problems.model}
          />
          {modelsLoaded && usable.length === 0 && !hasSpec && (
            <NoModelsHelp folders={folders} rejected={models.length} />
          )}
          <details className="role-models" open={roles.some((role) => problems[`model-${role}`]) || undefined}>
            <summary>Per-role models ({roles.map((role) => ROLE_LABELS[role]).join(', ')})</summary>
            {roles.map((role) => (
              <ModelPicker
                key={role}
                id={`model-${role}`}
                label={ROLE_LABELS[role]}
                models={models}
                value={values.roleModels[role] ?? ''}
                onChange={(spec) => update({ roleModels: { ...values.roleModels, [role]: spec } })}
                emptyLabel="Same as every role"
                problem={problems[`model-${role}`]}
              />
            ))}
          </details>
        </fieldset>

        <GateModes value={values.gates} onChange={(gates) => update({ gates })} />

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
        {repo.dirty && (
          <label className="checkbox">
            <input
              type="checkbox"
              checked={values.allowDirty}
              onChange={(event) => update({ allowDirty: event.target.checked })}
            />
            Start although the working tree has uncommitted changes (those files are never touched)
          </label>
        )}
        {startError && (
          <p className="error-text" role="alert">
            {startError}
          </p>
        )}
        <div className="form-actions">
          <button type="submit" className="primary" disabled={starting}>
            {starting ? 'Starting…' : 'Start run'}
          </button>
        </div>
      </form>
    </section>
  );
}
