import type { ContextEntry } from '../../../shared/schemas/agentContext';
import type { ContextItem } from '../llm/types';
import { estimateTokens } from '../llm/results';
import { outline } from './outline';
import { rankFiles, type RankedFile, type RankMethod } from './rank';
import type { ContextQuery } from './querySignals';
import type { RepoMap } from './repoMap';

export type { ContextEntry };

export interface BuiltContext {
  items: ContextItem[];
  included: ContextEntry[];
  /** Candidates left out (or cut to excerpts), best first. */
  dropped: ContextEntry[];
  budgetTokens: number;
  usedTokens: number;
}

export interface BuildContextOptions {
  budgetTokens: number;
  read: (path: string) => Promise<string | null>;
  method?: RankMethod;
  /** Share of the budget the files to edit may take (the rest: map entries and further files). */
  targetShare?: number;
  /**
   * Files to show whole or not at all (a whole-file writer rewrites each of them entire: an excerpt
   * would make it write a truncated file). They go first, before the share is counted.
   */
  wholeFiles?: string[];
  /** Only these files are candidates (seed 000's artifacts-only writer): no map, no further files. */
  onlyFiles?: string[];
  /** Files are shown whole or not at all (a whole-file writer could rewrite any file it sees from an excerpt). */
  noExcerpts?: boolean;
}

const MAX_TARGETS = 3;
const MAP_SHARE = 0.15;
const MAP_FILES = 40;
const EXCERPT_WINDOW = 30;
/**
 * The ranker's confidence, not the budget, decides how far context goes past the files to edit: a
 * further file or map entry must score at least this share of the best unnamed source file. Past it, files
 * are what the budget could buy but the query does not point at (bench:context: recall unchanged).
 */
export const FURTHER_FILE_SHARE = 0.5;
export const MAP_ENTRY_SHARE = 0.3;
/**
 * A file read, not edited, shows the symbols the query points at: a name it says or a failing line
 * inside (a shared word alone, 0.5 each, is the common case in a test file of many tests).
 */
const NEEDED_SYMBOL_SCORE = 0;
/** What rankFiles adds to a named file's score (plan artifacts, Scout targets). */
const NAMED_BONUS = 10;
/** In a test file read for context, only its failing tests, stack-frame lines and the names the query says (a word shared with the query scores 0.5, and every test of a file shares one). */
const NEEDED_TEST_SYMBOL_SCORE = 1;
/**
 * A test file read for context takes at most this much: the failing output already carries the
 * failing test's assertion and traceback, and a test class or file shown whole (2-3k tokens on the
 * corpus) was the largest item of many first tries (decision 99).
 */
export const TEST_CONTEXT_TOKENS = 1_000;
/** Prose a writer reads (a changelog, a readme) seldom holds a fix; shown only when named or mentioned by the goal. */
const PROSE = /\.(md|markdown|rst|txt|adoc)$|(^|\/)(CHANGELOG|CHANGES|HISTORY|LICENSE)[^/]*$/i;
const itemTokens = (text: string) => estimateTokens(text) + 2;

function fence(path: string, note: string, body: string): string {
  return `### ${path}${note}\n\`\`\`\n${body}\n\`\`\`\n`;
}

/** What a file costs in a writer's context when shown whole. */
export function wholeFileTokens(path: string, text: string): number {
  return itemTokens(fence(path, '', text));
}

/** Merges line ranges that touch or overlap. */
function mergeRanges(ranges: [number, number][]): [number, number][] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1] + 1) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  return merged;
}

function excerptText(path: string, rows: string[], ranges: [number, number][]): string {
  const parts = ranges.map(([start, end]) => rows.slice(start - 1, end).join('\n'));
  const where = ranges.map(([start, end]) => (start === end ? `${start}` : `${start}-${end}`)).join(', ');
  return fence(path, ` (excerpt: lines ${where} of ${rows.length})`, parts.join('\n…\n'));
}

/** The ranges worth showing of a file too big to send whole: the best symbols, or windows round stack-frame lines. */
function excerptRanges(entry: RankedFile, rows: string[], budget: number, minScore = 0): [number, number][] {
  const chosen: [number, number][] = [];
  let used = 0;
  const tokensOf = (start: number, end: number) => estimateTokens(rows.slice(start - 1, end).join('\n')) + 4;
  const tryAdd = (start: number, end: number): boolean => {
    const cost = tokensOf(start, end);
    if (used + cost > budget) return false;
    chosen.push([start, end]);
    used += cost;
    return true;
  };
  const window = (line: number): [number, number] => [
    Math.max(1, line - EXCERPT_WINDOW),
    Math.min(rows.length, line + EXCERPT_WINDOW),
  ];
  const scored = entry.symbols.filter((ranked) => ranked.score > minScore);
  for (const { symbol } of scored) {
    if (chosen.some(([start, end]) => symbol.start >= start && symbol.end <= end)) continue;
    if (tryAdd(symbol.start, symbol.end)) continue;
    // Too big whole: its head and the lines the query points at inside it.
    const inside = entry.lines.filter((line) => line >= symbol.start && line <= symbol.end);
    const head: [number, number] = [symbol.start, Math.min(symbol.end, symbol.start + 2 * EXCERPT_WINDOW)];
    for (const range of [...inside.map(window), head]) tryAdd(...range);
  }
  for (const line of entry.lines)
    if (!chosen.some(([start, end]) => line >= start && line <= end)) tryAdd(...window(line));
  return mergeRanges(chosen);
}

