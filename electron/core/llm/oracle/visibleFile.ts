import type { PatchLine } from './goldPatch';

/** A run of a file's lines the context shows: from its 0-based line, each line with its own ending. */
export interface VisibleSegment {
  start: number;
  lines: PatchLine[];
}

/**
 * A file as the writer's context shows it: whole, byte for byte; or only some runs of its lines (a file
 * cut at a size limit, or an excerpt of the parts that matter), `how` saying which, for declines.
 */
export type VisibleFile = { whole: true; content: string } | { whole: false; segments: VisibleSegment[]; how: string };

export function wholeView(content: string): VisibleFile {
  return { whole: true, content };
}

/** The text of a whole view; null for a partial one. */
export function wholeText(view: VisibleFile | undefined): string | null {
  return view?.whole ? view.content : null;
}
