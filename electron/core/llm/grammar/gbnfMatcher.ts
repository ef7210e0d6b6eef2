/**
 * A character-level matcher for the GBNF Lathe's compiler writes, run beside llama.cpp's own grammar: it
 * follows the text a model has produced and says which text the grammar forces next. llama.cpp stays the
 * one that enforces the grammar; this only predicts, so a construct it does not know makes it refuse to
 * parse (and the caller goes without), never accept text llama.cpp would reject.
 */

import type { CharElement, GroupElement, ParsedGrammar, Sequence } from './gbnfParser';
import { LAYOUT_RULE, parseGbnf } from './gbnfParser';

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
      if (matches(frame.sequence[frame.position] as CharElement, codePoint))
        moved.push({ ...frame, position: frame.position + 1, count: 0 });
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
        for (const alternative of element.alternatives)
          visit({ sequence: alternative, position: 0, count: 0, parent: frame, depth: frame.depth + 1 });
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
