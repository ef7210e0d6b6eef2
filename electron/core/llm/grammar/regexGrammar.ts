/**
 * Converts the common subset of JSON-schema `pattern` regexes (literals, classes, groups, alternation,
 * quantifiers, ^/$ anchors) into a GBNF expression for a JSON string's *content*. The grammar accepts a
 * subset of what the regex accepts, so grammar output always matches; anything outside the subset
 * (lookaround, backreferences, \b, \p{…}) returns null and the caller falls back to a plain string.
 */

type Range = readonly [number, number];
type RegexNode =
  | { kind: 'chars'; ranges: Range[] }
  | { kind: 'seq'; items: RegexNode[] }
  | { kind: 'alt'; options: RegexNode[] }
  | { kind: 'repeat'; node: RegexNode; min: number; max: number | null };

const BMP_MAX = 0xffff;
const DIGITS: Range[] = [[0x30, 0x39]];
const WORD: Range[] = [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]];
const SPACE: Range[] = [[0x09, 0x0d], [0x20, 0x20]];
const LINE_TERMINATORS: Range[] = [[0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]];

class Unsupported extends Error {}

export function normalizeRanges(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [lo, hi] of sorted) {
    const last = merged.at(-1);
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else merged.push([lo, hi]);
  }
  return merged;
}

export function complementRanges(ranges: readonly Range[], max = BMP_MAX): Range[] {
  const result: Range[] = [];
  let next = 0;
  for (const [lo, hi] of normalizeRanges(ranges)) {
    if (lo > next) result.push([next, Math.min(lo - 1, max)]);
    next = Math.max(next, hi + 1);
  }
  if (next <= max) result.push([next, max]);
  return result;
}

class RegexParser {
  private pos = 0;
  constructor(private readonly source: string) {}

  parse(): RegexNode {
    const node = this.alternation();
    if (this.pos < this.source.length) throw new Unsupported(`unexpected '${this.source[this.pos]}'`);
    return node;
  }

  private peek(offset = 0): string | undefined {
    return this.source[this.pos + offset];
  }

  private alternation(): RegexNode {
    const options = [this.sequence()];
    while (this.peek() === '|') {
      this.pos++;
      options.push(this.sequence());
    }
    return options.length === 1 ? (options[0] as RegexNode) : { kind: 'alt', options };
  }

  private sequence(): RegexNode {
    const items: RegexNode[] = [];
    while (this.pos < this.source.length && this.peek() !== '|' && this.peek() !== ')') {
      const atom = this.atom();
      items.push(this.quantifier(atom));
    }
    return items.length === 1 ? (items[0] as RegexNode) : { kind: 'seq', items };
  }

  private quantifier(atom: RegexNode): RegexNode {
    const char = this.peek();
    let min: number;
    let max: number | null;
    if (char === '*') [min, max] = [0, null];
    else if (char === '+') [min, max] = [1, null];
    else if (char === '?') [min, max] = [0, 1];
    else if (char === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.pos));
      if (!match) return atom;
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === '' ? null : Number(match[3]);
      this.pos += match[0].length - 1;
    } else return atom;
    this.pos++;
    if (this.peek() === '?') this.pos++; // lazy quantifiers match the same language
    if (max !== null && max < min) throw new Unsupported('quantifier range out of order');
    return { kind: 'repeat', node: atom, min, max };
  }

  private atom(): RegexNode {
    const char = this.peek();
    if (char === undefined) throw new Unsupported('unexpected end');
    this.pos++;
    if (char === '(') {
      if (this.peek() === '?') {
        if (this.peek(1) === ':') this.pos += 2;
        else if (this.peek(1) === '<' && this.peek(2) !== '=' && this.peek(2) !== '!') {
          const close = this.source.indexOf('>', this.pos);
          if (close < 0) throw new Unsupported('unterminated group name');
          this.pos = close + 1;
        } else throw new Unsupported('lookaround');
      }
      const inner = this.alternation();
      if (this.peek() !== ')') throw new Unsupported('unterminated group');
      this.pos++;
      return inner;
    }
    if (char === '[') return this.charClass();
    if (char === '.') return { kind: 'chars', ranges: complementRanges(LINE_TERMINATORS) };
    if (char === '\\') return { kind: 'chars', ranges: this.escape(false) };
    if (char === '^' || char === '$') throw new Unsupported('anchor inside the pattern');
    if (char === ')' || char === '*' || char === '+' || char === '?') throw new Unsupported(`unexpected '${char}'`);
    const codePoint = this.source.codePointAt(this.pos - 1) ?? 0;
    if (codePoint > 0xffff) this.pos++;
    return { kind: 'chars', ranges: [[codePoint, codePoint]] };
  }

  private charClass(): RegexNode {
    const negated = this.peek() === '^';
    if (negated) this.pos++;
    const ranges: Range[] = [];
    // As in JavaScript, `]` right after `[` or `[^` closes the class: `[^]` is any character.
    while (this.peek() !== ']') {
      const loRanges = this.classAtom();
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined && loRanges.length === 1 && loRanges[0]?.[0] === loRanges[0]?.[1]) {
        this.pos++;
        const hiRanges = this.classAtom();
        const lo = loRanges[0]?.[0] ?? 0;
        const hi = hiRanges[0]?.[0] ?? 0;
        if (hiRanges.length !== 1 || hiRanges[0]?.[0] !== hiRanges[0]?.[1] || hi < lo) throw new Unsupported('bad class range');
        ranges.push([lo, hi]);
      } else ranges.push(...loRanges);
      if (this.pos >= this.source.length) throw new Unsupported('unterminated class');
    }
    this.pos++;
    return { kind: 'chars', ranges: negated ? complementRanges(ranges) : normalizeRanges(ranges) };
  }

  private classAtom(): Range[] {
    const char = this.peek();
    if (char === undefined) throw new Unsupported('unterminated class');
    this.pos++;
    if (char === '\\') return this.escape(true);
    const codePoint = this.source.codePointAt(this.pos - 1) ?? 0;
    if (codePoint > 0xffff) this.pos++;
    return [[codePoint, codePoint]];
  }

  private escape(inClass: boolean): Range[] {
    const char = this.peek();
    if (char === undefined) throw new Unsupported('trailing backslash');
    this.pos++;
    switch (char) {
      case 'd': return DIGITS;
      case 'D': return complementRanges(DIGITS);
      case 'w': return WORD;
      case 'W': return complementRanges(WORD);
      case 's': return SPACE;
      case 'S': return complementRanges(SPACE);
      case 'n': return [[0x0a, 0x0a]];
      case 'r': return [[0x0d, 0x0d]];
      case 't': return [[0x09, 0x09]];
      case 'f': return [[0x0c, 0x0c]];
      case 'v': return [[0x0b, 0x0b]];
      case '0': return [[0, 0]];
      case 'x':
      case 'u': {
        const length = char === 'x' ? 2 : 4;
        const hex = this.source.slice(this.pos, this.pos + length);
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== length) throw new Unsupported('bad hex escape');
        this.pos += length;
        const value = parseInt(hex, 16);
        return [[value, value]];
      }
      case 'b':
        if (inClass) return [[0x08, 0x08]];
        throw new Unsupported('word boundary');
      default:
        if (/[0-9]/.test(char) || char === 'B' || char === 'p' || char === 'P' || char === 'k' || char === 'c') throw new Unsupported(`\\${char}`);
        return [[char.charCodeAt(0), char.charCodeAt(0)]];
    }
  }
}

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
const NOT_RAW_IN_JSON: Range[] = [[0x00, 0x1f], [0x22, 0x22], [0x5c, 0x5c]];

