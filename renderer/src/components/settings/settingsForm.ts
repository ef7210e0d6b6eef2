import type { GateKind, GateMode } from '../../../../shared/schemas/gates';
import { GATE_KINDS } from '../../../../shared/schemas/gates';
import type { Settings, SettingsPatch } from '../../../../shared/schemas/settings';
import { MODEL_ROLES, type ModelRole } from '../../../../shared/schemas/roles';

/** The settings form as text fields, so a half-typed number is kept until it is saved. */
export interface SettingsFormValues {
  modelFolders: string;
  threads: string;
  defaultWorkflow: string;
  defaultModel: string;
  roleModels: Record<ModelRole, string>;
  timeLimitMinutes: string;
  /** '' = the workflow's own default. */
  gates: Record<GateKind, GateMode | ''>;
  shellAllowlist: string;
  theme: Settings['theme'];
}

export function formFromSettings(settings: Settings): SettingsFormValues {
  return {
    modelFolders: settings.modelFolders.join('\n'),
    threads: settings.threads === null ? '' : String(settings.threads),
    defaultWorkflow: settings.defaultWorkflow,
    defaultModel: settings.defaultModel ?? '',
    roleModels: Object.fromEntries(MODEL_ROLES.map((role) => [role, settings.roleModels[role] ?? ''])) as Record<
      ModelRole,
      string
    >,
    timeLimitMinutes: settings.timeLimitMinutes === null ? '' : String(settings.timeLimitMinutes),
    gates: Object.fromEntries(GATE_KINDS.map((kind) => [kind, settings.gates[kind] ?? ''])) as Record<
      GateKind,
      GateMode | ''
    >,
    shellAllowlist: settings.shellAllowlist.join('\n'),
    theme: settings.theme,
  };
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** A number field: '' is null, anything else must be a number (the schema checks the range). */
function optionalNumber(text: string): number | null {
  return text.trim() === '' ? null : Number(text.trim());
}

/** The patch `settings/set` receives; validated against the contract schema before sending. */
export function patchFromForm(values: SettingsFormValues): SettingsPatch {
  const roleModels: SettingsPatch['roleModels'] = {};
  for (const role of MODEL_ROLES) if (values.roleModels[role].trim()) roleModels[role] = values.roleModels[role].trim();
  const gates: SettingsPatch['gates'] = {};
  for (const kind of GATE_KINDS) if (values.gates[kind]) gates[kind] = values.gates[kind] as GateMode;
  return {
    modelFolders: lines(values.modelFolders),
    threads: optionalNumber(values.threads),
    defaultWorkflow: values.defaultWorkflow,
    defaultModel: values.defaultModel.trim() || null,
    roleModels,
    timeLimitMinutes: optionalNumber(values.timeLimitMinutes),
    gates,
    shellAllowlist: lines(values.shellAllowlist),
    theme: values.theme,
  };
}
