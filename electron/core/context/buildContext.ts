import { estimateTokens } from '../llm/results';
import { ContextAssembly, type BuiltContext } from './contextAssembly';
import { fence, itemTokens } from './excerpts';
import { outline } from './outline';
import { rankFiles, type RankedFile, type RankMethod } from './rank';
import type { ContextQuery } from './querySignals';
import type { RepoMap } from './repoMap';

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
/**
 * The ranker's confidence, not the budget, decides how far context goes past the files to edit: a
 * further file or map entry must score at least this share of the best unnamed source file. Past it, files
 * are what the budget could buy but the query does not point at (bench:context: recall unchanged).
 */
export const FURTHER_FILE_SHARE = 0.5;
export const MAP_ENTRY_SHARE = 0.3;
/** What rankFiles adds to a named file's score (plan artifacts, Scout targets). */
const NAMED_BONUS = 10;
/** Prose a writer reads (a changelog, a readme) seldom holds a fix; shown only when named or mentioned by the goal. */
const PROSE = /\.(md|markdown|rst|txt|adoc)$|(^|\/)(CHANGELOG|CHANGES|HISTORY|LICENSE)[^/]*$/i;

/** What a file costs in a writer's context when shown whole. */
export function wholeFileTokens(path: string, text: string): number {
  return itemTokens(fence(path, '', text));
}

async function wholeTokensOf(read: BuildContextOptions['read'], file: string): Promise<number> {
  const text = await read(file);
  return text === null ? Number.POSITIVE_INFINITY : wholeFileTokens(file, text);
}

/** What the ranking says about one query: the files to edit and how far to trust the rest. */
interface ContextPlan {
  /** Plan artifacts and Scout targets that exist, in that order. */
  named: string[];
  targets: string[];
  entryFor: (file: string) => RankedFile;
  reasonFor: (file: string) => string;
  confident: (entry: RankedFile, share: number) => boolean;
  isUnnamedProse: (file: string) => boolean;
}

function planContext(map: RepoMap, query: ContextQuery, ranked: RankedFile[]): ContextPlan {
  const byPath = new Map(ranked.map((entry) => [entry.file.path, entry]));
  const named = [...(query.artifacts ?? []), ...(query.targetFiles ?? [])].filter(
    (file, index, all) => all.indexOf(file) === index && map.byPath.has(file),
  );
  const source = ranked.filter((entry) => !entry.isTest);
  // Confidence is measured against the best source file the query found (a failing test's file is
  // mentioned by its own output): a named file counts by its query score, without the bonus its name
  // gives it, so a plan naming the fix's file does not make the best of the rest the yardstick.
  const reference = Math.max(
    0,
    ...source.map((entry) => (named.includes(entry.file.path) ? entry.score - NAMED_BONUS : entry.score)),
  );
  // Prose is read, never a guessed file to edit (a readme scored near the fix's file would be shown whole).
  const isUnnamedProse = (file: string) => PROSE.test(file) && !query.goal.includes(file.split('/').pop() ?? file);
  const guessed = source
    .filter(
      (entry, index) =>
        (index === 0 || entry.score >= 0.7 * reference) && !(index > 0 && isUnnamedProse(entry.file.path)),
    )
    .map((entry) => entry.file.path);
  const targets = [...named, ...guessed.filter((file) => !named.includes(file))].slice(
    0,
    Math.max(MAX_TARGETS, named.length),
  );
  const entryFor = (file: string): RankedFile =>
    byPath.get(file) ?? {
      file: map.byPath.get(file) as RankedFile['file'],
      score: 0,
      isTest: false,
      lines: [],
      symbols: [],
    };
  const reasonFor = (file: string) =>
    query.artifacts?.includes(file)
      ? 'plan artifact'
      : query.targetFiles?.includes(file)
        ? 'scout target'
        : `ranked #${ranked.indexOf(entryFor(file)) + 1}`;
  const confident = (entry: RankedFile, share: number) => reference > 0 && entry.score >= share * reference;
  return { named, targets, entryFor, reasonFor, confident, isUnnamedProse };
}

/** The files a whole-file writer rewrites go first, whole or not at all. */
async function addWholeFiles(
  assembly: ContextAssembly,
  plan: ContextPlan,
  files: string[],
  map: RepoMap,
  budget: number,
) {
  for (const file of files) {
    if (assembly.placed.has(file) || !map.byPath.has(file)) continue;
    await assembly.addFile(file, plan.reasonFor(file), budget - assembly.used, 'wholeOnly');
  }
}

