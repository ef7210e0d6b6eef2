import type { ContextEntry } from '../../../shared/schemas/agentContext';
import type { ContextItem } from '../llm/types';
import { excerptRanges, excerptText, fence, itemTokens } from './excerpts';
import type { RankedFile } from './rank';

export interface BuiltContext {
  items: ContextItem[];
  included: ContextEntry[];
  /** Candidates left out (or cut to excerpts), best first. */
  dropped: ContextEntry[];
  budgetTokens: number;
  usedTokens: number;
}

/**
 * A file read, not edited, shows the symbols the query points at: a name it says or a failing line
 * inside (a shared word alone, 0.5 each, is the common case in a test file of many tests).
 */
const NEEDED_SYMBOL_SCORE = 0;
/** In a test file read for context, only its failing tests, stack-frame lines and the names the query says (a word shared with the query scores 0.5, and every test of a file shares one). */
const NEEDED_TEST_SYMBOL_SCORE = 1;
/**
 * A test file read for context takes at most this much: the failing output already carries the
 * failing test's assertion and traceback, and a test class or file shown whole (2-3k tokens on the
 * corpus) was the largest item of many first tries (decision 99).
 */
export const TEST_CONTEXT_TOKENS = 1_000;

/**
 * `whole`: the file whole when it fits, else an excerpt. `need`: a file the writer reads rather than
 * edits gets the parts the query points at when they are under half of it (the whole file only when
 * they are most of it, or when excerpts are ruled out). `wholeOnly`: whole or not at all.
 */
export type FileMode = 'whole' | 'need' | 'wholeOnly';

interface Excerpt {
  ranges: [number, number][];
  text: string;
}

export interface AssemblySources {
  read: (path: string) => Promise<string | null>;
  noExcerpts?: boolean;
  entryFor: (file: string) => RankedFile;
  /** Prose the goal does not name: read only when named, never shown as a file the writer needs. */
  isUnnamedProse: (file: string) => boolean;
}

function excerptOf(file: string, entry: RankedFile, rows: string[], space: number, minScore = 0): Excerpt | null {
  const ranges = excerptRanges(entry, rows, space - 40, minScore);
  return ranges.length === 0 ? null : { ranges, text: excerptText(file, rows, ranges) };
}

/** Context items as they are chosen: falling priorities, so an exact fit drops the last ones first. */
export class ContextItems {
  readonly items: ContextItem[] = [];
  readonly included: ContextEntry[] = [];
  readonly dropped: ContextEntry[] = [];
  used = 0;
  private priority = 1000;

  push(entry: ContextEntry, text: string): void {
    this.items.push({ id: entry.id, text, priority: this.priority-- });
    this.included.push(entry);
    this.used += entry.tokens;
  }

  result(budgetTokens: number): BuiltContext {
    const { items, included, dropped } = this;
    return { items, included, dropped, budgetTokens, usedTokens: this.used };
  }
}

/** A writer's context as it is assembled, file by file. */
export class ContextAssembly extends ContextItems {
  /** Files already in the context, whole or excerpted. */
  readonly placed = new Set<string>();

  constructor(private readonly sources: AssemblySources) {
    super();
  }

  dropFile(file: string, tokens: number, reason: string): void {
    this.dropped.push({ id: `file:${file}`, path: file, kind: 'file', tokens, reason });
  }

  /** Adds a file whole, excerpted or not at all (see FileMode); true when it went in. */
  async addFile(file: string, reason: string, roomLeft: number, mode: FileMode = 'whole'): Promise<boolean> {
    const text = await this.sources.read(file);
    if (text === null) return false;
    const whole = fence(file, '', text);
    const wholeTokens = itemTokens(whole);
    if (mode === 'need' && this.sources.isUnnamedProse(file)) {
      // Asked for again by a later pass, it is listed once.
      if (!this.dropped.some((item) => item.id === `file:${file}`))
        this.dropFile(file, wholeTokens, `${reason}; prose the goal does not name`);
      return false;
    }
    const excerpts = mode !== 'wholeOnly' && !this.sources.noExcerpts;
    const entry = this.sources.entryFor(file);
    const room = excerpts && mode === 'need' && entry.isTest ? Math.min(roomLeft, TEST_CONTEXT_TOKENS) : roomLeft;
    const rows = text.split('\n');
    const minScore = entry.isTest ? NEEDED_TEST_SYMBOL_SCORE : NEEDED_SYMBOL_SCORE;
    const needed =
      excerpts && mode === 'need' ? excerptOf(file, entry, rows, Math.min(room, wholeTokens), minScore) : null;
    if (needed && itemTokens(needed.text) < wholeTokens / 2)
      return this.placeExcerpt(file, needed, reason, wholeTokens, 'read, not edited: the parts the query points at');
    if (wholeTokens <= room) {
      this.push({ id: `file:${file}`, path: file, kind: 'file', tokens: wholeTokens, reason }, whole);
      this.placed.add(file);
      return true;
    }
    if (!excerpts) {
      this.dropFile(file, wholeTokens, `${reason}; needed whole, no room`);
      return false;
    }
    const excerpt = excerptOf(file, entry, rows, room);
    if (!excerpt) {
      this.dropFile(file, wholeTokens, `${reason}; no room`);
      return false;
    }
    return this.placeExcerpt(file, excerpt, reason, wholeTokens, 'too large whole: excerpted');
  }

  /** The excerpt goes in; the whole file is listed as dropped, saying why. */
  private placeExcerpt(file: string, excerpt: Excerpt, reason: string, wholeTokens: number, why: string): true {
    this.push(
      {
        id: `excerpt:${file}`,
        path: file,
        kind: 'excerpt',
        tokens: itemTokens(excerpt.text),
        lines: excerpt.ranges,
        reason: `${reason}; ${wholeTokens} tokens whole`,
      },
      excerpt.text,
    );
    this.dropFile(file, wholeTokens, why);
    this.placed.add(file);
    return true;
  }
}
