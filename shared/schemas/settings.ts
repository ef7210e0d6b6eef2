import { z } from 'zod';
import { GateModesSchema } from '../engine/gates';
import { ModelRoleNameSchema } from '../engine/runConfig';

export const ThemeSchema = z.enum(['light', 'dark', 'system']);

export const RecentRepoSchema = z.object({ path: z.string().max(4096), name: z.string().max(255), openedAt: z.string() });

/** The app's settings file (`<data dir>/settings.json`), validated on read and on every change. */
export const SettingsSchema = z.object({
  modelFolders: z.array(z.string().min(1).max(4096)).max(20).default([]),
  /** CPU threads for llama models; null = physical cores. */
  threads: z.number().int().min(1).max(256).nullable().default(null),
  defaultWorkflow: z.string().max(64).default('minimal'),
  /** Model spec for every role unless a role has its own. */
  defaultModel: z.string().max(4096).nullable().default(null),
  roleModels: z.partialRecord(ModelRoleNameSchema, z.string().min(1).max(4096)).default({}),
  timeLimitMinutes: z.number().int().min(1).max(24 * 60).nullable().default(null),
  gates: GateModesSchema.partial().default({}),
  shellAllowlist: z.array(z.string().min(1).max(128)).max(64).default(['pytest', 'npm test', 'git', 'pip', 'npm', 'make']),
  theme: ThemeSchema.default('system'),
  recentRepos: z.array(RecentRepoSchema).max(10).default([]),
});
export type Settings = z.infer<typeof SettingsSchema>;

/** What a client may change (recent repos are kept by the core). */
export const SettingsPatchSchema = SettingsSchema.omit({ recentRepos: true }).partial().strict();
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>;
