import { useSettingsStore } from '../../stores/settingsStore';
import type { SettingsFormValues } from './settingsForm';

/** What each part of the settings form gets: the values shown, and a merge of a change into them. */
export interface SettingsSectionProps {
  values: SettingsFormValues;
  update: (change: Partial<SettingsFormValues>) => void;
}

export function FieldError({ path }: { path: string }) {
  const message = useSettingsStore((state) => state.fieldErrors[path]);
  return message ? (
    <p className="error-text" id={`${path}-error`}>
      {message}
    </p>
  ) : null;
}

/** The attributes that tie a field to the error the core returned for it, if any. */
export function useInvalidField() {
  const fieldErrors = useSettingsStore((state) => state.fieldErrors);
  return (path: string) => (fieldErrors[path] ? { 'aria-invalid': true, 'aria-describedby': `${path}-error` } : {});
}
