import type { ChatMessage, ContextItem } from '../types';
import { splitLines } from './applyGold';
import type { PatchLine } from './goldPatch';
import { wholeView, type VisibleFile, type VisibleSegment } from './visibleFile';

const INPUT_PREFIX = 'Input:\n';
const TRUNCATION_MARK = '\n… (truncated)';
const FENCE_END = '\n```\n';

/**
 * The input object of an agent call, as the agents layer writes it: the first user message ends with
 * `Input:` and the pretty-printed JSON (after the context, when there is one; an older layout began
 * with it), whose first line-start `}` is its last (strings never hold raw newlines). Null when the
 * message is not shaped that way.
 */
export function requestInput(messages: readonly ChatMessage[]): Record<string, unknown> | null {
  const user = messages.find((message) => message.role === 'user')?.content ?? '';
  // The input is the message's last part: a file shown before it may hold the header's words.
  const at = user.startsWith(INPUT_PREFIX) ? 0 : user.lastIndexOf(`\n${INPUT_PREFIX}{`) + 1;
  if (at === 0 && !user.startsWith(INPUT_PREFIX)) return null;
  const body = user.slice(at + INPUT_PREFIX.length);
  const end = body.startsWith('{}') ? 2 : body.indexOf('\n}') + 2;
  if (end < 2) return null;
  try {
    const value: unknown = JSON.parse(body.slice(0, end));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return null;
  }
}

/** `file:<path>`: the whole file in a fence under `### <path>`, or its first part, marked at the end. */
function fileView(filePath: string, text: string): VisibleFile | null {
  const head = `### ${filePath}\n\`\`\`\n`;
  if (!text.startsWith(head) || !text.endsWith(FENCE_END) || text.length < head.length + FENCE_END.length) return null;
  const body = text.slice(head.length, text.length - FENCE_END.length);
  if (!body.endsWith(TRUNCATION_MARK)) return wholeView(body);
  const shown = body.slice(0, -TRUNCATION_MARK.length);
  return {
    whole: false,
    segments: [{ start: 0, lines: splitLines(shown) }],
    how: `cut after ${shown.length} characters`,
  };
}

/**
 * `excerpt:<path>`: runs of lines under `### <path> (excerpt: lines 10-40, 80-120 of 500)`, joined by a
 * `…` line. Rows are the file split at `\n`, so each gets its `\n` back, except the last row of the file
 * (empty when the file ends with a newline, else a last line without one).
 */
function excerptView(filePath: string, text: string): VisibleFile | null {
  const header = new RegExp(
    `^### ${filePath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(excerpt: lines ([0-9, -]+) of (\\d+)\\)\\n\`\`\`\\n`,
  ).exec(text);
  if (!header || !text.endsWith(FENCE_END)) return null;
  const total = Number(header[2]);
  const ranges = (header[1] ?? '')
    .split(', ')
    .map((range) => range.split('-').map(Number))
    .map(([start, end]) => [start ?? 0, end ?? start ?? 0] as const);
  const parts = text.slice(header[0].length, text.length - FENCE_END.length).split('\n…\n');
  if (parts.length !== ranges.length) return null;
  const segments: VisibleSegment[] = [];
  for (const [index, [start, end]] of ranges.entries()) {
    const rows = (parts[index] ?? '').split('\n');
    if (rows.length !== end - start + 1) return null;
    const lines: PatchLine[] = rows.flatMap((row, offset) =>
      start + offset < total ? [`${row}\n`] : row === '' ? [] : [row],
    );
    segments.push({ start: start - 1, lines });
  }
  return { whole: false, segments, how: `an excerpt of lines ${header[1]} of ${total}` };
}

/**
 * The files a context shows, read back from the items the agents layer makes (`file:<path>` whole or
 * cut, `excerpt:<path>`); other items (notes, the repository map) are not file views.
 */
export function visibleFiles(items: readonly ContextItem[]): Map<string, VisibleFile> {
  const files = new Map<string, VisibleFile>();
  for (const item of items) {
    const [kind, ...rest] = item.id.split(':');
    const filePath = rest.join(':');
    const view =
      kind === 'file' ? fileView(filePath, item.text) : kind === 'excerpt' ? excerptView(filePath, item.text) : null;
    // A whole copy beats an excerpt of the same file, whichever comes first.
    if (view && !files.get(filePath)?.whole) files.set(filePath, view);
  }
  return files;
}
