/**
 * Parses the common subset of JSON-schema `pattern` regexes (literals, classes, groups, alternation,
 * quantifiers, ^/$ anchors) into a small AST. Anything outside the subset throws `Unsupported`.
 */

export type Range = readonly [number, number];
export type RegexNode =
  | { kind: 'chars'; ranges: Range[] }
  | { kind: 'seq'; items: RegexNode[] }
  | { kind: 'alt'; options: RegexNode[] }
  | { kind: 'repeat'; node: RegexNode; min: number; max: number | null };

export const BMP_MAX = 0xffff;
const DIGITS: Range[] = [[0x30, 0x39]];
const WORD: Range[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
const SPACE: Range[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
];
const LINE_TERMINATORS: Range[] = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];

export class Unsupported extends Error {}

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
      if (
        this.peek() === '-' &&
        this.peek(1) !== ']' &&
        this.peek(1) !== undefined &&
        loRanges.length === 1 &&
        loRanges[0]?.[0] === loRanges[0]?.[1]
      ) {
        this.pos++;
        const hiRanges = this.classAtom();
        const lo = loRanges[0]?.[0] ?? 0;
        const hi = hiRanges[0]?.[0] ?? 0;
        if (hiRanges.length !== 1 || hiRanges[0]?.[0] !== hiRanges[0]?.[1] || hi < lo)
          throw new Unsupported('bad class range');
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
      case 'd':
        return DIGITS;
      case 'D':
        return complementRanges(DIGITS);
      case 'w':
        return WORD;
      case 'W':
        return complementRanges(WORD);
      case 's':
        return SPACE;
      case 'S':
        return complementRanges(SPACE);
      case 'n':
        return [[0x0a, 0x0a]];
      case 'r':
        return [[0x0d, 0x0d]];
      case 't':
        return [[0x09, 0x09]];
      case 'f':
        return [[0x0c, 0x0c]];
      case 'v':
        return [[0x0b, 0x0b]];
      case '0':
        return [[0, 0]];
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
        if (/[0-9]/.test(char) || char === 'B' || char === 'p' || char === 'P' || char === 'k' || char === 'c')
          throw new Unsupported(`\\${char}`);
        return [[char.charCodeAt(0), char.charCodeAt(0)]];
    }
  }
}

/** Anchors are honoured per top-level alternative; an unanchored side may hold any characters. */
export function parsePattern(pattern: string): RegexNode {
  return new RegexParser(stripAnchors(pattern)).parse();
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
