import type { EditFormatName } from '../../../edits/types';
import { splitLines } from '../applyGold';
import type { GoldFile, PatchLine } from '../goldPatch';
import type { VisibleFile } from '../visibleFile';
import type { Random } from './random';

/** A writer's answer, tagged by its format (the proposal value is the same without the tag). */
export type WriterAnswer =
  | { format: 'whole-file'; edits: { path: string; content: string }[] }
  | { format: 'search-replace'; edits: { path: string; search: string; replace: string }[] }
  | { format: 'unified-diff'; diff: string };

/** 1-based, inclusive line range of a file. */
export type LineRange = readonly [number, number];

/** What a spoiled answer must be told about before the model stops repeating it (evidence.ts). */
export type FaultEvidence =
  | { kind: 'elide'; placeholder: string }
  | { kind: 'near-miss-search'; path: string; ranges: LineRange[] }
  | { kind: 'wrong-path'; path: string; wrongPath: string }
  | { kind: 'test-path'; testPath: string }
  | { kind: 'unrelated-change'; path: string; range: LineRange }
  | { kind: 'no-op' }
  | { kind: 'cut-off'; maxTokens: number; format: EditFormatName }
  | { kind: 'reindent' | 'diff-header' | 'diff-whitespace'; path: string };

/** What a spoiler sees: the correct (or already spoiled) answer and what the writer's request shows. */
export interface SpoilInput {
  answer: WriterAnswer;
  /** The files the request's context shows. */
  files: ReadonlyMap<string, VisibleFile>;
  /** The gold files of the writer's task. */
  gold: readonly GoldFile[];
  /** The request's `feedback`, null on a first attempt without one. */
  feedback: string | null;
  /** The texts of the other context items (repository maps): paths a model could name. */
  notes: readonly string[];
  random: Random;
}

export type SpoilResult = { ok: true; answer: WriterAnswer; evidence: FaultEvidence } | { ok: false; reason: string };

export type Spoiler = (input: SpoilInput) => SpoilResult;

export const notApplicable = (reason: string): SpoilResult => ({ ok: false, reason });

/** A run of a file's lines the request shows, from its 0-based line (a whole file is one run from 0). */
export interface ShownRun {
  start: number;
  lines: PatchLine[];
}

export function shownRuns(view: VisibleFile | undefined): ShownRun[] {
  if (!view) return [];
  return view.whole
    ? [{ start: 0, lines: splitLines(view.content) }]
    : view.segments.map((segment) => ({ start: segment.start, lines: [...segment.lines] }));
}

/** The comment a placeholder is written as, in the file's language. */
export function commentLeader(path: string): string {
  return /\.(py|pyi|sh|bash|rb|ya?ml|toml|cfg|ini|r|pl)$/i.test(path) ? '#' : '//';
}

export function placeholderLine(path: string, indent: string, eol: string): string {
  return `${indent}${commentLeader(path)} ... existing code ...${eol}`;
}

/** `text` as a literal inside a regular expression. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const indentOf = (line: string): string => /^[ \t]*/.exec(line)?.[0] ?? '';
export const eolOf = (line: string): string => (line.endsWith('\r\n') ? '\r\n' : line.endsWith('\n') ? '\n' : '');
export const isBlank = (line: string): boolean => line.trim() === '';

/** The lines a gold file's hunks touch, 0-based in the file before the fix, context lines included. */
export function goldSpans(file: GoldFile): { start: number; end: number }[] {
  return file.hunks.map((hunk) => ({ start: hunk.oldIndex, end: hunk.oldIndex + Math.max(hunk.before.length, 1) }));
}

/** Whether the 0-based half-open span [start, end) keeps `margin` lines away from every gold hunk. */
export function awayFromGold(file: GoldFile | undefined, start: number, end: number, margin: number): boolean {
  if (!file) return true;
  if (file.kind !== 'modify') return false;
  return goldSpans(file).every((span) => end + margin <= span.start || start >= span.end + margin);
}

export function proposalOf(answer: WriterAnswer): Record<string, unknown> {
  if (answer.format === 'unified-diff') return { diff: answer.diff };
  return { edits: answer.edits.map((edit) => ({ ...edit })) };
}

/** The oracle's proposal value read back as a tagged answer (null when it is none of the formats' shapes). */
export function answerOf(format: EditFormatName, proposal: unknown): WriterAnswer | null {
  const value = typeof proposal === 'object' && proposal !== null ? (proposal as Record<string, unknown>) : {};
  if (format === 'unified-diff') return typeof value.diff === 'string' ? { format, diff: value.diff } : null;
  if (!Array.isArray(value.edits)) return null;
  const edits = value.edits.map((edit: unknown) =>
    typeof edit === 'object' && edit !== null ? (edit as Record<string, unknown>) : {},
  );
  if (format === 'whole-file') {
    if (!edits.every((edit) => typeof edit.path === 'string' && typeof edit.content === 'string')) return null;
    return { format, edits: edits.map((edit) => ({ path: String(edit.path), content: String(edit.content) })) };
  }
  if (
    !edits.every(
      (edit) => typeof edit.path === 'string' && typeof edit.search === 'string' && typeof edit.replace === 'string',
    )
  )
    return null;
  return {
    format,
    edits: edits.map((edit) => ({
      path: String(edit.path),
      search: String(edit.search),
      replace: String(edit.replace),
    })),
  };
}