/**
 * A writer's context within a token budget: the files to edit (whole, or the enclosing functions of
 * the relevant lines when large), then ranked repo-map entries, then further files by rank; never
 * listing order. Items get falling priorities, so the model layer's own fit drops the last ones first.
 */
export async function buildContext(
  map: RepoMap,
  query: ContextQuery,
  options: BuildContextOptions,
): Promise<BuiltContext> {
  const budget = Math.max(0, Math.floor(options.budgetTokens));
  const ranked = await rankFiles(map, query, { method: options.method ?? 'combined', read: options.read });
  const byPath = new Map(ranked.map((entry) => [entry.file.path, entry]));
  const named = [...(query.artifacts ?? []), ...(query.targetFiles ?? [])].filter(
    (file, index, all) => all.indexOf(file) === index && map.byPath.has(file),
  );
  const source = ranked.filter((entry) => !entry.isTest);
  const top = source[0]?.score ?? 0;
  // Prose is read, never a guessed file to edit (a readme scored near the fix's file would be shown whole).
  const prose = (file: string) => PROSE.test(file) && !query.goal.includes(file.split('/').pop() ?? file);
  const guessed = source
    .filter((entry, index) => (index === 0 || entry.score >= 0.7 * top) && !(index > 0 && prose(entry.file.path)))
    .map((entry) => entry.file.path);
  const targets = [...named, ...guessed.filter((file) => !named.includes(file))].slice(
    0,
    Math.max(MAX_TARGETS, named.length),
  );
  // Confidence is measured against the best source file the query found (a failing test's file is
  // mentioned by its own output): a named file counts by its query score, without the bonus its name
  // gives it, so a plan naming the fix's file does not make the best of the rest the yardstick.
  const reference = Math.max(
    0,
    ...source.map((entry) => (named.includes(entry.file.path) ? entry.score - NAMED_BONUS : entry.score)),
  );
  const confident = (entry: RankedFile, share: number) => reference > 0 && entry.score >= share * reference;

  const items: ContextItem[] = [];
  const included: ContextEntry[] = [];
  const dropped: ContextEntry[] = [];
  const done = new Set<string>();
  let used = 0;
  let priority = 1000;
  const push = (entry: ContextEntry, text: string) => {
    items.push({ id: entry.id, text, priority: priority-- });
    included.push(entry);
    used += entry.tokens;
  };
  const entryFor = (file: string): RankedFile =>
    byPath.get(file) ?? {
      file: map.byPath.get(file) as RankedFile['file'],
      score: 0,
      isTest: false,
      lines: [],
      symbols: [],
    };
  const reasonFor = (file: string, index: number) =>
    query.artifacts?.includes(file)
      ? 'plan artifact'
      : query.targetFiles?.includes(file)
        ? 'scout target'
        : `ranked #${index + 1}`;

  const wholeTokensOf = async (file: string): Promise<number> => {
    const text = await options.read(file);
    return text === null ? Number.POSITIVE_INFINITY : wholeFileTokens(file, text);
  };
  /**
   * `whole`: the file whole when it fits, else an excerpt. `need`: a file the writer reads rather than
   * edits gets the parts the query points at when they are under half of it (the whole file only when
   * they are most of it, or when excerpts are ruled out).
   */
  const addFile = async (
    file: string,
    reason: string,
    roomLeft: number,
    mode: 'whole' | 'need' | 'wholeOnly' = 'whole',
  ): Promise<boolean> => {
    const text = await options.read(file);
    if (text === null) return false;
    const whole = fence(file, '', text);
    const wholeTokens = itemTokens(whole);
    const excerpts = mode !== 'wholeOnly' && !options.noExcerpts;
    const entry = entryFor(file);
    const room = excerpts && mode === 'need' && entry.isTest ? Math.min(roomLeft, TEST_CONTEXT_TOKENS) : roomLeft;
    const rows = text.split('\n');
    const excerptFor = (space: number, minScore = 0) => {
      const ranges = excerptRanges(entry, rows, space - 40, minScore);
      return ranges.length === 0 ? null : { ranges, text: excerptText(file, rows, ranges) };
    };
    if (mode === 'need' && prose(file)) {
      // Asked for again by a later pass, it is listed once.
      if (!dropped.some((item) => item.id === `file:${file}`))
        dropped.push({
          id: `file:${file}`,
          path: file,
          kind: 'file',
          tokens: wholeTokens,
          reason: `${reason}; prose the goal does not name`,
        });
      return false;
    }
    const needed =
      excerpts && mode === 'need'
        ? excerptFor(Math.min(room, wholeTokens), entry.isTest ? NEEDED_TEST_SYMBOL_SCORE : NEEDED_SYMBOL_SCORE)
        : null;
    const pushExcerpt = (excerpt: { ranges: [number, number][]; text: string }, why: string) => {
      push(
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
      dropped.push({ id: `file:${file}`, path: file, kind: 'file', tokens: wholeTokens, reason: why });
    };
    if (needed && itemTokens(needed.text) < wholeTokens / 2) {
      pushExcerpt(needed, 'read, not edited: the parts the query points at');
      return true;
    }
    if (wholeTokens <= room) {
      push({ id: `file:${file}`, path: file, kind: 'file', tokens: wholeTokens, reason }, whole);
      return true;
    }
    if (!excerpts) {
      dropped.push({
        id: `file:${file}`,
        path: file,
        kind: 'file',
        tokens: wholeTokens,
        reason: `${reason}; needed whole, no room`,
      });
      return false;
    }
    const excerpt = excerptFor(room);
    if (!excerpt) {
      dropped.push({ id: `file:${file}`, path: file, kind: 'file', tokens: wholeTokens, reason: `${reason}; no room` });
      return false;
    }
    pushExcerpt(excerpt, 'too large whole: excerpted');
    return true;
  };

  const only = options.onlyFiles ? new Set(options.onlyFiles) : null;
  for (const file of options.wholeFiles ?? []) {
    if (done.has(file) || !map.byPath.has(file)) continue;
    if (await addFile(file, reasonFor(file, ranked.indexOf(entryFor(file))), budget - used, 'wholeOnly'))
      done.add(file);
  }
  const targetBudget = Math.max(used, Math.floor(budget * (only ? 1 : (options.targetShare ?? 0.6))));
  for (const [index, file] of targets.entries()) {
    if (done.has(file) || (only && !only.has(file))) continue;
    const room = Math.floor((targetBudget - used) / Math.max(1, Math.min(targets.length - index, 2)));
    if (room < 60) break;
    // The first file to edit whole when it fits three quarters of the targets' share (a diff's hunk can
    // be anywhere in it), a named one even when it takes the whole share.
    const firstRoom = named.includes(file) ? targetBudget - used : Math.floor(0.75 * (targetBudget - used));
    const firstWhole = index === 0 && (await wholeTokensOf(file)) <= firstRoom;
    // A guessed target scored within 0.7 of the best: the ranker cannot tell it from the first, and the
    // fix's hunk may be anywhere in it (pflag's UnquoteUsage, mux's Route.Match sat outside the lines
    // the query pointed at): whole when it fits its room, as the first is.
    if (
      await addFile(
        file,
        reasonFor(file, ranked.indexOf(entryFor(file))),
        firstWhole ? targetBudget - used : room,
        'whole',
      )
    )
      done.add(file);
  }

  if (only) return { items, included, dropped, budgetTokens: budget, usedTokens: used };
  const mapBudget = Math.min(budget - used, Math.floor(budget * MAP_SHARE));
  const mapLines: string[] = [];
  let mapTokens = itemTokens('### Repository map (ranked)\n');
  for (const entry of ranked.slice(0, MAP_FILES)) {
    if (done.has(entry.file.path) || entry.file.symbols.length === 0 || !confident(entry, MAP_ENTRY_SHARE)) continue;
    const block = outline(entry);
    const cost = estimateTokens(block) + 1;
    if (mapTokens + cost > mapBudget) continue;
    mapLines.push(block);
    mapTokens += cost;
  }
  if (mapLines.length > 0)
    push(
      {
        id: 'map:ranked',
        path: '',
        kind: 'map',
        tokens: mapTokens,
        reason: `${mapLines.length} ranked files' symbols`,
      },
      `### Repository map (ranked)\n${mapLines.join('\n')}\n`,
    );

  for (const [index, entry] of ranked.entries()) {
    const file = entry.file.path;
    if (done.has(file)) continue;
    if (!confident(entry, FURTHER_FILE_SHARE)) {
      if (dropped.length < 40)
        dropped.push({
          id: `file:${file}`,
          path: file,
          kind: 'file',
          tokens: Math.ceil(entry.file.chars / 4),
          reason: `ranked #${index + 1}; scored under ${FURTHER_FILE_SHARE} of the best source file`,
        });
      continue;
    }
    const room = budget - used;
    if (room < 60) {
      if (dropped.length < 40)
        dropped.push({
          id: `file:${file}`,
          path: file,
          kind: 'file',
          tokens: Math.ceil(entry.file.chars / 4),
          reason: `ranked #${index + 1}; budget spent`,
        });
      continue;
    }
    if (await addFile(file, `ranked #${index + 1}`, room, 'need')) done.add(file);
  }
  return { items, included, dropped, budgetTokens: budget, usedTokens: used };
}
