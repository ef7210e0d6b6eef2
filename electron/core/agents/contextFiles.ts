import {
  buildContext,
  buildOverview,
  buildRepoMap,
  rankFiles,
  wholeFileTokens,
  type BuiltContext,
  type ContextEntry,
  type ContextQuery,
  type RepoMapOptions,
} from '../context/index';
import { isTestFile } from '../edits/policy';
import { estimateTokens } from '../llm/results';
import type { ContextItem } from '../llm/types';
import type { ReadOnlyTools } from '../tools/types';

const MAX_FILE_BYTES = 64 * 1024;
const MAX_CANDIDATES = 200;
const MAX_WHOLE_FILE_BYTES = 1024 * 1024;

export function fileItem(path: string, content: string, priority: number): ContextItem {
  return { id: `file:${path}`, text: `### ${path}\n\`\`\`\n${content}\n\`\`\`\n`, priority };
}

/** Repo-relative paths a test output or critique mentions, in order of first mention. */
export function pathsMentioned(text: string, known: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/[\w./-]+\.[A-Za-z0-9]{1,8}/g)) {
    const candidate = match[0].replace(/^\.\//, '').replace(/^\/+/, '');
    const hit = known.has(candidate) ? candidate : [...known].find((path) => candidate.endsWith(`/${path}`));
    if (hit && !found.includes(hit)) found.push(hit);
  }
  return found;
}

