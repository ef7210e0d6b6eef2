/**
 * Converts the common subset of JSON-schema `pattern` regexes (literals, classes, groups, alternation,
 * quantifiers, ^/$ anchors) into a GBNF expression for a JSON string's *content*. The grammar accepts a
 * subset of what the regex accepts, so grammar output always matches; anything outside the subset
 * (lookaround, backreferences, \b, \p{…}) returns null and the caller falls back to a plain string.
 */

import { BMP_MAX, normalizeRanges, parsePattern, Unsupported, type Range, type RegexNode } from './regexParser';

/** JSON string escapes for the characters that cannot appear raw in a JSON string. */
const JSON_ESCAPES: ReadonlyArray<[number, string]> = [
  [0x22, '\\"'],
  [0x5c, '\\\\'],
  [0x08, '\\b'],
  [0x0c, '\\f'],
  [0x0a, '\\n'],
  [0x0d, '\\r'],
  [0x09, '\\t'],
];
const NOT_RAW_IN_JSON: Range[] = [
  [0x00, 0x1f],
  [0x22, 0x22],
  [0x5c, 0x5c],
];

const hex = (codePoint: number) =>
  codePoint <= 0xff ? `\\x${codePoint.toString(16).padStart(2, '0')}` : `\\u${codePoint.toString(16).padStart(4, '0')}`;
const classChar = (codePoint: number) =>
  /[A-Za-z0-9]/.test(String.fromCharCode(codePoint)) ? String.fromCharCode(codePoint) : hex(codePoint);

/** GBNF literal for text that must appear verbatim (already JSON-encoded). */
export function gbnfLiteral(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (code < 0x20 || code === 0x7f) out += hex(code);
    else out += char;
  }
  return `${out}"`;
}

/** GBNF for one JSON-string character drawn from `ranges` (BMP only, so lengths agree with JS). */
export function jsonCharsGbnf(ranges: readonly Range[]): string {
  const bmp = normalizeRanges(
    ranges.filter(([lo]) => lo <= BMP_MAX).map(([lo, hi]): Range => [lo, Math.min(hi, BMP_MAX)]),
  );
  const raw = normalizeRanges(bmp.flatMap(([lo, hi]) => subtract([lo, hi], NOT_RAW_IN_JSON)));
  const parts: string[] = [];
  if (raw.length > 0)
    parts.push(
      `[${raw.map(([lo, hi]) => (lo === hi ? classChar(lo) : `${classChar(lo)}-${classChar(hi)}`)).join('')}]`,
    );
  // One `\\` then a class, not one alternative per escape: llama.cpp keeps a parse stack per alternative
  // at every character of a string, and each live stack is another pass over the vocabulary.
  const escaped = JSON_ESCAPES.filter(([codePoint]) => bmp.some(([lo, hi]) => codePoint >= lo && codePoint <= hi));
  if (escaped.length > 0)
    parts.push(`"\\\\" [${escaped.map(([, escape]) => classChar(escape.codePointAt(1) ?? 0)).join('')}]`);
  if (parts.length === 0) throw new Unsupported('empty character set');
  return parts.length === 1 ? (parts[0] as string) : `(${parts.join(' | ')})`;
}

function subtract(range: Range, remove: readonly Range[]): Range[] {
  let pieces: Range[] = [range];
  for (const [rlo, rhi] of remove) {
    pieces = pieces.flatMap(([lo, hi]): Range[] => {
      if (rhi < lo || rlo > hi) return [[lo, hi]];
      const out: Range[] = [];
      if (rlo > lo) out.push([lo, rlo - 1]);
      if (rhi < hi) out.push([rhi + 1, hi]);
      return out;
    });
  }
  return pieces;
}

/** Any JSON string character (BMP), for unanchored pattern ends and plain strings. */
export const ANY_JSON_CHAR_RANGES: Range[] = [[0, BMP_MAX]];

function emit(node: RegexNode, cap: number): string {
  switch (node.kind) {
    case 'chars':
      return jsonCharsGbnf(node.ranges);
    case 'seq':
      return node.items.length === 0 ? '""' : node.items.map((item) => emit(item, cap)).join(' ');
    case 'alt':
      return `(${node.options.map((option) => emit(option, cap)).join(' | ')})`;
    case 'repeat': {
      const inner = emit(node.node, cap);
      const max = node.max ?? Math.max(cap, node.min);
      if (max === 0) return '""';
      if (node.min === 1 && max === 1) return inner;
      return `(${inner}){${node.min},${max}}`;
    }
  }
}

/** The longest string the node matches, or null when unbounded. */
function maxLengthOf(node: RegexNode): number | null {
  switch (node.kind) {
    case 'chars':
      return 1;
    case 'seq':
      return node.items.reduce<number | null>(
        (sum, item) => (sum === null ? null : ((length) => (length === null ? null : sum + length))(maxLengthOf(item))),
        0,
      );
    case 'alt':
      return node.options.reduce<number | null>(
        (best, option) =>
          best === null ? null : ((length) => (length === null ? null : Math.max(best, length)))(maxLengthOf(option)),
        0,
      );
    case 'repeat': {
      const inner = maxLengthOf(node.node);
      return node.max === null || inner === null ? (inner === 0 ? 0 : null) : inner * node.max;
    }
  }
}

export interface PatternGrammar {
  /** GBNF for the string content (without the surrounding quotes). */
  content: string;
  /** Longest match in characters, or null when unbounded. */
  maxLength: number | null;
}

/**
 * GBNF for strings matching `pattern`; unbounded repetitions are capped at `cap` characters.
 * Returns null when the pattern uses features outside the supported subset.
 */
export function patternToGbnf(pattern: string, cap: number): PatternGrammar | null {
  try {
    const node = parsePattern(pattern);
    return { content: emit(node, cap), maxLength: maxLengthOf(node) };
  } catch (error) {
    if (error instanceof Unsupported) return null;
    throw error;
  }
}

/** Longest string a pattern matches (null: unbounded or unsupported) — used by the bounds check. */
export function patternMaxLength(pattern: string): number | null {
  try {
    return maxLengthOf(parsePattern(pattern));
  } catch (error) {
    if (error instanceof Unsupported) return null;
    throw error;
  }
}
