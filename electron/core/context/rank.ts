import fs from 'node:fs';
import path from 'node:path';
import { failingTestNames, failingTestSpans, type TestSpan } from './failingTestCode';
import type { RepoMap, MappedFile } from './repoMap';
import { querySignals, subtokens, type ContextQuery, type QuerySignals } from './querySignals';
import type { FileSymbol } from './symbols';

export type RankMethod = 'bm25' | 'graph' | 'combined';

export interface RankedSymbol {
  symbol: FileSymbol;
  score: number;
}

export interface RankedFile {
  file: MappedFile;
  score: number;
  isTest: boolean;
  /** Lines the query's stack frames point at in this file. */
  lines: number[];
  symbols: RankedSymbol[];
}

const TEST_PATH =
  /(^|\/)(tests?|__tests__|spec|specs|e2e)\/|(^|\/)(test_[^/]*|[^/]*_test\.[a-z]+|[^/]*\.(test|spec)\.[a-z]+|conftest\.py)$/i;
export const isTestPath = (file: string) => TEST_PATH.test(file);

interface Index {
  /** token → file index → weighted frequency */
  postings: Map<string, Map<number, number>>;
  lengths: Float64Array;
  averageLength: number;
  /** symbol's last name component → indexes of files defining it */
  definers: Map<string, number[]>;
}

// Keyed by the files array: a map returned again unchanged keeps its index.
const indexes = new WeakMap<readonly MappedFile[], Index>();
/**
 * The failing output's share against the goal's. Each side is scored and scaled to 1 on its own: summed
 * into one query, a long test output's many words drowned the goal's few (bench:context).
 */
const FEEDBACK_WEIGHT = 0.5;
/** A word repeated in the query counts at most this many times. */
const MAX_QUERY_COUNT = 3;

function lastName(symbol: FileSymbol): string {
  const dot = symbol.name.lastIndexOf('.');
  return dot < 0 ? symbol.name : symbol.name.slice(dot + 1);
}

function indexOf(map: RepoMap): Index {
  const cached = indexes.get(map.files);
  if (cached) return cached;
  const postings = new Map<string, Map<number, number>>();
  const lengths = new Float64Array(map.files.length);
  const definers = new Map<string, number[]>();
  const add = (token: string, fileIndex: number, weight: number) => {
    let list = postings.get(token);
    if (!list) postings.set(token, (list = new Map()));
    list.set(fileIndex, (list.get(fileIndex) ?? 0) + weight);
    lengths[fileIndex] = (lengths[fileIndex] ?? 0) + weight;
  };
  map.files.forEach((file, fileIndex) => {
    for (const token of subtokens(file.path.replace(/\.[^./]+$/, ''))) add(token, fileIndex, 2);
    for (const symbol of file.symbols) {
      for (const token of subtokens(lastName(symbol))) add(token, fileIndex, 3);
      const list = definers.get(lastName(symbol)) ?? [];
      if (list[list.length - 1] !== fileIndex) list.push(fileIndex);
      definers.set(lastName(symbol), list);
    }
    for (const [term, count] of Object.entries(file.terms))
      for (const token of subtokens(term)) add(token, fileIndex, Math.min(count, 20));
  });
  const total = lengths.reduce((sum, value) => sum + value, 0);
  const index = { postings, lengths, averageLength: map.files.length > 0 ? total / map.files.length : 1, definers };
  indexes.set(map.files, index);
  return index;
}

/** Okapi BM25 of each file for the query's tokens (k1 1.2, b 0.75), scaled so the best file scores 1. */
function bm25(map: RepoMap, index: Index, terms: string[]): Float64Array {
  const scores = new Float64Array(map.files.length);
  const tokens = new Map<string, number>();
  for (const term of terms) for (const token of subtokens(term)) tokens.set(token, (tokens.get(token) ?? 0) + 1);
  const count = map.files.length;
  for (const [token, queryCount] of tokens) {
    const list = index.postings.get(token);
    if (!list) continue;
    const idf = Math.log(1 + (count - list.size + 0.5) / (list.size + 0.5));
    for (const [fileIndex, frequency] of list) {
      const norm = frequency + 1.2 * (1 - 0.75 + (0.75 * (index.lengths[fileIndex] ?? 0)) / index.averageLength);
      scores[fileIndex] =
        (scores[fileIndex] ?? 0) + Math.min(queryCount, MAX_QUERY_COUNT) * idf * ((frequency * 2.2) / norm);
    }
  }
  return normalize(scores);
}

function normalize(scores: Float64Array): Float64Array {
  const best = scores.reduce((max, value) => Math.max(max, value), 0);
  if (best > 0) for (let i = 0; i < scores.length; i++) scores[i] = (scores[i] ?? 0) / best;
  return scores;
}

/** The reference graph, one hop: each name credits the files that define it, split among them. Scaled to 1. */
function graph(map: RepoMap, index: Index, names: Map<string, number>): Float64Array {
  const scores = new Float64Array(map.files.length);
  for (const [name, weight] of names) {
    const list = index.definers.get(name);
    if (!list || list.length > 8) continue;
    for (const fileIndex of list) scores[fileIndex] = (scores[fileIndex] ?? 0) + weight / list.length;
  }
  return normalize(scores);
}

