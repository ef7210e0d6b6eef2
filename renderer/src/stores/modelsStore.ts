import { create } from 'zustand';
import type { ModelEntryView } from '../../../shared/schemas/models';
import { client, errorMessage, unwrap } from '../api/client';

interface ModelsState {
  folders: string[];
  models: ModelEntryView[];
  loaded: boolean;
  loading: boolean;
  error: string | null;
  load(): Promise<void>;
  reset(): void;
}

export const initialModelsState = { folders: [], models: [], loaded: false, loading: false, error: null };

/** The GGUF library: every file in the models folders, usable or not (with the reason). */
export const useModelsStore = create<ModelsState>()((set) => ({
  ...initialModelsState,
  load: async () => {
    set({ loading: true, error: null });
    try {
      const { folders, models } = unwrap(await client().request('models/list', {}));
      set({ folders, models, loaded: true, loading: false });
    } catch (error) {
      set({ loading: false, loaded: true, error: errorMessage(error) });
    }
  },
  reset: () => set(initialModelsState),
}));

export function usableModels(models: readonly ModelEntryView[]): ModelEntryView[] {
  return models.filter((model) => model.status === 'ok');
}
