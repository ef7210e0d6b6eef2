import { create } from 'zustand';
import {
  SettingsPatchSchema,
  type Settings,
  type SettingsPatch,
  type SettingsSetAside,
} from '../../../shared/schemas/settings';
import { client, errorMessage, unwrap } from '../api/client';

interface SettingsState {
  settings: Settings | null;
  /** The settings file the core set aside (it did not parse) to use the defaults; null once saved anew. */
  setAside: SettingsSetAside | null;
  saving: boolean;
  error: string | null;
  /** Field path → message, from validating a patch before it is sent. */
  fieldErrors: Record<string, string>;
  savedAt: number | null;
  load(): Promise<void>;
  save(patch: SettingsPatch): Promise<boolean>;
  reset(): void;
}

export const initialSettingsState = {
  settings: null,
  setAside: null,
  saving: false,
  error: null,
  fieldErrors: {},
  savedAt: null,
};

/** The app's settings file, read and written only through the core (which validates again). */
export const useSettingsStore = create<SettingsState>()((set) => ({
  ...initialSettingsState,
  load: async () => {
    try {
      const { setAside, ...settings } = unwrap(await client().request('settings/get', {}));
      set({ settings, setAside, error: null });
    } catch (error) {
      set({ error: errorMessage(error) });
    }
  },
  save: async (patch) => {
    const checked = SettingsPatchSchema.safeParse(patch);
    if (!checked.success) {
      const fieldErrors: Record<string, string> = {};
      for (const issue of checked.error.issues) fieldErrors[String(issue.path[0] ?? 'settings')] ??= issue.message;
      set({ fieldErrors, error: 'Some settings are not valid; nothing was saved.' });
      return false;
    }
    set({ saving: true, error: null, fieldErrors: {} });
    try {
      const settings = unwrap(await client().request('settings/set', checked.data));
      set({ settings, setAside: null, saving: false, savedAt: Date.now() });
      return true;
    } catch (error) {
      set({ saving: false, error: errorMessage(error) });
      return false;
    }
  },
  reset: () => set(initialSettingsState),
}));
