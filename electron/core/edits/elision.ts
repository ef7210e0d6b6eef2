import { changeBlocks, splitLines } from './lineDiff';

/**
 * Lines a model writes in place of code it did not copy (`// ... existing code ...`, `# rest of the
 * file unchanged`, a lone `...`). Committed, they delete that code. Only new lines are judged, and a
 * lone ellipsis only where the answer dropped lines at that spot: Python's `...` and JS spread are code.
 */
export interface ElidedLine {
  /** 1-based, in the new content. */
  line: number;
  text: string;
}

type Placeholder = 'phrase' | 'ellipsis' | 'ellipsis-code';

/** A whole line that is a comment, in the syntaxes of JS/TS/C/Go/Rust, Python/Ruby/shell, SQL/Lua, Lisp, HTML/Markdown, JSX. */
const COMMENT = /^(?:\/\/+|#+|--|;+|\/\*+|<!--|\{\/\*+)\s*(.*?)\s*(?:\*+\/\}?|-->)?$/;
/** A line of bare prose between ellipses or brackets, as in `... existing code ...` or `(unchanged)`. */
const BARE_PROSE = /^[.…\s]*[([{]?[.…\s]*[A-Za-z][A-Za-z\s,'’]*[.…\s]*[)\]}]?[.…\s]*$/;
const ELLIPSIS = /\.{3,}|…|\. \. \./;
/** Nouns for what a placeholder stands for. */
const CODE_NOUN =
  '(?:code|file|module|class|function|functions|method|methods|implementation|body|content|contents|logic|imports|tests?|lines|definitions|helpers|handlers|routes|exports|fields|properties|component|script|program|jsx|markup|html|styles|props|config)';
/** What "the rest of" must name to stand for code: "the rest of the lines" is often about data. */
const WHOLE_NOUN =
  '(?:code|file|module|class|function|functions|method|methods|implementation|body|imports|component|script|program)';
/** What a placeholder says is kept: the code, the rest, everything else, the other methods. */
const SUBJECT = `(?:the |all |your )?(?:rest|everything(?: else)?|others?|remaining \\w+|other \\w+|(?:\\w+ )?${CODE_NOUN})`;
const SAME = '(?:the same|unchanged|unmodified|untouched|as (?:it is|is|before|it was))';

/**
 * A placeholder's own wording, anchored where a placeholder puts it: "keep the rest of" a value or
 * "the list is returned unchanged" are comments about code, not in place of it.
 */
const PHRASES: RegExp[] = [
  new RegExp(
    `^(?:(?:keep|keeps|the|your|all|other|rest of(?: the)?|with|plus|and)\\s)*existing (?:\\w+ )?${CODE_NOUN}\\b`,
  ),
  new RegExp(
    `^(?:(?:the|and|plus|with|keep|keeps)\\s)*(?:rest|remainder) of (?:the |this )?(?:\\w+ )?${WHOLE_NOUN}\\b`,
  ),
  new RegExp(`^${SUBJECT}(?: \\w+){0,4} (?:(?:remains?|stays?|is|are|left|kept) )?${SAME}(?: (?:here|below|above))?$`),
  /\bfor brevity\b/,
  new RegExp(
    `^${SUBJECT}(?: (?:is|are))? omitted(?: (?:here|below|above|for brevity))?$|^omitted(?: (?:here|${CODE_NOUN}))?$`,
  ),
  /^same as (?:before|the original|original|existing)$/,
  /^(?:no (?:other )?changes?|nothing changed) (?:below|above|beyond this(?: point)?|after this(?: point)?)$/,
];
/**
 * Between ellipses or brackets, shorter words stand for code too; alone, "// no change" or
 * "# unchanged" mark a branch that does nothing on purpose.
 */
const WRAPPED_PHRASES: RegExp[] = [
  new RegExp(
    `\\b(?:previous|original|other|remaining|more|your|same) ${CODE_NOUN}\\b|\\b${CODE_NOUN} (?:here|continues|goes here|as before)\\b`,
  ),
  /^(?:unchanged|unmodified|untouched|snip|snipped)$/,
  /^(?:no (?:other )?changes?|nothing changed)(?: (?:here|needed|made))?$/,
];

/** Words a placeholder is made of; a comment with more than one word outside them says something else. */
const VOCABULARY = new Set(
  (
    'a an the of in this that these those it its all and or to for from with as at be is are was were will should ' +
    'code file module class function functions method methods implementation body content contents logic imports import ' +
    'test tests line lines definitions definition helpers helper handlers handler routes exports fields properties component script program jsx markup html styles props config ' +
    'existing rest remainder remaining other others previous original same unchanged unmodified untouched omitted brevity snip snipped ' +
    'here below above before after remains remain stays stay kept keep left goes go continues everything else no change changes changed ' +
    'nothing needed made beyond point etc your my our as-is'
  ).split(' '),
);

/** Outside a comment only `...`, `[...]` or prose between ellipses or brackets; `...args,` is a spread. */
function isBarePlaceholder(trimmed: string): boolean {
  if (/^[([{]?\s*(?:\.{3}|…)\s*[)\]}]?$/.test(trimmed)) return true;
  if (/^\.{3}[A-Za-z_$][\w$]*\s*[,)\]}]*$/.test(trimmed)) return false;
  return BARE_PROSE.test(trimmed) && (ELLIPSIS.test(trimmed) || /^[([].*[)\]]$/.test(trimmed));
}

function classify(trimmed: string): { kind: Placeholder; comment: boolean } | null {
  const comment = COMMENT.exec(trimmed);
  const body = comment ? (comment[1] ?? '') : trimmed;
  if (!comment && !isBarePlaceholder(trimmed)) return null;
  const hasEllipsis = ELLIPSIS.test(body);
  const wrapped = hasEllipsis || /^[([].*[)\]]$/.test(body);
  const words = body
    .replace(/\.{2,}|…/g, ' ')
    .replace(/[()[\]{}<>:;,.!?*=~`"'’-]/g, ' ')
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean);
  if (words.length === 0)
    return hasEllipsis ? { kind: comment ? 'ellipsis' : 'ellipsis-code', comment: Boolean(comment) } : null;
  const prose = words.join(' ');
  const foreign = words.filter((word) => !VOCABULARY.has(word)).length;
  if (words.length <= 12 && foreign <= 1) {
    if (PHRASES.some((phrase) => phrase.test(prose))) return { kind: 'phrase', comment: Boolean(comment) };
    if (wrapped && WRAPPED_PHRASES.some((phrase) => phrase.test(prose)))
      return { kind: 'phrase', comment: Boolean(comment) };
  }
  // `// ... validate the input ...`: prose wrapped in ellipses on both sides stands for code not written.
  if (comment && /^(?:\.{3}|…)/.test(body) && /(?:\.{3}|…)$/.test(body)) return { kind: 'ellipsis', comment: true };
  return null;
}

function nonBlank(lines: readonly string[], start: number, count: number): number {
  let found = 0;
  for (let index = start; index < start + count; index++) if ((lines[index] ?? '').trim() !== '') found++;
  return found;
}

/** The first placeholder line of `after`, or null; `before` is the file as it is (null for a new file). */
export function findElidedLine(before: string | null, after: string): ElidedLine | null {
  const afterLines = splitLines(after);
  const beforeLines = before === null ? [] : splitLines(before);
  const existing = new Set(beforeLines.map((line) => line.trim()));
  let blocks: ReturnType<typeof changeBlocks> | null = null;
  for (const [index, line] of afterLines.entries()) {
    const trimmed = line.trim();
    if (trimmed === '' || existing.has(trimmed)) continue;
    const found = classify(trimmed);
    if (!found) continue;
    if (found.kind === 'phrase') return { line: index + 1, text: trimmed };
    blocks ??= changeBlocks(beforeLines, afterLines);
    const block = blocks.find(
      (candidate) => index >= candidate.newStart && index < candidate.newStart + candidate.added,
    );
    const dropped = block ? nonBlank(beforeLines, block.oldStart, block.removed) : 0;
    // A bare `...` is a Python statement: it stands for code only where it took the place of two lines or more.
    if (dropped >= (found.kind === 'ellipsis-code' ? 2 : 1)) return { line: index + 1, text: trimmed };
  }
  return null;
}

/** The `elided-code` refusal, word for word (a fault simulator matches it). */
export function elidedCodeMessage(found: ElidedLine): string {
  const shown = found.text.length > 200 ? `${found.text.slice(0, 200)}…` : found.text;
  return `line ${found.line} of your answer is a placeholder ("${shown}"), not code: write out every line you keep, exactly as it is`;
}
