import { z } from 'zod';
import { GateModesSchema } from './gates';
import { ModelRoleSchema } from './roles';

export const ThemeSchema = z.enum(['light', 'dark', 'system']);

export const RecentRepoSchema = z.object({
  path: z.string().max(4096),
  name: z.string().max(255),
  openedAt: z.string(),
});

/** The app's settings file (`<data dir>/settings.json`), validated on read and on every change. */
export const SettingsSchema = z.object({
  modelFolders: z.array(z.string().min(1).max(4096)).max(20).default([]),
  /** CPU threads for llama models; null = physical cores. */
  threads: z.number().int().min(1).max(256).nullable().default(null),
  defaultWorkflow: z.string().max(64).default('minimal'),
  /** Model spec for every role unless a role has its own. */
  defaultModel: z.string().max(4096).nullable().default(null),
  roleModels: z.partialRecord(ModelRoleSchema, z.string().min(1).max(4096)).default({}),
  timeLimitMinutes: z
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .nullable()
    .default(null),
  gates: GateModesSchema.partial().default({}),
  shellAllowlist: z
    .array(z.string().min(1).max(128))
    .max(64)
    .default(['pytest', 'npm test', 'git', 'pip', 'npm', 'make']),
  theme: ThemeSchema.default('system'),
  recentRepos: z.array(RecentRepoSchema).max(10).default([]),
});
export type Settings = z.infer<typeof SettingsSchema>;

/** What a client may change (recent repos are kept by the core). */
export const SettingsPatchSchema = SettingsSchema.omit({ recentRepos: true }).partial().strict();
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>;

/**
 * A settings file that did not parse or validate, which the core renamed aside so the defaults could be
 * used; it is kept, never deleted, so the user can copy their settings back.
 */
export const SettingsSetAsideSchema = z.object({
  /** Where the settings file was. */
  file: z.string().max(4096),
  /** What it was renamed to; null when it could not be moved (then it stays, and is read again next time). */
  movedTo: z.string().max(4096).nullable(),
  /** What was wrong: the JSON parser's message, or the first invalid setting. */
  reason: z.string().max(1000),
});
export type SettingsSetAside = z.infer<typeof SettingsSetAsideSchema>;

/** `settings/get`: the settings in use and, until they are saved anew, the file set aside to get them. */
export const SettingsReadSchema = SettingsSchema.extend({ setAside: SettingsSetAsideSchema.nullable() });
export type SettingsRead = z.infer<typeof SettingsReadSchema>;

/** One line for the terminal and the settings screen alike. */
export function setAsideNotice(setAside: SettingsSetAside): string {
  const where = setAside.movedTo ? `it was set aside as ${setAside.movedTo}` : 'it could not be moved aside';
  return `${setAside.file} is not valid settings (${setAside.reason}); ${where} and the default settings are in use`;
}
