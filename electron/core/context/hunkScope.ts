import path from 'node:path';
import { LatheError } from '../../../shared/errors';
import {
  ProposedFileChangeSchema,
  ScopeEvidenceSchema,
  type HunkScope,
  type ProposedFileChange,
  type ScopeEvidence,
} from '../../../shared/schemas/scope';
import { parseSource } from './codeTokens';
import { diffBlocks } from './hunkDiff';
import {
  definitionBelow,
  enclosingComment,
  hunkKind,
  isFunction,
  nameKey,
  symbolsAround,
  type FileSide,
  type HunkKind,
  type SideRange,
} from './hunkKind';
import { isTestPath } from './rank';
import {
  indexEvidence,
  meaningfulWords,
  namesFile,
  namesIdentifier,
  namesRename,
  type EvidenceIndex,
} from './scopeEvidence';
import type { FileSymbol } from './symbols';

/** A hunk as the classifier works on it; `verdict` is set once decided. */
interface Hunk {
  path: string;
  oldRange: SideRange;
  newRange: SideRange;
  kind: HunkKind | { kind: 'create' } | { kind: 'remove' };
  /** Innermost symbol around the hunk on its changed side (the old side unless it only adds), or the definition a comment documents. */
  symbol: FileSymbol | null;
  /** The symbol is the definition a comment block sits above, not one around the hunk. */
  documents: boolean;
  /** The innermost symbol around the hunk on the other side, when it differs (a renamed function). */
  otherSymbol: FileSymbol | null;
  /** The innermost function around it, either side: hunks in one function stand or fall together. */
  home: string | null;
  /** The block comment or docstring (its first line, old side) that holds the whole hunk: one piece of prose, edited together. */
  comment: string | null;
  /** Identifiers on each side, members as `.name`. */
  oldNames: Set<string>;
  newNames: Set<string>;
  /** Definitions the hunk holds whole (created file: all of them). */
  definitions: FileSymbol[];
  oldText: string;
  newText: string;
  verdict: { onTarget: boolean; reason: string } | null;
}

const ABSENT: FileSide & { close(): void } = { lines: 0, symbols: [], tokensIn: () => [], close: () => undefined };

function label(symbol: FileSymbol): string {
  return isFunction(symbol) ? `${symbol.name}()` : `${symbol.kind} ${symbol.name}`;
}

/** The identifiers on one side of a hunk; members (`b` of `a.b`) as `.b`, apart from the variable `b`. */
const namesOf = (side: FileSide, range: SideRange) =>
  new Set(
    side
      .tokensIn(range.first, range.count)
      .filter((token) => token.isName)
      .map(nameKey),
  );
const plain = (names: Iterable<string>) => new Set([...names].map((name) => name.replace(/^\./, '')));
const rowsOf = (source: string | null, range: SideRange) =>
  (source ?? '')
    .split('\n')
    .slice(range.first - 1, range.first - 1 + range.count)
    .join('\n');
const inside = (side: FileSide, range: SideRange) =>
  side.symbols.filter(
    (symbol) => range.count > 0 && symbol.start >= range.first && symbol.end <= range.first + range.count - 1,
  );

async function hunksOf(change: ProposedFileChange): Promise<Hunk[]> {
  const before = change.before === null ? ABSENT : await parseSource(change.path, change.before);
  const after = change.after === null ? ABSENT : await parseSource(change.path, change.after);
  try {
    return hunksOfParsed(change, before, after);
  } finally {
    before.close();
    after.close();
  }
}

