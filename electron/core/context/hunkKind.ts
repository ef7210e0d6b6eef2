import type { CodeToken, ParsedSource } from './codeTokens';
import type { FileSymbol } from './symbols';

/** One side of a file as the classifier reads it (an absent file: no lines, no symbols). */
export type FileSide = Pick<ParsedSource, 'lines' | 'symbols' | 'tokensIn'>;

/**
 * What a hunk does, as far as its tokens tell. `rename`, `comment` and `deletion` are the changes a fix
 * rarely needs (and a spoiled model often makes); `code` and `layout` are everything else.
 */
export type HunkKind =
  | { kind: 'code' }
  /** Only whitespace and blank lines change. */
  | { kind: 'layout' }
  /** Only comments or docstrings change (added, edited or deleted). */
  | { kind: 'comment' }
  /** The code is the same once these identifiers are renamed, old → new (comments may change too). */
  | { kind: 'rename'; pairs: [string, string][] }
  /** Removes whole definitions (with their comments), nothing else. */
  | { kind: 'deletion'; definitions: FileSymbol[] };

/** A hunk's line range on one side: `first` is 1-based, `count` may be 0 (an insertion or a deletion). */
export interface SideRange {
  first: number;
  count: number;
}

export const isFunction = (symbol: FileSymbol) => symbol.kind === 'function' || symbol.kind === 'method';

/** The symbols around a range, innermost first. An empty range sits between two lines and must be strictly inside. */
export function symbolsAround(side: FileSide, range: SideRange): FileSymbol[] {
  const last = range.first + range.count - 1;
  const inside = (symbol: FileSymbol) =>
    range.count === 0
      ? symbol.start < range.first && symbol.end >= range.first
      : symbol.start <= range.first && symbol.end >= last;
  return side.symbols.filter(inside).sort((a, b) => a.end - a.start - (b.end - b.start));
}

/** The definition a comment range sits just above (only blank or comment lines between), as a JSDoc sits above its function. */
export function definitionBelow(side: FileSide, range: SideRange): FileSymbol | null {
  if (range.count === 0) return null;
  const after = range.first + range.count;
  const next = side.symbols
    .filter((symbol) => symbol.start >= after)
    .sort((a, b) => a.start - b.start || b.end - a.end)[0];
  if (!next) return null;
  const between = side.tokensIn(after, next.start - after);
  return between.every((token) => token.isComment) ? next : null;
}

const code = (tokens: CodeToken[]) => tokens.filter((token) => !token.isComment);

function sameText(a: CodeToken[], b: CodeToken[]): boolean {
  return a.length === b.length && a.every((token, index) => token.text === b[index]?.text);
}

/** A comment's words without its spacing: a block comment is one token, so a re-indented JSDoc differs only here. */
const spacingFree = (tokens: CodeToken[]) =>
  tokens.map((token) => (token.isComment ? { ...token, text: token.text.replace(/\s+/g, ' ').trim() } : token));

/**
 * The first line of the one comment (a block comment, a docstring) that holds the whole range, or null.
 * An empty range sits between two lines and must be inside the comment on both.
 */
export function enclosingComment(side: FileSide, range: SideRange): number | null {
  const first = range.count === 0 ? range.first - 1 : range.first;
  const last = range.count === 0 ? range.first : range.first + range.count - 1;
  if (first < 1) return null;
  const tokens = side.tokensIn(first, last - first + 1);
  const [only] = tokens;
  return tokens.length === 1 && only?.isComment && only.start <= first && only.end >= last ? only.start : null;
}

