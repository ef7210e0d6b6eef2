import type { ModelRole } from '../../../shared/schemas/roles';
import type { RunConfig } from '../../../shared/engine/runConfig';
import type { SettingsSetAside } from '../../../shared/schemas/settings';
import { defaultModelFolders, scanModelFolders, type InspectOptions } from '../llm/index';
import { SettingsStore } from '../settings/settingsStore';

/** Where a role's model came from when the command line named none. */
export interface DefaultModelChoice {
  roles: ModelRole[];
  spec: string;
  /** Said on the terminal: `the default model in settings`, `the only usable model in …`. */
  source: string;
}

export interface DefaultModelOptions {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  inspect?: InspectOptions;
}

/**
 * Fills the roles that have no model: a role's model in settings, else the default model in settings,
 * else the one usable GGUF in the model library. With several usable GGUFs nothing is guessed: the
 * roles stay empty and `unresolved` says why. `settingsSetAside` is the settings file that did not
 * parse and was set aside on this read, for the caller to warn about.
 */
export async function fillDefaultModels(
  config: RunConfig,
  missing: readonly ModelRole[],
  options: DefaultModelOptions,
): Promise<{
  config: RunConfig;
  choices: DefaultModelChoice[];
  unresolved: string | null;
  settingsSetAside: SettingsSetAside | null;
}> {
  if (missing.length === 0) return { config, choices: [], unresolved: null, settingsSetAside: null };
  const store = new SettingsStore(options.dataDir);
  const settings = store.read();
  const picks = new Map<string, DefaultModelChoice>();
  const pick = (role: ModelRole, spec: string, source: string) => {
    const key = `${spec}\0${source}`;
    picks.set(key, { spec, source, roles: [...(picks.get(key)?.roles ?? []), role] });
  };
  const rest: ModelRole[] = [];
  for (const role of missing) {
    const perRole = settings.roleModels[role];
    if (perRole) pick(role, perRole, `the ${role} model in settings`);
    else if (settings.defaultModel) pick(role, settings.defaultModel, 'the default model in settings');
    else rest.push(role);
  }
  let unresolved: string | null = null;
  if (rest.length > 0) {
    const folders = defaultModelFolders({ env: options.env, settingsFolders: settings.modelFolders });
    const usable = (await scanModelFolders(folders, options.inspect)).filter((entry) => entry.status === 'ok');
    const only = usable.length === 1 ? usable[0] : undefined;
    if (only)
      for (const role of rest)
        pick(role, `llama:${only.path}`, `the only usable model in the library (${folders.join(', ')})`);
    else
      unresolved =
        usable.length === 0
          ? `no usable GGUF in ${folders.join(', ')} and no default model in settings`
          : `${usable.length} usable GGUFs in the library and no default model in settings; choose one with --model (see \`lathe models\`)`;
  }
  const choices = [...picks.values()];
  const models = { ...config.models };
  for (const choice of choices) for (const role of choice.roles) models[role] = { model: choice.spec };
  return { config: { ...config, models }, choices, unresolved, settingsSetAside: store.setAside };
}