function hunksOfParsed(change: ProposedFileChange, before: FileSide, after: FileSide): Hunk[] {
  const ranges: [SideRange, SideRange][] =
    change.before === null || change.after === null
      ? [
          [
            { first: 1, count: before.lines },
            { first: 1, count: after.lines },
          ],
        ]
      : diffBlocks(change.before, change.after).map((block) => [
          { first: block.oldFirst, count: block.oldCount },
          { first: block.newFirst, count: block.newCount },
        ]);
  return ranges.map(([oldRange, newRange]) => {
    const kind: Hunk['kind'] =
      change.before === null
        ? { kind: 'create' }
        : change.after === null
          ? { kind: 'remove' }
          : hunkKind(before, after, oldRange, newRange);
    const oldAround = symbolsAround(before, oldRange);
    const newAround = symbolsAround(after, newRange);
    const changedSide =
      oldRange.count > 0
        ? { side: before, range: oldRange, around: oldAround }
        : { side: after, range: newRange, around: newAround };
    // A comment block just above a definition documents it, even inside an enclosing one.
    const documented = kind.kind === 'comment' ? definitionBelow(changedSide.side, changedSide.range) : null;
    const symbol = documented ?? changedSide.around[0] ?? null;
    // Both sides hold lines: the new side may sit in a renamed or a new definition.
    const otherSymbol = !documented && oldRange.count > 0 && newRange.count > 0 ? (newAround[0] ?? null) : null;
    const home = documented
      ? isFunction(documented)
        ? documented
        : null
      : (oldAround.find(isFunction) ?? newAround.find(isFunction) ?? null);
    return {
      path: change.path,
      oldRange,
      newRange,
      kind,
      symbol,
      documents: documented !== null,
      otherSymbol: otherSymbol && otherSymbol.name !== symbol?.name ? otherSymbol : null,
      home: home ? `${change.path}#${home.name}` : null,
      comment:
        kind.kind === 'comment' || kind.kind === 'layout'
          ? commentKey(change.path, enclosingComment(before, oldRange))
          : null,
      oldNames: namesOf(before, oldRange),
      newNames: namesOf(after, newRange),
      definitions:
        kind.kind === 'deletion' ? kind.definitions : [...inside(before, oldRange), ...inside(after, newRange)],
      oldText: rowsOf(change.before, oldRange),
      newText: rowsOf(change.after, newRange),
      verdict: null,
    };
  });
}

const commentKey = (file: string, line: number | null) => (line === null ? null : `${file}#comment@${line}`);
const stem = (file: string) => path.posix.basename(file).replace(/\.[^.]*$/, '');
const where = (hunk: Hunk) => `${hunk.path}:${hunk.newRange.count > 0 ? hunk.newRange.first : hunk.oldRange.first}`;
const overlap = (names: Iterable<string>, others: ReadonlySet<string>) =>
  [...names].find((name) => others.has(name)) ?? null;
const wordIn = (word: string, text: string) =>
  new RegExp(`(^|[^\\w$])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w$])`).test(text);

