import type { PatchLine } from '../goldPatch';
import { indentOf, isBlank } from './spoil';

/**
 * Functions, tests, docstrings and comment blocks found in a run of lines by their shape (indentation
 * and braces), for Python and JavaScript/TypeScript: enough to pick a realistic place for a fault, not
 * a parser. Spans are 0-based, half-open, in the run's lines.
 */
export interface CodeSpan {
  name: string;
  start: number;
  end: number;
  /** The line the definition (or the test call) is on; `start` may be earlier (decorators). */
  head: number;
  /** A JavaScript test's enclosing `describe` titles, outermost first. */
  suites?: string[];
}

export const isPython = (path: string): boolean => /\.pyi?$/i.test(path);

const JS_FUNCTION = [
  /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\b\s*\*?\s*([\w$]+)\s*\(/,
  /^\s*(?:export\s+)?(?:const|let|var)\s+([\w$]+)\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[\w$]+\s*=>)/,
  /^\s*[\w$.]*?([\w$]+)\s*=\s*(?:async\s+)?function\b/,
  /^\s*(?:static\s+|async\s+|get\s+|set\s+)*(?!if\b|for\b|while\b|switch\b|catch\b|function\b|return\b)([\w$]+)\s*\([^)]*\)\s*\{\s*$/,
];
/** A test call, titled by a string or an expression (`test(JSON.stringify(t.base) + …, () => {`). */
const JS_TEST = /^\s*(?:it|test)(?:\.only)?\(\s*(.+?)\s*,\s*(?:async\s*)?(?:function\b|\(|[\w$]+\s*=>)/;
const JS_SUITE = /^\s*(?:describe|suite)(?:\.only)?\(\s*(['"`])((?:(?!\1).)*)\1/;
const unquoted = (title: string) => /^(['"`])(.*)\1$/.exec(title)?.[2] ?? title;
const PY_DEF = /^\s*(?:async\s+)?def\s+(\w+)\s*\(/;

/** Where a Python block opened at `head` ends: the next line of code indented no deeper than it. */
function pythonEnd(lines: readonly PatchLine[], head: number): number {
  const depth = indentOf(lines[head] ?? '').length;
  let end = head + 1;
  for (let at = head + 1; at < lines.length; at++) {
    const line = lines[at] ?? '';
    if (isBlank(line)) continue;
    if (indentOf(line).length <= depth && !/^\s*[)\]]/.test(line)) break;
    end = at + 1;
  }
  return end;
}

/** Where a JavaScript block opened at `head` ends: the closing brace at its own indentation (null: not shown). */
function jsEnd(lines: readonly PatchLine[], head: number): number | null {
  const open = lines[head] ?? '';
  const balance = [...open].reduce((sum, char) => sum + (char === '{' ? 1 : char === '}' ? -1 : 0), 0);
  if (balance <= 0 && open.includes('{')) return head + 1;
  const depth = indentOf(open).length;
  for (let at = head + 1; at < lines.length; at++) {
    const line = lines[at] ?? '';
    if (!isBlank(line) && indentOf(line).length === depth && line.trim().startsWith('}')) return at + 1;
    if (!isBlank(line) && indentOf(line).length < depth) return null;
  }
  return null;
}

export function functionsIn(path: string, lines: readonly PatchLine[]): CodeSpan[] {
  const spans: CodeSpan[] = [];
  lines.forEach((line, head) => {
    if (isPython(path)) {
      const match = PY_DEF.exec(line);
      if (!match) return;
      let start = head;
      while (
        start > 0 &&
        (lines[start - 1] ?? '').trim().startsWith('@') &&
        indentOf(lines[start - 1] ?? '') === indentOf(line)
      )
        start--;
      spans.push({ name: match[1] ?? '', start, end: pythonEnd(lines, head), head });
      return;
    }
    const name = JS_FUNCTION.map((pattern) => pattern.exec(line)?.[1]).find((found) => found !== undefined);
    const end = name === undefined ? null : jsEnd(lines, head);
    if (name !== undefined && end !== null && end > head + 1) spans.push({ name, start: head, end, head });
  });
  return spans;
}

/** Test functions (Python `test_*`) and test calls (`it(…)`/`test(…)`, named by their title). */
export function testsIn(path: string, lines: readonly PatchLine[]): CodeSpan[] {
  if (isPython(path)) return functionsIn(path, lines).filter((span) => span.name.startsWith('test'));
  const suites = lines.flatMap((line, head) => {
    const match = JS_SUITE.exec(line);
    const end = match ? jsEnd(lines, head) : null;
    return match && end !== null ? [{ name: match[2] ?? '', start: head, end }] : [];
  });
  return lines.flatMap((line, head) => {
    const match = JS_TEST.exec(line);
    const end = match ? jsEnd(lines, head) : null;
    if (!match || end === null) return [];
    const suite = suites.filter((entry) => entry.start < head && entry.end >= end).map((entry) => entry.name);
    return [{ name: unquoted(match[1] ?? ''), start: head, end, head, suites: suite }];
  });
}

/** Where a Python function's signature ends (the line with its closing `):`). */
function signatureEnd(lines: readonly PatchLine[], head: number, end: number): number {
  for (let at = head; at < end; at++) if (/:\s*(#.*)?$/.test((lines[at] ?? '').trimEnd())) return at;
  return head;
}

/** A Python function's docstring, when it has one and other statements after it (so deleting it keeps valid code). */
export function docstringOf(lines: readonly PatchLine[], fn: CodeSpan): { start: number; end: number } | null {
  const first = signatureEnd(lines, fn.head, fn.end) + 1;
  const opening = /^\s*[rRuU]?("""|''')/.exec(lines[first] ?? '');
  if (!opening) return null;
  const quote = opening[1] ?? '"""';
  const rest = (lines[first] ?? '').trim().slice(opening[0].trim().length);
  let end = first + 1;
  if (!rest.includes(quote)) {
    while (end < fn.end && !(lines[end] ?? '').includes(quote)) end++;
    end++;
  }
  const hasBody = lines.slice(end, fn.end).some((line) => !isBlank(line) && !line.trim().startsWith('#'));
  return end <= fn.end && hasBody ? { start: first, end } : null;
}

/** Runs of two or more whole-line comments, and `/** … *\/` blocks. */
export function commentBlocks(path: string, lines: readonly PatchLine[]): { start: number; end: number }[] {
  const blocks: { start: number; end: number }[] = [];
  const leader = isPython(path) ? '#' : '//';
  for (let at = 0; at < lines.length; at++) {
    const trimmed = (lines[at] ?? '').trim();
    if (!isPython(path) && trimmed.startsWith('/*')) {
      let end = at;
      while (end < lines.length && !(lines[end] ?? '').includes('*/')) end++;
      if (end < lines.length && end > at) blocks.push({ start: at, end: end + 1 });
      at = end;
    } else if (trimmed.startsWith(leader) && !trimmed.startsWith('#!')) {
      let end = at;
      while (end < lines.length && (lines[end] ?? '').trim().startsWith(leader)) end++;
      if (end - at >= 2) blocks.push({ start: at, end });
      at = end - 1;
    }
  }
  return blocks;
}