/**
 * The failing output's names: its words, the identifiers the failing tests' own code uses, and the
 * identifiers of the other files it points at (a stack frame in a source file).
 */
function feedbackNames(
  map: RepoMap,
  signals: QuerySignals,
  spans: TestSpan[],
  testNames: Set<string>,
): Map<string, number> {
  const names = new Map<string, number>();
  const add = (name: string, weight: number) => names.set(name, (names.get(name) ?? 0) + weight);
  for (const name of new Set(signals.feedbackTerms)) add(name, 1);
  for (const name of testNames) add(name, 1);
  for (const [file] of signals.mentioned) {
    const mapped = map.byPath.get(file);
    // A test file's identifiers are its hundreds of other tests': its failing tests' own code stands for it.
    if (!mapped || spans.some((span) => span.file === file)) continue;
    const own = new Set(mapped.symbols.map(lastName));
    for (const [term, count] of Object.entries(mapped.terms)) if (!own.has(term)) add(term, Math.min(count, 5) / 5);
  }
  return names;
}

function addScaled(into: Float64Array, scores: Float64Array, weight: number): void {
  for (let i = 0; i < into.length; i++) into[i] = (into[i] ?? 0) + weight * (scores[i] ?? 0);
}

function symbolScores(
  file: MappedFile,
  signals: QuerySignals,
  lines: number[],
  queryTokens: Set<string>,
  spans: TestSpan[],
): RankedSymbol[] {
  const exact = new Set(signals.terms);
  const failingTests = new Set(spans.filter((span) => span.file === file.path).map((span) => span.start));
  return file.symbols
    .map((symbol) => {
      let score = 0;
      const name = lastName(symbol);
      if (exact.has(name) || exact.has(symbol.name)) score += 3;
      for (const token of subtokens(name)) if (queryTokens.has(token)) score += 0.5;
      if (lines.some((line) => line >= symbol.start && line <= symbol.end)) score += 4;
      if (failingTests.has(symbol.start)) score += 4;
      // Inner symbols win over the class or function around them.
      return { symbol, score: score > 0 ? score + 1 / (1 + symbol.end - symbol.start) : 0 };
    })
    .sort((a, b) => b.score - a.score || a.symbol.start - b.symbol.start);
}

export interface RankOptions {
  method?: RankMethod;
  /** Reads a repository file (the failing tests' code); default: from the map's root. */
  read?: (file: string) => Promise<string | null>;
}

const readFromRoot = (root: string) => (file: string) =>
  // catch-ok: ranking is best-effort: a file that cannot be read ranks as empty, and the agents' reads report it
  fs.promises.readFile(path.join(root, file), 'utf8').catch(() => null);

/**
 * Files and, in each, symbols ranked for a query. `combined` (the default) adds BM25 over paths, symbol
 * names and identifiers to the reference graph, for the goal and (at half weight) the failing output
 * apart, and puts files the query names first.
 */
export async function rankFiles(map: RepoMap, query: ContextQuery, options: RankOptions = {}): Promise<RankedFile[]> {
  const method = options.method ?? 'combined';
  const index = indexOf(map);
  const signals = querySignals(query, new Set(map.byPath.keys()));
  const spans = failingTestSpans(map, signals, isTestPath);
  const testNames = await failingTestNames(map, spans, options.read ?? readFromRoot(map.root));
  const scores = new Float64Array(map.files.length);
  if (method !== 'graph') addScaled(scores, bm25(map, index, signals.goalTerms), 1);
  if (method !== 'bm25') addScaled(scores, graph(map, index, new Map(signals.goalTerms.map((name) => [name, 1]))), 1);
  if (method !== 'graph') addScaled(scores, bm25(map, index, signals.feedbackTerms), FEEDBACK_WEIGHT);
  if (method !== 'bm25')
    addScaled(scores, graph(map, index, feedbackNames(map, signals, spans, testNames)), FEEDBACK_WEIGHT);
  const queryTokens = new Set(signals.terms.flatMap(subtokens));
  const named = new Set([...(query.artifacts ?? []), ...(query.targetFiles ?? [])]);
  const ranked: RankedFile[] = map.files.map((file, fileIndex) => {
    const isTest = isTestPath(file.path);
    const lines = signals.mentioned.get(file.path) ?? [];
    let score = scores[fileIndex] ?? 0;
    if (signals.mentioned.has(file.path)) score += lines.length > 0 ? 1 : 0.5;
    if (isTest) score *= 0.5;
    if (named.has(file.path)) score += 10;
    return { file, score, isTest, lines, symbols: [] };
  });
  const order = ranked
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || (a.file.path < b.file.path ? -1 : 1));
  for (const entry of order.slice(0, 50))
    entry.symbols = symbolScores(entry.file, signals, entry.lines, queryTokens, spans);
  return order;
}
