/**
 * A character-level matcher for the GBNF Lathe's compiler writes, run beside llama.cpp's own grammar: it
 * follows the text a model has produced and says which text the grammar forces next. llama.cpp stays the
 * one that enforces the grammar; this only predicts, so a construct it does not know makes it refuse to
 * parse (and the caller goes without), never accept text llama.cpp would reject.
 */

type Range = readonly [number, number];

interface CharElement {
  readonly kind: 'chars';
  readonly ranges: readonly Range[];
  readonly negated: boolean;
}

/** A parenthesised group, a rule reference or a repeated item: alternatives taken min..max times. */
interface GroupElement {
  readonly kind: 'group';
  readonly alternatives: readonly Sequence[];
  readonly min: number;
  readonly max: number;
}

type Element = CharElement | GroupElement;
type Sequence = readonly Element[];

/** One parse position: inside `sequence` at `position`, `count` iterations of that element done. */
interface Frame {
  readonly sequence: Sequence;
  readonly position: number;
  readonly count: number;
  readonly parent: Frame | null;
  readonly depth: number;
}

/** Deeper than any grammar the compiler writes; only left recursion gets here. */
const MAX_DEPTH = 256;

export type GbnfParseResult = { ok: true; grammar: ParsedGrammar } | { ok: false; message: string };

export interface ParsedGrammar {
  readonly root: GroupElement;
  /** The sequences of the layout rule (`sp`): whitespace JSON does not need, its choice made once per answer. */
  readonly layout: ReadonlySet<Sequence>;
}

export interface ForcedText {
  /** The characters every continuation starts with, up to the limit asked for. */
  text: string;
  /** After `text`, the grammar may end here (nothing more is required). */
  mayEnd: boolean;
  /** Some of the characters that may come after `text` (one per choice, at most four). */
  followers: string[];
}

/** The layout: whether an answer puts the optional space after `:` and `,`. */
export type LayoutChoice = 'space' | 'none';

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
    const simple: Record<string, number> = { n: 0x0a, r: 0x0d, t: 0x09, '\\': 0x5c, '"': 0x22, '[': 0x5b, ']': 0x5d, '-': 0x2d };
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

function matches(element: CharElement, codePoint: number): boolean {
  let inside = false;
  for (const [low, high] of element.ranges) {
    if (codePoint >= low && codePoint <= high) {
      inside = true;
      break;
    }
  }
  return inside !== element.negated;
}

/** The only code point `element` accepts, or null when it accepts more (or none). */
function singleCodePoint(element: CharElement): number | null {
  if (element.negated || element.ranges.length === 0) return null;
  const [first] = element.ranges;
  if (!first || first[0] !== first[1]) return null;
  return element.ranges.every(([low, high]) => low === first[0] && high === first[0]) ? first[0] : null;
}

/** A character the element accepts, for probing what may follow: the first of its first range. */
function sampleOf(element: CharElement): string {
  if (element.negated) return 'a';
  const [first] = element.ranges;
  return first ? String.fromCodePoint(first[0]) : '';
}

/** Identity of a frame chain for de-duplication; sequences are numbered as they are first met. */
class FrameKeys {
  private readonly sequenceIds = new Map<Sequence, number>();
  private readonly keys = new WeakMap<Frame, string>();

  key(frame: Frame | null): string {
    if (!frame) return '';
    const known = this.keys.get(frame);
    if (known !== undefined) return known;
    let id = this.sequenceIds.get(frame.sequence);
    if (id === undefined) {
      id = this.sequenceIds.size;
      this.sequenceIds.set(frame.sequence, id);
    }
    const key = `${id}.${frame.position}.${frame.count}/${this.key(frame.parent)}`;
    this.keys.set(frame, key);
    return key;
  }
}

interface Expansion {
  /** Parse stacks whose next element is a character class. */
  stacks: Frame[];
  /** The grammar may end here. */
  mayEnd: boolean;
}

/**
 * Follows text through the grammar, keeping every live parse stack (as llama.cpp does), and reports the
 * text the grammar forces next. Dead (`feed` returned false) means the text left the grammar.
 */
export class GbnfMatcher {
  private readonly keys = new FrameKeys();
  private state: Expansion;
  private dead = false;
  private layoutChoice: LayoutChoice | null = null;

  constructor(private readonly grammar: ParsedGrammar) {
    const start: Frame = { sequence: [grammar.root], position: 0, count: 0, parent: null, depth: 0 };
    this.state = this.expand([start]);
  }

  get isDead(): boolean {
    return this.dead;
  }

  /** The text so far is a whole sentence of the grammar (more may still follow). */
  get mayEnd(): boolean {
    return !this.dead && this.state.mayEnd;
  }

  /** The layout this answer chose the first time it had the choice; null before that. */
  get layout(): LayoutChoice | null {
    return this.layoutChoice;
  }

