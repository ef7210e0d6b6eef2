import { z } from 'zod';

export const AppModeSchema = z.enum(['electron', 'browser']);
export type AppMode = z.infer<typeof AppModeSchema>;

export const AppInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  mode: AppModeSchema,
  platform: z.string(),
  nodeVersion: z.string(),
  electronVersion: z.string().nullable(),
  dataDir: z.string(),
  cpuCount: z.number().int().positive(),
  memoryBytes: z.number().nonnegative(),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

/** A filesystem path sent by a client; the core resolves and checks it before use. */
export const ClientPathSchema = z
  .string()
  .min(1)
  .max(4096)
  .refine((value) => !value.includes('\0'), 'path contains a NUL byte');