/** What the hunk does, in a few words: the start of every reason. */
function describe(hunk: Hunk): string {
  const at = hunk.symbol ? ` in ${label(hunk.symbol)}` : ` in ${hunk.path}`;
  switch (hunk.kind.kind) {
    case 'create':
      return `creates ${hunk.path}`;
    case 'remove':
      return `deletes ${hunk.path}`;
    case 'rename':
      return `renames ${hunk.kind.pairs.map(([old, renamed]) => `'${old}' to '${renamed}'`).join(', ')}${at}`;
    case 'deletion':
      return `deletes ${hunk.kind.definitions.map((symbol) => `${symbol.kind} '${symbol.name}'`).join(', ')}`;
    case 'comment': {
      const docstring = hunk.symbol && !hunk.documents && /^\s*[rRuU]?("""|''')/m.test(hunk.oldText + hunk.newText);
      const target = !hunk.symbol
        ? ` in ${hunk.path}`
        : docstring
          ? ` of ${label(hunk.symbol)}`
          : hunk.documents
            ? ` above ${label(hunk.symbol)}`
            : at;
      const what = docstring ? 'the docstring' : 'comments';
      if (hunk.newRange.count === 0) return `deletes ${what}${target}`;
      return hunk.oldRange.count === 0 ? `adds ${what}${target}` : `changes only ${what}${target}`;
    }
    case 'layout':
      return `changes only blank lines or indentation${at}`;
    case 'code': {
      const verb = hunk.oldRange.count === 0 ? 'adds' : hunk.newRange.count === 0 ? 'deletes' : 'changes';
      const whole = hunk.oldRange.count === 0 && hunk.definitions.length > 0 ? hunk.definitions : null;
      return whole
        ? `adds ${whole.map((symbol) => `${symbol.kind} '${symbol.name}'`).join(', ')}`
        : `${verb} code${at}`;
    }
    default:
      return hunk.kind satisfies never;
  }
}

/** The names whose mention in the evidence puts the hunk on target, by kind. */
function namesToCheck(hunk: Hunk): string[] {
  const own = [hunk.symbol, hunk.otherSymbol].flatMap((symbol) => (symbol ? [symbol.name] : []));
  switch (hunk.kind.kind) {
    case 'deletion':
      return hunk.kind.definitions.map((symbol) => symbol.name);
    case 'create':
    case 'remove':
      // Not its definitions: a stray copy of the file being fixed defines the very names the task uses.
      return [stem(hunk.path)];
    default:
      return [...own, ...hunk.definitions.map((symbol) => symbol.name)];
  }
}

/** First pass: on target unless the hunk is in doubt (unnamed file, or a rare kind) and the evidence names nothing it touches. */
function firstVerdict(hunk: Hunk, evidence: EvidenceIndex): Hunk['verdict'] {
  const kind = hunk.kind.kind;
  const fileNamed = namesFile(evidence, hunk.path);
  const rare = kind === 'rename' || kind === 'comment' || kind === 'deletion';
  const fileDoubted =
    kind === 'create' || kind === 'remove' ? fileNamed === null : evidence.hasFiles && fileNamed === null;
  const what = describe(hunk);
  if (!fileDoubted && !rare)
    return {
      onTarget: true,
      reason: fileNamed ? `${what}, a file the task names` : `${what} (no files were named to check it against)`,
    };
  if (hunk.kind.kind === 'rename' && namesRename(evidence, hunk.kind.pairs))
    return { onTarget: true, reason: `${what}, as the task asks` };
  if (kind === 'comment') {
    // A task about comments is not a task about the file's licence: a header's notice stays unless named.
    if (evidence.aboutDocs && !dropsLicenceNotice(hunk, evidence))
      return { onTarget: true, reason: `${what}; the task is about documentation, comments or style` };
  }
  if (kind === 'comment' && hunk.oldRange.count > 0 && hunk.newRange.count > 0) {
    // An edited comment that gains or loses a word the task uses ("pragma") is about the task. Not a
    // deleted one: a whole docstring always shares some word with the task.
    const before = meaningfulWords(hunk.oldText);
    const after = meaningfulWords(hunk.newText);
    const changed = [...after]
      .filter((word) => !before.has(word))
      .concat([...before].filter((word) => !after.has(word)));
    const mentioned = changed.find((word) => evidence.words.has(word));
    if (mentioned)
      return { onTarget: true, reason: `${what}; the comment change mentions '${mentioned}', as the task does` };
  }
  // A deleted comment is never waved through by the name it documents: failing output that uses `res.status`
  // does not ask for the doc of `res.status` to go. Only the task's own words, or a change beside it, keep it.
  const deletesComment = kind === 'comment' && hunk.newRange.count === 0;
  const named = deletesComment ? undefined : namesToCheck(hunk).find((name) => namesIdentifier(evidence, name));
  if (named) return { onTarget: true, reason: `${what}; the task names ${named.split('.').pop()}` };
  // New tests for the change are welcome anywhere; changing or deleting existing ones is not waved through.
  if (isTestPath(hunk.path) && (kind === 'create' || (kind === 'code' && hunk.oldRange.count === 0)))
    return { onTarget: true, reason: `${what}, a test file` };
  return null;
}

const LICENCE_WORDS = /\b(?:copyright|licen[cs]ed?|SPDX-License-Identifier)\b|\(c\)|©/gi;
const licenceMentions = (text: string) => text.match(LICENCE_WORDS)?.length ?? 0;

/** The hunk takes away words of a copyright or licence notice that nothing in the task mentions. */
function dropsLicenceNotice(hunk: Hunk, evidence: EvidenceIndex): boolean {
  return licenceMentions(hunk.newText) < licenceMentions(hunk.oldText) && licenceMentions(evidence.text) === 0;
}

/** Whether a doubted hunk serves an on-target one: same function, or names one adds and the other uses (or one removes and the other stopped using). */
function servedBy(hunk: Hunk, target: Hunk, evidence: EvidenceIndex): string | null {
  if (
    hunk.home !== null &&
    hunk.home === target.home &&
    (evidence.aboutRefactor || !deletesUnrelatedComment(hunk, target))
  )
    return `in the same function as the change at ${where(target)}`;
  // An upstream doc edit rewords one sentence for the fix and touches up the rest of the same comment.
  if (hunk.comment !== null && hunk.comment === target.comment)
    return `in the same comment as the change at ${where(target)}`;
  const kind = hunk.kind.kind;
  const targetNames = new Set([...target.oldNames, ...target.newNames]);
  const uses = (name: string | null) =>
    name ? `'${name.replace(/^\./, '')}' is used by the change at ${where(target)}` : null;
  if (kind === 'rename' && hunk.kind.kind === 'rename') {
    // Switching to a name the change introduces (a new type, a new helper) is part of it.
    const introduced = overlap(
      hunk.kind.pairs.map(([, renamed]) => renamed),
      new Set([...plain(target.newNames)].filter((name) => !plain(target.oldNames).has(name))),
    );
    if (introduced) return `'${introduced}' is what the change at ${where(target)} introduces`;
    // A name local to a function is used in that function only (the same-function rule above).
    return hunk.home === null && hunk.path === target.path
      ? uses(overlap(hunk.kind.pairs.flat(), plain(targetNames)))
      : null;
  }
  if (kind === 'deletion' && hunk.kind.kind === 'deletion') {
    // A method is called as a member (`this.status()`), a function by its name: `status` the local is neither.
    const called = hunk.kind.definitions.map((symbol) =>
      symbol.name.includes('.') ? `.${symbol.name.split('.').pop() ?? ''}` : symbol.name,
    );
    return uses(overlap(called, targetNames));
  }
  if (kind === 'create' || kind === 'remove') {
    const text = kind === 'create' ? target.newText : target.oldText;
    const module = stem(hunk.path);
    if (module.length >= 2 && wordIn(module, text))
      return `${hunk.path} is ${kind === 'create' ? 'imported' : 'no longer imported'} by the change at ${where(target)}`;
    return uses(
      overlap(
        hunk.definitions.map((symbol) => symbol.name),
        plain(kind === 'create' ? target.newNames : target.oldNames),
      ),
    );
  }
  if (kind === 'code' || kind === 'layout') {
    const added = [...hunk.newNames].filter((name) => !hunk.oldNames.has(name));
    const removed = [...hunk.oldNames].filter((name) => !hunk.newNames.has(name));
    return uses(overlap(added, target.newNames) ?? overlap(removed, target.oldNames));
  }
  return null;
}

/**
 * A deleted comment beside a fix is the fix's when it speaks of what the fix changes (a TODO the fix
 * settles shares its words); one that shares no word with the changed lines explains other code —
 * unless the task reshapes the function (a refactor takes its stale comments with it).
 */
function deletesUnrelatedComment(hunk: Hunk, target: Hunk): boolean {
  if (hunk.kind.kind !== 'comment' || hunk.newRange.count > 0) return false;
  const changed = meaningfulWords(`${target.oldText}\n${target.newText}`);
  return ![...meaningfulWords(hunk.oldText)].some((word) => changed.has(word));
}

/**
 * A comment a tool reads (a linter, a type checker, coverage): changing it can change what a test command
 * reports. Whole words: a licence header's "Copyright" is not a pyright directive.
 */
const TOOL_DIRECTIVE =
  /\b(?:eslint|noqa|pragma|istanbul|pylint|nolint|mypy|flake8|pyright|rubocop|coverage|doctest)\b|\btype:\s|\bgo:\w|c8 ignore|@ts-|prettier-ignore|#\[|>>>/i;

function unrelatedReason(hunk: Hunk, evidence: EvidenceIndex): string {
  const what = describe(hunk);
  const fileNamed = namesFile(evidence, hunk.path) !== null;
  if (hunk.kind.kind === 'create' || hunk.kind.kind === 'remove')
    return `${what}, which nothing in the task names and no other change ${hunk.kind.kind === 'create' ? 'imports' : 'stopped importing'}`;
  if (!fileNamed && evidence.hasFiles) return `${what}, a file nothing in the task names`;
  if (hunk.kind.kind === 'deletion') return `${what}, which nothing in the task names or uses`;
  if (
    hunk.kind.kind === 'comment' &&
    hunk.newRange.count === 0 &&
    namesToCheck(hunk).some((name) => namesIdentifier(evidence, name))
  )
    return `${what}: the task uses that code but does not ask to remove its documentation`;
  return `${what}, which nothing in the task names`;
}

/**
 * Classes each hunk of a proposed change as on target (it touches what the plan, the failing tests or
 * the context named) or unrelated (docs/context.md, "Scope of a change"). A hunk is unrelated only when
 * it is in doubt (a file the evidence does not name, or a rename, comment-only change or deletion of a
 * whole definition), nothing it touches is named, and no on-target hunk depends on it.
 */
export async function classifyHunks(changes: ProposedFileChange[], evidence: ScopeEvidence): Promise<HunkScope[]> {
  const checkedEvidence = ScopeEvidenceSchema.safeParse(evidence);
  if (!checkedEvidence.success) {
    const issue = checkedEvidence.error.issues[0];
    throw new LatheError(
      'INVALID_PAYLOAD',
      `scope evidence: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`,
    );
  }
  const seen = new Set<string>();
  for (const [index, change] of changes.entries()) {
    const checked = ProposedFileChangeSchema.safeParse(change);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const field = issue?.path.length ? `${issue.path.join('.')}: ` : '';
      throw new LatheError(
        'INVALID_PAYLOAD',
        `change #${index + 1}${typeof change?.path === 'string' ? ` (${change.path})` : ''}: ${field}${issue?.message ?? 'invalid'}`,
        { index },
      );
    }
    if (seen.has(change.path))
      throw new LatheError(
        'INVALID_PAYLOAD',
        `${change.path} appears twice in one change: pass each file once, with its text before and after`,
        { path: change.path },
      );
    seen.add(change.path);
  }
  const index = indexEvidence(checkedEvidence.data);
  const hunks = (await Promise.all(changes.map(hunksOf))).flat();
  for (const hunk of hunks) hunk.verdict = firstVerdict(hunk, index);
  // Dependencies chain (a helper kept for a kept helper), so decide until nothing moves.
  for (let moved = true; moved;) {
    moved = false;
    for (const hunk of hunks) {
      if (hunk.verdict) continue;
      for (const target of hunks) {
        const served = target.verdict?.onTarget ? servedBy(hunk, target, index) : null;
        if (!served) continue;
        hunk.verdict = { onTarget: true, reason: `${describe(hunk)}; ${served}` };
        moved = true;
        break;
      }
    }
  }
  return hunks.map((hunk) => ({
    path: hunk.path,
    oldStart: hunk.oldRange.count === 0 ? hunk.oldRange.first - 1 : hunk.oldRange.first,
    oldLines: hunk.oldRange.count,
    newStart: hunk.newRange.count === 0 ? hunk.newRange.first - 1 : hunk.newRange.first,
    newLines: hunk.newRange.count,
    onTarget: hunk.verdict?.onTarget ?? false,
    reason: hunk.verdict?.reason ?? unrelatedReason(hunk, index),
    symbol: hunk.symbol?.name ?? null,
    changesCode:
      (hunk.kind.kind !== 'comment' && hunk.kind.kind !== 'layout') ||
      TOOL_DIRECTIVE.test(`${hunk.oldText}\n${hunk.newText}`),
  }));
}

function lineSpan(start: number, count: number): string {
  return count === 1 ? `line ${start}` : `lines ${start}-${start + count - 1}`;
}

/**
 * What a writer is told when its change holds unrelated hunks (null when it holds none): each hunk by
 * file and lines, why it is unrelated, and what to do, so a small model can act on it.
 */
export function unrelatedFeedback(hunks: readonly HunkScope[]): string | null {
  const unrelated = hunks.filter((hunk) => !hunk.onTarget);
  if (unrelated.length === 0) return null;
  const rows = unrelated.map((hunk) => {
    // Both sides: the writer reads its own answer (new lines), a reviewer the file as it was (old lines).
    const where =
      hunk.newLines === 0
        ? `${hunk.path} (the deleted original ${lineSpan(hunk.oldStart, hunk.oldLines)})`
        : hunk.oldLines === 0
          ? `${hunk.path} ${lineSpan(hunk.newStart, hunk.newLines)} (added after original line ${hunk.oldStart})`
          : `${hunk.path} ${lineSpan(hunk.newStart, hunk.newLines)} (original ${lineSpan(hunk.oldStart, hunk.oldLines)})`;
    return `- ${where}: ${hunk.reason}`;
  });
  return [
    `Your change also edits code the task does not ask for (${unrelated.length} of ${hunks.length} ${hunks.length === 1 ? 'hunk' : 'hunks'}). Put these lines back exactly as they were and keep the rest of your change:`,
    ...rows,
  ].join('\n');
}