async function addTargets(
  assembly: ContextAssembly,
  plan: ContextPlan,
  targetBudget: number,
  only: Set<string> | null,
  read: BuildContextOptions['read'],
) {
  const { targets, named } = plan;
  for (const [index, file] of targets.entries()) {
    if (assembly.placed.has(file) || (only && !only.has(file))) continue;
    const used = assembly.used;
    // Named files share the room among themselves first: a guessed file never halves a named one's.
    const sharing = named.includes(file)
      ? targets.slice(index).filter((target) => named.includes(target)).length
      : targets.length - index;
    const room = Math.floor((targetBudget - used) / Math.max(1, Math.min(sharing, 2)));
    if (room < 60) break;
    // The first file to edit whole when it fits three quarters of the targets' share (a diff's hunk can
    // be anywhere in it), a named one even when it takes the whole share.
    const firstRoom = named.includes(file) ? targetBudget - used : Math.floor(0.75 * (targetBudget - used));
    const firstWhole = index === 0 && (await wholeTokensOf(read, file)) <= firstRoom;
    // A guessed target scored within 0.7 of the best: the ranker cannot tell it from the first, and the
    // fix's hunk may be anywhere in it (pflag's UnquoteUsage, mux's Route.Match sat outside the lines
    // the query pointed at): whole when it fits its room, as the first is.
    await assembly.addFile(file, plan.reasonFor(file), firstWhole ? targetBudget - used : room, 'whole');
  }
}

/** The ranked repo map: outlines of the files the ranker trusts, within the map's share of the budget. */
function addRankedMap(assembly: ContextAssembly, plan: ContextPlan, ranked: RankedFile[], budget: number) {
  const mapBudget = Math.min(budget - assembly.used, Math.floor(budget * MAP_SHARE));
  const mapLines: string[] = [];
  let mapTokens = itemTokens('### Repository map (ranked)\n');
  for (const entry of ranked.slice(0, MAP_FILES)) {
    if (
      assembly.placed.has(entry.file.path) ||
      entry.file.symbols.length === 0 ||
      !plan.confident(entry, MAP_ENTRY_SHARE)
    )
      continue;
    const block = outline(entry);
    const cost = estimateTokens(block) + 1;
    if (mapTokens + cost > mapBudget) continue;
    mapLines.push(block);
    mapTokens += cost;
  }
  if (mapLines.length > 0)
    assembly.push(
      {
        id: 'map:ranked',
        path: '',
        kind: 'map',
        tokens: mapTokens,
        reason: `${mapLines.length} ranked files' symbols`,
      },
      `### Repository map (ranked)\n${mapLines.join('\n')}\n`,
    );
}

/** Further files by rank, the parts the query points at, while the ranker is confident and the budget lasts. */
async function addFurtherFiles(assembly: ContextAssembly, plan: ContextPlan, ranked: RankedFile[], budget: number) {
  for (const [index, entry] of ranked.entries()) {
    const file = entry.file.path;
    if (assembly.placed.has(file)) continue;
    const estimate = Math.ceil(entry.file.chars / 4);
    if (!plan.confident(entry, FURTHER_FILE_SHARE)) {
      if (assembly.dropped.length < 40)
        assembly.dropFile(
          file,
          estimate,
          `ranked #${index + 1}; scored under ${FURTHER_FILE_SHARE} of the best source file`,
        );
      continue;
    }
    const room = budget - assembly.used;
    if (room < 60) {
      if (assembly.dropped.length < 40) assembly.dropFile(file, estimate, `ranked #${index + 1}; budget spent`);
      continue;
    }
    await assembly.addFile(file, `ranked #${index + 1}`, room, 'need');
  }
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
  const plan = planContext(map, query, ranked);
  const assembly = new ContextAssembly({
    read: options.read,
    noExcerpts: options.noExcerpts,
    entryFor: plan.entryFor,
    isUnnamedProse: plan.isUnnamedProse,
  });
  const only = options.onlyFiles ? new Set(options.onlyFiles) : null;
  await addWholeFiles(assembly, plan, options.wholeFiles ?? [], map, budget);
  const targetBudget = Math.max(assembly.used, Math.floor(budget * (only ? 1 : (options.targetShare ?? 0.6))));
  await addTargets(assembly, plan, targetBudget, only, options.read);
  if (only) return assembly.result(budget);
  addRankedMap(assembly, plan, ranked, budget);
  await addFurtherFiles(assembly, plan, ranked, budget);
  return assembly.result(budget);
}