/** Files named under a Scout report's "Target files" heading (seed 004's context snapshot). */
export function scoutTargetFiles(report: string | null): string[] {
  if (!report) return [];
  const section = /^## Target files\n((?:- .*\n?)+)/m.exec(report);
  if (!section?.[1]) return [];
  return section[1]
    .split('\n')
    .map(
      (line) =>
        line
          .replace(/^- /, '')
          .trim()
          .split(/[\s:(]/)[0] ?? '',
    )
    .map((file) => file.replace(/^\.\//, '').replace(/^`|`$/g, ''))
    .filter(Boolean);
}

/**
 * Context ranked for the query and fitted to `budgetTokens`, from the symbol map of `workDir` (cached
 * by blob id in the map's `cacheFile` when given).
 */
export async function budgetedContext(
  tools: ReadOnlyTools,
  workDir: string,
  query: ContextQuery,
  budgetTokens: number,
  mapOptions: RepoMapOptions,
  options: { wholeFiles?: string[]; artifactsOnly?: boolean; noExcerpts?: boolean } = {},
): Promise<BuiltContext> {
  const map = await buildRepoMap(workDir, mapOptions);
  const read = (path: string) => readWhole(tools, path);
  // Seed 000's writer sees its artifacts and the files its feedback names, nothing else.
  const onlyFiles = options.artifactsOnly
    ? [...(query.artifacts ?? []), ...pathsMentioned(query.feedback ?? '', new Set(map.byPath.keys()))]
    : undefined;
  return buildContext(map, query, {
    budgetTokens,
    read,
    wholeFiles: options.wholeFiles,
    onlyFiles,
    noExcerpts: options.noExcerpts,
  });
}

const PROSE = /\.(md|markdown|rst|txt|adoc)$|(^|\/)(CHANGELOG|CHANGES|HISTORY|LICENSE)[^/]*$/i;

/**
 * The files a writer will most likely rewrite: the plan's artifacts, else the Scouts' targets (`named`),
 * else the best-ranked source files for the query, prose left out (a whole-file writer's context and
 * answer budget are sized on them).
 */
export async function filesToRewrite(
  workDir: string,
  query: ContextQuery,
  mapOptions: RepoMapOptions,
): Promise<{ files: string[]; named: boolean }> {
  const named = [...(query.artifacts ?? []), ...(query.targetFiles ?? [])];
  if (named.length > 0) return { files: [...new Set(named)], named: true };
  // The files buildContext guesses as targets: the best source file and those close to it.
  const map = await buildRepoMap(workDir, mapOptions);
  const source = (await rankFiles(map, query)).filter(
    (entry) => !entry.isTest && entry.score > 0 && !PROSE.test(entry.file.path),
  );
  const top = source[0]?.score ?? 0;
  return {
    files: source
      .filter((entry, index) => index === 0 || entry.score >= 0.7 * top)
      .slice(0, 3)
      .map((entry) => entry.file.path),
    named: false,
  };
}

async function readWhole(tools: ReadOnlyTools, path: string): Promise<string | null> {
  try {
    const { content, truncated } = await tools.readFile(path, { maxBytes: MAX_WHOLE_FILE_BYTES });
    return truncated || content.includes('\0') ? null : content;
  } catch {
    // catch-ok: a file that cannot be read whole is left out of the context; the agent's own read_file says why
    return null;
  }
}

/**
 * The context tokens of the files a whole-file writer rewrites, each shown whole. Files that do not
 * exist yet, or are binary or over 1 MB (never context), cost nothing.
 */
export async function wholeFilesTokens(
  tools: ReadOnlyTools,
  target: { files: string[]; named: boolean },
  rules: Omit<RewriteRules, 'named'>,
): Promise<WholeFiles> {
  const perFile: { path: string; tokens: number }[] = [];
  for (const path of target.files) {
    const text = await readWhole(tools, path);
    if (text !== null) perFile.push({ path, tokens: wholeFileTokens(path, text) });
  }
  const tokens = perFile.reduce((sum, file) => sum + file.tokens, 0);
  // Named files are all rewritten; of guessed ones, the writer rewrites one (the answer is sized on the largest).
  const answerBasis = target.named ? tokens : Math.max(0, ...perFile.map((file) => file.tokens));
  return { tokens, answerBasis, perFile, rules: { ...rules, named: target.named ? target.files : [] } };
}

export interface WholeFiles {
  /** The files' context tokens, each shown whole. */
  tokens: number;
  /** The file tokens the answer repeats, before the context is built (the guess). */
  answerBasis: number;
  /** A retry's: the tokens of the longest answer the step's writer gave, which its next answer may repeat. */
  longestAnswer?: number;
  perFile: { path: string; tokens: number }[];
  /** Which of the files the context shows whole the writer may rewrite (its answer budget covers them). */
  rules: RewriteRules;
}

/** What a whole-file writer may rewrite: its files rule (artifacts only) and tests rule (read-only). */
export interface RewriteRules {
  /** The task's artifacts and the Scouts' targets: all of them are rewritten. */
  named: string[];
  artifactsOnly: boolean;
  testsReadOnly: boolean;
}

/**
 * The largest answer a whole-file writer is invited to give by what its context shows whole: every
 * named file, plus the largest other file it would rewrite (a ranker's guess can be wrong, and the
 * writer then rewrites the file it finds the fault in). Map entries are outlines, never rewritten.
 */
export function rewriteBasis(
  included: readonly ContextEntry[],
  rules: RewriteRules,
): { tokens: number; files: { path: string; tokens: number }[] } {
  const shown = included.filter((entry) => entry.kind === 'file');
  const named = shown.filter((entry) => rules.named.includes(entry.path));
  const other = shown.filter((entry) => invitesRewrite(entry.path, rules)).sort((a, b) => b.tokens - a.tokens)[0];
  const files = [...named, ...(other ? [other] : [])].map((entry) => ({ path: entry.path, tokens: entry.tokens }));
  return { tokens: files.reduce((sum, file) => sum + file.tokens, 0), files };
}

/**
 * Whether an unnamed file shown whole is one the writer would rewrite: its files and tests rules allow
 * it, and it is source. Prose (a changelog, a readme) is left out as in the guess: a fix seldom
 * rewrites it, and covering a 7,000-token changelog would cost that much context on every call; a
 * rewrite of one that is cut off gets its room from the cut-off retry instead.
 */
export function invitesRewrite(path: string, rules: RewriteRules): boolean {
  if (rules.named.includes(path) || rules.artifactsOnly || PROSE.test(path)) return false;
  return !(rules.testsReadOnly && isTestFile(path));
}

/**
 * A planning role's view of the repository fitted to `budgetTokens`: files ranked for the query with
 * their symbols, project notes, then further paths. Without a work dir (no map to rank), the path
 * summary, as long as the budget allows.
 */
export async function budgetedOverview(
  tools: ReadOnlyTools,
  workDir: string | null,
  query: ContextQuery,
  budgetTokens: number,
  options: { map: RepoMapOptions; notes: ContextItem[] },
): Promise<BuiltContext> {
  if (workDir)
    return buildOverview(await buildRepoMap(workDir, options.map), query, { budgetTokens, notes: options.notes });
  const summary = `### Repository files\n${await tools.repoSummary({ maxBytes: Math.max(200, (budgetTokens - 8) * 4) })}`;
  const tokens = estimateTokens(summary) + 2;
  const fits = tokens <= budgetTokens;
  const entry = { id: 'map:summary', path: '', kind: 'map' as const, tokens, reason: 'path summary' };
  return {
    items: fits ? [{ id: entry.id, text: summary, priority: 1000 }] : [],
    included: fits ? [entry] : [],
    dropped: fits ? [] : [{ ...entry, reason: 'path summary; no room' }],
    budgetTokens,
    usedTokens: fits ? tokens : 0,
  };
}

/**
 * Today's listing-order context, kept for seed 000's artifacts-only writer and as the benchmark's baseline.
 * The files a writer sees, by priority: the task's artifacts first, then files the feedback mentions,
 * then (for whole-workspace workflows) the rest of the tracked text files. The inference layer drops
 * the lowest priorities first, and says so, when they do not fit.
 */
export async function contextFiles(
  tools: ReadOnlyTools,
  options: { artifacts: string[]; feedback: string | null; includeAll: boolean },
): Promise<ContextItem[]> {
  const listing = await tools.listFiles({ limit: 5000 });
  const known = new Set(listing.files);
  const ranked = new Map<string, number>();
  options.artifacts.forEach((path, index) => ranked.set(path, 1000 - index));
  if (options.feedback)
    pathsMentioned(options.feedback, known).forEach((path, index) => ranked.has(path) || ranked.set(path, 800 - index));
  if (options.includeAll)
    listing.files.slice(0, MAX_CANDIDATES).forEach((path, index) => ranked.has(path) || ranked.set(path, 500 - index));
  const items: ContextItem[] = [];
  for (const [path, priority] of ranked) {
    if (!known.has(path)) continue;
    try {
      const { content, truncated } = await tools.readFile(path, { maxBytes: MAX_FILE_BYTES });
      if (content.includes('\0')) continue;
      items.push(fileItem(path, truncated ? `${content}\n… (truncated)` : content, priority));
    } catch {
      // catch-ok: A file that vanished or cannot be read is simply not context.
    }
  }
  return items;
}
