/**
 * GBNF (llama.cpp's grammar format) parsed into the alternatives and character classes the matcher walks.
 * It reads what Lathe's compiler writes and what people write (comments, groups over several lines); a
 * construct it does not know is a parse error, never a guess.
 */

export type Range = readonly [number, number];

export interface CharElement {
  readonly kind: 'chars';
  readonly ranges: readonly Range[];
  readonly negated: boolean;
}

/** A parenthesised group, a rule reference or a repeated item: alternatives taken min..max times. */
export interface GroupElement {
  readonly kind: 'group';
  readonly alternatives: readonly Sequence[];
  readonly min: number;
  readonly max: number;
}

export type Element = CharElement | GroupElement;
export type Sequence = readonly Element[];

export type GbnfParseResult = { ok: true; grammar: ParsedGrammar } | { ok: false; message: string };

export interface ParsedGrammar {
  readonly root: GroupElement;
  /** The sequences of the layout rule (`sp`): whitespace JSON does not need, its choice made once per answer. */
  readonly layout: ReadonlySet<Sequence>;
}

const NAME = /[A-Za-z0-9_-]/;

class GbnfParser {
  private index = 0;
  private readonly rules = new Map<string, Sequence[]>();

  constructor(private readonly source: string) {}

  parse(rootName: string, layoutRule: string): ParsedGrammar {
    // Names first, so a body may refer to a rule defined below it.
    for (const match of this.source.matchAll(/^[ \t]*([A-Za-z0-9_-]+)[ \t]*::=/gm)) {
      const name = match[1] as string;
      if (this.rules.has(name)) throw new Error(`rule ${name} defined twice`);
      this.rules.set(name, []);
    }
    this.skipSpace(true);
    while (this.index < this.source.length) {
      const name = this.name();
      this.skipSpace(false);
      if (!this.source.startsWith('::=', this.index)) throw new Error(`expected ::= after ${name}`);
      this.index += 3;
      this.rules.get(name)?.push(...this.alternatives(false));
      this.skipSpace(false);
      const end = this.source[this.index];
      if (end !== undefined && end !== '\n') throw new Error(`unexpected ${JSON.stringify(end)} at ${this.index}`);
      this.skipSpace(true);
    }
    const root = this.rules.get(rootName);
    if (!root) throw new Error(`no rule ${rootName}`);
    const layout = new Set<Sequence>();
    const collect = (sequences: readonly Sequence[]) => {
      for (const sequence of sequences) {
        if (layout.has(sequence)) continue;
        layout.add(sequence);
        for (const element of sequence) if (element.kind === 'group') collect(element.alternatives);
      }
    };
    collect(this.rules.get(layoutRule) ?? []);
    return { root: { kind: 'group', alternatives: root, min: 1, max: 1 }, layout };
  }

  /** `nested`: inside parentheses, where a rule may go on over several lines. */
  private alternatives(nested: boolean): Sequence[] {
    const alternatives: Sequence[] = [this.sequence(nested)];
    while (this.source[this.index] === '|') {
      this.index++;
      this.skipSpace(true);
      alternatives.push(this.sequence(nested));
    }
    return alternatives;
  }

  private sequence(nested: boolean): Sequence {
    const items: Element[] = [];
    for (;;) {
      this.skipSpace(nested);
      const char = this.source[this.index];
      if (char === undefined || char === '|' || char === ')' || char === '\n') break;
      items.push(...this.postfix(this.atom()));
    }
    return items;
  }

  /** An atom as the elements it stands for: a literal is one element per character. */
  private atom(): Element[] {
    const char = this.source[this.index];
    if (char === '"') return this.literal();
    if (char === '[') return [this.charClass()];
    if (char === '.') {
      this.index++;
      return [{ kind: 'chars', ranges: [], negated: true }];
    }
    if (char === '(') {
      this.index++;
      const alternatives = this.alternatives(true);
      this.skipSpace(true);
      if (this.source[this.index] !== ')') throw new Error(`expected ) at ${this.index}`);
      this.index++;
      return [{ kind: 'group', alternatives, min: 1, max: 1 }];
    }
    if (char !== undefined && NAME.test(char)) {
      const name = this.name();
      const alternatives = this.rules.get(name);
      if (!alternatives) throw new Error(`undefined rule ${name}`);
      return [{ kind: 'group', alternatives, min: 1, max: 1 }];
    }
    throw new Error(`unexpected ${JSON.stringify(char)} at ${this.index}`);
  }