const hex = (codePoint: number) => (codePoint <= 0xff ? `\\x${codePoint.toString(16).padStart(2, '0')}` : `\\u${codePoint.toString(16).padStart(4, '0')}`);
const classChar = (codePoint: number) => (/[A-Za-z0-9]/.test(String.fromCharCode(codePoint)) ? String.fromCharCode(codePoint) : hex(codePoint));

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
  const bmp = normalizeRanges(ranges.filter(([lo]) => lo <= BMP_MAX).map(([lo, hi]): Range => [lo, Math.min(hi, BMP_MAX)]));
  const raw = normalizeRanges(bmp.flatMap(([lo, hi]) => subtract([lo, hi], NOT_RAW_IN_JSON)));
  const parts: string[] = [];
  if (raw.length > 0) parts.push(`[${raw.map(([lo, hi]) => (lo === hi ? classChar(lo) : `${classChar(lo)}-${classChar(hi)}`)).join('')}]`);
  for (const [codePoint, escape] of JSON_ESCAPES) {
    if (bmp.some(([lo, hi]) => codePoint >= lo && codePoint <= hi)) parts.push(gbnfLiteral(escape));
  }
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
      return node.items.reduce<number | null>((sum, item) => (sum === null ? null : ((length) => (length === null ? null : sum + length))(maxLengthOf(item))), 0);
    case 'alt':
      return node.options.reduce<number | null>((best, option) => (best === null ? null : ((length) => (length === null ? null : Math.max(best, length)))(maxLengthOf(option))), 0);
    case 'repeat': {
      const inner = maxLengthOf(node.node);
      return node.max === null || inner === null ? (inner === 0 ? 0 : null) : inner * node.max;
    }
  }
}

function parsePattern(pattern: string): RegexNode {
  // Anchors are honoured per top-level alternative; an unanchored side may hold any characters.
  const top = new RegexParser(stripAnchors(pattern)).parse();
  return top;
}

/** `^a|b$` → `(a.*)|(.*b)` expressed with explicit "any" runs; anchors elsewhere are unsupported. */
function stripAnchors(pattern: string): string {
  const alternatives = splitTopLevel(pattern);
  return alternatives
    .map((alternative) => {
      let body = alternative;
      const anchoredStart = body.startsWith('^');
      if (anchoredStart) body = body.slice(1);
      const anchoredEnd = body.endsWith('$') && !body.endsWith('\\$');
      if (anchoredEnd) body = body.slice(0, -1);
      return `${anchoredStart ? '' : '[^]*'}(?:${body})${anchoredEnd ? '' : '[^]*'}`;
    })
    .join('|');
}

function splitTopLevel(pattern: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      continue;
    }
    if (char === '[') inClass = true;
    else if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === '|' && depth === 0) {
      parts.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(pattern.slice(start));
  return parts;
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
