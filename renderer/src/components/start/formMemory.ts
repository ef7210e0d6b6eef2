import { z } from 'zod';
import { GateModesSchema } from '../../../../shared/schemas/gates';
import { isWorkflowName, type WorkflowName } from '../../../../shared/schemas/workflowName';
import { ModelRoleSchema } from '../../../../shared/schemas/roles';
import type { RunFormValues } from './runRequest';

/**
 * The start form as the user left it: per repository (goal included), and the last one used for a
 * repository never started from here (goal left out). Kept in this window's localStorage, so a run,
 * a visit to another screen or a reload does not wipe goal, workflow, models and gates.
 */

const STORAGE_KEY = 'lathe.runForm.v1';
const MAX_REPOS = 20;

const RememberedValuesSchema = z.object({
  goal: z.string().max(20_000),
  workflow: z.string().refine(isWorkflowName),
  model: z.string().max(4096),
  roleModels: z.partialRecord(ModelRoleSchema, z.string().max(4096)),
  gates: GateModesSchema,
  timeLimitMinutes: z.string().max(10),
  testCommand: z.string().max(4096),
});

const MemorySchema = z.object({
  byRepo: z.record(z.string(), RememberedValuesSchema),
  /** Repository paths, most recently used last. */
  order: z.array(z.string()),
  last: RememberedValuesSchema.nullable(),
});
type Memory = z.infer<typeof MemorySchema>;

const EMPTY: Memory = { byRepo: {}, order: [], last: null };

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // catch-ok: a browser that refuses storage (privacy settings) only costs the form's memory
    return null;
  }
}

function read(): Memory {
  const text = storage()?.getItem(STORAGE_KEY);
  if (!text) return EMPTY;
  try {
    const parsed = MemorySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : EMPTY;
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return EMPTY;
  }
}

function toValues(remembered: z.infer<typeof RememberedValuesSchema>): RunFormValues {
  return { ...remembered, workflow: remembered.workflow as WorkflowName, allowDirty: false };
}

/** The form to show for `repo`: what was left there, else the last form with a blank goal, else `fallback`. */
export function rememberedForm(repo: string, fallback: RunFormValues): RunFormValues {
  const memory = read();
  const own = memory.byRepo[repo];
  if (own) return toValues(own);
  if (memory.last) return { ...toValues(memory.last), goal: '', testCommand: '' };
  return fallback;
}

/** Keeps the form's values (all but "allow dirty", which is asked each time). */
export function rememberForm(repo: string, values: RunFormValues): void {
  const target = storage();
  if (!target) return;
  const { allowDirty: _askedEachTime, ...kept } = values;
  const memory = read();
  const order = [...memory.order.filter((path) => path !== repo), repo];
  const dropped = order.slice(0, Math.max(0, order.length - MAX_REPOS));
  const byRepo = { ...memory.byRepo, [repo]: kept };
  for (const path of dropped) delete byRepo[path];
  try {
    target.setItem(
      STORAGE_KEY,
      JSON.stringify({ byRepo, order: order.slice(-MAX_REPOS), last: kept } satisfies Memory),
    );
  } catch {
    // catch-ok: A full or disabled storage only costs the memory of the form.
  }
}
