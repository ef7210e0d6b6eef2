import type { FormEvent } from 'react';
import type { RepoStatus } from '../../../../shared/schemas/repo';
import { useSettingsStore } from '../../stores/settingsStore';
import { useUiStore } from '../../stores/uiStore';
import { FollowUpNotice } from '../history/RunChain';
import { GateModes } from './GateModes';
import { GoalField } from './GoalField';
import { LimitAndTestFields } from './LimitAndTestFields';
import { ModelFields } from './ModelFields';
import { WorkflowPicker } from './WorkflowPicker';
import { rememberedForm } from './formMemory';
import { initialFormValues, type RunFormValues } from './runRequest';
import { useRunForm } from './useRunForm';

export function RunForm({ repo }: { repo: RepoStatus }) {
  const settings = useSettingsStore((state) => state.settings);
  const settingsError = useSettingsStore((state) => state.error);
  if (!settings && !settingsError) return <p className="muted pad">Loading settings…</p>;
  return <RunFormFields key={repo.path} repo={repo} initial={rememberedForm(repo.path, initialFormValues(settings))} />;
}

function RunFormFields({ repo, initial }: { repo: RepoStatus; initial: RunFormValues }) {
  const { values, problems, starting, startError, followUp, update, pickWorkflow, start } = useRunForm(
    repo.path,
    initial,
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void start();
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
        <GoalField
          value={values.goal}
          problem={problems.goal}
          onChange={(goal) => update({ goal })}
          onStart={() => void start()}
        />

        <WorkflowPicker value={values.workflow} onChange={pickWorkflow} />

        <ModelFields values={values} problems={problems} update={update} />

        <GateModes value={values.gates} onChange={(gates) => update({ gates })} />

        <LimitAndTestFields repo={repo} values={values} problems={problems} update={update} />
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