/** The identifier pairs that turn `before` into `after`, when one consistent, one-to-one renaming does; else null. */
function renaming(before: CodeToken[], after: CodeToken[]): Map<string, string> | null {
  if (before.length !== after.length) return null;
  // Unchanged names map to themselves, so `a` kept in one place and renamed in another is no renaming.
  const forward = new Map<string, string>();
  const backward = new Map<string, string>();
  for (const [index, old] of before.entries()) {
    const renamed = after[index] as CodeToken;
    if (!old.isName || !renamed.isName) {
      if (old.text !== renamed.text) return null;
      continue;
    }
    if (old.isMember !== renamed.isMember) return null;
    // `this.app` and the local `app` are different names: renaming one leaves the other.
    const from = nameKey(old);
    const to = nameKey(renamed);
    if ((forward.get(from) ?? to) !== to || (backward.get(to) ?? from) !== from) return null;
    forward.set(from, to);
    backward.set(to, from);
  }
  const pairs = new Map([...forward].filter(([old, renamed]) => old !== renamed));
  return pairs.size > 0 ? pairs : null;
}

/** A name as the renaming keys it: members (`b` of `a.b`, a property key) as `.b`, apart from the variable `b`. */
export const nameKey = (token: CodeToken) => (token.isMember ? `.${token.text}` : token.text);

/** The names of the innermost function around a range (the whole file outside any), to tell a rename from a switch to another variable. */
function scopeNames(side: FileSide, range: SideRange): Set<string> {
  const scope = symbolsAround(side, range).find(isFunction);
  const tokens = scope ? side.tokensIn(scope.start, scope.end - scope.start + 1) : side.tokensIn(1, side.lines);
  return new Set(tokens.filter((token) => token.isName).map(nameKey));
}

/** Definitions wholly inside a deleted range that hold every line of code in it; null when some code is outside them. */
function deletedDefinitions(side: FileSide, range: SideRange, tokens: CodeToken[]): FileSymbol[] | null {
  const last = range.first + range.count - 1;
  const whole = side.symbols.filter(
    (symbol) =>
      symbol.kind !== 'variable' && symbol.kind !== 'type' && symbol.start >= range.first && symbol.end <= last,
  );
  const outermost = whole.filter(
    (symbol) => !whole.some((other) => other !== symbol && other.start <= symbol.start && other.end >= symbol.end),
  );
  if (outermost.length === 0) return null;
  return code(tokens).every((token) =>
    outermost.some((symbol) => token.start >= symbol.start && token.end <= symbol.end),
  )
    ? outermost
    : null;
}

export function hunkKind(before: FileSide, after: FileSide, oldRange: SideRange, newRange: SideRange): HunkKind {
  const oldTokens = before.tokensIn(oldRange.first, oldRange.count);
  const newTokens = after.tokensIn(newRange.first, newRange.count);
  const oldCode = code(oldTokens);
  const newCode = code(newTokens);
  if (sameText(oldCode, newCode))
    return sameText(spacingFree(oldTokens), spacingFree(newTokens)) ? { kind: 'layout' } : { kind: 'comment' };
  if (newRange.count === 0) {
    const definitions = deletedDefinitions(before, oldRange, oldTokens);
    if (definitions) return { kind: 'deletion', definitions };
  }
  const pairs = renaming(oldCode, newCode);
  if (!pairs) return { kind: 'code' };
  // A renamed name is fresh where it lands and gone where it left; `a` → `b` with `b` already in
  // scope is a switch to another variable, the most common one-token fix there is.
  const namesBefore = scopeNames(before, oldRange);
  const namesAfter = scopeNames(after, newRange);
  const definedBefore = new Set(before.symbols.map((symbol) => symbol.name.split('.').pop()));
  for (const [old, renamed] of pairs) {
    // `x.is_whitespace` → `x.is_newline` reads another attribute (renaming a member renames its
    // definition too); `QueryObject` → `ParsedQuery`, a type the file defines, switches to it.
    if (old.startsWith('.') || namesBefore.has(renamed) || namesAfter.has(old) || definedBefore.has(renamed))
      return { kind: 'code' };
  }
  return {
    kind: 'rename',
    pairs: [...pairs].map(([old, renamed]) => [old.replace(/^\./, ''), renamed.replace(/^\./, '')]),
  };
}