  private postfix(atom: Element[]): Element[] {
    const char = this.source[this.index];
    let min: number;
    let max: number;
    if (char === '?') [min, max] = [0, 1];
    else if (char === '*') [min, max] = [0, Infinity];
    else if (char === '+') [min, max] = [1, Infinity];
    else if (char === '{') {
      const match = /^\{\s*(\d+)\s*(,\s*(\d*)\s*)?\}/.exec(this.source.slice(this.index, this.index + 40));
      if (!match) throw new Error(`bad repetition at ${this.index}`);
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
      if (max < min) throw new Error(`repetition {${min},${max}} at ${this.index}`);
      this.index += match[0].length - 1;
    } else return atom;
    this.index++;
    return [{ kind: 'group', alternatives: [atom], min, max }];
  }

  private literal(): Element[] {
    this.index++;
    const elements: Element[] = [];
    for (;;) {
      const char = this.source[this.index];
      if (char === undefined || char === '\n') throw new Error('unterminated literal');
      if (char === '"') {
        this.index++;
        return elements;
      }
      const codePoint = this.character();
      elements.push({ kind: 'chars', ranges: [[codePoint, codePoint]], negated: false });
    }
  }

  private charClass(): CharElement {
    this.index++;
    let negated = false;
    if (this.source[this.index] === '^') {
      negated = true;
      this.index++;
    }
    const ranges: Range[] = [];
    while (this.source[this.index] !== ']') {
      if (this.index >= this.source.length) throw new Error('unterminated character class');
      const low = this.character();
      if (this.source[this.index] === '-' && this.source[this.index + 1] !== ']') {
        this.index++;
        const high = this.character();
        ranges.push([low, high]);
      } else ranges.push([low, low]);
    }
    this.index++;
    return { kind: 'chars', ranges, negated };
  }

  /** One character of a literal or class, escapes decoded. */
  private character(): number {
    const char = this.source.codePointAt(this.index) ?? 0;
    if (char !== 0x5c) {
      this.index += char > 0xffff ? 2 : 1;
      return char;
    }
    const escape = this.source[this.index + 1];
    const hexLength = escape === 'x' ? 2 : escape === 'u' ? 4 : escape === 'U' ? 8 : 0;
    if (hexLength > 0) {
      const digits = this.source.slice(this.index + 2, this.index + 2 + hexLength);
      if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== hexLength) throw new Error(`bad escape at ${this.index}`);
      this.index += 2 + hexLength;
      return parseInt(digits, 16);
    }
    this.index += 2;
    const simple: Record<string, number> = {
      n: 0x0a,
      r: 0x0d,
      t: 0x09,
      '\\': 0x5c,
      '"': 0x22,
      '[': 0x5b,
      ']': 0x5d,
      '-': 0x2d,
    };
    const decoded = escape === undefined ? undefined : simple[escape];
    if (decoded === undefined) throw new Error(`unknown escape \\${escape ?? ''}`);
    return decoded;
  }

  private name(): string {
    const start = this.index;
    while (this.index < this.source.length && NAME.test(this.source[this.index] ?? '')) this.index++;
    if (start === this.index) throw new Error(`expected a rule name at ${start}`);
    return this.source.slice(start, this.index);
  }

  private skipSpace(newlines: boolean): void {
    for (;;) {
      const char = this.source[this.index];
      if (char === ' ' || char === '\t' || char === '\r' || (newlines && char === '\n')) this.index++;
      else if (char === '#') {
        while (this.index < this.source.length && this.source[this.index] !== '\n') this.index++;
      } else return;
    }
  }
}

/** The compiler's layout rule (decision 74), whose choice the matcher learns from the answer (decision 75). */
export const LAYOUT_RULE = 'sp';

export function parseGbnf(source: string, rootName = 'root', layoutRule = LAYOUT_RULE): GbnfParseResult {
  try {
    return { ok: true, grammar: new GbnfParser(source).parse(rootName, layoutRule) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
