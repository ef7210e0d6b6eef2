import type { ContextItem } from '../llm/types';
import { estimateTokens } from '../llm/results';
import { pathScore } from '../tools/repoSummary';
import type { BuiltContext } from './contextAssembly';
import type { ContextEntry } from '../../../shared/schemas/agentContext';
import { ContextItems } from './contextAssembly';
import { outline } from './outline';
import type { ContextQuery } from './querySignals';
import { rankFiles, type RankedFile } from './rank';
import type { RepoMap } from './repoMap';

export interface OverviewOptions {
  budgetTokens: number;
  /** Project notes (seed 000's kb/): after the ranked files, before the plain paths. */
  notes?: ContextItem[];
}

/** Share of the budget the ranked files' outlines may take; the rest is notes and plain paths. */
const RANKED_SHARE = 0.6;
const PATHS_PER_ITEM = 40;
/**
 * Past the ranked outlines, plain paths show the repository's layout; beyond this many they are what the
 * budget could buy, not what a plan needs (ranked ones come first, so a file the goal names is kept).
 */
const MAX_PLAIN_PATHS = 2 * PATHS_PER_ITEM;
/** An outline is shown for a file scoring at least this share of the best (the ranker's confidence, not the budget). */
const OUTLINE_SHARE = 0.15;
const MAX_DROPPED_LISTED = 40;
const HEADER =
  '### Repository map: files ranked for the goal, each `path (lines)` with `line: signature` of its symbols\n';
const itemTokens = (text: string) => estimateTokens(text) + 2;

/** The ranked files' outlines while the ranker is confident and their share lasts; the paths shown. */
function addRankedOutlines(context: ContextItems, ranked: RankedFile[], rankedBudget: number): Set<string> {
  const shown = new Set<string>();
  const best = ranked[0]?.score ?? 0;
  for (const [index, entry] of ranked.entries()) {
    if (entry.score < OUTLINE_SHARE * best) break;
    if (entry.file.symbols.length === 0) continue;
    const text = `${context.included.length === 0 ? HEADER : ''}${outline(entry)}`;
    const tokens = itemTokens(text);
    if (context.used + tokens > rankedBudget) break;
    context.push(
      { id: `map:${entry.file.path}`, path: entry.file.path, kind: 'map', tokens, reason: `ranked #${index + 1}` },
      text,
    );
    shown.add(entry.file.path);
  }
  return shown;
}

function addNotes(context: ContextItems, notes: ContextItem[], budget: number): void {
  for (const note of notes) {
    const tokens = itemTokens(note.text);
    const entry: ContextEntry = {
      id: note.id,
      path: note.id.replace(/^kb:/, ''),
      kind: 'file',
      tokens,
      reason: 'project note',
    };
    if (context.used + tokens <= budget) context.push(entry, note.text);
    else context.dropped.push({ ...entry, reason: 'project note; no room' });
  }
}

/** Plain paths in chunks while they fit, up to MAX_PLAIN_PATHS; how many went in. */
function addPlainPaths(context: ContextItems, rest: string[], budget: number): number {
  const chunkText = (chunk: string[]) =>
    `${context.included.length === 0 ? HEADER : ''}More files:\n${chunk.join('\n')}`;
  let next = 0;
  while (next < Math.min(rest.length, MAX_PLAIN_PATHS)) {
    const chunk = rest.slice(next, next + PATHS_PER_ITEM);
    let text = chunkText(chunk);
    let tokens = itemTokens(text);
    // The last chunk that fits may be a shorter one.
    while (context.used + tokens > budget && chunk.length > 1) {
      chunk.splice(Math.ceil(chunk.length / 2));
      text = chunkText(chunk);
      tokens = itemTokens(text);
    }
    if (context.used + tokens > budget) break;
    context.push(
      {
        id: `paths:${next + 1}-${next + chunk.length}`,
        path: '',
        kind: 'map',
        tokens,
        reason: `${chunk.length} more paths`,
      },
      text,
    );
    next += chunk.length;
  }
  return next;
}

/** The paths left out: the first MAX_DROPPED_LISTED by name, the rest counted. */
function listUnshownPaths(context: ContextItems, rest: string[], next: number, rankOf: Map<string, number>): void {
  const why = next >= MAX_PLAIN_PATHS ? `past the first ${MAX_PLAIN_PATHS} paths` : 'budget spent';
  for (const file of rest.slice(next, next + MAX_DROPPED_LISTED)) {
    const rank = rankOf.get(file);
    context.dropped.push({
      id: `map:${file}`,
      path: file,
      kind: 'map',
      tokens: 0,
      reason: `${rank === undefined ? 'path' : `ranked #${rank + 1}`}; ${why}`,
    });
  }
  if (rest.length - next > MAX_DROPPED_LISTED)
    context.dropped.push({
      id: 'paths:rest',
      path: '',
      kind: 'map',
      tokens: 0,
      reason: `${rest.length - next - MAX_DROPPED_LISTED} more paths; ${why}`,
    });
}

/**
 * What a planning role (the Planner, the Editor's brief) sees of the repository, within its budget:
 * the files ranked for the goal (and failing output) with their symbols, then project notes, then the
 * other paths, most relevant first. Items carry falling priorities, so an exact fit drops the tail.
 */
export async function buildOverview(
  map: RepoMap,
  query: ContextQuery,
  options: OverviewOptions,
): Promise<BuiltContext> {
  const budget = Math.max(0, Math.floor(options.budgetTokens));
  const ranked = await rankFiles(map, query);
  const context = new ContextItems();
  const shown = addRankedOutlines(context, ranked, Math.floor(budget * RANKED_SHARE));
  addNotes(context, options.notes ?? [], budget);
  // The rest as plain paths: ranked ones first, then by how much a path usually matters.
  const rankOf = new Map(ranked.map((entry, index) => [entry.file.path, index]));
  const rest = map.files
    .filter((file) => !shown.has(file.path))
    .map((file) => ({ file: file.path, rank: rankOf.get(file.path) ?? Infinity, score: pathScore(file.path) }))
    .sort((a, b) => a.rank - b.rank || b.score - a.score || (a.file < b.file ? -1 : 1))
    .map((entry) => entry.file);
  const next = addPlainPaths(context, rest, budget);
  listUnshownPaths(context, rest, next, rankOf);
  return context.result(budget);
}
