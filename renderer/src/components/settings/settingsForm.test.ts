import { describe, expect, it } from 'vitest';
import { SettingsPatchSchema, SettingsSchema } from '../../../../shared/schemas/settings';
import { formFromSettings, patchFromForm } from './settingsForm';

describe('the settings form', () => {
  it('turns settings into fields and back into the same settings', () => {
    const settings = SettingsSchema.parse({
      modelFolders: ['/a', '/b'],
      threads: 4,
      defaultModel: 'ollama:q',
      roleModels: { coder: 'llama:/c.gguf' },
      timeLimitMinutes: 15,
      gates: { step: 'human' },
      theme: 'dark',
    });
    const patch = patchFromForm(formFromSettings(settings));
    expect(SettingsPatchSchema.parse(patch)).toEqual({
      modelFolders: ['/a', '/b'],
      threads: 4,
      defaultWorkflow: 'minimal',
      defaultModel: 'ollama:q',
      roleModels: { coder: 'llama:/c.gguf' },
      timeLimitMinutes: 15,
      gates: { step: 'human' },
      shellAllowlist: settings.shellAllowlist,
      theme: 'dark',
    });
  });

  it('reads empty fields as "none" and keeps a bad number for the schema to refuse', () => {
    const form = {
      ...formFromSettings(SettingsSchema.parse({})),
      threads: ' ',
      timeLimitMinutes: 'soon',
      modelFolders: '\n /m \n\n',
    };
    const patch = patchFromForm(form);
    expect(patch.threads).toBeNull();
    expect(patch.modelFolders).toEqual(['/m']);
    expect(SettingsPatchSchema.safeParse(patch).success).toBe(false);
  });
});
