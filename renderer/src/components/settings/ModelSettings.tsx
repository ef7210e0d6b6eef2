import { MODEL_ROLES } from '../../../../shared/schemas/roles';
import { useAppStore } from '../../stores/appStore';
import { useModelsStore } from '../../stores/modelsStore';
import { ROLE_LABELS } from '../start/runRequest';
import { FieldError, useInvalidField, type SettingsSectionProps } from './SettingsFields';

/** Where models are found, the threads they run on, and the model each role uses by default. */
export function ModelSettings({ values, update }: SettingsSectionProps) {
  const folders = useModelsStore((state) => state.folders);
  const cpuCount = useAppStore((state) => state.info?.cpuCount);
  const invalid = useInvalidField();
  return (
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
      <RoleModelDefaults values={values} update={update} />
    </fieldset>
  );
}

function RoleModelDefaults({ values, update }: SettingsSectionProps) {
  return (
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
  );
}
