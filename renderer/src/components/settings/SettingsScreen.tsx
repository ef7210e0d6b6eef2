import { useEffect, useState, type FormEvent } from 'react';
import { setAsideNotice } from '../../../../shared/schemas/settings';
import { GATE_KINDS, type GateMode } from '../../../../shared/schemas/gates';
import { WORKFLOW_NAMES } from '../../../../shared/engine/workflows';
import { useAppStore } from '../../stores/appStore';
import { useModelsStore } from '../../stores/modelsStore';
import { useSettingsStore } from '../../stores/settingsStore';
import { useUiStore } from '../../stores/uiStore';
import { GateModeOptions } from '../start/GateModes';
import { ROLE_LABELS } from '../start/runRequest';
import { MODEL_ROLES } from '../../../../shared/schemas/roles';
import { formFromSettings, patchFromForm, type SettingsFormValues } from './settingsForm';

export default function SettingsScreen() {
  const settings = useSettingsStore((state) => state.settings);
  const error = useSettingsStore((state) => state.error);
  useEffect(() => {
    void useSettingsStore.getState().load();
    void useModelsStore.getState().load();
  }, []);
  if (!settings) return <p className={error ? 'error-text pad' : 'muted pad'}>{error ?? 'Reading settings…'}</p>;
  return <SettingsForm initial={formFromSettings(settings)} />;
}

/** Said until the user saves: their own settings file did not parse, so what the form shows are the defaults. */
function SetAsideNotice() {
  const setAside = useSettingsStore((state) => state.setAside);
  return setAside ? (
    <p className="warning-text" role="note" data-testid="settings-set-aside">
      {setAsideNotice(setAside)}. Saving writes a new settings.json.
    </p>
  ) : null;
}

function FieldError({ path }: { path: string }) {
  const message = useSettingsStore((state) => state.fieldErrors[path]);
  return message ? (
    <p className="error-text" id={`${path}-error`}>
      {message}
    </p>
  ) : null;
}

function SettingsForm({ initial }: { initial: SettingsFormValues }) {
  const [values, setValues] = useState(initial);
  const { saving, error, savedAt, save } = useSettingsStore();
  const fieldErrors = useSettingsStore((state) => state.fieldErrors);
  const folders = useModelsStore((state) => state.folders);
  const cpuCount = useAppStore((state) => state.info?.cpuCount);
  const dataDir = useAppStore((state) => state.info?.dataDir);
  const update = (change: Partial<SettingsFormValues>) => setValues((current) => ({ ...current, ...change }));
  const invalid = (path: string) =>
    fieldErrors[path] ? { 'aria-invalid': true, 'aria-describedby': `${path}-error` } : {};

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await save(patchFromForm(values))) {
      useUiStore.getState().notify('ok', 'Settings saved.');
      void useModelsStore.getState().load();
    }
  };

  return (
    <form
      className="panel settings"
      onSubmit={(event) => void submit(event)}
      aria-labelledby="settings-heading"
      noValidate
      data-testid="settings"
    >
      <h2 id="settings-heading">Settings</h2>
      {dataDir && <p className="muted small">Saved in {dataDir}/settings.json.</p>}
      <SetAsideNotice />

      <fieldset>
        <legend>Models</legend>
        <div className="field">
          <label htmlFor="model-folders">Models folders (one per line)</label>
          <textarea
            id="model-folders"
            rows={3}
            className="mono"
            value={values.modelFolders}
            onChange={(event) => update({ modelFolders: event.target.value })}
            {...invalid('modelFolders')}
          />
          <p className="hint">Scanned now: {folders.length > 0 ? folders.join(', ') : '…'}</p>
          <FieldError path="modelFolders" />
        </div>
        <div className="field">
          <label htmlFor="threads">CPU threads for local models</label>
          <input
            id="threads"
            type="number"
            min={1}
            max={256}
            value={values.threads}
            placeholder={`physical cores${cpuCount ? ` (${cpuCount} logical here)` : ''}`}
            onChange={(event) => update({ threads: event.target.value })}
            {...invalid('threads')}
          />
          <FieldError path="threads" />
        </div>
        <div className="field">
          <label htmlFor="default-model">Default model (every role)</label>
          <input
            id="default-model"
            type="text"
            className="mono"
            value={values.defaultModel}
            placeholder="llama:/path/model.gguf"
            onChange={(event) => update({ defaultModel: event.target.value })}
            {...invalid('defaultModel')}
          />
          <FieldError path="defaultModel" />
        </div>
        <details>
          <summary>Default model per role</summary>
          {MODEL_ROLES.map((role) => (
            <div className="field" key={role}>
              <label htmlFor={`settings-model-${role}`}>{ROLE_LABELS[role]}</label>
              <input
                id={`settings-model-${role}`}
                type="text"
                className="mono"
                value={values.roleModels[role]}
                placeholder="same as the default model"
                onChange={(event) => update({ roleModels: { ...values.roleModels, [role]: event.target.value } })}
              />
            </div>
          ))}
          <FieldError path="roleModels" />
        </details>
      </fieldset>

      <fieldset>
        <legend>Runs</legend>
        <div className="field">
          <label htmlFor="default-workflow">Default workflow</label>
          <select
            id="default-workflow"
            value={values.defaultWorkflow}
            onChange={(event) => update({ defaultWorkflow: event.target.value })}
          >
            {WORKFLOW_NAMES.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="settings-time-limit">Default time limit (minutes)</label>
          <input
            id="settings-time-limit"
            type="number"
            min={1}
            max={1440}
            value={values.timeLimitMinutes}
            placeholder="no limit"
            onChange={(event) => update({ timeLimitMinutes: event.target.value })}
            {...invalid('timeLimitMinutes')}
          />
          <FieldError path="timeLimitMinutes" />
        </div>
        <div className="gate-defaults">
          <p className="field-label">Gate defaults</p>
          {GATE_KINDS.map((kind) => (
            <div className="field" key={kind}>
              <label htmlFor={`settings-gate-${kind}`}>{kind} gate</label>
              <select
                id={`settings-gate-${kind}`}
                value={values.gates[kind]}
                onChange={(event) =>
                  update({ gates: { ...values.gates, [kind]: event.target.value as GateMode | '' } })
                }
              >
                <option value="">the workflow's default</option>
                <GateModeOptions />
              </select>
            </div>
          ))}
        </div>
        <div className="field">
          <label htmlFor="shell-allowlist">Shell allowlist (one command prefix per line)</label>
          <textarea
            id="shell-allowlist"
            rows={4}
            className="mono"
            value={values.shellAllowlist}
            onChange={(event) => update({ shellAllowlist: event.target.value })}
            {...invalid('shellAllowlist')}
          />
          <p className="hint">Commands agents may run through the shell tool; everything else is refused.</p>
          <FieldError path="shellAllowlist" />
        </div>
      </fieldset>

      <fieldset>
        <legend>Theme</legend>
        <div className="segmented-radios" role="radiogroup" aria-label="Theme">
          {(['light', 'dark', 'system'] as const).map((theme) => (
            <label key={theme} className="radio">
              <input
                type="radio"
                name="theme"
                value={theme}
                checked={values.theme === theme}
                onChange={() => update({ theme })}
              />
              {theme}
            </label>
          ))}
        </div>
      </fieldset>

      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save settings'}
        </button>
        {savedAt && !error && <span className="ok-text small">Saved.</span>}
      </div>
    </form>
  );
}
