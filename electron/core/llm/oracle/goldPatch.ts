import fs from 'node:fs';
import { parsePatch, type StructuredPatch, type StructuredPatchHunk } from 'diff';

/** One line of a hunk side, with its line ending as it is in the file (`\n`, `\r\n`, or none at EOF). */
export type PatchLine = string;

/** A hunk as the two runs of lines it replaces and writes, each line carrying its own ending. */
export interface GoldHunk {
  /** 0-based line index in the file before the change where `before` starts. */
  oldIndex: number;
  /** 0-based line index in the file after the change where `after` starts. */
  newIndex: number;
  before: PatchLine[];
  after: PatchLine[];
}

export type GoldFileKind = 'modify' | 'create' | 'delete';

/** One file of a gold patch. `path` is where the file lives after the fix (before it, for a deletion). */
export interface GoldFile {
  path: string;
  kind: GoldFileKind;
  hunks: GoldHunk[];
  /** This file's section of the patch text exactly as given (git header included), for unified-diff answers. */
  text: string;
}

export interface GoldPatch {
  files: GoldFile[];
}

export type GoldPatchResult = { ok: true; patch: GoldPatch } | { ok: false; message: string };

const DEV_NULL = '/dev/null';

function stripPrefix(name: string | undefined): string | null {
  const clean = (name ?? '').split('\t')[0]?.trim() ?? '';
  if (clean === '' || clean === DEV_NULL) return null;
  return /^[ab]\//.test(clean) ? clean.slice(2) : clean;
}

/** `diff --git` sections (or `--- ` sections for a plain diff), in order, as the patch text has them. */
function sectionTexts(text: string): string[] {
  const lines = text.split(/(?<=\n)/);
  const starts: number[] = [];
  const git = lines.some((line) => line.startsWith('diff --git '));
  lines.forEach((line, index) => {
    if (git ? line.startsWith('diff --git ') : line.startsWith('--- ') && lines[index + 1]?.startsWith('+++ '))
      starts.push(index);
  });
  return starts.map((start, index) => lines.slice(start, starts[index + 1] ?? lines.length).join(''));
}

/**
 * A hunk's lines with their endings: a line ends in `\n` unless a `\ No newline at end of file`
 * marker follows it. Carriage returns of CRLF files stay in the line text, as jsdiff parses them.
 */
function hunkSides(hunk: StructuredPatchHunk): { before: PatchLine[]; after: PatchLine[] } {
  const before: PatchLine[] = [];
  const after: PatchLine[] = [];
  hunk.lines.forEach((line, index) => {
    const marker = line[0];
    if (marker === '\\') return;
    const ending = hunk.lines[index + 1]?.startsWith('\\') ? '' : '\n';
    const text = line.slice(1) + ending;
    if (marker === ' ' || marker === '-') before.push(text);
    if (marker === ' ' || marker === '+') after.push(text);
  });
  return { before, after };
}

function goldFile(patch: StructuredPatch, text: string): GoldFile | string {
  if (patch.isBinary) return 'a binary change cannot be written by any edit format';
  if (patch.isRename || patch.isCopy) return 'renamed or copied files are not supported by the oracle';
  const oldPath = stripPrefix(patch.oldFileName);
  const newPath = stripPrefix(patch.newFileName);
  const path = newPath ?? oldPath;
  if (path === null) return 'a file section names no file';
  if (oldPath !== null && newPath !== null && oldPath !== newPath)
    return `${oldPath} → ${newPath}: renames are not supported by the oracle`;
  const kind: GoldFileKind = oldPath === null ? 'create' : newPath === null ? 'delete' : 'modify';
  const hunks = patch.hunks.map((hunk) => {
    const sides = hunkSides(hunk);
    // jsdiff reports an empty side's start as the line it comes before (`-0,0` becomes 1), so one rule fits all.
    return { oldIndex: Math.max(0, hunk.oldStart - 1), newIndex: Math.max(0, hunk.newStart - 1), ...sides };
  });
  return { path, kind, hunks, text };
}

/** Parses a gold patch (`git diff` output, or any unified diff); every problem is named, never thrown. */
export function parseGoldPatch(text: string, source = 'the gold patch'): GoldPatchResult {
  let parsed: StructuredPatch[];
  try {
    parsed = parsePatch(text).filter((patch) => patch.oldFileName || patch.newFileName || patch.hunks.length > 0);
  } catch (error) {
    return {
      ok: false,
      message: `${source} is not a unified diff: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (parsed.length === 0) return { ok: false, message: `${source} changes no file` };
  const sections = sectionTexts(text);
  const files: GoldFile[] = [];
  for (const [index, patch] of parsed.entries()) {
    const file = goldFile(patch, sections[index] ?? '');
    if (typeof file === 'string') return { ok: false, message: `${source}: ${file}` };
    if (files.some((other) => other.path === file.path))
      return { ok: false, message: `${source} changes ${file.path} twice` };
    if (file.kind === 'modify' && file.hunks.length === 0) continue;
    files.push(file);
  }
  if (files.length === 0) return { ok: false, message: `${source} changes no file` };
  return { ok: true, patch: { files } };
}

/** Reads and parses a gold patch file; a missing or unreadable file is a named failure. */
export async function loadGoldPatch(filePath: string): Promise<GoldPatchResult> {
  let text: string;
  try {
    text = await fs.promises.readFile(filePath, 'utf8');
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : String(error);
    return { ok: false, message: `cannot read the oracle's gold patch ${filePath} (${code})` };
  }
  return parseGoldPatch(text, `gold patch ${filePath}`);
}
