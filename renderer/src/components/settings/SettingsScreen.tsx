import { useEffect, useState, type FormEvent } from 'react';
import { setAsideNotice } from '../../../../shared/schemas/settings';
import { useAppStore } from '../../stores/appStore';
import { useModelsStore } from '../../stores/modelsStore';
import { useSettingsStore } from '../../stores/settingsStore';
import { useUiStore } from '../../stores/uiStore';
import { ModelSettings } from './ModelSettings';
import { RunSettings } from './RunSettings';
import type { SettingsSectionProps } from './SettingsFields';
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

function SettingsForm({ initial }: { initial: SettingsFormValues }) {
  const [values, setValues] = useState(initial);
  const { saving, error, savedAt, save } = useSettingsStore();
  const dataDir = useAppStore((state) => state.info?.dataDir);
  const update = (change: Partial<SettingsFormValues>) => setValues((current) => ({ ...current, ...change }));

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
      <ModelSettings values={values} update={update} />
      <RunSettings values={values} update={update} />
      <ThemeSettings values={values} update={update} />
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

function ThemeSettings({ values, update }: SettingsSectionProps) {
  return (
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
  );
}
