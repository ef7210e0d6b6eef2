import { z } from 'zod';

/** A GGUF file found in a models folder; `status: rejected` carries the reason it cannot be used. */
export const ModelEntrySchema = z.object({
  path: z.string(),
  fileName: z.string(),
  status: z.enum(['ok', 'rejected']),
  reason: z.string().nullable(),
  sizeBytes: z.number().nonnegative(),
  name: z.string(),
  architecture: z.string().nullable(),
  parameters: z.number().nullable(),
  quantization: z.string().nullable(),
  contextLength: z.number().nullable(),
  chatTemplate: z.string().nullable(),
  /** Roughly: the file plus working memory fits in this machine's RAM. */
  fitsInMemory: z.boolean(),
});
export type ModelEntryView = z.infer<typeof ModelEntrySchema>;