  /** The grammar is satisfied and allows nothing more. */
  get isComplete(): boolean {
    return !this.dead && this.state.mayEnd && this.state.stacks.length === 0;
  }

  /** Advances over `text`; false (and dead from then on) when the grammar does not allow it. */
  feed(text: string): boolean {
    if (this.dead) return false;
    for (const char of text) {
      const codePoint = char.codePointAt(0) ?? 0;
      if (this.layoutChoice === null) this.learnLayout(codePoint);
      const next = this.advance(this.state, codePoint);
      if (this.dead || (next.stacks.length === 0 && !next.mayEnd)) {
        this.dead = true;
        return false;
      }
      this.state = next;
    }
    return true;
  }

  /**
   * The text every continuation starts with, up to `limit` characters. Once the answer has chosen its
   * layout, the layout rule's choice is taken as made: the same choice again.
   */
  forced(limit: number): ForcedText {
    let state = this.state;
    let text = '';
    while (!this.dead && text.length < limit && !state.mayEnd) {
      const codePoint = this.onlyNext(this.withLayout(state.stacks));
      if (codePoint === null) break;
      text += String.fromCodePoint(codePoint);
      state = this.advance(state, codePoint);
    }
    const followers = new Set<string>();
    for (const frame of this.withLayout(state.stacks)) {
      const sample = sampleOf(frame.sequence[frame.position] as CharElement);
      if (sample !== '' && followers.size < 4) followers.add(sample);
    }
    return { text, mayEnd: state.mayEnd, followers: [...followers] };
  }

  private isLayout(frame: Frame): boolean {
    return this.grammar.layout.has(frame.sequence);
  }

  /** The stacks left once the learnt layout choice is applied where layout and content meet. */
  private withLayout(stacks: Frame[]): Frame[] {
    if (this.layoutChoice === null) return stacks;
    const layout = stacks.filter((frame) => this.isLayout(frame));
    if (layout.length === 0 || layout.length === stacks.length) return stacks;
    return this.layoutChoice === 'space' ? layout : stacks.filter((frame) => !this.isLayout(frame));
  }

  /** The first time layout whitespace was possible next to something else, which one the text took. */
  private learnLayout(codePoint: number): void {
    const layout = this.state.stacks.filter((frame) => this.isLayout(frame));
    if (layout.length === 0 || layout.length === this.state.stacks.length) return;
    const tookLayout = layout.some((frame) => matches(frame.sequence[frame.position] as CharElement, codePoint));
    this.layoutChoice = tookLayout ? 'space' : 'none';
  }

  private onlyNext(stacks: Frame[]): number | null {
    let only: number | null = null;
    for (const frame of stacks) {
      const codePoint = singleCodePoint(frame.sequence[frame.position] as CharElement);
      if (codePoint === null || (only !== null && only !== codePoint)) return null;
      only = codePoint;
    }
    return only;
  }

  private advance(state: Expansion, codePoint: number): Expansion {
    const moved: Frame[] = [];
    for (const frame of state.stacks) {
      if (matches(frame.sequence[frame.position] as CharElement, codePoint)) moved.push({ ...frame, position: frame.position + 1, count: 0 });
    }
    return this.expand(moved);
  }

  /** Every stack reachable without consuming a character, stopped at character classes. */
  private expand(frames: Frame[]): Expansion {
    const stacks: Frame[] = [];
    const seen = new Set<string>();
    let mayEnd = false;
    const visit = (frame: Frame | null): void => {
      if (!frame) {
        mayEnd = true;
        return;
      }
      const key = this.keys.key(frame);
      if (seen.has(key)) return;
      seen.add(key);
      const element = frame.sequence[frame.position];
      if (element === undefined) {
        const parent = frame.parent;
        if (!parent) {
          mayEnd = true;
          return;
        }
        const group = parent.sequence[parent.position] as GroupElement;
        // Past `min` an unbounded count no longer matters: keeping it would make every iteration new.
        const count = group.max === Infinity ? Math.min(parent.count + 1, group.min) : parent.count + 1;
        visit({ ...parent, count });
        return;
      }
      if (element.kind === 'chars') {
        stacks.push(frame);
        return;
      }
      if (frame.count < element.max) {
        if (frame.depth >= MAX_DEPTH) {
          this.dead = true;
          return;
        }
        for (const alternative of element.alternatives) visit({ sequence: alternative, position: 0, count: 0, parent: frame, depth: frame.depth + 1 });
      }
      if (frame.count >= element.min) visit({ ...frame, position: frame.position + 1, count: 0 });
    };
    for (const frame of frames) visit(frame);
    return { stacks, mayEnd };
  }
}

/** A matcher for `gbnf`, or null when it uses something the parser does not know. */
export function matcherForGbnf(gbnf: string, layoutRule = LAYOUT_RULE): GbnfMatcher | null {
  const parsed = parseGbnf(gbnf, 'root', layoutRule);
  return parsed.ok ? new GbnfMatcher(parsed.grammar) : null;
}
