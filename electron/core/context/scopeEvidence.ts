import path from 'node:path';
import type { ScopeEvidence } from '../../../shared/schemas/scope';
import { queryWords, subtokens } from './querySignals';

/** The evidence read once: its words (whole and split into sub-tokens), its files and its raw text. */
export interface EvidenceIndex {
  /** Whole identifiers and words, leading and trailing `_`/`$` dropped, first letter in lower case. */
  words: ReadonlySet<string>;
  /** The sub-tokens of every identifier, in order (`running_min` → running, min); prose words are not split. */
  parts: readonly string[][];
  files: ReadonlySet<string>;
  /** Whether the caller said which files are in play (see ScopeEvidence.files). */
  hasFiles: boolean;
  /** The task speaks of documentation, comments, typos or style: then comment changes are its point, not noise. */
  aboutDocs: boolean;
  /** The task is a refactor or a cleanup: comments beside the code it reshapes go with it. */
  aboutRefactor: boolean;
  text: string;
}

/**
 * A name as it is compared: affixes dropped and the first letter's case ignored (a sentence may start with
 * `Compose`), the rest kept: `sendfile` does not name `sendFile`, a different method of the same object.
 */
/** Words of a task about documentation or style, where a comment or layout change is the point. */
const DOC_WORDS =
  /\b(docs?|docstrings?|doctests?|documentation|documents?|documented|jsdocs?|tsdoc|comments?|commented|typos?|spelling|misspel\w*|grammar|wording|readme|markup|whitespace|spacing|linespacing|indentation|formatting|style|lint|linter|pep8|flake8|eslint|prettier)\b/i;

/** Words of a task that reshapes code rather than fixing one behaviour. */
const REFACTOR_WORDS = /\b(refactor\w*|rewrit\w*|restructur\w*|simplif\w*|clean[\s-]?up|reorganiz\w*|overhaul\w*)\b/i;

/** Words of a comment change worth comparing with the evidence: not the stopwords, three letters or more. */
export function meaningfulWords(text: string): Set<string> {
  return new Set(
    queryWords(text)
      .filter((word) => word.length >= 3)
      .map((word) => bare(word)),
  );
}

/** An identifier's sub-tokens in order, without the whole word `subtokens` appends. */
const pieces = (word: string) => {
  const all = subtokens(word);
  return all.length > 1 ? all.slice(0, -1) : all;
};

/** The longest run of pieces two names share, in the same order: `running_min` shares 2 with `_windowed_running_min`, `joinRelativeURL` 1 with `joinURL`. */
function sharedRun(a: readonly string[], b: readonly string[]): number {
  let best = 0;
  for (let i = 0; i < a.length; i++)
    for (let j = 0; j < b.length; j++) {
      let run = 0;
      while (a[i + run] !== undefined && a[i + run] === b[j + run]) run++;
      best = Math.max(best, run);
    }
  return best;
}

const bare = (word: string) => {
  const core = word.replace(/^[_$]+|[_$]+$/g, '');
  return core.charAt(0).toLowerCase() + core.slice(1);
};
/** `running_min`, `parseURL`, `__eq__`: a word that can only be code, whose pieces mean something apart. */
const isIdentifier = (word: string) => /[_$]|[a-z][A-Z]|[A-Z]{2}[a-z]/.test(word.replace(/^[_$]+|[_$]+$/g, ''));

export function indexEvidence(evidence: ScopeEvidence): EvidenceIndex {
  const text = evidence.texts.join('\n');
  const words = new Set<string>();
  const parts: string[][] = [];
  for (const word of queryWords(text)) {
    words.add(bare(word));
    // "matching the sibling checks" does not name `_group_matching`; `group_matching` would.
    if (isIdentifier(word)) parts.push(pieces(word));
  }
  const files = new Set(evidence.files.map((file) => file.replace(/^\.\//, '')));
  const about = evidence.about ? evidence.about.join('\n') : text;
  return {
    words,
    parts,
    files,
    hasFiles: files.size > 0,
    aboutDocs: DOC_WORDS.test(about),
    aboutRefactor: REFACTOR_WORDS.test(about),
    text,
  };
}

/**
 * Whether the evidence names an identifier: its last component (`res.send` → send) as a word, or, for
 * a compound name, a run of more than half of its pieces in one identifier of the evidence
 * (`_windowed_running_min` is named by "running_min", `joinURL` is not by "joinRelativeURL").
 */
export function namesIdentifier(index: EvidenceIndex, identifier: string): boolean {
  const leaf = identifier.split('.').pop() ?? identifier;
  const whole = bare(leaf);
  if (whole.length < 2) return false;
  if (index.words.has(whole)) return true;
  const own = pieces(leaf);
  return own.length >= 2 && index.parts.some((other) => sharedRun(own, other) * 2 > own.length);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** How the evidence names a file: listed in `files`, or its path or file name written in a text. */
export function namesFile(index: EvidenceIndex, file: string): 'listed' | 'written' | null {
  if (index.files.has(file)) return 'listed';
  // A path in a stack frame follows a `/` (`/repo/lib/response.js:12`), so a slash may precede a name.
  const written = (name: string) => new RegExp(`(^|[^\\w.-])${escape(name)}($|[^\\w/-])`).test(index.text);
  return written(file) || written(path.posix.basename(file)) ? 'written' : null;
}

/** A rename the task asks for names both names as words ("rename total to sum"); one common word ("url") is not enough. */
export function namesRename(index: EvidenceIndex, pairs: readonly (readonly [string, string])[]): boolean {
  return pairs.some(([old, renamed]) => index.words.has(bare(old)) && index.words.has(bare(renamed)));
}
