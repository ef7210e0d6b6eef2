import type { EditFormatName } from '../../../edits/types';
import type { FaultEvidence, LineRange } from './spoil';

/** What a later writer request shows that could name a defect: its feedback, its answer budget, its format. */
export interface RetryView {
  feedback: string | null;
  maxTokens: number;
  format: EditFormatName;
}

const LINES = /\blines?\s+(\d+)(?:\s*(?:-|–|to)\s*(\d+))?/gi;

/** Whether the text cites a `line N` or `lines A-B` that overlaps `range`. */
export function citesLines(text: string, range: LineRange): boolean {
  return [...text.matchAll(LINES)].some((match) => {
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    return Math.min(from, to) <= range[1] && Math.max(from, to) >= range[0];
  });
}

/**
 * Whether the request names what was wrong with the spoiled answer, by the evidence each kind leaves
 * (docs/eval.md, "Faults"): as tolerant as Lathe's messages are written to be, and no more.
 */
export function isNamed(evidence: FaultEvidence, view: RetryView): boolean {
  const feedback = view.feedback ?? '';
  switch (evidence.kind) {
    case 'elide':
      return feedback.includes(evidence.placeholder.trim());
    case 'near-miss-search':
      return evidence.ranges.some((range) => citesLines(feedback, range));
    case 'wrong-path':
      return feedback.includes(evidence.path);
    case 'test-path':
      return feedback.includes(evidence.testPath);
    case 'unrelated-change':
      return feedback.includes(evidence.path) && citesLines(feedback, evidence.range);
    case 'no-op':
      return /changed nothing/i.test(feedback);
    case 'cut-off':
      return view.maxTokens > evidence.maxTokens || view.format !== evidence.format;
    case 'reindent':
    case 'diff-header':
    case 'diff-whitespace':
      // Lathe should repair these silently; when it refuses instead, naming the file is enough.
      return feedback.includes(evidence.path);
    default:
      return evidence satisfies never;
  }
}
