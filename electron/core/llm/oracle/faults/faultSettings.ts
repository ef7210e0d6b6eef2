import { z } from 'zod';
import type { EditFormatName } from '../../../edits/types';

/** The ways a 7B writer spoils an edit, each simulated from the oracle's correct answer (docs/oracle-model.md). */
export const FAULT_KINDS = [
  'elide',
  'reindent',
  'near-miss-search',
  'diff-header',
  'diff-whitespace',
  'wrong-path',
  'test-path',
  'unrelated-change',
  'no-op',
  'cut-off',
  'repeat',
] as const;
export const FaultKindSchema = z.enum(FAULT_KINDS);
export type FaultKind = z.infer<typeof FaultKindSchema>;

/** The kinds that change the answer's content (repeat and cut-off act on the call, not on the edit). */
export type EditFaultKind = Exclude<FaultKind, 'repeat' | 'cut-off'>;

/**
 * The formats each kind can be carried by. Elision is a rewriting habit (whole files, replace blocks);
 * a search block only exists in search-replace; hunk headers and context lines only in a diff.
 */
export const FAULT_FORMATS: Record<FaultKind, readonly EditFormatName[]> = {
  elide: ['whole-file', 'search-replace'],
  reindent: ['search-replace', 'unified-diff'],
  'near-miss-search': ['search-replace'],
  'diff-header': ['unified-diff'],
  'diff-whitespace': ['unified-diff'],
  'wrong-path': ['whole-file', 'search-replace', 'unified-diff'],
  'test-path': ['whole-file', 'search-replace', 'unified-diff'],
  'unrelated-change': ['whole-file', 'search-replace', 'unified-diff'],
  'no-op': ['whole-file', 'search-replace', 'unified-diff'],
  'cut-off': ['whole-file', 'search-replace', 'unified-diff'],
  repeat: ['whole-file', 'search-replace', 'unified-diff'],
};

/** What `repeat` picks from: the kinds Lathe has to refuse (the repairable ones would just be repaired again). */
export const REPEATABLE_KINDS: readonly FaultKind[] = [
  'elide',
  'near-miss-search',
  'wrong-path',
  'test-path',
  'unrelated-change',
  'no-op',
  'cut-off',
];

/** The order the kinds are applied in when an answer carries several: whole-answer rewrites first, the cut last. */
export const APPLY_ORDER: readonly EditFaultKind[] = [
  'no-op',
  'unrelated-change',
  'test-path',
  'elide',
  'reindent',
  'near-miss-search',
  'diff-header',
  'diff-whitespace',
  'wrong-path',
];

/** `mixed[:RATE]` in a fault list: every kind but repeat, at RATE (default 0.3). */
export const MIXED = 'mixed';
const MIXED_RATE = 0.3;

export const FaultRateSchema = z.object({ kind: FaultKindSchema, rate: z.number().min(0).max(1) });
export type FaultRate = z.infer<typeof FaultRateSchema>;

/** What the oracle spoils and how: carried by its model spec (`oracle:PATCH#faults=…`, see faultSpec.ts). */
export const FaultSettingsSchema = z.object({
  faults: z.array(FaultRateSchema).min(1),
  seed: z.number().int().nonnegative(),
  /** The corpus task id: part of every decision, so two tasks with the same step ids are spoiled differently. */
  task: z.string(),
  /** Drop a defect only once the writer's request names it (else it is repeated). */
  feedbackCheck: z.boolean(),
  /** Where the provider appends one JSON line per writer answer (what it carried); null: nowhere. */
  journal: z.string().nullable(),
});
export type FaultSettings = z.infer<typeof FaultSettingsSchema>;

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** `KIND[:RATE][,KIND[:RATE]…]` (RATE 0..1, default 1); `mixed[:RATE]` stands for every kind but repeat. */
export function parseFaultList(text: string): Parsed<FaultRate[]> {
  const faults: FaultRate[] = [];
  for (const item of text.split(',').map((part) => part.trim())) {
    if (item === '')
      return { ok: false, message: `'${text}' has an empty fault kind (write KIND[:RATE],… e.g. elide:0.5,cut-off)` };
    const [name = '', rateText, ...extra] = item.split(':');
    if (extra.length > 0) return { ok: false, message: `'${item}' has more than one ':' (write KIND[:RATE])` };
    const rate = rateText === undefined ? (name === MIXED ? MIXED_RATE : 1) : Number(rateText);
    if (rateText !== undefined && (rateText.trim() === '' || !Number.isFinite(rate) || rate < 0 || rate > 1)) {
      return { ok: false, message: `the rate of '${item}' must be a number from 0 to 1` };
    }
    const kinds: FaultKind[] = name === MIXED ? FAULT_KINDS.filter((kind) => kind !== 'repeat') : [];
    if (name !== MIXED) {
      const kind = FaultKindSchema.safeParse(name);
      if (!kind.success)
        return { ok: false, message: `unknown fault kind '${name}' (${FAULT_KINDS.join(', ')}, or ${MIXED})` };
      kinds.push(kind.data);
    }
    for (const kind of kinds) {
      if (faults.some((fault) => fault.kind === kind))
        return { ok: false, message: `fault kind '${kind}' is given twice in '${text}'` };
      faults.push({ kind, rate });
    }
  }
  return { ok: true, value: faults };
}

export function formatFaultList(faults: readonly FaultRate[]): string {
  return faults.map((fault) => (fault.rate === 1 ? fault.kind : `${fault.kind}:${fault.rate}`)).join(',');
}
